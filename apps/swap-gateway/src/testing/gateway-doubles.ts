import { type ChainCatalogSnapshot, type RpcReply, type RpcRequest, type RpcSubject } from '@swap/contracts';
import { encodeErrorReply, encodeReply, InProcessBus, MessagingClient, type BusDelivery, type RequestOptions } from '@swap/messaging';
import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * Test doubles for swap-gateway's unit specs (*.spec.ts beside the code): the services it
 * asks over the bus, and the HTTP request and reply its handlers touch. Nothing here talks
 * to a network.
 */

/** One request a fake service received: its subject, parsed payload and the bus timeout the gateway gave it. */
export interface Received {
  subject: string;
  payload: unknown;
  timeoutMs: number;
}

/** An in-process bus that notes the timeout of every request (what a gateway route lets a service take). */
class RecordingBus extends InProcessBus {
  /** Per subject, the timeouts of requests not yet delivered, oldest first (delivery keeps their order). */
  private readonly timeouts = new Map<string, number[]>();

  override request(subject: string, data: string, options: RequestOptions): Promise<BusDelivery> {
    this.timeouts.set(subject, [...(this.timeouts.get(subject) ?? []), options.timeoutMs]);
    return super.request(subject, data, options);
  }

  /** The timeout of the oldest request on `subject` not yet delivered. */
  takeTimeout(subject: string): number {
    return this.timeouts.get(subject)?.shift() ?? -1;
  }
}

/**
 * quote-builder, relay-tracker and friends as swap-gateway meets them: subscribers on an
 * in-process bus that answer in the reply envelope a real BusServer writes (a thrown
 * AppError travels as its error body), behind a real MessagingClient.
 */
export class FakeServices {
  private readonly recording = new RecordingBus();
  readonly messaging = new MessagingClient(this.recording, { timeoutMs: 1_000 });
  readonly received: Received[] = [];

  /** Serves `subject` with `handler`; what it returns (or throws) is the reply. */
  answer<S extends RpcSubject>(subject: S, handler: (payload: RpcRequest<S>) => RpcReply<S> | Promise<RpcReply<S>>): this {
    return this.serve(subject, (payload, respond) => {
      void (async () => handler(payload as RpcRequest<S>))().then(
        (value) => respond(encodeReply(value)),
        (error: unknown) => respond(encodeErrorReply(error)),
      );
    });
  }

  /** Serves `subject` with a reply whose data is this JSON text, byte for byte (as a service that writes its own JSON does). */
  answerJsonText(subject: RpcSubject, dataJson: string): this {
    return this.serve(subject, (_payload, respond) => respond(`{"ok":true,"data":${dataJson}}`));
  }

  /** Serves `subject` with whatever `reply` does, whenever it does (for replies that take time). */
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

  /** The payloads received on one subject, in order. */
  payloadsOn(subject: RpcSubject): unknown[] {
    return this.received.filter((r) => r.subject === subject).map((r) => r.payload);
  }

  close(): Promise<void> {
    return this.recording.close();
  }
}

/** The parts of a Fastify reply the handlers use: headers set, read back, and a body sent. */
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

/** A Fastify request as the submit-tx limits read it: the client's address and its headers. */
export function fakeRequest(ip: string, headers: Record<string, string | string[]> = {}): FastifyRequest {
  return { ip, headers } as unknown as FastifyRequest;
}

/** quote-builder's registry as swap-gateway mirrors it: the hub, an EVM spoke and Solana. */
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
