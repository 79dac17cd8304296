import { MsgExecuteContract as MsgExecuteContractProto } from '@injectivelabs/core-proto-ts-v2/generated/cosmwasm/wasm/v1/tx_pb';
import { MsgExecuteContract } from '@injectivelabs/sdk-ts/core/modules';
import { createTransaction, getTransactionPartsFromTxRaw } from '@injectivelabs/sdk-ts/core/tx';
import { spokeNetworkOf, type ChainInfo } from '@swap/chains';
import { AppError } from '@swap/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InjectiveRpcDouble, SIMULATED_GAS_USED } from './injective-rpc-double';

// The SDK's own deposit and call for fixed inputs (libs/chains/src/spokes/vectors/injective.generate.mjs).
const vectors = JSON.parse(
  readFileSync(join(__dirname, '../../../libs/chains/src/spokes/vectors/injective.json'), 'utf8'),
) as InjectiveVectors;
const INJECTIVE = spokeNetworkOf('INJECTIVE')!;
const [deposit] = vectors.deposits;
const user = deposit.input.from;
const chainOf = (url: string): ChainInfo => ({
  key: 'injective-1',
  name: 'Injective',
  type: 'INJECTIVE',
  chainId: 'injective-1',
  relayChainId: '19',
  hub: false,
  assetManager: vectors.assetManager,
  connection: vectors.connection,
  aliases: [],
  rpcUrls: [url],
});
type Executed = { sender: string; contractAddress: string; msg: Record<string, unknown>; funds: { denom: string; amount: string }[] };
interface InjectiveVectors {
  assetManager: string;
  connection: string;
  deposits: { input: { from: string; token: string; amount: string; to: string; data: string }; executed: Executed }[];
  message: { input: { user: string; dstChainId: string; dstAddress: string; payload: string }; executed: Executed };
}
/** The amino sign doc as a wallet reads it. */
interface InjectiveSignDoc {
  chain_id: string;
  account_number: string;
  sequence: string;
  timeout_height: string;
  memo: string;
  fee: { amount: { denom: string; amount: string }[]; gas: string };
  msgs: {
    type: string;
    value: { sender: string; contract: string; msg: Record<string, unknown>; funds: { denom: string; amount: string }[] };
  }[];
}
/** An AppError's status, message and field details (any other error: its class name). */
async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) return { error: (error as Error | undefined)?.constructor.name };
  return { status: error.getStatus(), message: error.message, fields: ((error.details ?? []) as { field: string }[]).map((d) => d.field) };
}
const PUBKEY = Buffer.concat([Buffer.from([3]), Buffer.alloc(32, 7)]).toString('base64');

/** What a wallet broadcasts after signing the sign doc: the library's TxRaw, its message decoded from protobuf. */
function broadcastForm(doc: InjectiveSignDoc) {
  const { txRaw } = createTransaction({
    message: doc.msgs.map((m) =>
      MsgExecuteContract.fromJSON({ sender: m.value.sender, contractAddress: m.value.contract, msg: m.value.msg, funds: m.value.funds }),
    ),
    memo: doc.memo,
    chainId: doc.chain_id,
    accountNumber: Number(doc.account_number),
    sequence: Number(doc.sequence),
    timeoutHeight: Number(doc.timeout_height),
    fee: doc.fee,
    pubKey: PUBKEY,
  });
  const { body } = getTransactionPartsFromTxRaw(txRaw);
  const message = MsgExecuteContractProto.fromBinary(body.messages[0].value);
  return {
    typeUrl: body.messages[0].typeUrl,
    sender: message.sender,
    contract: message.contract,
    msg: JSON.parse(Buffer.from(message.msg).toString('utf8')) as unknown,
    funds: message.funds,
  };
}

