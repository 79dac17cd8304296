/** The portal API (`/portal/api/*`), same origin: the session cookie rides along; every mutation carries the CSRF token. */

import type { Schemas, SubmissionStatus } from '@swap/client/types';

export type Role = 'owner' | 'admin' | 'member';
export interface Membership {
  orgId: string;
  orgName: string;
  role: Role;
}
export interface Me {
  user: { id: string; email: string };
  memberships: Membership[];
}
export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  permissions: string[];
  createdAt: string;
}
export interface Member {
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
}
export interface Invitation {
  id: string;
  email: string;
  role: Role;
  expiresAt: string;
  link?: string;
  /** Answered when created: whether the link was e-mailed, and why not if it was tried and failed. */
  emailSent?: boolean;
  emailError?: string;
}

// The portal API's own types (generated from its OpenAPI document), not copies of them.
/** A swap submitted with the organisation's keys: the status answer's data. */
export type OrgSwap = SubmissionStatus;
export type OrgSwapsPage = Schemas['OrgSwapsPage'];
export type FeeReport = Schemas['OrgFeesReport'];
export type UsageReport = Schemas['OrgUsageReport'];
export type ReadinessReport = Schemas['OrgReadinessReport'];

export type WebhookEvent = 'submission.status' | 'submission.terminal';
export interface WebhookEndpoint {
  id: string;
  url: string;
  description?: string;
  events: WebhookEvent[];
  createdAt: string;
  previousSecretValidUntil?: string;
  failingSince?: string;
  disabledAt?: string;
  disabledReason?: string;
}
export interface WebhookAttempt {
  deliveryId: string;
  ok: boolean;
  statusCode?: number;
  error?: string;
  latencyMs: number;
}
export interface WebhookDelivery {
  id: string;
  type: string;
  txHash?: string;
  seq?: number;
  createdAt: string;
  attempts: number;
  lastStatusCode?: number;
  lastError?: string;
  lastLatencyMs?: number;
  nextAttemptAt?: string;
  delivered: boolean;
  gaveUpAt?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** No answer arrived (a timeout or a network failure): the outcome is unknown. */
    readonly unconfirmed = false,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;

function csrfCookie(): string | undefined {
  return document.cookie
    .split('; ')
    .find((c) => c.startsWith('portal_csrf='))
    ?.slice('portal_csrf='.length);
}

async function csrfToken(): Promise<string> {
  const existing = csrfCookie();
  if (existing) return existing;
  const res = await fetch('/portal/api/auth/csrf', { credentials: 'same-origin' });
  return ((await res.json()) as { csrfToken: string }).csrfToken;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (method !== 'GET') headers['x-csrf-token'] = await csrfToken();
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/portal/api${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new ApiError(0, 'No answer from the portal (the network or a timeout); the outcome is unknown', undefined, true);
  }
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as { message?: string; code?: string }) : undefined;
  if (!res.ok) throw new ApiError(res.status, parsed?.message ?? `The portal answered ${res.status}`, parsed?.code);
  return parsed as T;
}

export const PERMISSION_LABELS: Record<string, string> = { 'swaps:read': 'Read swaps', 'swaps:write': 'Execute swaps' };
