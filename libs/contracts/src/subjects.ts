import type { ApiKeyView, EnforcementMode, Organisation, RouteFamily, Scope } from './domain/api-key';
import type { PortalKeySetChange, PortalKeySetSnapshot, SignedKeySet } from './domain/key-set';
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
  SubmissionStatusResponse,
  SubmissionStreamEvent,
  SubmitTxMessage,
  SubmitTxResponse,
} from './domain/intent';
import type { GasEstimateRequest, GasEstimateResponse, IntentStatusResponse, QuoteMessage, QuoteResponse } from './domain/quote';
import type { ExecuteFrame, SolverExecuteRequest, SolverExecuteResponse } from './domain/solver-api';
import type { IntentBuiltEvent } from './domain/chain-events';
import type {
  CreatedWebhookEndpoint,
  WebhookAttemptView,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEventType,
} from './domain/webhook';
import type { ChainKey, ChainSummary, ChainCatalogSnapshot, Token, TokensByChain } from './domain/token';

/**
 * NATS subjects, named `<service>.<noun>.<verb>.v<N>`; the version changes whenever the
 * message changes shape, so old and new replicas can run side by side during a rollout.
 */
export const Subjects = {
  tokensList: 'quote-builder.tokens.list.v1',
  tokensByChain: 'quote-builder.tokens.by-chain.v1',
  chainGet: 'quote-builder.chains.get.v1',
  catalogSnapshot: 'quote-builder.catalog.snapshot.v2',
  /** catalogSnapshot's name before v2: answered beside it for one release (the previous release's replicas ask it). */
  registrySnapshot: 'quote-builder.registry.snapshot.v1',
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

  submissionSubmit: 'relay-tracker.submissions.submit.v1',
  submissionStatus: 'relay-tracker.submissions.status.v1',
  submissionEvents: 'relay-tracker.submissions.events.v1',
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
  orgSuspend: 'key-registry.orgs.suspend.v1',
  orgLift: 'key-registry.orgs.lift.v1',
  keyCreate: 'key-registry.keys.create.v1',
  keyList: 'key-registry.keys.list.v1',
  keyRevoke: 'key-registry.keys.revoke.v1',
  keyNarrow: 'key-registry.keys.narrow.v1',
  keySetSnapshot: 'key-registry.keyset.snapshot.v2',
  modeList: 'key-registry.modes.list.v1',
  modeSet: 'key-registry.modes.set.v1',
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

/** Request/reply messages: subject → request payload and reply payload. */
export interface RpcContract {
  [Subjects.tokensList]: { request: Record<string, never>; reply: TokensByChain };
  [Subjects.tokensByChain]: { request: { chainKey: ChainKey }; reply: Token[] };
  [Subjects.chainGet]: { request: { chainKey: ChainKey }; reply: ChainSummary };
  [Subjects.catalogSnapshot]: { request: Record<string, never>; reply: ChainCatalogSnapshot };
  [Subjects.registrySnapshot]: { request: Record<string, never>; reply: ChainCatalogSnapshot };
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

  [Subjects.submissionSubmit]: { request: SubmitTxMessage; reply: SubmitTxResponse };
  [Subjects.submissionStatus]: { request: { txHash: string; srcChainKey: ChainKey }; reply: SubmissionStatusResponse };
  /**
   * A submission's stream events after `after` (0 or absent: all), in order, with the seq of
   * its last event and whether that one is terminal; 404 when unknown.
   */
  [Subjects.submissionEvents]: {
    request: { txHash: string; srcChainKey: ChainKey; after?: number };
    reply: { events: SubmissionStreamEvent[]; last: number; terminal: boolean };
  };
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
  [Subjects.orgSuspend]: { request: { orgId: string } & Actor; reply: Organisation };
  [Subjects.orgLift]: { request: { orgId: string } & Actor; reply: Organisation };
  [Subjects.keyCreate]: {
    request: { orgId: string; name: string; keyHash: string; prefix: string } & Actor;
    reply: { apiKey: ApiKeyView };
  };
  [Subjects.keyList]: { request: { orgId: string }; reply: ApiKeyView[] };
  [Subjects.keyRevoke]: { request: { orgId: string; keyId: string } & Actor; reply: { revoked: string } };
  [Subjects.keyNarrow]: { request: { keyId: string; scopes: Scope[] } & Actor; reply: ApiKeyView };
  [Subjects.keySetSnapshot]: { request: Record<string, never>; reply: SignedKeySet<PortalKeySetSnapshot> };
  [Subjects.modeList]: { request: Record<string, never>; reply: ModeSetting[] };
  [Subjects.modeSet]: { request: { family: RouteFamily; mode: EnforcementMode } & Actor; reply: ModeSetting };
}
export type RpcSubject = keyof RpcContract;
export type RpcRequest<S extends RpcSubject> = RpcContract[S]['request'];
export type RpcReply<S extends RpcSubject> = RpcContract[S]['reply'];
/** What a handler or caller of the request `Subjects[N]` (named by its key in Subjects) resolves to. */
export type ReplyOf<N extends keyof typeof Subjects> = Promise<RpcReply<(typeof Subjects)[N]>>;

export const Events = {
  keySetChanged: 'key-registry.keyset.changed.v2',
  sponsoringKeySetChanged: 'sponsorship-keys.keyset.changed.v1',
  solverChanged: 'quote-builder.solvers.changed.v1',
  executionPosted: 'quote-builder.executions.posted.v1',
  replicaPresent: 'quote-builder.replicas.present.v1',
  replicaLeaving: 'quote-builder.replicas.leaving.v1',
  catalogChanged: 'quote-builder.catalog.changed.v2',
  /** catalogChanged's name before v2: sent beside it for one release (the previous release's replicas listen to it). */
  registryChanged: 'quote-builder.registry.changed.v1',
  submissionTransitioned: 'relay-tracker.submissions.transitioned.v2',
  intentBuilt: 'quote-builder.intents.built.v1',
} as const;

/** Fire-and-forget events: subject → payload. Every subscriber (every replica) receives each event. */
export interface EventContract {
  /** Signed by key-registry; a service verifies it before applying anything. */
  [Events.keySetChanged]: SignedKeySet<PortalKeySetChange>;
  /** A hint only: sponsorship-keys reloads its set from its own database, never from the bus. */
  [Events.sponsoringKeySetChanged]: { version: number };
  /** A solver was suspended, lifted or removed: every replica drops or keeps its connections. */
  [Events.solverChanged]: { solverId: string; status: 'active' | 'suspended' | 'removed' };
  /** An intent to hand to connected solvers: the winner only, or everyone once exclusivity ends. */
  [Events.executionPosted]: { frame: ExecuteFrame; audience: 'winner' | 'all' };
  /** A quote-builder replica is up (sent every few seconds): requests for quote wait for its answer. */
  [Events.replicaPresent]: { replica: string };
  /** A replica stopping cleanly: requests for quote stop waiting for its answer. */
  [Events.replicaLeaving]: { replica: string };
  /** A quote-builder replica started with this registry: services reading it from memory take it. */
  [Events.catalogChanged]: ChainCatalogSnapshot;
  [Events.registryChanged]: ChainCatalogSnapshot;
  /**
   * A submission moved on: one event per history entry, in order, sent after the transition
   * was committed (at most once: a stream that sees a gap in `seq` asks for the missing ones).
   * v2 added the stream event (`seq`, the answer's `data` at that transition).
   */
  [Events.submissionTransitioned]: {
    txHash: string;
    srcChainKey: string;
    intentHash: string;
    from: string;
    terminal: boolean;
  } & SubmissionStreamEvent;
  /** quote-builder built an intent; relay-tracker (one replica, a queue group) keeps a build record of it. */
  [Events.intentBuilt]: IntentBuiltEvent;
}

/**
 * Scatter-gather subjects: every replica of the service hears each message and may answer
 * several times (libs/messaging `Bus.gather`). The request for quote goes to every
 * quote-builder replica, whichever holds the connection of each solver.
 */
export const Broadcasts = {
  rfq: 'quote-builder.rfq.broadcast.v1',
} as const;
export type EventSubject = keyof EventContract;

/** Header names carried on every bus message. */
export const MessageHeaders = {
  requestId: 'x-request-id',
  /** The organisation of the API key the request came with, where a key identified one (the bus is a trust boundary). */
  orgId: 'x-org-id',
} as const;

/**
 * Durable work queues (JetStream in cluster mode). The names are fixed here so that a
 * deployment's autoscaler (the chart's KEDA ScaledObject) can name the stream and the
 * consumer whose pending messages it scales relay-tracker on. A deployment with
 * NATS_SUBJECT_PREFIX appends it to the stream and consumer names.
 */
export const WorkQueues = {
  settlement: { stream: 'RELAY_TRACKER_SETTLEMENT', consumer: 'relay-tracker-settlement', subject: 'relay-tracker.settlement.work' },
  /** Webhook deliveries due now (an item per delivery id), sent by relay-tracker's webhook sender. */
  webhooks: { stream: 'RELAY_TRACKER_WEBHOOKS', consumer: 'relay-tracker-webhooks', subject: 'relay-tracker.webhooks.work' },
} as const;

/**
 * Durable event streams (JetStream in cluster mode): the chain followers' batches
 * (ChainEventBatch), read by settlement through one durable consumer shared by the
 * replicas. Kept a day (limits retention), deduplicated by batch id for two minutes.
 */
export const EventStreams = {
  chainEvents: {
    stream: 'RELAY_TRACKER_CHAIN_EVENTS',
    consumer: 'relay-tracker-chain-events',
    subject: 'relay-tracker.chain-events.indexed.v1',
  },
} as const;
