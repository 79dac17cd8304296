// Vectors: node libs/chains/src/spokes/vectors/icon.generate.mjs > libs/chains/src/spokes/vectors/icon.json
// (@sodax/sdk's own IconSpokeService.deposit / call and encodeAddress for fixed inputs).
import { Converter, SignedTransaction, Validator, Wallet } from 'icon-sdk-js';
import { fromRlp, type Hex } from 'viem';
import { createServer, type Server } from 'node:http';
import type { ChainInfo } from '../chain-directory';
import { ICON } from './icon';
import { ICON_WICX } from './icon-adapter';
import vectors from './vectors/icon.json';

const chain: ChainInfo = {
  key: '0x1.icon',
  name: 'ICON',
  type: 'ICON',
  chainId: '0x1.icon',
  relayChainId: '1768124270',
  hub: false,
  assetManager: vectors.config.assetManager,
  connection: vectors.config.connection,
  aliases: [],
};

type Raw = Record<string, unknown> & { data: { method: string; params: Record<string, string> } };

/** The params a wallet signs, as icon-sdk-js reads them back; the timestamp is the build's own moment. */
function unsigned(data: string): { raw: Raw; timestamp: number } {
  const raw = JSON.parse(data) as Raw;
  expect(Validator.checkTxData(raw)).toBeTruthy();
  return { raw: { ...raw, timestamp: undefined }, timestamp: Converter.toNumber(raw.timestamp as string) };
}

describe('ICON addresses', () => {
  it.each(vectors.addresses)('$address travels as the public client encodes it', ({ address, bytes }) => {
    expect(ICON.addressBytes(address)).toBe(bytes);
    expect(ICON.addressOfBytes(bytes as Hex)).toBe(address);
  });

  it('reads bytes of no ICON address as none', () => {
    expect(ICON.addressOfBytes('0x02e5cdf3b0f26967b0efc72d470d57bbf534268f94')).toBeUndefined();
    expect(ICON.addressOfBytes('0x00e5cdf3b0f26967b0efc72d470d57bbf534268f')).toBeUndefined();
    expect(ICON.addressOfBytes(`0x${'11'.repeat(20)}`)).toBeUndefined();
  });

  it('bounds amounts as the public client does (uint256) and deposits the data itself', () => {
    expect(ICON.maxAmount).toBe(2n ** 256n - 1n);
    expect(ICON.depositCarriesDataHash).toBe(false);
  });
});

/**
 * The one read a build makes, debug_estimateStep, answered as an ICON node does: "method
 * not found" where the node has no debug API, else a step count. (The full RPC double
 * lives with the devnet, tools/devnet/src/icon-rpc-double.ts, which a lib may not import.)
 */
function estimateStub(): { server: Server; steps: bigint; debugApi: boolean; url: () => string } {
  const stub = {
    steps: 150_000n,
    debugApi: false,
    url: () => `http://127.0.0.1:${(stub.server.address() as { port: number }).port}/api/v3`,
    server: createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const call = JSON.parse(body) as { id: number; method: string };
        const found = call.method === 'debug_estimateStep' && stub.debugApi && req.url === '/api/v3d';
        res.writeHead(found ? 200 : 400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            found
              ? { jsonrpc: '2.0', id: call.id, result: `0x${stub.steps.toString(16)}` }
              : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'MethodNotFound' } },
          ),
        );
      });
    }),
  };
  return stub;
}

describe('ICON transactions against the public client', () => {
  const double = estimateStub();
  let adapter: ReturnType<typeof ICON.createAdapter>;

  beforeAll(async () => {
    await new Promise<void>((resolve) => double.server.listen(0, '127.0.0.1', resolve));
    adapter = ICON.createAdapter({ ...chain, rpcUrls: [double.url()] }, { timeoutMs: 2_000 });
  });
  afterAll(async () => {
    double.server.closeAllConnections();
    await new Promise((resolve) => double.server.close(resolve));
  });
  beforeEach(() => {
    // without a debug API the step limit is the public client's fixed one, so whole transactions compare
    double.debugApi = false;
  });

  it('takes wICX from the public client config', () => {
    expect(ICON_WICX).toBe(vectors.config.wICX);
  });

  it.each(vectors.deposit.transactions)('deposits $symbol as the public client does', async ({ token, raw: expected }) => {
    const before = Date.now() * 1000;
    const tx = await adapter.buildDeposit({
      user: vectors.deposit.user,
      token,
      to: vectors.deposit.to as Hex,
      amount: BigInt(vectors.deposit.amount),
      data: vectors.deposit.data as Hex,
    });
    const { raw, timestamp } = unsigned(tx.data);
    expect(raw).toEqual({ ...expected, timestamp: undefined });
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(tx).toMatchObject({ from: vectors.deposit.user, to: expected.to, encoding: 'json' });

    // each argument, decoded as the asset manager reads it
    expect(raw.data.method).toBe('transfer');
    expect(raw.data.params._to).toBe(vectors.config.assetManager);
    expect(BigInt(raw.data.params._value)).toBe(BigInt(vectors.deposit.amount));
    expect(fromRlp(raw.data.params._data as Hex, 'hex')).toEqual([vectors.deposit.data, vectors.deposit.to]);
    expect(BigInt(raw.value as string)).toBe(token === vectors.config.nativeToken ? BigInt(vectors.deposit.amount) : 0n);
    expect(raw.to).toBe(token === vectors.config.nativeToken ? vectors.config.wICX : token);
  });

  it('sends a message as the public client does', async () => {
    const { user, dstChainId, dstAddress, payload, transaction: expected } = vectors.message;
    const tx = await adapter.buildMessage({ user, dstChainId: BigInt(dstChainId), dstAddress: dstAddress as Hex, payload: payload as Hex });
    const { raw } = unsigned(tx.data);
    expect(raw).toEqual({ ...expected, timestamp: undefined });
    expect(raw).toEqual({ ...vectors.message.callWallet, timestamp: undefined });
    expect(raw.data).toEqual({ method: 'sendMessage', params: { dstChainId: '146', dstAddress, payload } });
    expect(tx).toMatchObject({ from: user, to: vectors.config.connection, encoding: 'json' });
  });

  it('signs as a wallet would, with the step limit the node estimates', async () => {
    double.debugApi = true;
    const tx = await adapter.buildMessage({
      user: vectors.message.user,
      dstChainId: 146n,
      dstAddress: vectors.message.dstAddress as Hex,
      payload: vectors.message.payload as Hex,
    });
    const raw = JSON.parse(tx.data) as Record<string, string>;
    expect(BigInt(raw.stepLimit)).toBe(double.steps + double.steps / 10n);
    const signed = new SignedTransaction(raw as never, Wallet.create()).getProperties();
    expect(signed).toEqual({ ...raw, signature: expect.any(String) });
  });
});
