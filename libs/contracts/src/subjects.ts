import type { ApiKeyView, EnforcementMode, Organisation, RouteFamily } from './domain/api-key';
import type { OrgReadiness, UsageBatch, UsageInterval, UsageReport } from './domain/usage';
import type { PortalKeySetChange, PortalKeySetSnapshot, SignedKeySet, SignedPayload, V2 } from './domain/key-set';
import type {
  AllowanceCheckResponse,
  ApproveResponse,
  BuildResponse,
  CancelRequest,
  CancelResponse,
  IntentRequest,
  PartnerFee,
  PartnerFeeResponse,
} from './domain/build';
import type {
  Intent,
  IntentExtraDataRequest,
  IntentPacketRequest,
  IntentPacketResponse,
  IntentSubmitRequest,
  IntentSubmitResponse,
  RelayDataView,
  OrgFeeRow,
  SubmissionStatus,
  SubmissionStatusData,
  SubmissionStatusResponse,
  SubmissionStreamEvent,
  SubmitTxMessage,
  SubmitTxResponse,
} from './domain/intent';
import type { GasEstimateRequest, GasEstimateResponse, IntentStatusResponse, QuoteMessage, QuoteResponse } from './domain/quote';
import type { ExecuteFrame, SolverExecuteRequest, SolverExecuteResponse } from './domain/solver-api';
import type { IntentBuiltEvent } from './domain/chain-events';
import type {
  DepositIntentRequest,
  DepositQuoteMessage,
  IntentLookup,
  VaultRead,
  VaultReadRequest,
  VaultReads,
  WithdrawIntentRequest,
  WithdrawQuoteMessage,
} from './domain/leverage-yield';
import type {
  CreatedWebhookEndpoint,
  WebhookAttemptView,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEventType,
} from './domain/webhook';
import type { ChainKey, ChainSummary, ChainCatalogSnapshot, Token, TokensByChain } from './domain/token';

/** The version changes with the message's shape, so old and new replicas run side by side in a rollout. */
export const Subjects = {
  tokensList: 'quote-builder.tokens.list.v1',
  tokensByChain: 'quote-builder.tokens.by-chain.v1',
  chainGet: 'quote-builder.chains.get.v1',
  /** Signed by quote-builder (CATALOG_SIGNING_KEY): docs/architecture/bus-signatures.md#the-chain-catalog. */
  catalogSnapshot: 'quote-builder.catalog.snapshot.v3',
  /** v2, unsigned: answered beside v3 for one release (the previous release's replicas ask it); remove in the next. */
  catalogSnapshotV2: 'quote-builder.catalog.snapshot.v2',
  intentHash: 'quote-builder.intents.hash.v1',
  intentBuild: 'quote-builder.intents.build.v1',
  intentCancel: 'quote-builder.intents.cancel.v1',
  allowanceCheck: 'quote-builder.allowance.check.v1',
  approveBuild: 'quote-builder.allowance.approve.v1',
  deadline: 'quote-builder.deadline.get.v1',
  partnerFee: 'quote-builder.fees.partner.v1',
  quoteRequest: 'quote-builder.quotes.request.v1',
  limitOrderBuild: 'quote-builder.limit-orders.build.v1',
  gasEstimate: 'quote-builder.gas.estimate.v1',
  intentExecute: 'quote-builder.intents.execute.v1',
  intentSolverStatus: 'quote-builder.intents.solver-status.v1',
  vaultRead: 'quote-builder.vaults.read.v1',
  vaultQuote: 'quote-builder.vaults.quote.v1',
  vaultDeposit: 'quote-builder.vaults.deposit.v1',
  vaultAllowanceCheck: 'quote-builder.vaults.allowance-check.v1',
  vaultApprove: 'quote-builder.vaults.approve.v1',
  vaultWithdrawQuote: 'quote-builder.vaults.withdraw-quote.v1',
  vaultWithdraw: 'quote-builder.vaults.withdraw.v1',
  intentLookup: 'quote-builder.intents.lookup.v1',

  submissionSubmit: 'relay-tracker.submissions.submit.v1',
  submissionStatus: 'relay-tracker.submissions.status.v1',
  submissionEvents: 'relay-tracker.submissions.events.v1',
  orgSwapList: 'relay-tracker.org-swaps.list.v1',
  orgSwapGet: 'relay-tracker.org-swaps.get.v1',
  orgSwapFees: 'relay-tracker.org-swaps.fees.v1',
  webhookCreate: 'relay-tracker.webhooks.create.v1',
  webhookList: 'relay-tracker.webhooks.list.v1',
  webhookDelete: 'relay-tracker.webhooks.delete.v1',
  webhookRotate: 'relay-tracker.webhooks.rotate.v1',
  webhookTest: 'relay-tracker.webhooks.test.v1',
  webhookDeliveries: 'relay-tracker.webhooks.deliveries.v1',
  webhookReplay: 'relay-tracker.webhooks.replay.v1',
  relayPacket: 'relay-tracker.relay.packet.v1',
  relayExtraData: 'relay-tracker.relay.extra-data.v1',
  relaySubmit: 'relay-tracker.relay.submit.v1',

  orgCreate: 'key-registry.orgs.create.v1',
  orgList: 'key-registry.orgs.list.v1',
  keyCreate: 'key-registry.keys.create.v1',
  keyList: 'key-registry.keys.list.v1',
  keyRevoke: 'key-registry.keys.revoke.v1',
  /** v3 carries per-route modes (routeModes). */
  keySetSnapshot: 'key-registry.keyset.snapshot.v3',
  /** v2, without routeModes: answered beside v3 for one release (the previous release's replicas ask it); remove in the next. */
  keySetSnapshotV2: 'key-registry.keyset.snapshot.v2',
  usageRecord: 'key-registry.usage.record.v1',
  usageReport: 'key-registry.usage.report.v1',
  usageReadiness: 'key-registry.usage.readiness.v1',
} as const;

