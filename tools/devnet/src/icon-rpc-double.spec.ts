import { loadChainDirectory, spokeNetworkOf, type ChainInfo, type SpokeAdapter } from '@swap/chains';
import { AppError, ErrorCode } from '@swap/contracts';
import { Converter, IconService, SignedTransaction, Validator, Wallet } from 'icon-sdk-js';
import { fromRlp, type Hex } from 'viem';
import { IconRpcDouble } from './icon-rpc-double';

const USER = 'hx4873b94352c8c1f3b2f09aaeccea31ce9e90bd31';
const HUB_WALLET: Hex = '0x5c3e7d1c4a1f0b2e9d8c7b6a5f4e3d2c1b0a9f8e';
const HUB_CALLS: Hex = '0x0a0b0c0d0e0f1011121314151617181920';
const BNUSD = 'cx88fd7df7ddff82f7cc735c871dc519838cb235bb';
const ICX = 'cx0000000000000000000000000000000000000000';
const WICX = 'cx3975b43d260fb8ec802cef6e60c2f4d07486f11d';

type Raw = Record<string, string> & { data: { method: string; params: Record<string, string> } };

/** The unsigned params as a wallet receives them: valid for icon-sdk-js, signable as they are. */
function asWalletReadsIt(data: string): Raw {
  const raw = JSON.parse(data) as Raw;
  expect(Validator.checkTxData(raw)).toBeTruthy();
  expect(new SignedTransaction(raw as never, Wallet.create()).getSignature()).toMatch(/^[A-Za-z0-9+/]+=*$/);
  return raw;
}

