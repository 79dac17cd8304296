/** What a webhook endpoint receives: `submission.status` every transition, `submission.terminal` only solved and failed. */
export const WEBHOOK_EVENT_TYPES = ['submission.status', 'submission.terminal'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookEndpointView {
  id: string;
  url: string;
  description?: string;
  events: WebhookEventType[];
  createdAt: string;
  /** After a rotation the previous secret still signs, beside the new one, until then. */
  previousSecretValidUntil?: string;
  /** Every delivery has failed since then (cleared by a success). */
  failingSince?: string;
  /** Disabled after failing for 3 days: nothing is sent to it; why, for its owners. */
  disabledAt?: string;
  disabledReason?: string;
}

/** The secret is shown this once. */
export interface CreatedWebhookEndpoint extends WebhookEndpointView {
  secret: string;
}

export interface WebhookDeliveryView {
  id: string;
  type: string;
  txHash?: string;
  srcChainKey?: string;
  seq?: number;
  createdAt: string;
  attempts: number;
  lastAttemptAt?: string;
  lastStatusCode?: number;
  lastError?: string;
  lastLatencyMs?: number;
  nextAttemptAt?: string;
  delivered: boolean;
  deliveredAt?: string;
  gaveUpAt?: string;
}

/** What one attempt came to (a test, answered at once). */
export interface WebhookAttemptView {
  deliveryId: string;
  ok: boolean;
  statusCode?: number;
  error?: string;
  latencyMs: number;
}
