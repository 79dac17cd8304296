import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import type {
  BuildResponse,
  EvmTx,
  ExplorerIntent,
  Intent,
  IntentRequest,
  NetworkTx,
  QuoteRequest,
  QuoteResponse,
  Schemas,
  SubmissionStatus,
  SubmitTxRequest,
  SubmitTxResponse,
  Token,
  VolumePage,
} from './types';
import { SwapApiError } from './errors';
import { watchSubmission, type SubmissionEvent, type WatchOptions } from './watch';

/* The typed client of the public API, generated from its OpenAPI document (schema.ts). */

export function isEvmTx(tx: EvmTx | NetworkTx): tx is EvmTx {
  return !('encoding' in tx) && 'value' in tx;
}
type Query<P extends keyof paths> = paths[P]['get'] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The data API's explorer and config reads (`/v1/be/*`, keyless). */
export interface ExplorerClient {
  /** An intent by the hub transaction that created it (404 → SwapApiError with code INTENT_NOT_FOUND). */
  intentByTx(txHash: string): Promise<ExplorerIntent>;
  intentByHash(intentHash: string): Promise<ExplorerIntent>;
  /** By a source, hub, fill or delivery transaction, or an intent hash. */
  swap(hash: string): Promise<Schemas['SwapLookupDto']>;
  /** A user's intents, newest first: its hub wallet's and those built for its source-chain address. */
  userIntents(userAddress: string, query?: Query<'/v1/be/intent/user/{userAddress}'>): Promise<Schemas['UserIntentsPageDto']>;
  orderbook(query?: Query<'/v1/be/solver/orderbook'>): Promise<Schemas['OrderbookPageDto']>;
  /** One page of fills; pass `nextCursor` as `cursor` (same filters) for the next. */
  volume(query?: Query<'/v1/be/solver/volume'>): Promise<VolumePage>;
  volumeStats(): Promise<Schemas['VolumeStatsDto']>;
  partners(query?: Query<'/v1/be/partners'>): Promise<Schemas['PartnersListDto']>;
  partnerSummary(receiver: string, query?: Query<'/v1/be/partners/{receiver}/summary'>): Promise<Schemas['PartnerSummaryDto']>;
  /** These three: the public client's config shapes. */
  chains(): Promise<string[]>;
  hubAssets(): Promise<Record<string, Record<string, Schemas['HubAssetDto']>>>;
  relayChainIdMap(): Promise<Record<string, number>>;
  /** Per chain key: its kind, EVM chain id (to sign for), relay chain id (in intents), name and aliases. */
  chainMap(): Promise<Schemas['ChainMapEntryDto'][]>;
}