describe('ICON adapter against the ICON RPC double', () => {
  const double = new IconRpcDouble();
  const mainnet = loadChainDirectory('mainnet').findChain('0x1.icon')!;
  let chain: ChainInfo;
  let adapter: SpokeAdapter;

  beforeAll(async () => {
    await double.start();
    chain = { ...mainnet, rpcUrls: [double.url] };
    adapter = spokeNetworkOf('ICON')!.createAdapter(chain, { timeoutMs: 2_000 });
  });
  afterAll(() => double.stop());
  beforeEach(() => {
    double.debugApi = true;
    double.revert = undefined;
  });

  it('builds an IRC2 deposit with the estimated step limit', async () => {
    const tx = await adapter.buildDeposit({ user: USER, token: BNUSD, to: HUB_WALLET, amount: 5n * 10n ** 18n, data: HUB_CALLS });
    const raw = asWalletReadsIt(tx.data);
    expect(tx).toMatchObject({ from: USER, to: BNUSD, encoding: 'json' });
    expect(raw).toMatchObject({ from: USER, to: BNUSD, nid: '0x1', version: '0x3', value: '0x0', dataType: 'call' });
    expect(BigInt(raw.stepLimit)).toBe(165_000n);
    expect(raw.data.method).toBe('transfer');
    expect(raw.data.params._to).toBe(mainnet.assetManager);
    expect(BigInt(raw.data.params._value)).toBe(5n * 10n ** 18n);
    expect(fromRlp(raw.data.params._data as Hex, 'hex')).toEqual([HUB_CALLS, HUB_WALLET]);
  });

  it('builds an ICX deposit through wICX with the ICX as value', async () => {
    const tx = await adapter.buildDeposit({ user: USER, token: ICX, to: HUB_WALLET, amount: 7n, data: HUB_CALLS });
    const raw = asWalletReadsIt(tx.data);
    expect(tx.to).toBe(WICX);
    expect(raw).toMatchObject({ to: WICX, value: '0x7' });
    expect(raw.data.params).toMatchObject({ _to: mainnet.assetManager, _value: '0x7' });
  });

  it('refuses a contract (cx…) as the sender with a 400: only a wallet signs', async () => {
    const contract = 'cx13a9f7e8c1b4a5d6e7f8091a2b3c4d5e6f7a8b9c';
    await expect(adapter.buildDeposit({ user: contract, token: BNUSD, to: HUB_WALLET, amount: 1n, data: HUB_CALLS })).rejects.toMatchObject(
      {
        status: 400,
        details: [{ field: 'srcAddress', rule: 'iconWallet' }],
      },
    );
  });

  it('builds the connection message', async () => {
    const tx = await adapter.buildMessage({ user: USER, dstChainId: 146n, dstAddress: HUB_WALLET, payload: '0xdeadbeef' });
    const raw = asWalletReadsIt(tx.data);
    expect(tx).toMatchObject({ from: USER, to: mainnet.connection, encoding: 'json' });
    expect(raw.value).toBeUndefined();
    expect(raw.data).toEqual({ method: 'sendMessage', params: { dstChainId: '146', dstAddress: HUB_WALLET, payload: '0xdeadbeef' } });
  });

  it('falls back to the public client’s fixed step limit where the node has no debug API', async () => {
    double.debugApi = false;
    const tx = await adapter.buildMessage({ user: USER, dstChainId: 146n, dstAddress: HUB_WALLET, payload: '0x01' });
    expect(asWalletReadsIt(tx.data).stepLimit).toBe('0x1e8480');
  });

  it('prices a built transaction in loop at the governance step price', async () => {
    const tx = await adapter.buildDeposit({ user: USER, token: BNUSD, to: HUB_WALLET, amount: 1n, data: HUB_CALLS });
    expect(await adapter.feeOf(tx)).toEqual({
      gas: '150000',
      price: '12500000000',
      fee: (150_000n * 12_500_000_000n).toString(),
      unit: 'loop',
    });
  });

  it('answers a transaction the node would refuse with a 422 and its reason', async () => {
    const tx = await adapter.buildDeposit({ user: USER, token: BNUSD, to: HUB_WALLET, amount: 1n, data: HUB_CALLS });
    double.revert = 'insufficient balance';
    const error = await adapter.feeOf(tx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).getStatus()).toBe(422);
    expect((error as AppError).code).toBe(ErrorCode.TransactionWouldFail);
    expect((error as AppError).message).toContain('insufficient balance');

    double.setBalance(USER, 1n);
    await expect(
      adapter.buildDeposit({ user: USER, token: ICX, to: HUB_WALLET, amount: 10n ** 18n, data: HUB_CALLS }),
    ).rejects.toMatchObject({
      code: ErrorCode.TransactionWouldFail,
    });
    double.setBalance(USER, 10n ** 24n);
  });

  it.each([
    ['not JSON', 'garbage'],
    ['not a transaction', JSON.stringify({ hello: 'world' })],
    [
      'an unsigned transaction without a valid sender',
      JSON.stringify({ from: 'cx01', to: BNUSD, nid: '0x1', version: '0x3', timestamp: '0x1' }),
    ],
  ])('refuses tx.data that is %s with a 400 naming it', async (_what, data) => {
    const error = await adapter.feeOf({ from: USER, to: BNUSD, encoding: 'json', data }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).getStatus()).toBe(400);
    expect((error as AppError).details).toEqual([expect.objectContaining({ field: 'tx.data', rule: 'iconTransaction' })]);
  });

  it('refuses another encoding with a 400 naming tx.encoding', async () => {
    const error = await adapter.feeOf({ from: USER, to: BNUSD, encoding: 'base64', data: 'AA==' }).catch((e: unknown) => e);
    expect((error as AppError).details).toEqual([expect.objectContaining({ field: 'tx.encoding' })]);
  });

  it('checks a successful source deposit: signer and what it carried', async () => {
    const txId = double.seedDeposit({ token: BNUSD, assetManager: mainnet.assetManager!, amount: 42n, to: HUB_WALLET, data: HUB_CALLS });
    expect(await adapter.checkSource(txId)).toEqual({
      found: true,
      success: true,
      sender: double.sourceWallet.getAddress(),
      deposit: { token: BNUSD, amount: 42n, to: HUB_WALLET, data: HUB_CALLS },
    });
  });

  it('checks a landed message to the hub (a vault withdrawal): signer, the hub wallet and the calls', async () => {
    const tx = await adapter.buildMessage({
      user: double.sourceWallet.getAddress(),
      dstChainId: 146n,
      dstAddress: HUB_WALLET,
      payload: HUB_CALLS,
    });
    const txId = double.seedTransaction({ ...JSON.parse(tx.data), signature: 'c2lnbmVk' });
    expect(await adapter.checkSource(txId)).toEqual({
      found: true,
      success: true,
      sender: double.sourceWallet.getAddress(),
      message: { to: HUB_WALLET.toLowerCase(), data: HUB_CALLS },
    });
  });

  it('reads an ICX deposit (wICX with value) as ICX', async () => {
    const txId = double.seedDeposit({ token: ICX, assetManager: mainnet.assetManager!, amount: 9n, to: HUB_WALLET, data: HUB_CALLS });
    expect(await adapter.checkSource(txId)).toMatchObject({ success: true, deposit: { token: ICX, amount: 9n } });
  });

  it('checks a failed source transaction: signer and the node’s reason', async () => {
    const txId = double.seedDeposit({
      token: BNUSD,
      assetManager: mainnet.assetManager!,
      amount: 1n,
      to: HUB_WALLET,
      data: HUB_CALLS,
      failure: 'Reverted(0): Rate limit exceeded',
    });
    expect(await adapter.checkSource(txId)).toEqual({
      found: true,
      success: false,
      sender: double.sourceWallet.getAddress(),
      reason: 'Reverted(0): Rate limit exceeded',
    });
  });

  it('reads an unknown transaction as not found', async () => {
    expect(await adapter.checkSource(`0x${'ab'.repeat(32)}`)).toEqual({ found: false });
  });

  it('answers the shapes icon-sdk-js parses, and a latest block time', async () => {
    const txId = double.seedDeposit({ token: BNUSD, assetManager: mainnet.assetManager!, amount: 3n, to: HUB_WALLET, data: HUB_CALLS });
    const service = new IconService(new IconService.HttpProvider(double.url));
    const result = await service.getTransactionResult(txId).execute();
    expect(result).toMatchObject({ status: 1, txHash: txId });
    const wire = (await (await fetch(double.url, rpc('icx_getTransactionResult', { txHash: txId }))).json()) as { result: unknown };
    expect(Validator.isTransactionResult(wire.result)).toBe(true);
    expect(Converter.toBigNumber((await service.getBalance(USER).execute()).toFixed()).isGreaterThan(0)).toBe(true);
    const now = BigInt(Math.floor(Date.now() / 1000));
    expect((await adapter.latestBlockTime!()) - now).toBeLessThanOrEqual(1n);
  });

  it('answers debug methods on /api/v3d only', async () => {
    const response = await fetch(double.url, rpc('debug_estimateStep', {}));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32601 } });
  });

  it('throws a plain error, quickly, when the node is gone', async () => {
    const gone = new IconRpcDouble();
    await gone.start();
    const stranded = spokeNetworkOf('ICON')!.createAdapter({ ...mainnet, rpcUrls: [gone.url] }, { timeoutMs: 500 });
    await gone.stop();
    const started = Date.now();
    const error = await stranded.checkSource(`0x${'cd'.repeat(32)}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AppError);
    const build = await stranded
      .buildMessage({ user: USER, dstChainId: 146n, dstAddress: HUB_WALLET, payload: '0x01' })
      .catch((e: unknown) => e);
    expect(build).toBeInstanceOf(Error);
    expect(build).not.toBeInstanceOf(AppError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('throws a plain error within the timeout when the node hangs', async () => {
    const slow = spokeNetworkOf('ICON')!.createAdapter({ ...mainnet, rpcUrls: [double.url] }, { timeoutMs: 300 });
    double.stall = true;
    try {
      const error = await slow.checkSource(`0x${'ef'.repeat(32)}`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(AppError);
      expect(String((error as Error).message)).toMatch(/icx_getTransactionResult/);
    } finally {
      double.stall = false;
    }
  });
});

function rpc(method: string, params: object): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  };
}
