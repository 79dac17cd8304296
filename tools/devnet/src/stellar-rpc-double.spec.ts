import {
  Address,
  Keypair,
  Networks,
  TransactionBuilder,
  scValToBigInt,
  scValToNative,
  type Transaction,
  type xdr,
} from '@stellar/stellar-sdk';
import { spokeNetworkOf, type ChainInfo, type SpokeAdapter } from '@swap/chains';
import { AppError, ErrorCode, type NetworkTx } from '@swap/contracts';
import { createServer } from 'node:http';
import { toHex, type Hex } from 'viem';
import { StellarRpcDouble } from './stellar-rpc-double';

const ASSET_MANAGER = 'CCGF33A4CO6D3BXFEKPXVCFCZBK76I3AQOZK6KIKRPAWAZR3632WHCJ3';
const CONNECTION = 'CDFQDDPUPAM3XPGORHDOEFRNLMKOH3N3X6XTXNLSXJQXIU3RVCM3OPEP';
const XLM = 'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA';
const USER = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 7)).publicKey();
const HUB_WALLET: Hex = '0x00112233445566778899aabbccddeeff00112233';
const HUB_CALLS: Hex = `0x${'5a'.repeat(68)}`;

function chainAt(url: string): ChainInfo {
  return {
    key: 'stellar',
    name: 'Stellar',
    type: 'STELLAR',
    chainId: 'stellar',
    relayChainId: '27',
    hub: false,
    assetManager: ASSET_MANAGER,
    connection: CONNECTION,
    aliases: [],
    rpcUrls: [url],
  };
}

/** What a Stellar wallet sees: the envelope decoded for the passphrase the builder named, and its one contract call. */
function asWalletSees(tx: NetworkTx): { transaction: Transaction; contract: string; fn: string; args: xdr.ScVal[] } {
  const transaction = TransactionBuilder.fromXDR(tx.data, tx.networkPassphrase!) as Transaction;
  const [operation] = transaction.operations;
  if (operation.type !== 'invokeHostFunction' || operation.func.type !== 'hostFunctionTypeInvokeContract')
    throw new Error('not a contract call');
  const call = operation.func.invokeContract;
  return {
    transaction,
    contract: Address.fromScAddress(call.contractAddress).toString(),
    fn: call.functionName.toString(),
    args: call.args,
  };
}

