import { Inject, Injectable } from '@nestjs/common';
import type { ChainInfo } from '@swap/chains';
import {
  AppError,
  ErrorCode,
  EVM_HASH_PATTERN,
  isEvmAddressText,
  type ExplorerIntent,
  type FieldViolation,
  type OrderbookPage,
  type PartnerSummary,
  type PartnersList,
  type UserIntentsPage,
  type VolumePage,
  type VolumeStats,
} from '@swap/contracts';
import { DATABASE_POOL } from '@swap/service-kit';
import { getBase58Encoder } from '@solana/kit';
import type pg from 'pg';
import { toHex } from 'viem';
import { SettlementChains } from '../settlement/settlement-chains';
import {
  decodeCursor,
  encodeCursor,
  intentColumns,
  toIntent,
  toOrderbookEntry,
  toVolumeRecord,
  type ChainNames,
  type FillRow,
  type IntentRow,
} from './explorer-rows';
import {
  MAX_OFFSET,
  type OrderbookQuery,
  type PageQuery,
  type PartnersQuery,
  type UserIntentsQuery,
  type VolumeQuery,
} from './explorer.query';

/** volume/stats is answered from memory this long. */
const STATS_TTL_MS = 60_000;
/** Above this many fills the count is the table's statistics (an estimate), not a scan. */
const EXACT_COUNT_BELOW = 100_000;

/** SQL conditions and their parameters, numbered as they are added. */
class Where {
  readonly params: unknown[] = [];
  private readonly parts: string[] = [];

  /** A parameter's placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** A condition on parameters (their placeholders in order). */
  add(sql: (...placeholders: string[]) => string, ...values: unknown[]): void {
    this.parts.push(sql(...values.map((v) => this.param(v))));
  }

  fixed(sql: string): void {
    this.parts.push(sql);
  }

  get sql(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }

  /** The conditions after another one (` AND …`, or nothing). */
  get and(): string {
    return this.parts.map((part) => ` AND ${part}`).join('');
  }
}

/**
 * The data API's explorer reads, from the hub index's read models (explorer_intents,
 * explorer_fills: kept by triggers on chain_events). Each answer is one or two indexed
 * queries; docs/integrators/explorer.md gives the routes.
 */
