import {
  getBase58Decoder,
  getBase64Encoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  type Base64EncodedWireTransaction,
  type TransactionError,
} from '@solana/kit';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface SeededSolanaTransaction {
  wire: Base64EncodedWireTransaction;
  err?: TransactionError;
}

/** Constructed answers, not a Solana validator; see docs/integrators/devnet.md#the-rpc-stand-ins. */
export class SolanaRpcDouble {
  private server?: Server;
  private readonly transactions = new Map<string, SeededSolanaTransaction & { slot: number }>();
  private readonly started = Date.now();
  private current = { slot: -1, blockhash: '' };
  url = '';

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        let call: { id?: unknown; method?: string; params?: unknown[] };
        try {
          call = JSON.parse(body) as { id?: unknown; method?: string; params?: unknown[] };
        } catch {
          res.writeHead(400).end();
          return;
        }
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, ...this.answer(call.method, call.params) }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Failed when `err` is given; answers its signature. */
  seedTransaction(transaction: SeededSolanaTransaction): string {
    const signature = getSignatureFromTransaction(getTransactionDecoder().decode(getBase64Encoder().encode(transaction.wire)));
    this.transactions.set(signature, { ...transaction, slot: this.slot() });
    return signature;
  }

  private slot(): number {
    return 300_000_000 + Math.floor((Date.now() - this.started) / 400);
  }

  private answer(method: string | undefined, params: unknown[] = []): { result: unknown } | { error: { code: number; message: string } } {
    const slot = this.slot();
    switch (method) {
      case 'getLatestBlockhash':
        if (this.current.slot !== slot) this.current = { slot, blockhash: getBase58Decoder().decode(randomBytes(32)) };
        return { result: { context: { slot }, value: { blockhash: this.current.blockhash, lastValidBlockHeight: slot + 150 } } };
      case 'getSlot':
        return { result: slot };
      case 'getBlockTime':
        return { result: Math.floor(Date.now() / 1000) };
      case 'getHealth':
        return { result: 'ok' };
      case 'getFeeForMessage': {
        const message = Buffer.from(String(params[0] ?? ''), 'base64');
        if (message.length < 2) return { error: { code: -32602, message: 'Invalid params: message' } };
        // A versioned message starts with 0x80 | version; its header follows.
        const signatures = message[0] & 0x80 ? message[1] : message[0];
        return { result: { context: { slot }, value: 5_000 * signatures } };
      }
      case 'getTransaction': {
        const seeded = this.transactions.get(String(params[0]));
        const encoding = (params[1] as { encoding?: string } | undefined)?.encoding;
        if (seeded && encoding !== 'base64')
          return { error: { code: -32602, message: `Invalid params: this stand-in answers encoding base64, not ${encoding}` } };
        return { result: seeded ? this.landed(seeded) : null };
      }
      default:
        return { error: { code: -32601, message: `Method not found: ${method}` } };
    }
  }

  private landed(seeded: SeededSolanaTransaction & { slot: number }) {
    const err = seeded.err ?? null;
    return {
      slot: seeded.slot,
      blockTime: Math.floor(this.started / 1000) + Math.floor((seeded.slot - 300_000_000) * 0.4),
      version: 0,
      transaction: [seeded.wire, 'base64'],
      meta: {
        err,
        status: err === null ? { Ok: null } : { Err: err },
        fee: 5_000,
        preBalances: [],
        postBalances: [],
        innerInstructions: [],
        logMessages: [],
        preTokenBalances: [],
        postTokenBalances: [],
        rewards: [],
        loadedAddresses: { writable: [], readonly: [] },
        computeUnitsConsumed: 0,
      },
    };
  }
}
