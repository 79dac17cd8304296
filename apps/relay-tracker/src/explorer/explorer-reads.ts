import { Inject, Injectable } from '@nestjs/common';
import type { ChainInfo } from '@swap/chains';
import {
  AppError,
  type ExplorerIntent,
  type OrderbookPage,
  type PartnerSummary,
  type PartnersList,
  type UserIntentsPage,
  type VolumePage,
  type VolumeStats,
  checksummedAddress,
} from '@swap/contracts';
import { DATABASE_POOL } from '@swap/service-kit';
import { preparedRows, withPooledClient } from '@swap/persistence';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { SettlementChains } from '../settlement/settlement-chains';
import {
  decodeCursor,
  encodeCursor,
  EVENT_COLUMNS,
  EVENTS_JOIN,
  INTENT_COLUMNS,
  INTENT_EVENT_ORDER,
  intentFieldColumns,
  intentsJson,
  orderbookEntryJson,
  volumeRecordJson,
  type ChainNames,
  type EventRow,
  type FillRow,
  type IntentFieldRow,
  type IntentRow,
} from './explorer-json';
import { dateOf, evmAddressOrFail, hashOrFail, intentNotFound, limitOf, orderedOrFail, page, userBytes, Where } from './explorer-params';
import type { OrderbookQuery, PartnersQuery, UserIntentsQuery, VolumeQuery } from './explorer.query';

const STATS_TTL_MS = 60_000;
/** Above this many fills the count is the planner's estimate, not a scan. */
const EXACT_COUNT_BELOW = 100_000;