@Injectable()
export class ExplorerReads {
  private stats?: { value: VolumeStats; at: number };
  private readonly names: ChainNames;

  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    private readonly chains: SettlementChains,
  ) {
    const byRelayId = new Map(chains.registry.chains.map((c) => [c.relayChainId, c.key]));
    this.names = { hubChainId: Number(chains.hub.chainId), keyOfRelayId: (id) => byRelayId.get(id) ?? null };
  }

  async intentByTx(txHash: string): Promise<ExplorerIntent> {
    hashOrFail('txHash', txHash);
    const found = await this.findIntent('tx_hash', txHash);
    if (!found) throw intentNotFound(`Intent not found for transaction ${txHash}`);
    return found;
  }

  async intentByHash(intentHash: string): Promise<ExplorerIntent> {
    hashOrFail('intentHash', intentHash);
    const found = await this.findIntent('intent_hash', intentHash);
    if (!found) throw intentNotFound(`Intent not found: ${intentHash}`);
    return found;
  }

  /** The intent a hub transaction created (its first), or with this hash; undefined when the index holds none. */
  async findIntent(column: 'tx_hash' | 'intent_hash', hash: string): Promise<ExplorerIntent | undefined> {
    const { rows } = await this.pool.query<IntentRow>(
      `SELECT ${intentColumns(true)} FROM relay_tracker.explorer_intents i WHERE i.${column} = $1 ORDER BY i.log_index LIMIT 1`,
      [hash.toLowerCase()],
    );
    return rows[0] ? toIntent(rows[0], this.names) : undefined;
  }

  /** A user's intents, newest first: those its hub wallet created and those built for its source-chain address. */
  async userIntents(userAddress: string, query: UserIntentsQuery): Promise<UserIntentsPage> {
    const user = userBytes(userAddress);
    const { offset, limit } = page(query);
    const range = (where: Where) => {
      if (query.startDate) where.add((p) => `i.block_time >= ${p}`, dateOf('startDate', query.startDate));
      if (query.endDate) where.add((p) => `i.block_time <= ${p}`, dateOf('endDate', query.endDate));
      if (query.fromBlock) where.add((p) => `i.block_number >= ${p}`, query.fromBlock);
      if (query.toBlock) where.add((p) => `i.block_number <= ${p}`, query.toBlock);
    };
    const where = new Where();
    const userParam = where.param(user);
    range(where);
    // The user's wallet or source address: each has its own index (newest first), a union of two ordered scans.
    const mine = (column: 'creator' | 'src_address') =>
      `SELECT i.intent_hash, i.block_number, i.log_index FROM relay_tracker.explorer_intents i WHERE i.${column} = ${userParam}${where.and}`;
    const [count, list] = await Promise.all([
      this.pool.query<{ total: string }>(
        `SELECT count(*)::text AS total FROM (${mine('creator')} UNION ${mine('src_address')}) m`,
        where.params,
      ),
      this.pool.query<IntentRow>(
        `SELECT ${intentColumns(true)} FROM (
           SELECT intent_hash, block_number, log_index FROM (
             (${mine('creator')} ORDER BY i.block_number DESC, i.log_index DESC LIMIT ${offset + limit})
             UNION
             (${mine('src_address')} ORDER BY i.block_number DESC, i.log_index DESC LIMIT ${offset + limit})
           ) u ORDER BY block_number DESC, log_index DESC OFFSET ${offset} LIMIT ${limit}
         ) m JOIN relay_tracker.explorer_intents i ON i.intent_hash = m.intent_hash
         ORDER BY i.block_number DESC, i.log_index DESC`,
        where.params,
      ),
    ]);
    return { total: Number(count.rows[0]!.total), offset, limit, items: list.rows.map((r) => toIntent(r, this.names)) };
  }

  /** Open intents (not cancelled, input remaining), newest first, with the filters given. */
  async orderbook(query: OrderbookQuery): Promise<OrderbookPage> {
    const { offset, limit } = page(query);
    const where = new Where();
    where.fixed('i.open');
    if (query.srcChain) where.add((p) => `i.src_chain = ${p}`, this.relayIdOf('srcChain', query.srcChain));
    if (query.dstChain) where.add((p) => `i.dst_chain = ${p}`, this.relayIdOf('dstChain', query.dstChain));
    if (query.inputToken) where.add((p) => `i.input_token = ${p}`, query.inputToken.toLowerCase());
    if (query.outputToken) where.add((p) => `i.output_token = ${p}`, query.outputToken.toLowerCase());
    if (query.creator) where.add((p) => `i.creator = ${p}`, query.creator.toLowerCase());
    if (query.deadlineBefore) where.add((p) => `i.deadline <= ${p}`, query.deadlineBefore);
    if (query.deadlineAfter) where.add((p) => `i.deadline >= ${p}`, query.deadlineAfter);
    if (query.excludeZeroDeadline === 'true') where.fixed('i.deadline > 0');
    const [count, list] = await Promise.all([
      this.pool.query<{ total: string }>(`SELECT count(*)::text AS total FROM relay_tracker.explorer_intents i ${where.sql}`, where.params),
      this.pool.query<IntentRow>(
        `SELECT ${intentColumns(false)} FROM relay_tracker.explorer_intents i ${where.sql}
         ORDER BY i.block_number DESC, i.log_index DESC OFFSET ${offset} LIMIT ${limit}`,
        where.params,
      ),
    ]);
    return { total: Number(count.rows[0]!.total), data: list.rows.map(toOrderbookEntry) };
  }

  /** Fill events, one record each, by block (newest first unless sort=asc), a keyset page at a time. */
  async volume(query: VolumeQuery): Promise<VolumePage> {
    const limit = limitOf(query.limit);
    const desc = query.sort !== 'asc';
    const where = new Where();
    const families = [
      query.fromBlock !== undefined || query.toBlock !== undefined,
      query.since !== undefined || query.until !== undefined,
      query.fromTs !== undefined || query.toTs !== undefined,
    ].filter(Boolean).length;
    if (families > 1)
      throw AppError.validation([
        {
          field: 'fromBlock',
          rule: 'oneRangeKind',
          message: 'give one kind of range: fromBlock/toBlock, since/until or fromTs/toTs, not several',
        },
      ]);
    if (query.inputToken) where.add((p) => `f.input_token = ${p}`, query.inputToken.toLowerCase());
    if (query.outputToken) where.add((p) => `f.output_token = ${p}`, query.outputToken.toLowerCase());
    if (query.solver) where.add((p) => `f.solver = ${p}`, query.solver.toLowerCase());
    if (query.chainId) where.add((p) => `f.chain_key = ${p}`, this.chainOf('chainId', query.chainId).key);
    if (query.fromBlock) where.add((p) => `f.block_number >= ${p}`, query.fromBlock);
    if (query.toBlock) where.add((p) => `f.block_number <= ${p}`, query.toBlock);
    if (query.since) where.add((p) => `f.block_time >= ${p}`, dateOf('since', query.since));
    if (query.until) where.add((p) => `f.block_time < ${p}`, dateOf('until', query.until));
    if (query.fromTs) where.add((p) => `f.block_time >= to_timestamp(${p})`, query.fromTs);
    if (query.toTs) where.add((p) => `f.block_time < to_timestamp(${p})`, query.toTs);
    if (query.cursor) {
      const at = decodeCursor(query.cursor);
      if (!at)
        throw AppError.validation([{ field: 'cursor', rule: 'cursor', message: 'cursor must be the nextCursor of a previous page' }]);
      where.add((block, log) => `(f.block_number, f.log_index) ${desc ? '<' : '>'} (${block}::bigint, ${log}::int)`, at.block, at.logIndex);
    }
    const withData = query.includeData === 'true';
    const { rows } = await this.pool.query<FillRow>(
      `SELECT f.intent_hash, f.solver, f.input_token, f.output_token, f.input_amount::text AS input_amount, f.output_amount::text AS output_amount,
              f.block_number::text AS block_number, f.tx_hash, f.log_index, f.block_time, ${withData ? 'i.intent' : 'NULL::jsonb AS intent'}
       FROM relay_tracker.explorer_fills f ${withData ? 'LEFT JOIN relay_tracker.explorer_intents i ON i.intent_hash = f.intent_hash' : ''}
       ${where.sql}
       ORDER BY f.block_number ${desc ? 'DESC' : 'ASC'}, f.log_index ${desc ? 'DESC' : 'ASC'} LIMIT ${limit + 1}`,
      where.params,
    );
    const hasMore = rows.length > limit;
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return {
      items: items.map((r) => toVolumeRecord(r, this.names.hubChainId)),
      nextCursor: hasMore && last ? encodeCursor(last.block_number, last.log_index) : null,
      hasMore,
    };
  }

  /** The number of fills indexed: exact while the table is small, the planner's estimate beyond; from memory for 60 s. */
  async volumeStats(): Promise<VolumeStats> {
    if (this.stats && Date.now() - this.stats.at < STATS_TTL_MS) return this.stats.value;
    const { rows } = await this.pool.query<{ estimate: string }>(
      `SELECT GREATEST(reltuples, 0)::bigint::text AS estimate FROM pg_class WHERE oid = 'relay_tracker.explorer_fills'::regclass`,
    );
    let filledCount = Number(rows[0]?.estimate ?? 0);
    if (filledCount < EXACT_COUNT_BELOW) {
      const exact = await this.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM relay_tracker.explorer_fills`);
      filledCount = Number(exact.rows[0]!.n);
    }
    this.stats = { value: { filledCount }, at: Date.now() };
    return this.stats.value;
  }

  /** Every partner-fee receiver intents named, newest first (at most 1 000). */
  async partners(query: PartnersQuery): Promise<PartnersList> {
    const where = new Where();
    where.fixed('i.fee_receiver IS NOT NULL');
    if (query.chainId) where.add((p) => `i.src_chain = ${p}`, this.chainOf('chainId', query.chainId).relayChainId);
    const { rows } = await this.pool.query<{ receiver: string; intents: string; filled: string; last: Date }>(
      `SELECT i.fee_receiver AS receiver, count(*)::text AS intents, count(*) FILTER (WHERE i.received_output > 0)::text AS filled,
              max(i.block_time) AS last
       FROM relay_tracker.explorer_intents i ${where.sql}
       GROUP BY i.fee_receiver ORDER BY max(i.block_time) DESC LIMIT 1000`,
      where.params,
    );
    return {
      partners: rows.map((r) => ({
        receiver: r.receiver,
        intentCount: Number(r.intents),
        filledCount: Number(r.filled),
        lastSeenAt: r.last.toISOString(),
      })),
    };
  }

  /** Fees a receiver collected per input token (each intent's fee in proportion to the input filled) and the output its intents received. */
  async partnerSummary(receiver: string, query: PartnersQuery): Promise<PartnerSummary> {
    if (!isEvmAddressText(receiver))
      throw AppError.validation([
        { field: 'receiver', rule: 'evmAddress', message: 'receiver must be a 20-byte hex address (the partner fee receiver on the hub)' },
      ]);
    const where = new Where();
    where.add((p) => `i.fee_receiver = ${p}`, receiver.toLowerCase());
    const chain = query.chainId ? this.chainOf('chainId', query.chainId) : undefined;
    if (chain) where.add((p) => `i.src_chain = ${p}`, chain.relayChainId);
    const { rows } = await this.pool.query<{ kind: 'fee' | 'volume'; token: string; total: string }>(
      `WITH mine AS (SELECT * FROM relay_tracker.explorer_intents i ${where.sql})
       SELECT 'fee' AS kind, input_token AS token,
              sum(floor(fee_amount * ((intent->>'inputAmount')::numeric - remaining_input) / NULLIF((intent->>'inputAmount')::numeric, 0)))::text AS total
       FROM mine GROUP BY input_token HAVING sum(received_output) > 0
       UNION ALL
       SELECT 'volume', output_token, sum(received_output)::text FROM mine GROUP BY output_token HAVING sum(received_output) > 0`,
      where.params,
    );
    const pick = (kind: 'fee' | 'volume') => Object.fromEntries(rows.filter((r) => r.kind === kind).map((r) => [r.token, r.total ?? '0']));
    return {
      receiver: receiver.toLowerCase(),
      chainId: chain?.key ?? null,
      feeByInputToken: pick('fee'),
      volumeByOutputToken: pick('volume'),
    };
  }

  /** A chain named by key, plain name, relay chain id or chain id; an unknown one is a 400 naming the parameter. */
  private chainOf(field: string, name: string): ChainInfo {
    const registry = this.chains.registry;
    const chain = registry.findChain(name) ?? registry.chains.find((c) => c.relayChainId === name || String(c.chainId) === name);
    if (!chain)
      throw AppError.validation([
        {
          field,
          rule: 'knownChain',
          message: `${field} ${name} is not a chain of this deployment (a chain key, a plain name or a chain id)`,
        },
      ]);
    return chain;
  }

  private relayIdOf(field: string, name: string): string {
    return this.chainOf(field, name).relayChainId;
  }
}

function intentNotFound(message: string): AppError {
  return AppError.notFound(message, ErrorCode.IntentNotFound);
}

function hashOrFail(field: string, value: string): void {
  if (!EVM_HASH_PATTERN.test(value))
    throw AppError.validation([{ field, rule: 'evmHash', message: `${field} must be 0x followed by 64 hex digits (a hub hash)` }]);
}

/**
 * A user as the index stores it: an EVM address (a hub wallet, or an EVM source address)
 * in lower case, or a Solana public key as its 32 bytes in hex (intents carry source
 * addresses as bytes).
 */
function userBytes(address: string): string {
  if (isEvmAddressText(address)) return address.toLowerCase();
  if (/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) {
    try {
      const bytes = getBase58Encoder().encode(address);
      if (bytes.length === 32) return toHex(new Uint8Array(bytes));
    } catch {
      // reported below
    }
  }
  throw AppError.validation([
    {
      field: 'userAddress',
      rule: 'userAddress',
      message: 'userAddress must be a 20-byte hex address (a hub wallet or an EVM source address) or a base58 Solana public key',
    },
  ]);
}

function limitOf(text: string | undefined): number {
  const limit = text === undefined ? 50 : Number(text);
  if (!(limit >= 1 && limit <= 100))
    throw AppError.validation([{ field: 'limit', rule: 'range', message: 'limit must be an integer from 1 to 100' }]);
  return limit;
}

function page(query: PageQuery): { offset: number; limit: number } {
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  if (offset > MAX_OFFSET)
    throw AppError.validation([
      { field: 'offset', rule: 'max', message: `offset must be at most ${MAX_OFFSET} (narrow the range by date or block to read further)` },
    ]);
  return { offset, limit: limitOf(query.limit) };
}

function dateOf(field: string, text: string): Date {
  const date = /^\d+$/.test(text) ? new Date(Number(text)) : new Date(text);
  const time = date.getTime();
  // 1970 to the end of 9999: what PostgreSQL and every client agree on.
  if (Number.isNaN(time) || time < 0 || time > 253_402_300_799_999) {
    const violation: FieldViolation = {
      field,
      rule: 'date',
      message: `${field} must be an ISO 8601 date (1970 to 9999) or milliseconds since 1970`,
    };
    throw AppError.validation([violation]);
  }
  return date;
}