/** The leveraged-yield vaults and their reads from the hub (`/v1/leverage-yield/*`, keyless GETs). */
export interface LeverageYieldClient {
  vaults(): Promise<Schemas['LeverageVaultDto'][]>;
  /** By its name, the share symbol (404 → SwapApiError with code VAULT_NOT_FOUND). */
  vault(name: string): Promise<Schemas['LeverageVaultDto']>;
  asset(vault: string): Promise<string>;
  position(vault: string): Promise<Schemas['VaultPositionDto']>;
  apr(vault: string): Promise<Schemas['VaultAprDto']>;
  effectiveApr(vault: string): Promise<Schemas['VaultEffectiveAprDto']>;
  lsdApr(vault: string): Promise<Schemas['LsdAprDto']>;
  totalAssets(vault: string): Promise<string>;
  /** Shares a deposit of `assets` mints now. */
  previewDeposit(vault: string, assets: string): Promise<string>;
  /** Shares a withdrawal of `assets` burns now. */
  previewWithdraw(vault: string, assets: string): Promise<string>;
  /** Assets redeeming `shares` pays now. */
  previewRedeem(vault: string, shares: string): Promise<string>;
  /** Shares held by a hub wallet (a build's `relayData.address`). */
  shareBalance(vault: string, owner: string): Promise<string>;
  maxWithdraw(vault: string, owner: string): Promise<string>;
  /** Shares for an amount of a spoke token (the partner fee taken off first); with includeTxData also the deposit. */
  quoteDeposit(body: Schemas['DepositQuoteRequestDto'], options?: { includeTxData?: boolean }): Promise<Schemas['VaultQuoteResponseDto']>;
  allowance(body: Schemas['DepositIntentRequestDto']): Promise<Schemas['AllowanceCheckResponseDto']>;
  approve(body: Schemas['DepositIntentRequestDto']): Promise<Schemas['ApproveResponseDto']>;
  /** The unsigned deposit; the shares go to the sender's hub wallet (`relayData.address`). */
  deposit(body: Schemas['DepositIntentRequestDto']): Promise<BuildResponse>;
  /** An amount of the output token for shares; with includeTxData also the withdrawal. */
  quoteWithdraw(body: Schemas['WithdrawQuoteRequestDto'], options?: { includeTxData?: boolean }): Promise<Schemas['VaultQuoteResponseDto']>;
  /** The unsigned withdrawal: a message from srcChainKey to the sender's hub wallet, which spends its shares. */
  withdraw(body: Schemas['WithdrawIntentRequestDto']): Promise<BuildResponse>;
  /** As the swaps' submit: retried where the answer was lost; `inserted` and `duplicate` both mean tracked. */
  submit(body: Schemas['VaultSubmitTxRequestDto'], options?: SubmitOptions): Promise<SubmitTxResponse>;
  /** The swaps' status record, with `operation`. */
  status(txHash: string, srcChainKey: string): Promise<SubmissionStatus>;
  deadline(offsetSeconds?: number): Promise<string>;
  partnerFee(amount: string): Promise<Schemas['PartnerFeeResponseDto']>;
  solverFee(amount: string): Promise<Schemas['SolverFeeResponseDto']>;
  /** The solver's view of an intent by the hub transaction's hash (`-1` unknown … `3` solved, `4` failed). */
  intentStatus(intentTxHash: string): Promise<Schemas['IntentStatusResponseDto']>;
  /** The intent a hub transaction created, and its fill state. */
  intent(hubTxHash: string): Promise<Intent>;
  fill(hubTxHash: string): Promise<Schemas['IntentFillStateDto']>;
  /** The unsigned cancel of a deposit or withdrawal, signed on the chain it came from. */
  cancel(srcChainKey: string, intent: Intent): Promise<Schemas['CancelResponseDto']>;
}

/** The public network's client defaults, which this client applies too. */
export const PUBLIC_CLIENT_DEFAULTS = {
  /** `GET /deadline` without an offset: the hub's block time plus 300 s. */
  deadlineOffsetSeconds: 300,
  /** An intent for any solver. */
  solver: '0x0000000000000000000000000000000000000000',
  /** No extra intent data (a partner fee is encoded by the service). */
  data: '0x',
  pollIntervalMs: 3_000,
} as const;

const TERMINAL = new Set(['solved', 'failed']);

export interface SwapClientOptions {
  /** The platform, e.g. `http://localhost:3000` (the routes carry `/v1/`). */
  baseUrl: string;
  /** Sent as `x-api-key` (a server-side secret: never put it in a browser bundle). */
  apiKey?: string;
  fetch?: typeof globalThis.fetch;
  middleware?: Middleware[];
}

/** How `submit` retries a submit whose answer was lost; see the README's "Submitting is safe to retry". */
export interface SubmitOptions {
  /** How long to keep trying after a 502, 503 or 504 or a failed connection (default 60 s; 0: never retry). */
  retryForMs?: number;
  /** Told of each retry before it waits. */
  onRetry?: (retry: { attempt: number; error: unknown; delayMs: number }) => void;
}

/**
 * A submit answered 502, 503 or 504, or never answered (fetch's own TypeError: "fetch failed",
 * or "terminated" mid-answer): it may have been stored, and is safe to send again. A TypeError
 * of the caller's making (a bad URL, a body JSON cannot write) is not.
 */
export function isLostSubmitAnswer(error: unknown): boolean {
  if (error instanceof SwapApiError) return error.status === 502 || error.status === 503 || error.status === 504;
  return error instanceof TypeError && (error.message === 'fetch failed' || error.message === 'terminated');
}