/** Who asked for a change, for the audit record. */
export interface Actor {
  actor: string;
}

export interface ModeSetting {
  family: RouteFamily;
  mode: EnforcementMode;
  updatedAt: string;
  updatedBy: string;
}

export interface RpcContract {
  [Subjects.tokensList]: { request: Record<string, never>; reply: TokensByChain };
  [Subjects.tokensByChain]: { request: { chainKey: ChainKey }; reply: Token[] };
  [Subjects.chainGet]: { request: { chainKey: ChainKey }; reply: ChainSummary };
  [Subjects.catalogSnapshot]: { request: Record<string, never>; reply: SignedPayload<ChainCatalogSnapshot> };
  [Subjects.catalogSnapshotV2]: { request: Record<string, never>; reply: ChainCatalogSnapshot };
  [Subjects.intentHash]: { request: { intent: Intent }; reply: { hash: string } };
  [Subjects.intentBuild]: { request: IntentRequest; reply: BuildResponse };
  [Subjects.intentCancel]: { request: CancelRequest; reply: CancelResponse };
  [Subjects.allowanceCheck]: { request: IntentRequest; reply: AllowanceCheckResponse };
  [Subjects.approveBuild]: { request: IntentRequest; reply: ApproveResponse };
  [Subjects.deadline]: { request: { offsetSeconds: number }; reply: { deadline: string } };
  [Subjects.partnerFee]: { request: { amount: string; partnerFee?: PartnerFee }; reply: PartnerFeeResponse };
  [Subjects.quoteRequest]: { request: QuoteMessage; reply: QuoteResponse };
  [Subjects.limitOrderBuild]: { request: Omit<IntentRequest, 'deadline'>; reply: BuildResponse };
  [Subjects.gasEstimate]: { request: GasEstimateRequest; reply: GasEstimateResponse };
  [Subjects.intentExecute]: { request: SolverExecuteRequest; reply: SolverExecuteResponse };
  [Subjects.intentSolverStatus]: { request: { intentTxHash: string }; reply: IntentStatusResponse };
  [Subjects.vaultRead]: { request: VaultReadRequest; reply: VaultReads[VaultRead] };
  [Subjects.vaultQuote]: { request: DepositQuoteMessage; reply: QuoteResponse };
  [Subjects.vaultDeposit]: { request: DepositIntentRequest; reply: BuildResponse };
  [Subjects.vaultAllowanceCheck]: { request: DepositIntentRequest; reply: AllowanceCheckResponse };
  [Subjects.vaultApprove]: { request: DepositIntentRequest; reply: ApproveResponse };
  [Subjects.vaultWithdrawQuote]: { request: WithdrawQuoteMessage; reply: QuoteResponse };
  [Subjects.vaultWithdraw]: { request: WithdrawIntentRequest; reply: BuildResponse };
  [Subjects.intentLookup]: { request: { txHash: string }; reply: IntentLookup };

