// Vectors: node libs/chains/src/spokes/vectors/sui.generate.mjs > libs/chains/src/spokes/vectors/sui.json
// (the @sodax/sdk's own Sui deposit and call, raw mode, against this same double).
import { bcs } from '@mysten/sui/bcs';
import { Transaction } from '@mysten/sui/transactions';
import { fromBase64, normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import { ChainAccess, loadChainDirectory, spokeNetworkOf, type ChainInfo, type SpokeAdapter } from '@swap/chains';
import { AppError, type NetworkTx } from '@swap/contracts';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Hex } from 'viem';
import { SuiRpcDouble } from './sui-rpc-double';

interface SdkRaw {
  from: string;
  to: string;
  value: string;
  data: string;
}
/** The SDK's saved outputs (read from the file: a tool does not import a library's sources). */
const vectors = JSON.parse(readFileSync(join(__dirname, '../../../libs/chains/src/spokes/vectors/sui.json'), 'utf8')) as {
  user: string;
  hubWallet: string;
  data: string;
  deposits: { name: string; token: string; amount: string; coins: { coinObjectId: string; balance: string }[]; sdk: SdkRaw }[];
  message: { dstChainId: string; dstAddress: string; payload: string; sdk: SdkRaw };
};
const SUI = spokeNetworkOf('SUI')!;
const profileChain = loadChainDirectory('mainnet').findChain('sui')!;
const [usdc, bnusd] = [vectors.deposits[1], vectors.deposits[2]];

/** What a Sui wallet reads from the unsigned answer: the TransactionData it would sign. */
function walletView(tx: NetworkTx) {
  const data = bcs.TransactionData.parse(fromBase64(tx.data)).V1!;
  expect(Transaction.from(tx.data).getData().sender).toBe(normalizeSuiAddress(vectors.user));
  return data;
}