/** A submit sent again where its answer was lost, for up to a minute (`retryForMs`). */
async function withSubmitRetries(send: () => Promise<SubmitTxResponse>, o: SubmitOptions): Promise<SubmitTxResponse> {
  const until = Date.now() + (Number.isFinite(o.retryForMs) ? o.retryForMs! : 60_000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      // Exponential from 250 ms to 5 s, with jitter so that clients cut off together do not return together.
      const delayMs = Math.round(Math.min(5_000, 250 * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5));
      if (!isLostSubmitAnswer(error) || Date.now() + delayMs > until) throw error;
      o.onRetry?.({ attempt, error, delayMs });
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}

/** An intent request as the public client writes it: `solver` and `data` may be left out. */
export type IntentInput = Omit<IntentRequest, 'solver' | 'data'> & Partial<Pick<IntentRequest, 'solver' | 'data'>>;
export type LimitOrderInput = Omit<Schemas['LimitOrderRequestDto'], 'solver' | 'data'> & Partial<Pick<IntentRequest, 'solver' | 'data'>>;

export interface SwapClient {
  /** Every route, typed from the document: `raw.GET('/v1/swaps/tokens/{chainKey}', …)`. */
  raw: Client<paths>;
  tokens(): Promise<Record<string, Token[]>>;
  tokensOf(chainKey: string): Promise<Token[]>;
  quote(body: QuoteRequest, options?: { includeTxData?: boolean }): Promise<QuoteResponse>;
  deadline(offsetSeconds?: number): Promise<string>;
  partnerFee(amount: string): Promise<Schemas['PartnerFeeResponseDto']>;
  /** The solvers' fee on an input amount (the deployment's basis points, 0.1% by default). */
  solverFee(amount: string): Promise<Schemas['SolverFeeResponseDto']>;
  allowance(body: IntentInput): Promise<Schemas['AllowanceCheckResponseDto']>;
  approve(body: IntentInput): Promise<Schemas['ApproveResponseDto']>;
  buildIntent(body: IntentInput): Promise<BuildResponse>;
  /** A limit order: the intent body without a deadline; the intent carries deadline 0. */
  limitOrder(body: LimitOrderInput): Promise<BuildResponse>;
  cancel(srcChainKey: string, intent: Intent): Promise<Schemas['CancelResponseDto']>;
  /**
   * Submits the broadcast transaction, retried with backoff for up to a minute where the answer
   * was lost (idempotent: `inserted` and `duplicate` both mean the swap is tracked).
   */
  submit(body: SubmitTxRequest, options?: SubmitOptions): Promise<SubmitTxResponse>;
  status(txHash: string, srcChainKey: string): Promise<SubmissionStatus>;
  /** Polls the status every `intervalMs` (3 s) until solved or failed, calling `onStatus` on each change. */
  waitForSettlement(
    txHash: string,
    srcChainKey: string,
    options?: { intervalMs?: number; timeoutMs?: number; onStatus?: (s: SubmissionStatus) => void },
  ): Promise<SubmissionStatus>;
  /** Each transition once, in order, until solved or failed; resumes a broken stream, polls without one (watch.ts). */
  watchSubmission(txHash: string, srcChainKey: string, options?: Omit<WatchOptions, 'fetch'>): AsyncGenerator<SubmissionEvent>;
  explorer: ExplorerClient;
  leverageYield: LeverageYieldClient;
}

export function createSwapClient(options: SwapClientOptions): SwapClient {
  const raw = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: options.fetch,
    headers: options.apiKey ? { 'x-api-key': options.apiKey } : {},
  });
  for (const m of options.middleware ?? []) raw.use(m);
  const ok = async <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => {
    const { data, error, response } = await call;
    if (!response.ok || data === undefined) throw new SwapApiError(response.status, error, response.headers.get('x-request-id'));
    return data;
  };
  const intent = (body: IntentInput): IntentRequest => ({
    solver: PUBLIC_CLIENT_DEFAULTS.solver,
    data: PUBLIC_CLIENT_DEFAULTS.data,
    ...body,
  });

  const explorer: ExplorerClient = {
    intentByTx: (txHash) => ok(raw.GET('/v1/be/intent/tx/{txHash}', { params: { path: { txHash } } })),
    intentByHash: (intentHash) => ok(raw.GET('/v1/be/intent/{intentHash}', { params: { path: { intentHash } } })),
    swap: (hash) => ok(raw.GET('/v1/be/intent/swap/{hash}', { params: { path: { hash } } })),
    userIntents: (userAddress, query) => ok(raw.GET('/v1/be/intent/user/{userAddress}', { params: { path: { userAddress }, query } })),
    orderbook: (query) => ok(raw.GET('/v1/be/solver/orderbook', { params: { query } })),
    volume: (query) => ok(raw.GET('/v1/be/solver/volume', { params: { query } })),
    volumeStats: () => ok(raw.GET('/v1/be/solver/volume/stats')),
    partners: (query) => ok(raw.GET('/v1/be/partners', { params: { query } })),
    partnerSummary: (receiver, query) => ok(raw.GET('/v1/be/partners/{receiver}/summary', { params: { path: { receiver }, query } })),
    chains: () => ok(raw.GET('/v1/be/config/spoke/chains')) as Promise<string[]>,
    hubAssets: () => ok(raw.GET('/v1/be/config/hub/assets')) as Promise<Record<string, Record<string, Schemas['HubAssetDto']>>>,
    relayChainIdMap: () => ok(raw.GET('/v1/be/config/relay/chain-id-map')) as Promise<Record<string, number>>,
    chainMap: () => ok(raw.GET('/v1/be/config/chains')),
  };

  const leverageYield: LeverageYieldClient = {
    vaults: () => ok(raw.GET('/v1/leverage-yield/vaults')),
    vault: (name) => ok(raw.GET('/v1/leverage-yield/vaults/{name}', { params: { path: { name } } })),
    asset: async (vault) => (await ok(raw.GET('/v1/leverage-yield/asset', { params: { query: { vault } } }))).asset,
    position: (vault) => ok(raw.GET('/v1/leverage-yield/position', { params: { query: { vault } } })),
    apr: (vault) => ok(raw.GET('/v1/leverage-yield/apr', { params: { query: { vault } } })),
    effectiveApr: (vault) => ok(raw.GET('/v1/leverage-yield/apr/effective', { params: { query: { vault } } })),
    lsdApr: (vault) => ok(raw.GET('/v1/leverage-yield/apr/lsd', { params: { query: { vault } } })),
    totalAssets: async (vault) => (await ok(raw.GET('/v1/leverage-yield/total-assets', { params: { query: { vault } } }))).totalAssets,
    previewDeposit: async (vault, assets) =>
      (await ok(raw.GET('/v1/leverage-yield/preview/deposit', { params: { query: { vault, assets } } }))).shares,
    previewWithdraw: async (vault, assets) =>
      (await ok(raw.GET('/v1/leverage-yield/preview/withdraw', { params: { query: { vault, assets } } }))).shares,
    previewRedeem: async (vault, shares) =>
      (await ok(raw.GET('/v1/leverage-yield/preview/redeem', { params: { query: { vault, shares } } }))).assets,
    shareBalance: async (vault, owner) =>
      (await ok(raw.GET('/v1/leverage-yield/share-balance', { params: { query: { vault, owner } } }))).balance,
    maxWithdraw: async (vault, owner) =>
      (await ok(raw.GET('/v1/leverage-yield/max-withdraw', { params: { query: { vault, owner } } }))).maxWithdraw,
    quoteDeposit: (body, o) =>
      ok(
        raw.POST('/v1/leverage-yield/quote/deposit', { body, params: { query: o?.includeTxData ? { includeTxData: 'true' } : undefined } }),
      ),
    allowance: (body) => ok(raw.POST('/v1/leverage-yield/allowance/check', { body })),
    approve: (body) => ok(raw.POST('/v1/leverage-yield/approve', { body })),
    deposit: (body) => ok(raw.POST('/v1/leverage-yield/intents/deposit', { body })),
    quoteWithdraw: (body, o) =>
      ok(
        raw.POST('/v1/leverage-yield/quote/withdraw', {
          body,
          params: { query: o?.includeTxData ? { includeTxData: 'true' } : undefined },
        }),
      ),
    withdraw: (body) => ok(raw.POST('/v1/leverage-yield/intents/withdraw', { body })),
    submit: (body, o = {}) => withSubmitRetries(() => ok(raw.POST('/v1/leverage-yield/submit-tx', { body })), o),
    status: async (txHash, srcChainKey) =>
      (await ok(raw.GET('/v1/leverage-yield/submit-tx/status', { params: { query: { txHash, srcChainKey } } }))).data,
    deadline: async (offsetSeconds = PUBLIC_CLIENT_DEFAULTS.deadlineOffsetSeconds) =>
      (await ok(raw.GET('/v1/leverage-yield/deadline', { params: { query: { offsetSeconds: String(offsetSeconds) } } }))).deadline,
    partnerFee: (amount) => ok(raw.GET('/v1/leverage-yield/fees/partner', { params: { query: { amount } } })),
    solverFee: (amount) => ok(raw.GET('/v1/leverage-yield/fees/solver', { params: { query: { amount } } })),
    intentStatus: (intentTxHash) => ok(raw.POST('/v1/leverage-yield/intents/status', { body: { intentTxHash } })),
    intent: (txHash) => ok(raw.GET('/v1/leverage-yield/intents/{txHash}', { params: { path: { txHash } } })) as Promise<Intent>,
    fill: (txHash) => ok(raw.GET('/v1/leverage-yield/intents/{txHash}/fill', { params: { path: { txHash } } })),
    cancel: (srcChainKey, i) => ok(raw.POST('/v1/leverage-yield/intents/cancel', { body: { srcChainKey, intent: i } })),
  };

  const client: SwapClient = {
    raw,
    explorer,
    leverageYield,
    watchSubmission: (txHash, srcChainKey, o = {}) =>
      watchSubmission(options.baseUrl, txHash, srcChainKey, {
        ...o,
        fetch: options.fetch,
        headers: { ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}), ...o.headers },
      }),
    tokens: () => ok(raw.GET('/v1/swaps/tokens')) as Promise<Record<string, Token[]>>,
    tokensOf: (chainKey) => ok(raw.GET('/v1/swaps/tokens/{chainKey}', { params: { path: { chainKey } } })),
    quote: (body, o) =>
      ok(raw.POST('/v1/swaps/quote', { body, params: { query: o?.includeTxData ? { includeTxData: 'true' } : undefined } })),
    deadline: async (offsetSeconds = PUBLIC_CLIENT_DEFAULTS.deadlineOffsetSeconds) =>
      (await ok(raw.GET('/v1/swaps/deadline', { params: { query: { offsetSeconds: String(offsetSeconds) } } }))).deadline,
    partnerFee: (amount) => ok(raw.GET('/v1/swaps/fees/partner', { params: { query: { amount } } })),
    solverFee: (amount) => ok(raw.GET('/v1/swaps/fees/solver', { params: { query: { amount } } })),
    allowance: (body) => ok(raw.POST('/v1/swaps/allowance/check', { body: intent(body) })),
    approve: (body) => ok(raw.POST('/v1/swaps/approve', { body: intent(body) })),
    buildIntent: (body) => ok(raw.POST('/v1/swaps/intents', { body: intent(body) })),
    limitOrder: (body) =>
      ok(
        raw.POST('/v1/swaps/limit-orders', { body: { solver: PUBLIC_CLIENT_DEFAULTS.solver, data: PUBLIC_CLIENT_DEFAULTS.data, ...body } }),
      ),
    cancel: (srcChainKey, i) => ok(raw.POST('/v1/swaps/intents/cancel', { body: { srcChainKey, intent: i } })),
    submit: (body, o = {}) => withSubmitRetries(() => ok(raw.POST('/v1/swaps/submit-tx', { body })), o),
    status: async (txHash, srcChainKey) =>
      (await ok(raw.GET('/v1/swaps/submit-tx/status', { params: { query: { txHash, srcChainKey } } }))).data,
    async waitForSettlement(txHash, srcChainKey, o = {}) {
      const interval = o.intervalMs ?? PUBLIC_CLIENT_DEFAULTS.pollIntervalMs;
      const until = Date.now() + (o.timeoutMs ?? 10 * 60_000);
      let last = '';
      for (;;) {
        const s = await client.status(txHash, srcChainKey);
        if (s.status !== last) o.onStatus?.(s);
        last = s.status;
        if (TERMINAL.has(s.status)) return s;
        if (Date.now() > until)
          throw new Error(
            `Still ${s.status} after ${Math.round((o.timeoutMs ?? 600_000) / 1000)} s; poll again later (the status is kept)`,
          );
        await new Promise((r) => setTimeout(r, interval));
      }
    },
  };
  return client;
}