  [Subjects.submissionSubmit]: { request: SubmitTxMessage; reply: SubmitTxResponse };
  [Subjects.submissionStatus]: { request: { txHash: string; srcChainKey: ChainKey }; reply: SubmissionStatusResponse };
  /** Events after `after` (0 or absent: all); 404 when unknown. */
  [Subjects.submissionEvents]: {
    request: { txHash: string; srcChainKey: ChainKey; after?: number };
    reply: { events: SubmissionStreamEvent[]; last: number; terminal: boolean };
  };
  /** Swaps submitted with the organisation's keys, newest first; `nextCursor` while more follow. */
  [Subjects.orgSwapList]: {
    request: { orgId: string; cursor?: string; status?: SubmissionStatus; txHash?: string; limit?: number };
    reply: { swaps: SubmissionStatusData[]; nextCursor?: string };
  };
  /** 404 unless submitted with the organisation's keys. */
  [Subjects.orgSwapGet]: { request: { orgId: string; txHash: string; srcChainKey: ChainKey }; reply: SubmissionStatusData };
  /** Partner fees of the organisation's solved swaps solved in [from, to), per UTC day, hub input token and receiver. */
  [Subjects.orgSwapFees]: { request: { orgId: string; from: string; to: string }; reply: { fees: OrgFeeRow[] } };
  [Subjects.webhookCreate]: {
    request: { orgId: string; url: string; description?: string; events?: WebhookEventType[] } & Actor;
    reply: CreatedWebhookEndpoint;
  };
  [Subjects.webhookList]: { request: { orgId: string }; reply: WebhookEndpointView[] };
  [Subjects.webhookDelete]: { request: { orgId: string; id: string } & Actor; reply: { deleted: string } };
  [Subjects.webhookRotate]: { request: { orgId: string; id: string } & Actor; reply: CreatedWebhookEndpoint };
  [Subjects.webhookTest]: { request: { orgId: string; id: string } & Actor; reply: WebhookAttemptView };
  [Subjects.webhookDeliveries]: {
    request: { orgId: string; id: string; cursor?: string };
    reply: { deliveries: WebhookDeliveryView[]; nextCursor?: string };
  };
  [Subjects.webhookReplay]: { request: { orgId: string; id: string; deliveryId: string } & Actor; reply: WebhookDeliveryView };
  [Subjects.relayPacket]: { request: IntentPacketRequest; reply: IntentPacketResponse };
  [Subjects.relayExtraData]: { request: IntentExtraDataRequest; reply: RelayDataView };
  [Subjects.relaySubmit]: { request: IntentSubmitRequest; reply: IntentSubmitResponse };

  [Subjects.orgCreate]: { request: { name: string } & Actor; reply: Organisation };
  [Subjects.orgList]: { request: Record<string, never>; reply: Organisation[] };
  [Subjects.keyCreate]: {
    request: { orgId: string; name: string; keyHash: string; prefix: string } & Actor;
    reply: { apiKey: ApiKeyView };
  };
  [Subjects.keyList]: { request: { orgId: string }; reply: ApiKeyView[] };
  [Subjects.keyRevoke]: { request: { orgId: string; keyId: string } & Actor; reply: { revoked: string } };
  [Subjects.keySetSnapshot]: { request: Record<string, never>; reply: SignedKeySet<PortalKeySetSnapshot> };
  [Subjects.keySetSnapshotV2]: { request: Record<string, never>; reply: SignedKeySet<V2<PortalKeySetSnapshot>> };
  /** From swap-gateway: written once per batchId. */
  [Subjects.usageRecord]: { request: UsageBatch; reply: { rows: number; duplicate: boolean; rejected: number } };
  [Subjects.usageReport]: {
    request: { orgId: string; from: string; to: string; interval: UsageInterval; keyId?: string };
    reply: UsageReport;
  };
  [Subjects.usageReadiness]: { request: { orgId: string }; reply: OrgReadiness };
}
export type RpcSubject = keyof RpcContract;
export type RpcRequest<S extends RpcSubject> = RpcContract[S]['request'];
export type RpcReply<S extends RpcSubject> = RpcContract[S]['reply'];
/** What a handler or caller of the request `Subjects[N]` (named by its key in Subjects) resolves to. */
export type ReplyOf<N extends keyof typeof Subjects> = Promise<RpcReply<(typeof Subjects)[N]>>;