/** One prepared statement per answer, its JSON written from the columns read; see docs/development.md#the-explorer-part. */
@Injectable()
export class ExplorerReads {
  private stats?: { value: VolumeStats; at: number };
  private readonly names: ChainNames;
  private readonly digests = new Map<string, string>();
  private readonly clientIds = new WeakMap<pg.PoolClient, number>();
  private lastClientId = 0;

  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    private readonly chains: SettlementChains,
  ) {
    this.names = {
      hubChainId: Number(chains.hub.chainId),
      keyOfRelayId: new Map(chains.directory.chains.map((c) => [c.relayChainId, c.key])),
    };
  }

  async intentByTxJson(txHash: string): Promise<string> {
    hashOrFail('txHash', txHash);
    const found = await this.findIntentJson('tx_hash', txHash);
    if (!found)
      throw intentNotFound(
        `Intent not found for transaction ${txHash} (a hub transaction that created an intent; for a source transaction, a fill or a delivery: GET /v1/be/intent/swap/{hash})`,
      );
    return found;
  }

  async intentByHashJson(intentHash: string): Promise<string> {
    hashOrFail('intentHash', intentHash);
    const found = await this.findIntentJson('intent_hash', intentHash);
    if (!found) throw intentNotFound(`Intent not found: ${intentHash}`);
    return found;
  }

  async intentByTx(txHash: string): Promise<ExplorerIntent> {
    return JSON.parse(await this.intentByTxJson(txHash)) as ExplorerIntent;
  }

  async intentByHash(intentHash: string): Promise<ExplorerIntent> {
    return JSON.parse(await this.intentByHashJson(intentHash)) as ExplorerIntent;
  }

  /** By `tx_hash`: the first intent that hub transaction created. */
  async findIntent(column: 'tx_hash' | 'intent_hash', hash: string): Promise<ExplorerIntent | undefined> {
    const json = await this.findIntentJson(column, hash);
    return json === undefined ? undefined : (JSON.parse(json) as ExplorerIntent);
  }

  private async findIntentJson(column: 'tx_hash' | 'intent_hash', hash: string): Promise<string | undefined> {
    const rows = await this.query<IntentRow & EventRow>(
      `SELECT ${INTENT_COLUMNS}, ${EVENT_COLUMNS}
       FROM (SELECT * FROM relay_tracker.explorer_intents i WHERE i.${column} = $1 ORDER BY i.log_index LIMIT 1) i ${EVENTS_JOIN}
       ORDER BY ${INTENT_EVENT_ORDER}`,
      [hash.toLowerCase()],
    );
    return intentsJson(rows, this.names)[0];
  }

  /** Those its hub wallet created and those built for its source-chain address. */
  async userIntentsJson(userAddress: string, query: UserIntentsQuery): Promise<string> {
    const user = userBytes(userAddress);
    const { offset, limit } = page(query);
    const range = new Where();
    const userParam = range.param(user);
    const start = query.startDate ? dateOf('startDate', query.startDate) : undefined;
    const end = query.endDate ? dateOf('endDate', query.endDate) : undefined;
    orderedOrFail({ field: 'startDate', value: start?.getTime() }, { field: 'endDate', value: end?.getTime() });
    orderedOrFail({ field: 'fromBlock', value: numberOf(query.fromBlock) }, { field: 'toBlock', value: numberOf(query.toBlock) });
    if (start) range.add((p) => `i.block_time >= ${p}`, start);
    if (end) range.add((p) => `i.block_time <= ${p}`, end);
    if (query.fromBlock) range.add((p) => `i.block_number >= ${p}`, query.fromBlock);
    if (query.toBlock) range.add((p) => `i.block_number <= ${p}`, query.toBlock);
    // Each column has its own index: two ordered scans merged, the second without what the first has.
    const mine = (column: 'creator' | 'src_address', what: string, tail = '') =>
      `SELECT ${what} FROM relay_tracker.explorer_intents i WHERE i.${column} = ${userParam}${column === 'creator' ? '' : ` AND i.creator <> ${userParam}`}${range.and}${tail}`;
    const total = `((${mine('creator', 'count(*)')}) + (${mine('src_address', 'count(*)')}))::int`;
    const top = ` ORDER BY i.block_number DESC, i.log_index DESC LIMIT ${offset + limit}`;
    const rows = await this.query<IntentRow & EventRow & { total: number }>(
      `SELECT ${total} AS total, ${INTENT_COLUMNS}, ${EVENT_COLUMNS}
       FROM ((${mine('creator', 'i.*', top)}) UNION ALL (${mine('src_address', 'i.*', top)})
             ORDER BY block_number DESC, log_index DESC OFFSET ${offset} LIMIT ${limit}) i ${EVENTS_JOIN}
       ORDER BY i.block_number DESC, i.log_index DESC, ${INTENT_EVENT_ORDER}`,
      range.params,
    );
    // A page past the end has no rows to carry the total: counted on its own.
    const count = rows[0]?.total ?? (await this.query<{ total: number }>(`SELECT ${total} AS total`, range.params))[0]!.total;
    return `{"total":${count},"offset":${offset},"limit":${limit},"items":[${intentsJson(rows, this.names).join(',')}]}`;
  }

  async userIntents(userAddress: string, query: UserIntentsQuery): Promise<UserIntentsPage> {
    return JSON.parse(await this.userIntentsJson(userAddress, query)) as UserIntentsPage;
  }

  async orderbookJson(query: OrderbookQuery): Promise<string> {
    const { offset, limit } = page(query);
    orderedOrFail(
      { field: 'deadlineAfter', value: numberOf(query.deadlineAfter) },
      { field: 'deadlineBefore', value: numberOf(query.deadlineBefore) },
    );
    const where = new Where();
    where.fixed('i.open');
    if (query.srcChain) where.add((p) => `i.src_chain = ${p}`, this.chainOf('srcChain', query.srcChain).relayChainId);
    if (query.dstChain) where.add((p) => `i.dst_chain = ${p}`, this.chainOf('dstChain', query.dstChain).relayChainId);
    if (query.inputToken) where.add((p) => `i.input_token = ${p}`, query.inputToken.toLowerCase());
    if (query.outputToken) where.add((p) => `i.output_token = ${p}`, query.outputToken.toLowerCase());
    if (query.creator) where.add((p) => `i.creator = ${p}`, query.creator.toLowerCase());
    if (query.deadlineBefore) where.add((p) => `i.deadline <= ${p}`, query.deadlineBefore);
    if (query.deadlineAfter) where.add((p) => `i.deadline >= ${p}`, query.deadlineAfter);
    if (query.excludeZeroDeadline === 'true') where.fixed('i.deadline > 0');
    const [count, list] = await Promise.all([
      this.query<{ total: number }>(`SELECT count(*)::int AS total FROM relay_tracker.explorer_intents i ${where.sql}`, where.params),
      this.query<IntentRow>(
        `SELECT ${INTENT_COLUMNS} FROM relay_tracker.explorer_intents i ${where.sql}
         ORDER BY i.block_number DESC, i.log_index DESC OFFSET ${offset} LIMIT ${limit}`,
        where.params,
      ),
    ]);
    return `{"total":${count[0]!.total},"data":[${list.map(orderbookEntryJson).join(',')}]}`;
  }

  async orderbook(query: OrderbookQuery): Promise<OrderbookPage> {
    return JSON.parse(await this.orderbookJson(query)) as OrderbookPage;
  }

  async volumeJson(query: VolumeQuery): Promise<string> {
    const limit = limitOf(query.limit);
    const desc = query.sort !== 'asc';
    const families = [
      ['fromBlock', 'toBlock'],
      ['since', 'until'],
      ['fromTs', 'toTs'],
    ].filter((names) => names.some((n) => query[n as keyof VolumeQuery] !== undefined));
    if (families.length > 1) {
      const second = families[1]!.find((n) => query[n as keyof VolumeQuery] !== undefined)!;
      throw AppError.validation([
        {
          field: second,
          rule: 'oneRangeKind',
          message: `give one kind of range: fromBlock/toBlock, since/until or fromTs/toTs, not several (${second} with ${families[0]!.join('/')})`,
        },
      ]);
    }
    const since = query.since ? dateOf('since', query.since) : undefined;
    const until = query.until ? dateOf('until', query.until) : undefined;
    orderedOrFail({ field: 'fromBlock', value: numberOf(query.fromBlock) }, { field: 'toBlock', value: numberOf(query.toBlock) });
    orderedOrFail({ field: 'since', value: since?.getTime() }, { field: 'until', value: until?.getTime() });
    orderedOrFail({ field: 'fromTs', value: numberOf(query.fromTs) }, { field: 'toTs', value: numberOf(query.toTs) });
    const where = new Where();
    if (query.inputToken) where.add((p) => `f.input_token = ${p}`, query.inputToken.toLowerCase());
    if (query.outputToken) where.add((p) => `f.output_token = ${p}`, query.outputToken.toLowerCase());
    if (query.solver) where.add((p) => `f.solver = ${p}`, query.solver.toLowerCase());
    if (query.chainId) where.add((p) => `f.chain_key = ${p}`, this.chainOf('chainId', query.chainId).key);
    if (query.fromBlock) where.add((p) => `f.block_number >= ${p}`, query.fromBlock);
    if (query.toBlock) where.add((p) => `f.block_number <= ${p}`, query.toBlock);
    if (since) where.add((p) => `f.block_time >= ${p}`, since);
    if (until) where.add((p) => `f.block_time < ${p}`, until);
    if (query.fromTs) where.add((p) => `f.block_time >= to_timestamp(${p})`, query.fromTs);
    if (query.toTs) where.add((p) => `f.block_time < to_timestamp(${p})`, query.toTs);
    if (query.cursor) {
      const at = decodeCursor(query.cursor);
      if (!at)
        throw AppError.validation([{ field: 'cursor', rule: 'cursor', message: 'cursor must be the nextCursor of a previous page' }]);
      if (at.desc !== desc)
        throw AppError.validation([
          {
            field: 'cursor',
            rule: 'sameSort',
            message: `cursor comes from a page sorted ${at.desc ? 'desc' : 'asc'}: ask with sort=${at.desc ? 'desc' : 'asc'}`,
          },
        ]);
      where.add((block, log) => `(f.block_number, f.log_index) ${desc ? '<' : '>'} (${block}::bigint, ${log}::int)`, at.block, at.logIndex);
    }
    const withData = query.includeData === 'true';
    const order = desc ? 'DESC' : 'ASC';
    const rows = await this.query<FillRow & Partial<IntentFieldRow>>(
      `SELECT f.intent_hash, f.solver, f.input_token, f.output_token, f.input_amount::text AS input_amount, f.output_amount::text AS output_amount,
              f.block_number::text AS block_number, f.tx_hash, f.log_index, (extract(epoch from f.block_time) * 1000)::bigint::text AS at_ms
              ${withData ? `, ${intentFieldColumns()}` : ''}
       FROM relay_tracker.explorer_fills f ${withData ? 'LEFT JOIN relay_tracker.explorer_intents i ON i.intent_hash = f.intent_hash' : ''}
       ${where.sql}
       ORDER BY f.block_number ${order}, f.log_index ${order} LIMIT ${limit + 1}`,
      where.params,
    );
    const hasMore = rows.length > limit;
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    const nextCursor = hasMore && last ? `"${encodeCursor(last.block_number, last.log_index, desc)}"` : 'null';
    const records = items.map((r) => volumeRecordJson(r, this.names.hubChainId, withData));
    return `{"items":[${records.join(',')}],"nextCursor":${nextCursor},"hasMore":${hasMore}}`;
  }

  async volume(query: VolumeQuery): Promise<VolumePage> {
    return JSON.parse(await this.volumeJson(query)) as VolumePage;
  }

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
        receiver: checksummedAddress(r.receiver),
        intentCount: Number(r.intents),
        filledCount: Number(r.filled),
        lastSeenAt: r.last.toISOString(),
      })),
    };
  }

  /** Each intent's fee counts in proportion to the input filled. */
  async partnerSummary(receiver: string, query: PartnersQuery): Promise<PartnerSummary> {
    const where = new Where();
    where.add((p) => `i.fee_receiver = ${p}`, evmAddressOrFail('receiver', receiver));
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
    const pick = (kind: 'fee' | 'volume') =>
      Object.fromEntries(rows.filter((r) => r.kind === kind).map((r) => [checksummedAddress(r.token), r.total ?? '0']));
    return {
      receiver: checksummedAddress(receiver),
      chainId: chain?.key ?? null,
      feeByInputToken: pick('fee'),
      volumeByOutputToken: pick('volume'),
    };
  }

  private chainOf(field: string, name: string): ChainInfo {
    const directory = this.chains.directory;
    // A number is a relay chain id before it is an EVM chain id (`1` is Solana, not Ethereum).
    const chain =
      directory.findChain(name) ??
      directory.chains.find((c) => c.relayChainId === name) ??
      directory.chains.find((c) => c.type === 'EVM' && String(c.chainId) === name);
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

  /** The prepared name carries the connection: PGlite serves every connection from one session, where names would clash. */
  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<R[]> {
    let digest = this.digests.get(text);
    if (digest === undefined) {
      digest = createHash('sha1').update(text).digest('hex').slice(0, 16);
      this.digests.set(text, digest);
    }
    return withPooledClient(this.pool, async (client) => {
      let id = this.clientIds.get(client);
      if (id === undefined) this.clientIds.set(client, (id = ++this.lastClientId));
      return preparedRows<R>(client, `explorer-${id}-${digest}`, text, values);
    });
  }
}

function numberOf(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Number(text);
}