describe('Sui adapter against the Sui RPC double', () => {
  const double = new SuiRpcDouble({ assetManager: profileChain.assetManager!, connection: profileChain.connection! });
  let chain: ChainInfo;
  let adapter: SpokeAdapter;
  const deposit = (v: (typeof vectors.deposits)[number], user = vectors.user) =>
    adapter.buildDeposit({ user, token: v.token, to: vectors.hubWallet as Hex, amount: BigInt(v.amount), data: vectors.data as Hex });
  const message = () =>
    adapter.buildMessage({
      user: vectors.user,
      dstChainId: BigInt(vectors.message.dstChainId),
      dstAddress: vectors.message.dstAddress as Hex,
      payload: vectors.message.payload as Hex,
    });

  beforeAll(async () => {
    for (const v of [usdc, bnusd])
      double.seedCoins(
        vectors.user,
        v.token,
        v.coins.map((c) => ({ objectId: c.coinObjectId, balance: BigInt(c.balance) })),
      );
    await double.start();
    chain = { ...profileChain, rpcUrls: [double.url] };
    adapter = SUI.createAdapter(chain, { timeoutMs: 2_000 });
  });
  afterAll(() => double.stop());
  afterEach(() => (double.dryRunFailure = undefined));

  it.each(vectors.deposits.map((d) => [d.name, d] as const))(
    'builds the deposit of %s as TransactionData carrying the SDK’s exact programmable transaction',
    async (_name, vector) => {
      const tx = await deposit(vector);
      expect(tx).toEqual({ from: vectors.user, to: vector.sdk.to, encoding: 'base64', data: expect.any(String) });
      const data = walletView(tx);
      expect(bcs.TransactionKind.serialize(data.kind).toBase64()).toBe(vector.sdk.data);
      // Gas: the user's SUI coin as the double lists it, its reference price, a dry-run budget.
      const suiCoins = (await fetchJson(double.url, 'suix_getCoins', [vectors.user, '0x2::sui::SUI'])) as {
        data: { coinObjectId: string }[];
      };
      expect(data.gasData.payment.map((p) => p.objectId)).toEqual(suiCoins.data.map((c) => c.coinObjectId));
      expect(normalizeSuiAddress(data.gasData.owner)).toBe(normalizeSuiAddress(vectors.user));
      expect(data.gasData.price).toBe('750');
      expect(BigInt(data.gasData.budget)).toBeGreaterThan(0n);
      const call = data.kind.ProgrammableTransaction!.commands.at(-1)!.MoveCall!;
      expect([call.module, call.function, normalizeStructTag(call.typeArguments[0])]).toEqual([
        'asset_manager',
        'transfer',
        normalizeStructTag(vector.token),
      ]);
    },
  );

  it('builds the message as TransactionData carrying the SDK’s exact send_message_ua call', async () => {
    const tx = await message();
    expect(tx).toEqual({ from: vectors.user, to: vectors.message.sdk.to, encoding: 'base64', data: expect.any(String) });
    expect(bcs.TransactionKind.serialize(walletView(tx).kind).toBase64()).toBe(vectors.message.sdk.data);
  });

  it('builds for any well-formed user (the double answers coins for every owner)', async () => {
    const stranger = `0x${'7e'.repeat(32)}`;
    const tx = await deposit(usdc, stranger);
    expect(bcs.TransactionData.parse(fromBase64(tx.data)).V1!.sender).toBe(stranger);
  });

  it('prices a built transaction by dry run, in mist', async () => {
    const tx = await deposit(vectors.deposits[0]);
    const commands = walletView(tx).kind.ProgrammableTransaction!.commands.length;
    // The double's constructed schedule: 750 × (1 000 + 500 per command) + storage − rebate.
    const fee = 750n * BigInt(1_000 + 500 * commands) + 2_964_000n + 988_000n * BigInt(commands) - 1_956_240n;
    expect(await adapter.feeOf(tx)).toEqual({ gas: ((fee + 749n) / 750n).toString(), price: '750', fee: fee.toString(), unit: 'mist' });
  });

  it('answers a 422 with the reason when the dry run says the transaction would fail', async () => {
    const tx = await message();
    double.dryRunFailure = 'MoveAbort in 1st command, abort code: 3';
    await expect(adapter.feeOf(tx)).rejects.toMatchObject({ status: 422, message: expect.stringContaining('abort code: 3') });
  });

  it('answers a 422 when the node refuses the deposit while it is being built', async () => {
    double.dryRunFailure = 'InsufficientCoinBalance';
    await expect(deposit(usdc)).rejects.toMatchObject({ status: 422, message: expect.stringContaining('InsufficientCoinBalance') });
  });

  it('answers a 422 when the user holds no SUI to pay gas with', async () => {
    const poor = `0x${'9d'.repeat(32)}`;
    double.seedCoins(poor, '0x2::sui::SUI', []);
    await expect(
      adapter.buildMessage({ user: poor, dstChainId: 146n, dstAddress: vectors.hubWallet as Hex, payload: '0x' }),
    ).rejects.toMatchObject({ status: 422, message: expect.stringContaining('no SUI') });
  });

  it('refuses garbage and a wrong encoding with a 400 naming the field', async () => {
    const tx = await message();
    await expect(adapter.feeOf({ ...tx, data: 'not a transaction!' })).rejects.toMatchObject({
      status: 400,
      details: [expect.objectContaining({ field: 'tx.data', rule: 'suiTransaction' })],
    });
    await expect(adapter.feeOf({ ...tx, data: Buffer.from('garbage bytes').toString('base64') })).rejects.toMatchObject({ status: 400 });
    await expect(adapter.feeOf({ ...tx, encoding: 'json' })).rejects.toMatchObject({
      status: 400,
      details: [expect.objectContaining({ field: 'tx.encoding' })],
    });
  });

  it('checks a successful deposit: its sender and what the deposit carried', async () => {
    const tx = await deposit(usdc);
    const digest = double.seedTransaction(fromBase64(tx.data));
    expect(await adapter.checkSource(digest)).toEqual({
      found: true,
      success: true,
      sender: normalizeSuiAddress(vectors.user),
      deposit: { token: normalizeStructTag(usdc.token), amount: BigInt(usdc.amount), to: vectors.hubWallet, data: vectors.data },
    });
  });

  it('checks a deposit of a whole coin by the sender’s balance change', async () => {
    const tx = await deposit(bnusd);
    const digest = double.seedTransaction(fromBase64(tx.data), {
      balanceChanges: [{ owner: { AddressOwner: normalizeSuiAddress(vectors.user) }, coinType: bnusd.token, amount: `-${bnusd.amount}` }],
    });
    expect(await adapter.checkSource(digest)).toMatchObject({
      success: true,
      deposit: { amount: BigInt(bnusd.amount), to: vectors.hubWallet },
    });
  });

  it('checks a landed message to the hub (a vault withdrawal): its sender, the hub wallet and the calls', async () => {
    const digest = double.seedTransaction(fromBase64((await message()).data));
    expect(await adapter.checkSource(digest)).toEqual({
      found: true,
      success: true,
      sender: normalizeSuiAddress(vectors.user),
      message: { to: vectors.message.dstAddress.toLowerCase(), data: vectors.message.payload },
    });
  });

  it('checks a transaction that failed on chain, and one that is not there', async () => {
    const digest = double.seedTransaction(fromBase64((await message()).data), { error: 'MoveAbort(connectionv3, 7) in command 0' });
    expect(await adapter.checkSource(digest)).toEqual({
      found: true,
      success: false,
      sender: normalizeSuiAddress(vectors.user),
      reason: 'MoveAbort(connectionv3, 7) in command 0',
    });
    expect(await adapter.checkSource('4Qz9y1o1mC1rEu4EaaK3Fwd4nM2AZ1gJVrp8Uk6x7UJo')).toEqual({ found: false });
  });

  it('throws a plain error quickly when the node is gone (ChainAccess answers it as a 503)', async () => {
    const gone = new SuiRpcDouble({ assetManager: profileChain.assetManager!, connection: profileChain.connection! });
    await gone.start();
    await gone.stop();
    const offline = SUI.createAdapter({ ...profileChain, rpcUrls: [gone.url] }, { timeoutMs: 1_000 });
    const started = Date.now();
    const error = await offline
      .buildMessage({ user: vectors.user, dstChainId: 146n, dstAddress: vectors.hubWallet as Hex, payload: '0x' })
      .catch((e: unknown) => e);
    // fetch's TypeError comes from another realm than jest's Error: judged by its shape.
    expect(error).toMatchObject({ message: expect.any(String) });
    expect(error).not.toBeInstanceOf(AppError);
    expect(Date.now() - started).toBeLessThan(1_500);
    await expect(
      new ChainAccess({ timeoutMs: 1_000 }).spoke({ ...profileChain, rpcUrls: [gone.url] }, (a) => a.checkSource('x')),
    ).rejects.toMatchObject({
      status: 503,
    });
  });
});

it('gives up on a node that does not answer within timeoutMs', async () => {
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const slow = SUI.createAdapter({ ...profileChain, rpcUrls: [url] }, { timeoutMs: 300 });
    const started = Date.now();
    const error = await slow.checkSource('4Qz9y1o1mC1rEu4EaaK3Fwd4nM2AZ1gJVrp8Uk6x7UJo').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(AppError);
    expect(Date.now() - started).toBeLessThan(2_000);
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

async function fetchJson(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
}