export const Events = {
  keySetChanged: 'key-registry.keyset.changed.v3',
  /** v2, without routeModes: sent beside v3 for one release; remove in the next. */
  keySetChangedV2: 'key-registry.keyset.changed.v2',
  sponsoringKeySetChanged: 'sponsorship-keys.keyset.changed.v1',
  solverChanged: 'quote-builder.solvers.changed.v1',
  executionPosted: 'quote-builder.executions.posted.v1',
  replicaPresent: 'quote-builder.replicas.present.v1',
  replicaLeaving: 'quote-builder.replicas.leaving.v1',
  /** Signed like catalogSnapshot. */
  catalogChanged: 'quote-builder.catalog.changed.v3',
  /** v2, unsigned: sent beside v3 for one release (the previous release's replicas listen to it); remove in the next. */
  catalogChangedV2: 'quote-builder.catalog.changed.v2',
  submissionTransitioned: 'relay-tracker.submissions.transitioned.v2',
  intentBuilt: 'quote-builder.intents.built.v1',
} as const;

/** Every subscriber (every replica) receives each event. */
export interface EventContract {
  /** Signed by key-registry; a service verifies it before applying anything. */
  [Events.keySetChanged]: SignedKeySet<PortalKeySetChange>;
  [Events.keySetChangedV2]: SignedKeySet<V2<PortalKeySetChange>>;
  /** A hint only: sponsorship-keys reloads its set from its own database, never from the bus. */
  [Events.sponsoringKeySetChanged]: { version: number };
  [Events.solverChanged]: { solverId: string; status: 'active' | 'suspended' | 'removed' };
  [Events.executionPosted]: { frame: ExecuteFrame; audience: 'winner' | 'all' };
  /** Sent every few seconds: requests for quote wait for this replica's answer. */
  [Events.replicaPresent]: { replica: string };
  [Events.replicaLeaving]: { replica: string };
  [Events.catalogChanged]: SignedPayload<ChainCatalogSnapshot>;
  [Events.catalogChangedV2]: ChainCatalogSnapshot;
  /** After commit, in order, at most once: a stream that sees a gap in `seq` asks for the missing ones. */
  [Events.submissionTransitioned]: {
    txHash: string;
    srcChainKey: string;
    intentHash: string;
    from: string;
    terminal: boolean;
  } & SubmissionStreamEvent;
  [Events.intentBuilt]: IntentBuiltEvent;
}

/** Scatter-gather (`Bus.gather`): every replica hears each message and may answer several times. */
export const Broadcasts = {
  rfq: 'quote-builder.rfq.broadcast.v1',
} as const;
export type EventSubject = keyof EventContract;

export const MessageHeaders = {
  requestId: 'x-request-id',
  /** The API key's organisation, where a key identified one (the bus is a trust boundary). */
  orgId: 'x-org-id',
  /** A signed request's signature and what it covers besides subject and body: docs/architecture/bus-signatures.md#signed-requests. */
  signature: 'x-signature',
  signatureKeyId: 'x-signature-key-id',
  signedAt: 'x-signed-at',
  signatureNonce: 'x-signature-nonce',
} as const;

/** The SigningKeys entry (libs/messaging) of a signed request's one sender. */
export type RequestSigningPurpose = 'portal' | 'usage';

/** Served only signed by their sender: the portal's audited changes, swap-gateway's usage (docs/architecture/bus-signatures.md#signed-requests). */
export const SignedRequests: ReadonlyMap<string, RequestSigningPurpose> = new Map<string, RequestSigningPurpose>([
  [Subjects.orgCreate, 'portal'],
  [Subjects.keyCreate, 'portal'],
  [Subjects.keyRevoke, 'portal'],
  [Subjects.webhookCreate, 'portal'],
  [Subjects.webhookDelete, 'portal'],
  [Subjects.webhookRotate, 'portal'],
  [Subjects.webhookTest, 'portal'],
  [Subjects.webhookReplay, 'portal'],
  [Subjects.usageRecord, 'usage'],
]);

/** Names fixed for the chart's KEDA ScaledObject; NATS_SUBJECT_PREFIX is appended to stream and consumer names. */
export const WorkQueues = {
  settlement: { stream: 'RELAY_TRACKER_SETTLEMENT', consumer: 'relay-tracker-settlement', subject: 'relay-tracker.settlement.work' },
  webhooks: { stream: 'RELAY_TRACKER_WEBHOOKS', consumer: 'relay-tracker-webhooks', subject: 'relay-tracker.webhooks.work' },
} as const;

/** One durable consumer shared by the replicas; kept a day, deduplicated by batch id for two minutes. */
export const EventStreams = {
  chainEvents: {
    stream: 'RELAY_TRACKER_CHAIN_EVENTS',
    consumer: 'relay-tracker-chain-events',
    subject: 'relay-tracker.chain-events.indexed.v1',
  },
} as const;
