import { AppError, ErrorCode, toErrorBody, type ErrorBody } from '@swap/contracts';

export type ReplyEnvelope<T = unknown> = { ok: true; data: T } | { ok: false; error: ErrorBody };

export function encodeReply(value: unknown): string {
  return JSON.stringify({ ok: true, data: value === undefined ? null : value } satisfies ReplyEnvelope);
}

export function encodeErrorReply(error: unknown): string {
  return JSON.stringify({ ok: false, error: toErrorBody(error) } satisfies ReplyEnvelope);
}

export function decodeReply<T>(data: string): ReplyEnvelope<T> {
  let parsed: ReplyEnvelope<T> | undefined;
  try {
    parsed = JSON.parse(data) as ReplyEnvelope<T>;
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.ok !== 'boolean') {
    throw new AppError(502, ErrorCode.DependencyUnavailable, 'An internal service answered with a malformed reply');
  }
  return parsed;
}

const OK_PREFIX = '{"ok":true,"data":';

export function okReplyData(text: string): string | undefined {
  return text.startsWith(OK_PREFIX) && text.endsWith('}') ? text.slice(OK_PREFIX.length, -1) : undefined;
}