describe('InjectiveRpcDouble with the Injective adapter', () => {
  const double = new InjectiveRpcDouble();
  let chain: ChainInfo;

  beforeAll(async () => {
    await double.start();
    chain = chainOf(double.url);
  });
  afterAll(() => double.stop());

  it('builds the deposit a wallet signs: the SDK’s transfer message and funds, the account’s number and sequence', async () => {
    double.seedAccount(user, { accountNumber: 4242, sequence: 17 });
    const adapter = INJECTIVE.createAdapter(chain, { timeoutMs: 2_000 });
    const tx = await adapter.buildDeposit({
      user,
      token: deposit.input.token,
      to: deposit.input.to as `0x${string}`,
      amount: BigInt(deposit.input.amount),
      data: deposit.input.data as `0x${string}`,
    });
    expect(tx).toMatchObject({ from: user, to: vectors.assetManager, encoding: 'json' });
    const doc = JSON.parse(tx.data) as InjectiveSignDoc;
    expect(doc).toMatchObject({ chain_id: 'injective-1', account_number: '4242', sequence: '17', memo: '' });
    expect(Number(doc.timeout_height)).toBeGreaterThan(double.height());
    expect(broadcastForm(doc)).toEqual({
      typeUrl: '/cosmwasm.wasm.v1.MsgExecuteContract',
      sender: deposit.executed.sender,
      contract: deposit.executed.contractAddress,
      msg: deposit.executed.msg,
      funds: deposit.executed.funds.map(({ denom, amount }) => ({ denom, amount })),
    });
  });

  it('builds the message to the hub: the SDK’s send_message to the connection, no funds', async () => {
    const adapter = INJECTIVE.createAdapter(chain, { timeoutMs: 2_000 });
    const { input, executed } = vectors.message;
    const tx = await adapter.buildMessage({
      user: input.user,
      dstChainId: BigInt(input.dstChainId),
      dstAddress: input.dstAddress as `0x${string}`,
      payload: input.payload as `0x${string}`,
    });
    expect(tx).toMatchObject({ from: input.user, to: vectors.connection, encoding: 'json' });
    expect(broadcastForm(JSON.parse(tx.data) as InjectiveSignDoc)).toEqual({
      typeUrl: '/cosmwasm.wasm.v1.MsgExecuteContract',
      sender: executed.sender,
      contract: executed.contractAddress,
      msg: executed.msg,
      funds: [],
    });
  });

  it('prices a built transaction by simulating it, in inj at the price its fee offers', async () => {
    const adapter = INJECTIVE.createAdapter(chain, { timeoutMs: 2_000 });
    const tx = await adapter.buildMessage({ user, dstChainId: 146n, dstAddress: `0x${'22'.repeat(20)}`, payload: '0x01' });
    const doc = JSON.parse(tx.data) as InjectiveSignDoc;
    const price = BigInt(doc.fee.amount[0].amount) / BigInt(doc.fee.gas);
    await expect(adapter.feeOf(tx)).resolves.toEqual({
      gas: String(SIMULATED_GAS_USED),
      price: price.toString(),
      fee: (BigInt(SIMULATED_GAS_USED) * price).toString(),
      unit: 'inj',
    });
  });

  it('answers 422 when the simulation fails (funds beyond the balance), with the chain’s reason', async () => {
    const poor = 'inj1tfd95kj6tfd95kj6tfd95kj6tfd95kj657lt2h';
    double.seedAccount(poor, { accountNumber: 9, sequence: 0, pubKey: PUBKEY, balances: [{ denom: 'inj', amount: '10' }] });
    const adapter = INJECTIVE.createAdapter(chain, { timeoutMs: 2_000 });
    const tx = await adapter.buildDeposit({ user: poor, token: 'inj', to: `0x${'11'.repeat(20)}`, amount: 11n, data: '0x' });
    expect(await failure(adapter.feeOf(tx))).toMatchObject({ status: 422, message: expect.stringContaining('insufficient funds') });
  });

  it('answers 422 for an address the chain has never seen', async () => {
    const unseen = 'inj1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq'.slice(0, 42);
    double.markMissing(unseen);
    const adapter = INJECTIVE.createAdapter(chain, { timeoutMs: 2_000 });
    expect(
      await failure(adapter.buildMessage({ user: unseen, dstChainId: 146n, dstAddress: `0x${'22'.repeat(20)}`, payload: '0x01' })),
    ).toMatchObject({
      status: 422,
    });
  });

  it('refuses a garbage transaction or a wrong encoding with a 400 naming the field', async () => {
    const adapter = INJECTIVE.createAdapter(chain, { timeoutMs: 2_000 });
    for (const data of ['{"msgs":"nope"}', 'not json', 'null'])
      expect(await failure(adapter.feeOf({ from: user, to: vectors.assetManager, encoding: 'json', data }))).toMatchObject({
        status: 400,
        fields: ['tx.data'],
      });
    expect(await failure(adapter.feeOf({ from: user, to: vectors.assetManager, encoding: 'base64', data: 'AAAA' }))).toMatchObject({
      status: 400,
      fields: ['tx.encoding'],
    });
  });

  it('checks source transactions: a deposit, a failed one and an unknown hash', async () => {
    const hash = 'AB'.repeat(32);
    double.seedDeposit({
      hash,
      sender: user,
      assetManager: vectors.assetManager,
      token: deposit.input.token,
      amount: BigInt(deposit.input.amount),
      to: Buffer.from(deposit.input.to.slice(2), 'hex'),
      data: Buffer.from(deposit.input.data.slice(2), 'hex'),
    });
    double.seedExecute({
      hash: 'CD'.repeat(32),
      sender: user,
      contract: vectors.connection,
      msg: { send_message: {} },
      reason: 'out of gas',
    });
    const adapter = INJECTIVE.createAdapter(chain, { timeoutMs: 2_000 });

    await expect(adapter.checkSource(`0x${hash.toLowerCase()}`)).resolves.toEqual({
      found: true,
      success: true,
      sender: user,
      deposit: { token: deposit.input.token, amount: BigInt(deposit.input.amount), to: deposit.input.to, data: deposit.input.data },
    });
    await expect(adapter.checkSource('CD'.repeat(32))).resolves.toEqual({
      found: true,
      success: false,
      sender: user,
      reason: 'out of gas',
    });
    await expect(adapter.checkSource('EF'.repeat(32))).resolves.toEqual({ found: false });
  });

  it('checks a landed message to the hub (a vault withdrawal): its sender, the hub wallet and the calls', async () => {
    const adapter = INJECTIVE.createAdapter(chain, { timeoutMs: 2_000 });
    const { input } = vectors.message;
    const built = JSON.parse(
      (await adapter.buildMessage({ user: input.user, dstChainId: 146n, dstAddress: `0x${'ab'.repeat(20)}`, payload: '0x0102' })).data,
    ) as InjectiveSignDoc;
    const [executed] = built.msgs;
    double.seedExecute({ hash: '12'.repeat(32), sender: input.user, contract: executed.value.contract, msg: executed.value.msg });
    await expect(adapter.checkSource('12'.repeat(32))).resolves.toEqual({
      found: true,
      success: true,
      sender: input.user,
      message: { to: `0x${'ab'.repeat(20)}`, data: '0x0102' },
    });
  });

  it('reads the latest block time', async () => {
    const adapter = INJECTIVE.createAdapter(chain, { timeoutMs: 2_000 });
    const now = BigInt(Math.floor(Date.now() / 1000));
    const time = await adapter.latestBlockTime!();
    expect(time >= now - 5n && time <= now + 5n).toBe(true);
  });

  it('throws a plain error quickly when the endpoint is down', async () => {
    const down = new InjectiveRpcDouble();
    await down.start();
    const adapter = INJECTIVE.createAdapter(chainOf(down.url), { timeoutMs: 500 });
    await down.stop();
    const started = Date.now();
    const error = await adapter.checkSource('AB'.repeat(32)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AppError);
    const build = await adapter
      .buildMessage({ user, dstChainId: 146n, dstAddress: `0x${'22'.repeat(20)}`, payload: '0x01' })
      .catch((e: unknown) => e);
    expect(build).toBeInstanceOf(Error);
    expect(build).not.toBeInstanceOf(AppError);
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
