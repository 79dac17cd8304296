import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ChainAccess, type CreatedIntent } from '@swap/chains';
import {
  AppError,
  ErrorCode,
  Events,
  SolverErrorCode,
  SolverStatusCode,
  type ExecuteFrame,
  type FilledFrame,
  type Intent,
  type IntentStatusResponse,
  type MarketplaceFrame,
  type QuoteRecord,
  type SolverExecuteRequest,
  type SolverExecuteResponse,
} from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import { activeTraceparent, detached, ServiceMetrics, type Logger } from '@swap/observability';
import { Counter } from 'prom-client';
import { LOGGER } from '@swap/service-kit';
import type { Address, Hex } from 'viem';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { SolverConnections } from '../marketplace/solver-connections';
import type { AuthenticatedSolver } from '../marketplace/solver-accounts.service';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { QuoteRecords } from '../marketplace/quote-records';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import { HubIntentStates } from './hub-intent-states';

const OPEN_ON_CONNECT = 200;
/** A backstop for a replica that died before its exclusivity timer fired. */
const SWEEP_MS = 2_000;
/** An executions row as ExecutionRow reads it, for RETURNING. */
const EXECUTION_ROW = Prisma.raw(
  `intent_hash AS "intentHash", intent_tx_hash AS "intentTxHash", intent, deadline, quote_id AS "quoteId",
   exclusive_solver AS "exclusiveSolver", exclusive_until AS "exclusiveUntil", opened_to_all_at AS "openedToAllAt", trace_parent AS "traceParent"`,
);
/** Lost hand-overs are a bus outage's: an intent is offered again for this long after its execution (a solver connecting later gets it anyway). */
const REOFFER_FOR_MS = 3_600_000;
/** How long a keyless execute's unknown transaction is remembered (at most this many at once). */
const REMEMBER_UNKNOWN_MS = 5_000;
const MAX_REMEMBERED = 10_000;

type ExecutionRow = Awaited<ReturnType<PrismaClient['execution']['findUniqueOrThrow']>>;

/** Intents handed to solvers; see docs/architecture/marketplace.md#execution-and-exclusivity. */
@Injectable()
export class ExecutionService implements OnModuleInit, OnModuleDestroy {
  private readonly timers = new Set<NodeJS.Timeout>();
  private sweeper?: NodeJS.Timeout;
  /** Keyless executes' hub reads by hash: the read in flight (shared), then, if the hub did not know it, its answer until `until`. */
  private readonly lookups = new Map<string, { until: number; read: Promise<CreatedIntent> }>();
  private readonly hubReads: Counter<'outcome'>;
  private readonly fills: Counter<'solver'>;

