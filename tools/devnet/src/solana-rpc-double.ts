import { getBase58Decoder } from '@solana/kit';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/**
 * A stand-in for a Solana RPC endpoint, for the devnet: no Solana validator runs on these
 * machines, and building a Solana transaction needs only a recent blockhash. It answers
 * the JSON-RPC methods the platform calls (getLatestBlockhash, getSlot, getBlockTime,
 * getHealth, getFeeForMessage) with a blockhash that changes every 400 ms, like slots do,
 * and Solana's base fee of 5 000 lamports per required signature.
 */
export class SolanaRpcDouble {
  private server?: Server;
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
      default:
        return { error: { code: -32601, message: `Method not found: ${method}` } };
    }
  }
}
