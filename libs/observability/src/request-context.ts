import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface RequestContextData {
  requestId: string;
  orgId?: string;
}

/** Where the context lives: its own store, or (tracing on) OpenTelemetry's, so one store is carried across async work, not two. */
export interface RequestContextStore {
  run<T>(context: RequestContextData, fn: () => T): T;
  get(): RequestContextData | undefined;
}

const storage = new AsyncLocalStorage<RequestContextData>();
let store: RequestContextStore = { run: (context, fn) => storage.run(context, fn), get: () => storage.getStore() };

/** Called once by startTracing, before any request. */
export function keepRequestContextIn(other: RequestContextStore): void {
  store = other;
}

export const RequestContext = {
  run<T>(context: RequestContextData, fn: () => T): T {
    return store.run(context, fn);
  },
  current(): RequestContextData | undefined {
    return store.get();
  },
  requestId(): string | undefined {
    return store.get()?.requestId;
  },
};

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export const CREDENTIAL_SHAPE = /(svc|spk|slv)_[A-Za-z0-9_-]{8,}/g;

/** The caller's id when sane, so ids correlate; never one that injects text or carries a key. */
export function resolveRequestId(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && REQUEST_ID_PATTERN.test(value) && !value.match(CREDENTIAL_SHAPE) ? value : randomUUID();
}
