import {
  Account,
  Address,
  Contract,
  Networks,
  SorobanDataBuilder,
  StrKey,
  TransactionBuilder,
  nativeToScVal,
  xdr,
  type Transaction,
} from '@stellar/stellar-sdk';
import { createServer, type Server } from 'node:http';

type RpcAnswer = { result: unknown } | { error: { code: number; message: string } };

/** The asset manager's transfer as the public client encodes it. */
export interface SeededDeposit {
  user: string;
  assetManager: string;
  token: string;
  amount: bigint;
  /** The hub wallet, 0x + 40 hex. */
  to: string;
  /** The hub calls, 0x-hex. */
  data: string;
}

/** Constructed Soroban RPC answers, not a Stellar node; see docs/integrators/devnet.md#the-rpc-stand-ins. */
export class StellarRpcDouble {
  private server?: Server;
  private readonly started = Date.now();
  private readonly accounts = new Map<string, { sequence: bigint; balance: bigint } | null>();
  private readonly transactions = new Map<string, Record<string, unknown>>();
  private readonly failures = new Map<string, string>();
  url = '';
  /** Stroops, asked by every successful simulation. */
  minResourceFee = 87_654n;

  constructor(readonly passphrase: string = Networks.PUBLIC) {}

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        let call: { id?: unknown; method?: string; params?: Record<string, unknown> };
        try {
          call = JSON.parse(body) as typeof call;
        } catch {
          res.writeHead(400).end();
          return;
        }
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, ...this.answer(call.method, call.params ?? {}) }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** `sequence`: the last used. */
  seedAccount(address: string, sequence: bigint, balance = 100_000_000_000n): void {
    this.accounts.set(address, { sequence, balance });
  }

  forgetAccount(address: string): void {
    this.accounts.set(address, null);
  }

  failSimulation(fn: string, error: string): void {
    this.failures.set(fn, error);
  }

  /** Answers its hash (hex). */
  seedDeposit(deposit: SeededDeposit, outcome: 'success' | 'failed' = 'success'): string {
    const operation = new Contract(deposit.assetManager).call(
      'transfer',
      nativeToScVal(Address.fromString(deposit.user), { type: 'address' }),
      nativeToScVal(Address.fromString(deposit.token), { type: 'address' }),
      nativeToScVal(deposit.amount, { type: 'u128' }),
      nativeToScVal(Buffer.from(deposit.to.slice(2), 'hex'), { type: 'bytes' }),
      nativeToScVal(Buffer.from(deposit.data.slice(2), 'hex'), { type: 'bytes' }),
    );
    const transaction = new TransactionBuilder(new Account(deposit.user, String(100n << 32n)), {
      fee: '200000',
      networkPassphrase: this.passphrase,
    })
      .addOperation(operation)
      .setTimeout(100)
      .build();
    return this.seedTransaction(transaction, outcome);
  }

  /** A transaction as landed (a built one, say), answered by its hash (hex). */
  seedTransaction(transaction: Transaction, outcome: 'success' | 'failed' = 'success'): string {
    const hash = Buffer.from(transaction.hash()).toString('hex');
    const result = new xdr.TransactionResult({
      feeCharged: 150_000n,
      result:
        outcome === 'success'
          ? xdr.TransactionResultResult.txSuccess([
              xdr.OperationResult.opInner(
                xdr.OperationResultTr.invokeHostFunction(xdr.InvokeHostFunctionResult.invokeHostFunctionSuccess(new Uint8Array(32))),
              ),
            ])
          : xdr.TransactionResultResult.txFailed([
              xdr.OperationResult.opInner(
                xdr.OperationResultTr.invokeHostFunction(xdr.InvokeHostFunctionResult.invokeHostFunctionTrapped()),
              ),
            ]),
      ext: xdr.TransactionResultExt.v0(),
    });
    const meta = xdr.TransactionMeta.v4(
      new xdr.TransactionMetaV4({
        ext: xdr.ExtensionPoint.v0(),
        txChangesBefore: [],
        operations: [],
        txChangesAfter: [],
        sorobanMeta: null,
        events: [],
        diagnosticEvents: [],
      }),
    );
    const ledger = this.ledger();
    this.transactions.set(hash, {
      status: outcome === 'success' ? 'SUCCESS' : 'FAILED',
      txHash: hash,
      applicationOrder: 1,
      feeBump: false,
      ledger,
      createdAt: Math.floor(Date.now() / 1000),
      envelopeXdr: transaction.toEnvelope().toXdr('base64'),
      resultXdr: result.toXdr('base64'),
      resultMetaXdr: meta.toXdr('base64'),
    });
    return hash;
  }

  /** Every 5 s, as on mainnet. */
  private ledger(): number {
    return 55_000_000 + Math.floor((Date.now() - this.started) / 5_000);
  }

  private answer(method: string | undefined, params: Record<string, unknown>): RpcAnswer {
    const latestLedger = this.ledger();
    switch (method) {
      case 'getNetwork':
        return { result: { passphrase: this.passphrase, protocolVersion: 23 } };
      case 'getHealth':
        return { result: { status: 'healthy', latestLedger, oldestLedger: latestLedger - 17_279, ledgerRetentionWindow: 17_280 } };
      case 'getLedgerEntries':
        return this.ledgerEntries(params.keys, latestLedger);
      case 'simulateTransaction':
        return this.simulate(params.transaction, latestLedger);
      case 'getTransaction': {
        const closeTime = Math.floor(Date.now() / 1000);
        const window = {
          latestLedger,
          latestLedgerCloseTime: closeTime,
          oldestLedger: latestLedger - 17_279,
          oldestLedgerCloseTime: closeTime - 86_400,
        };
        const found = this.transactions.get(String(params.hash));
        return { result: found ? { ...window, ...found } : { ...window, status: 'NOT_FOUND', txHash: params.hash } };
      }
      default:
        return { error: { code: -32601, message: `method not found: ${method}` } };
    }
  }

  private ledgerEntries(keys: unknown, latestLedger: number): RpcAnswer {
    if (!Array.isArray(keys)) return { error: { code: -32602, message: 'invalid parameters: keys' } };
    const entries: unknown[] = [];
    for (const encoded of keys) {
      let key: xdr.LedgerKey;
      try {
        key = xdr.LedgerKey.fromXdr(String(encoded), 'base64');
      } catch {
        return { error: { code: -32602, message: 'invalid parameters: cannot unmarshal key value' } };
      }
      if (key.type !== 'account') continue;
      const address = StrKey.encodeEd25519PublicKey(Buffer.from(key.account.accountId.ed25519.value));
      const seeded = this.accounts.get(address);
      if (seeded === null) continue;
      const { sequence, balance } = seeded ?? { sequence: 200n << 32n, balance: 100_000_000_000n };
      const entry = xdr.LedgerEntryData.account(
        new xdr.AccountEntry({
          accountId: key.account.accountId,
          balance,
          seqNum: sequence,
          numSubEntries: 0,
          inflationDest: null,
          flags: 0,
          homeDomain: '',
          thresholds: new Uint8Array([1, 0, 0, 0]),
          signers: [],
          ext: xdr.AccountEntryExt.v0(),
        }),
      );
      entries.push({ key: key.toXdr('base64'), xdr: entry.toXdr('base64'), lastModifiedLedgerSeq: latestLedger - 10 });
    }
    return { result: { entries, latestLedger } };
  }

  private simulate(envelope: unknown, latestLedger: number): RpcAnswer {
    let transaction: Transaction;
    try {
      transaction = TransactionBuilder.fromXDR(String(envelope), this.passphrase) as Transaction;
    } catch {
      return { error: { code: -32602, message: 'invalid parameters: could not unmarshal transaction' } };
    }
    const [operation] = transaction.operations;
    if (
      transaction.operations.length !== 1 ||
      operation.type !== 'invokeHostFunction' ||
      operation.func.type !== 'hostFunctionTypeInvokeContract'
    )
      return { result: { error: 'Transaction contains more than one operation or is not a Soroban invocation', latestLedger } };
    const invoke = operation.func.invokeContract;
    const failure = this.failures.get(invoke.functionName.toString());
    if (failure) return { result: { error: failure, events: [], latestLedger } };
    const contract = Address.fromScAddress(invoke.contractAddress).toString();
    const written = xdr.LedgerKey.contractData(
      new xdr.LedgerKeyContractData({
        contract: invoke.contractAddress,
        key: xdr.ScVal.scvSymbol('Balance'),
        durability: xdr.ContractDataDurability.persistent,
      }),
    );
    const transactionData = new SorobanDataBuilder()
      .setResources(1_500_000, 2_000, 400)
      .setResourceFee(this.minResourceFee)
      .setReadOnly([new Contract(contract).getFootprint()])
      .setReadWrite([written])
      .build();
    const auth = new xdr.SorobanAuthorizationEntry({
      credentials: xdr.SorobanCredentials.sorobanCredentialsSourceAccount(),
      rootInvocation: new xdr.SorobanAuthorizedInvocation({
        function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(invoke),
        subInvocations: [],
      }),
    });
    return {
      result: {
        latestLedger,
        minResourceFee: this.minResourceFee.toString(),
        transactionData: transactionData.toXdr('base64'),
        results: [{ auth: [auth.toXdr('base64')], xdr: xdr.ScVal.scvVoid().toXdr('base64') }],
        events: [],
      },
    };
  }
}
