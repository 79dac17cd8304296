import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What one request carries through every async hop of one service. */
export interface RequestContextData {
  requestId: string;
  /** The organisation of an accepted API key, once key checks know it. */
  orgId?: string;
}

const storage = new AsyncLocalStorage<RequestContextData>();

export const RequestContext = {
  run<T>(context: RequestContextData, fn: () => T): T {
    return storage.run(context, fn);
  },
  current(): RequestContextData | undefined {
    return storage.getStore();
  },
  requestId(): string | undefined {
    return storage.getStore()?.requestId;
  },
};

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The platform's credentials by their prefix (portal keys, sponsoring keys, solver credentials), wherever they stand in a text. */
export const CREDENTIAL_SHAPE = /(svc|spk|slv)_[A-Za-z0-9_-]{8,}/g;

/**
 * The request id to use for an incoming request: the caller's `x-request-id` when it is a
 * sane token (so ids correlate across systems), otherwise a fresh UUID (so a hostile header
 * cannot inject text into logs, nor a key sent there by mistake reach them).
 */
export function resolveRequestId(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && REQUEST_ID_PATTERN.test(value) && !value.match(CREDENTIAL_SHAPE) ? value : randomUUID();
}
