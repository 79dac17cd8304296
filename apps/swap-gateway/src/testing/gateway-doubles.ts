import { type ChainCatalogSnapshot, type RpcReply, type RpcRequest, type RpcSubject } from '@swap/contracts';
import { encodeErrorReply, encodeReply, InProcessBus, MessagingClient, type BusDelivery, type RequestOptions } from '@swap/messaging';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Test doubles for swap-gateway's unit specs: the bus services and the HTTP request and reply; no network.

export interface Received {
  subject: string;
  payload: unknown;
  timeoutMs: number;
}

/** Notes each request's timeout: what a gateway route lets a service take. */
class RecordingBus extends InProcessBus {
  private readonly timeouts = new Map<string, number[]>();

  override request(subject: string, data: string, options: RequestOptions): Promise<BusDelivery> {
    this.timeouts.set(subject, [...(this.timeouts.get(subject) ?? []), options.timeoutMs]);
    return super.request(subject, data, options);
  }

  takeTimeout(subject: string): number {
    return this.timeouts.get(subject)?.shift() ?? -1;
  }
}

/** Subscribers answering in a real BusServer's reply envelope, behind a real MessagingClient. */
export class FakeServices {
  private readonly recording = new RecordingBus();
  readonly messaging = new MessagingClient(this.recording, { timeoutMs: 1_000 });
  readonly received: Received[] = [];

  answer<S extends RpcSubject>(subject: S, handler: (payload: RpcRequest<S>) => RpcReply<S> | Promise<RpcReply<S>>): this {
    return this.serve(subject, (payload, respond) => {
      void (async () => handler(payload as RpcRequest<S>))().then(
        (value) => respond(encodeReply(value)),
        (error: unknown) => respond(encodeErrorReply(error)),
      );
    });
  }

  /** Byte for byte, as a service that writes its own JSON does. */
  answerJsonText(subject: RpcSubject, dataJson: string): this {
    return this.serve(subject, (_payload, respond) => respond(`{"ok":true,"data":${dataJson}}`));
  }

  serve(subject: RpcSubject, reply: (payload: unknown, respond: (data: string) => void) => void): this {
    this.recording.subscribe(
      subject,
      (message) => {
        const payload = JSON.parse(message.data) as unknown;
        this.received.push({ subject, payload, timeoutMs: this.recording.takeTimeout(subject) });
        reply(payload, (data) => message.respond?.(data));
      },
      { queue: subject },
    );
    return this;
  }

  payloadsOn(subject: RpcSubject): unknown[] {
    return this.received.filter((r) => r.subject === subject).map((r) => r.payload);
  }

  close(): Promise<void> {
    return this.recording.close();
  }
}

export class FakeReply {
  readonly headers: Record<string, string> = {};
  body?: unknown;

  header(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.headers[name.toLowerCase()];
  }

  send(body: unknown): this {
    this.body = body;
    return this;
  }

  get asFastify(): FastifyReply {
    return this as unknown as FastifyReply;
  }
}

export function fakeRequest(ip: string, headers: Record<string, string | string[]> = {}): FastifyRequest {
  return { ip, headers } as unknown as FastifyRequest;
}

/** The hub, an EVM spoke and Solana. */
export const REGISTRY_SNAPSHOT: ChainCatalogSnapshot = {
  version: 'spec-registry-1',
  startedAt: 1_700_000_000_000,
  chains: [
    { key: '0x92.sonic', name: 'Sonic', type: 'EVM', chainId: 146, relayChainId: '146', hub: true, aliases: ['sonic'] },
    { key: '0xa4b1.arbitrum', name: 'Arbitrum', type: 'EVM', chainId: 42161, relayChainId: '23', hub: false, aliases: ['arbitrum'] },
    { key: 'solana', name: 'Solana', type: 'SOLANA', chainId: 'solana', relayChainId: '1', hub: false, aliases: [] },
  ],
  tokensByChain: {
    '0x92.sonic': [
      {
        symbol: 'USDC',
        name: 'USD Coin',
        decimals: 6,
        address: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
        chainKey: '0x92.sonic',
        hubAsset: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
        vault: '0x0',
      },
    ],
    '0xa4b1.arbitrum': [],
    solana: [],
  },
  partnerFee: null,
};
