import type { ChainKey, Token, TokensByChain } from './domain/token';

/**
 * NATS subjects, named `<service>.<noun>.<verb>.v<N>`; the version changes whenever the
 * message changes shape, so old and new replicas can run side by side during a rollout.
 */
export const Subjects = {
  tokensList: 'quote-builder.tokens.list.v1',
  tokensByChain: 'quote-builder.tokens.by-chain.v1',
} as const;

/** Request/reply messages: subject → request payload and reply payload. */
export interface RpcContract {
  [Subjects.tokensList]: { request: Record<string, never>; reply: TokensByChain };
  [Subjects.tokensByChain]: { request: { chainKey: ChainKey }; reply: Token[] };
}
export type RpcSubject = keyof RpcContract;
export type RpcRequest<S extends RpcSubject> = RpcContract[S]['request'];
export type RpcReply<S extends RpcSubject> = RpcContract[S]['reply'];

/** Fire-and-forget events: subject → payload. Every subscriber receives each event. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EventContract {}
export type EventSubject = keyof EventContract;

/** Header names carried on every bus message. */
export const MessageHeaders = {
  requestId: 'x-request-id',
} as const;