  constructor(
    private readonly db: PrismaClient,
    private readonly catalog: ChainCatalog,
    private readonly chains: ChainAccess,
    private readonly quotes: QuoteRecords,
    private readonly messaging: MessagingClient,
    private readonly connections: SolverConnections,
    private readonly config: QuoteBuilderConfig,
    private readonly hubIntents: HubIntentStates,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: ServiceMetrics,
  ) {
    this.fills = new Counter({
      name: 'solver_fills_total',
      help: "Intents filled, by the solver whose fill report the hub's IntentFilled event confirmed",
      labelNames: ['solver'],
      registers: [metrics.registry],
    });
    this.hubReads = new Counter({
      name: 'execute_hub_reads_total',
      help: 'Hub reads of an executed transaction (a repeated execute, or a recently unknown transaction, reads nothing)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
  }

  onModuleInit(): void {
    this.connections.onFill(
      (solver, frame) =>
        void this.recordFill(solver, frame).catch((error: Error) =>
          this.logger.warn({ err: error, solver: solver.name }, 'fill report not recorded'),
        ),
    );
    this.connections.onConnect(
      (solver, send) =>
        void this.sendOpen(solver, send).catch((error: Error) =>
          this.logger.warn({ err: error, solver: solver.name }, 'open intents not sent'),
        ),
    );
    this.sweeper = setInterval(() => void this.openDue().then(() => this.offerAgain()), SWEEP_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
    for (const timer of this.timers) clearTimeout(timer);
  }

  /** `rememberUnknown` (the keyless HTTP route): a transaction the hub did not know is answered from memory for a few seconds. */
  async execute(request: SolverExecuteRequest, options: { rememberUnknown?: boolean } = {}): Promise<SolverExecuteResponse> {
    const txHash = request.intent_tx_hash.toLowerCase() as Hex;
    const quote = request.quote_uuid ? await this.quotes.get(request.quote_uuid) : undefined;
    // Executed before: answered from its row, without reading the hub again.
    const known = await this.db.execution.findFirst({
      where: { intentTxHash: txHash },
      select: { intentHash: true, intent: true },
      orderBy: { createdAt: 'asc' },
    });
    const knownIntent = known?.intent as unknown as Intent | undefined;
    if (known && knownIntent && (!quote || sameTokens(knownIntent, quote))) {
      if (quote) checkAgainstQuote(knownIntent, quote);
      return { answer: 'OK', intent_hash: known.intentHash };
    }
    const created = options.rememberUnknown ? await this.createdIntentRemembered(txHash, quote) : await this.createdIntent(txHash, quote);
    if (quote) checkAgainstQuote(created.intent, quote);

    const winner = quote?.solverId ?? null;
    const exclusiveUntil = winner !== null && this.config.EXCLUSIVITY_MS > 0 ? new Date(Date.now() + this.config.EXCLUSIVITY_MS) : null;
    const { count } = await this.db.execution.createMany({
      data: [
        {
          intentHash: created.intentHash,
          intentTxHash: txHash,
          intent: created.intent as unknown as Prisma.InputJsonValue,
          deadline: created.intent.deadline,
          quoteId: quote?.id ?? null,
          exclusiveSolver: exclusiveUntil ? winner : null,
          exclusiveUntil,
          openedToAllAt: exclusiveUntil ? null : new Date(),
          traceParent: activeTraceparent() ?? null,
        },
      ],
      skipDuplicates: true,
    });
    // Once per intent: a repeated execute changes nothing and hands the intent to nobody again.
    if (count === 1) this.post(created.intentHash, exclusiveUntil);
    return { answer: 'OK', intent_hash: created.intentHash };
  }

  /** An intent not reported filled is looked up on the hub: filled there is solved before the solver's report. */
  async status(intentTxHash: string): Promise<IntentStatusResponse> {
    const row = await this.db.execution.findFirst({ where: { intentTxHash: intentTxHash.toLowerCase() }, orderBy: { createdAt: 'asc' } });
    if (!row) return { status: SolverStatusCode.NotFound };
    if (row.status === 'solved')
      return { status: SolverStatusCode.Solved, intentHash: row.intentHash, ...(row.fillTxHash ? { fillTxHash: row.fillTxHash } : {}) };
    const onHub = row.status === 'cancelled' ? 'cancelled' : await this.hubIntents.of(row.intentHash as Hex);
    if (onHub === 'cancelled') return { status: SolverStatusCode.Failed, intentHash: row.intentHash, cancelled: true };
    if (onHub === 'solved') {
      const fillTxHash = await this.fillSeenOnHub(row);
      return { status: SolverStatusCode.Solved, intentHash: row.intentHash, ...(fillTxHash ? { fillTxHash } : {}) };
    }
    const deadline = BigInt(row.deadline.toFixed());
    const expired = deadline !== 0n && deadline < BigInt(Math.floor(Date.now() / 1000));
    return { status: expired ? SolverStatusCode.Failed : SolverStatusCode.InProgress, intentHash: row.intentHash };
  }

  /** For a report still on its way, or a solver that never sends one. */
  private async fillSeenOnHub(row: ExecutionRow): Promise<string | undefined> {
    const hub = this.catalog.chains.hub;
    const intents = this.intentsContract();
    const created = await this.chains.evm(hub, (a) => a.intentEvents(row.intentTxHash as Hex, intents));
    if (!created) return undefined;
    const fill = await this.chains.evm(hub, (a) => a.intentEventTx(intents, 'IntentFilled', row.intentHash as Hex, created.blockNumber));
    if (!fill) return undefined;
    const fillTxHash = fill.toLowerCase();
    await this.db.execution.updateMany({ where: { intentHash: row.intentHash, status: 'posted' }, data: { status: 'solved', fillTxHash } });
    return fillTxHash;
  }

  /** Believed only when the hub's IntentFilled event of that transaction says so. */
  async recordFill(solver: AuthenticatedSolver, frame: FilledFrame): Promise<void> {
    const intentHash = frame.intent_hash.toLowerCase();
    const row = await this.db.execution.findUnique({ where: { intentHash }, select: { status: true, filledBy: true } });
    // A fill already read from the hub still lacks its solver: the report names it.
    if (!row || (row.status === 'solved' && row.filledBy !== null)) return;
    const hub = this.catalog.chains.hub;
    const events = await this.chains.evm(hub, (a) => a.intentEvents(frame.fill_tx_hash as Hex, this.intentsContract()));
    const filled = events?.status === 'success' && events.filled.some((f) => f.intentHash.toLowerCase() === intentHash);
    if (!filled) {
      this.logger.warn(
        { solver: solver.name, intentHash, fillTxHash: frame.fill_tx_hash },
        'fill report not confirmed by the hub; ignored',
      );
      return;
    }
    const { count } = await this.db.execution.updateMany({
      where: { intentHash, OR: [{ status: 'posted' }, { status: 'solved', filledBy: null }] },
      data: { status: 'solved', fillTxHash: frame.fill_tx_hash.toLowerCase(), filledBy: solver.id },
    });
    if (count !== 1) return;
    this.fills.inc({ solver: solver.name });
    this.logger.info({ solver: solver.name, intentHash, fillTxHash: frame.fill_tx_hash }, 'intent filled');
  }

  private createdIntentRemembered(txHash: Hex, quote: QuoteRecord | undefined): Promise<CreatedIntent> {
    const key = `${txHash}:${quote?.id ?? ''}`;
    const held = this.lookups.get(key);
    if (held && held.until > Date.now()) return held.read;
    if (this.lookups.size >= MAX_REMEMBERED) this.lookups.clear();
    const entry = { until: Number.POSITIVE_INFINITY, read: this.createdIntent(txHash, quote) };
    this.lookups.set(key, entry);
    entry.read.then(
      () => this.lookups.delete(key),
      (error: unknown) => {
        if (error instanceof AppError && error.code === ErrorCode.IntentNotFound) entry.until = Date.now() + REMEMBER_UNKNOWN_MS;
        else this.lookups.delete(key);
      },
    );
    return entry.read;
  }

  /** The one of the quote's tokens when the transaction created several. */
  private async createdIntent(txHash: Hex, quote: QuoteRecord | undefined): Promise<CreatedIntent> {
    const hub = this.catalog.chains.hub;
    const intents = this.intentsContract();
    const events = await this.chains.evm(hub, (a) => a.intentEvents(txHash, intents));
    this.hubReads.inc({ outcome: events?.created.length ? 'created' : 'unknown' });
    if (!events) throw new AppError(404, ErrorCode.IntentNotFound, `The hub knows no transaction ${txHash} (not mined yet?)`);
    if (events.status !== 'success' || events.created.length === 0) {
      throw new AppError(404, ErrorCode.IntentNotFound, `Transaction ${txHash} created no intent on the hub's intents contract`);
    }
    const matching = quote ? events.created.find((c) => sameTokens(c.intent, quote)) : undefined;
    return matching ?? events.created[0];
  }

  private post(intentHash: string, exclusiveUntil: Date | null): void {
    void this.db.execution
      .findUniqueOrThrow({ where: { intentHash } })
      .then((row) => {
        const frame = frameOf(row);
        if (!exclusiveUntil) return this.messaging.emit(Events.executionPosted, { frame, audience: 'all' });
        this.messaging.emit(Events.executionPosted, { frame, audience: 'winner' });
        const timer = setTimeout(
          () =>
            detached(() => {
              this.timers.delete(timer);
              void this.openDue();
            }),
          exclusiveUntil.getTime() - Date.now(),
        );
        this.timers.add(timer);
      })
      .catch((error: Error) => this.logger.warn({ err: error, intentHash }, 'intent not handed to solvers'));
  }

  private async openDue(): Promise<void> {
    try {
      const rows = await this.db.$queryRaw<ExecutionRow[]>`
        UPDATE quote_builder.executions SET opened_to_all_at = now()
        WHERE status = 'posted' AND opened_to_all_at IS NULL AND exclusive_until <= now()
        RETURNING ${EXECUTION_ROW}`;
      this.offer(rows, { winnerToo: false });
    } catch (error) {
      this.logger.warn({ err: error }, 'intents past their exclusivity not opened; next sweep retries');
    }
  }

  /**
   * Intents still open REOFFER_MS after they were last offered to everyone go out again (the
   * quote's winner too), claimed by one replica, for REOFFER_FOR_MS after their execution: a
   * hand-over lost on the bus (down at that moment) delays a swap, never strands it.
   */
  private async offerAgain(): Promise<void> {
    try {
      const rows = await this.db.$queryRaw<ExecutionRow[]>`
        UPDATE quote_builder.executions SET opened_to_all_at = now()
        WHERE intent_hash IN (
          SELECT intent_hash FROM quote_builder.executions
          WHERE status = 'posted' AND opened_to_all_at < now() - make_interval(secs => ${this.config.REOFFER_MS / 1000}::double precision)
            AND created_at > now() - make_interval(secs => ${REOFFER_FOR_MS / 1000}::double precision)
            AND (deadline = 0 OR deadline >= extract(epoch FROM now()))
          ORDER BY opened_to_all_at LIMIT ${OPEN_ON_CONNECT} FOR UPDATE SKIP LOCKED)
        RETURNING ${EXECUTION_ROW}`;
      this.offer(rows, { winnerToo: true });
    } catch (error) {
      this.logger.warn({ err: error }, 'open intents not offered again; next sweep retries');
    }
  }

  /** To every replica's solvers; the "all" audience leaves out the quote's winner, whom `winnerToo` adds. */
  private offer(rows: ExecutionRow[], options: { winnerToo: boolean }): void {
    for (const row of rows) {
      const frame = frameOf(row);
      this.messaging.emit(Events.executionPosted, { frame, audience: 'all' });
      if (options.winnerToo && row.exclusiveSolver) this.messaging.emit(Events.executionPosted, { frame, audience: 'winner' });
    }
  }

  private async sendOpen(solver: AuthenticatedSolver, send: (frame: MarketplaceFrame) => void): Promise<void> {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const rows = await this.db.execution.findMany({
      where: { status: 'posted', OR: [{ openedToAllAt: { not: null } }, { exclusiveSolver: solver.id }] },
      orderBy: { createdAt: 'desc' },
      take: OPEN_ON_CONNECT,
    });
    for (const row of rows) {
      const deadline = BigInt(row.deadline.toFixed());
      if (deadline === 0n || deadline >= now) send(frameOf(row));
    }
  }

  private intentsContract(): Address {
    return this.hubIntents.intentsContract();
  }
}

/** Offered again (re-offers, a solver's connect) with the trace of the execute that posted it. */
function frameOf(
  row: Pick<ExecutionRow, 'intentHash' | 'intentTxHash' | 'intent' | 'quoteId' | 'exclusiveSolver' | 'exclusiveUntil' | 'traceParent'>,
): ExecuteFrame {
  const traceparent = row.traceParent;
  return {
    type: 'execute',
    intent_hash: row.intentHash,
    intent_tx_hash: row.intentTxHash,
    intent: row.intent as unknown as Intent,
    quote_uuid: row.quoteId,
    exclusive_until: row.exclusiveUntil ? row.exclusiveUntil.getTime() : null,
    exclusive_solver: row.exclusiveSolver,
    ...(traceparent ? { traceparent } : {}),
  };
}

/** The intent must be what was quoted: the same hub assets, the quoted input, no more output than quoted. */
function checkAgainstQuote(intent: Intent, quote: QuoteRecord): void {
  if (Date.parse(quote.expiresAt) < Date.now()) {
    throw new AppError(410, ErrorCode.QuoteExpired, `Quote ${quote.id} expired at ${quote.expiresAt}`);
  }
  if (!sameAddress(intent.inputToken, quote.hubTokenSrc) || !sameAddress(intent.outputToken, quote.hubTokenDst)) {
    throw new AppError(409, ErrorCode.QuoteMismatch, `The intent swaps other tokens than quote ${quote.id}`, {
      protocolCode: SolverErrorCode.QuoteNotMatch,
    });
  }
  if (intent.inputAmount !== quote.hubAmountIn) {
    throw new AppError(
      409,
      ErrorCode.QuoteMismatch,
      `The intent's inputAmount ${intent.inputAmount} is not the quoted ${quote.hubAmountIn}`,
      { protocolCode: SolverErrorCode.IntentDataNotMatchQuote },
    );
  }
  if (BigInt(intent.minOutputAmount) > BigInt(quote.hubQuotedAmount)) {
    throw new AppError(
      409,
      ErrorCode.QuoteMismatch,
      `The intent asks at least ${intent.minOutputAmount}, more than the quoted ${quote.hubQuotedAmount}`,
      { protocolCode: SolverErrorCode.MaxDiffOutput },
    );
  }
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The intent trades the quote's pair of hub tokens. */
function sameTokens(intent: Pick<Intent, 'inputToken' | 'outputToken'>, quote: QuoteRecord): boolean {
  return sameAddress(intent.inputToken, quote.hubTokenSrc) && sameAddress(intent.outputToken, quote.hubTokenDst);
}