// Through spokeNetworkOf, as ChainAccess reaches it.
const STELLAR = spokeNetworkOf('STELLAR')!;
const bytesOf = (value: xdr.ScVal): Hex => toHex(scValToNative(value) as Uint8Array);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('the Stellar adapter against the Soroban RPC double', () => {
  const double = new StellarRpcDouble();
  let adapter: SpokeAdapter;

  beforeAll(async () => {
    await double.start();
    double.seedAccount(USER, 4_242n << 32n);
    adapter = STELLAR.createAdapter(chainAt(double.url), { timeoutMs: 2_000 });
  });
  afterAll(() => double.stop());

  it('builds the deposit a Stellar wallet signs as it is: the asset manager’s transfer, simulated and assembled', async () => {
    const tx = await adapter.buildDeposit({ user: USER, token: XLM, to: HUB_WALLET, amount: 25_000_000n, data: HUB_CALLS });
    expect(tx).toMatchObject({ from: USER, to: ASSET_MANAGER, encoding: 'xdr', networkPassphrase: Networks.PUBLIC });
    expect(Object.keys(tx).sort()).toEqual(['data', 'encoding', 'from', 'networkPassphrase', 'to']);
    const { transaction, contract, fn, args } = asWalletSees(tx);
    expect(transaction.source).toBe(USER);
    expect(transaction.sequence).toBe(((4_242n << 32n) + 1n).toString());
    // The public client's bid (resource fee + 10 000 + 100), plus the resource fee assembling declares.
    expect(transaction.fee).toBe(String(2n * double.minResourceFee + 10_100n));
    expect(Number(transaction.timeBounds!.maxTime) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(100);
    expect({ contract, fn }).toEqual({ contract: ASSET_MANAGER, fn: 'transfer' });
    const [from, token, amount, to, data] = args;
    expect(Address.fromScVal(from).toString()).toBe(USER);
    expect(Address.fromScVal(token).toString()).toBe(XLM);
    expect(amount.type).toBe('scvU128');
    expect(scValToBigInt(amount)).toBe(25_000_000n);
    expect(bytesOf(to)).toBe(HUB_WALLET);
    expect(bytesOf(data)).toBe(HUB_CALLS);
    const [operation] = transaction.operations;
    expect(operation.type === 'invokeHostFunction' && operation.auth?.[0].credentials.type).toBe('sorobanCredentialsSourceAccount');
    const envelope = transaction.toEnvelope();
    expect(
      envelope.type === 'envelopeTypeTx' && envelope.v1.tx.ext.type === 'sorobanData' && envelope.v1.tx.ext.sorobanData.resourceFee,
    ).toBe(double.minResourceFee);
  });

  it('builds the message to the hub: the connection’s send_message', async () => {
    const payload: Hex = `0x${'e1'.repeat(40)}`;
    const tx = await adapter.buildMessage({ user: USER, dstChainId: 146n, dstAddress: HUB_WALLET, payload });
    expect(tx).toMatchObject({ from: USER, to: CONNECTION, encoding: 'xdr', networkPassphrase: Networks.PUBLIC });
    const { contract, fn, args } = asWalletSees(tx);
    expect({ contract, fn }).toEqual({ contract: CONNECTION, fn: 'send_message' });
    const [from, dstChainId, dstAddress, sent] = args;
    expect(Address.fromScVal(from).toString()).toBe(USER);
    expect(dstChainId.type).toBe('scvU128');
    expect(scValToBigInt(dstChainId)).toBe(146n);
    expect(bytesOf(dstAddress)).toBe(HUB_WALLET);
    expect(bytesOf(sent)).toBe(payload);
  });

  it('builds for any funded account by default (the devnet’s users are not seeded)', async () => {
    const other = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 9)).publicKey();
    const tx = await adapter.buildDeposit({ user: other, token: XLM, to: HUB_WALLET, amount: 1n, data: '0x' });
    expect(asWalletSees(tx).transaction.source).toBe(other);
  });

  it('refuses a contract (C…) as the signer, and an account the ledger does not hold', async () => {
    const contractUser = await rejection(adapter.buildDeposit({ user: XLM, token: XLM, to: HUB_WALLET, amount: 1n, data: '0x' }));
    expect(contractUser).toBeInstanceOf(AppError);
    expect((contractUser as AppError).getStatus()).toBe(400);
    const unfunded = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 11)).publicKey();
    double.forgetAccount(unfunded);
    const missing = await rejection(adapter.buildDeposit({ user: unfunded, token: XLM, to: HUB_WALLET, amount: 1n, data: '0x' }));
    expect(missing).toMatchObject({ code: ErrorCode.TransactionWouldFail });
    expect((missing as AppError).getStatus()).toBe(422);
  });

  it('answers the fee in stroops: the resource fee a fresh simulation asks plus the inclusion bid', async () => {
    const tx = await adapter.buildDeposit({ user: USER, token: XLM, to: HUB_WALLET, amount: 5n, data: HUB_CALLS });
    expect(await adapter.feeOf(tx)).toEqual({
      gas: double.minResourceFee.toString(),
      price: '10100',
      fee: (double.minResourceFee + 10_100n).toString(),
      unit: 'stroops',
    });
  });

  it('refuses a transaction it cannot read with a 400 naming the field', async () => {
    const garbage = await rejection(adapter.feeOf({ from: USER, to: ASSET_MANAGER, encoding: 'xdr', data: 'not-xdr' }));
    expect(garbage).toBeInstanceOf(AppError);
    expect((garbage as AppError).getStatus()).toBe(400);
    expect((garbage as AppError).details).toEqual([expect.objectContaining({ field: 'tx.data', rule: 'stellarTransaction' })]);
    const encoding = await rejection(adapter.feeOf({ from: USER, to: ASSET_MANAGER, encoding: 'base64', data: 'AAAA' }));
    expect((encoding as AppError).details).toEqual([expect.objectContaining({ field: 'tx.encoding', rule: 'stellarTx' })]);
  });

  it('answers a simulation that fails as a 422 with the network’s reason', async () => {
    const error = 'HostError: Error(Contract, #3) "insufficient balance"';
    const failing = new StellarRpcDouble();
    await failing.start();
    try {
      failing.failSimulation('transfer', error);
      const failingAdapter = STELLAR.createAdapter(chainAt(failing.url), { timeoutMs: 2_000 });
      const refused = await rejection(failingAdapter.buildDeposit({ user: USER, token: XLM, to: HUB_WALLET, amount: 1n, data: '0x' }));
      expect(refused).toMatchObject({ code: ErrorCode.TransactionWouldFail });
      expect((refused as AppError).message).toContain(error);
    } finally {
      await failing.stop();
    }
  });

  it('checks a landed message to the hub (a vault withdrawal): its source, the hub wallet and the calls', async () => {
    const tx = await adapter.buildMessage({ user: USER, dstChainId: 146n, dstAddress: HUB_WALLET, payload: HUB_CALLS });
    const landed = double.seedTransaction(TransactionBuilder.fromXDR(tx.data, tx.networkPassphrase!) as Transaction);
    expect(await adapter.checkSource(landed)).toEqual({
      found: true,
      success: true,
      sender: USER,
      message: { to: HUB_WALLET.toLowerCase(), data: HUB_CALLS },
    });
  });

  it('checks source transactions: a successful deposit, a failed one, an unknown hash', async () => {
    const deposit = { user: USER, assetManager: ASSET_MANAGER, token: XLM, amount: (1n << 100n) + 3n, to: HUB_WALLET, data: HUB_CALLS };
    const ok = double.seedDeposit(deposit);
    expect(await adapter.checkSource(ok)).toEqual({
      found: true,
      success: true,
      sender: USER,
      deposit: { token: XLM, amount: deposit.amount, to: HUB_WALLET, data: HUB_CALLS },
    });
    const failed = double.seedDeposit({ ...deposit, amount: 9n }, 'failed');
    expect(await adapter.checkSource(failed)).toEqual({
      found: true,
      success: false,
      sender: USER,
      reason: 'txFailed: invokeHostFunctionTrapped',
    });
    expect(await adapter.checkSource('ab'.repeat(32))).toEqual({ found: false });
  });

  it('throws a plain Error (ChainAccess’s 503), quickly, when the RPC is gone', async () => {
    const gone = new StellarRpcDouble();
    await gone.start();
    const goneAdapter = STELLAR.createAdapter(chainAt(gone.url), { timeoutMs: 1_000 });
    await gone.stop();
    const startedAt = Date.now();
    const error = await rejection(goneAdapter.buildDeposit({ user: USER, token: XLM, to: HUB_WALLET, amount: 1n, data: '0x' }));
    expect(Date.now() - startedAt).toBeLessThan(1_500);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AppError);
    expect(await rejection(goneAdapter.checkSource('ab'.repeat(32)))).not.toBeInstanceOf(AppError);
  });

  it('throws a plain Error within the timeout when the RPC accepts and never answers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      const slowAdapter = STELLAR.createAdapter(chainAt(url), { timeoutMs: 300 });
      const startedAt = Date.now();
      const error = await rejection(slowAdapter.checkSource('ab'.repeat(32)));
      expect(Date.now() - startedAt).toBeLessThan(1_500);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(AppError);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('listens on 127.0.0.1 only', () => {
    expect(double.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
