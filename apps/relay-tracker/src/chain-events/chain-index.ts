import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ChainEventKind, IndexedChainEvent } from '@swap/contracts';
import { inTransaction } from '@swap/persistence';
import { DATABASE_POOL } from '@swap/service-kit';
import type pg from 'pg';
import type { FollowCursor } from './follow-plan';
import { FollowerPool } from './follower-pool';

export interface FollowerState {
  chainKey: string;
  holder: string | null;
  cursor?: FollowCursor;
  cursorTime?: Date;
  publishedThrough?: bigint;
}

export interface RangeCommit {
  /** The commit is refused if the row's cursor is another (a lost lease). */
  expected: FollowCursor | undefined;
  to: { number: bigint; hash: string; time: Date };
  events: IndexedChainEvent[];
  /** The range's last block and every block with an event. */
  blocks: FollowCursor[];
  publishedThrough: bigint | undefined;
  keepBlocks: number;
}

/** A lost lease (or a cursor moved under the follower): it stops; another replica follows. */
export class LostLeaseError extends Error {
  constructor(chainKey: string) {
    super(`the lease of ${chainKey} is no longer this replica's`);
    this.name = 'LostLeaseError';
  }
}

interface EventRow {
  chain_key: string;
  block_number: string;
  block_hash: string;
  log_index: number;
  tx_hash: string;
  block_time: Date;
  kind: ChainEventKind;
  intent_hash: string | null;
  peer_chain: string | null;
  conn_sn: string | null;
  data: Record<string, unknown>;
}

/** Numbers as text: order by e.block_number, not the text alias. */
const EVENT_COLUMNS = `e.chain_key, e.block_number::text AS block_number, e.block_hash, e.log_index, e.tx_hash, e.block_time, e.kind, e.intent_hash, e.peer_chain, e.conn_sn::text AS conn_sn, e.data`;

/** The hub index and the spokes' events, one transaction per range with the cursor; see docs/architecture/settlement.md#chain-followers. */
@Injectable()
export class ChainIndex {
  /** The follower's reads and writes; the others' reads stay on the service's pool. */
  private readonly writes: pg.Pool;

  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    @Optional() followerPool?: FollowerPool,
  ) {
    this.writes = followerPool?.pool ?? pool;
  }

  async ensureFollowers(chainKeys: string[]): Promise<void> {
    if (chainKeys.length === 0) return;
    await this.writes.query(
      `INSERT INTO relay_tracker.chain_followers (chain_key) SELECT unnest($1::text[]) ON CONFLICT (chain_key) DO NOTHING`,
      [chainKeys],
    );
  }

  async state(chainKey: string): Promise<FollowerState | undefined> {
    const { rows } = await this.writes.query<{
      holder: string | null;
      cursor_number: string | null;
      cursor_hash: string | null;
      cursor_time: Date | null;
      published_through: string | null;
    }>(
      `SELECT holder, cursor_number::text AS cursor_number, cursor_hash, cursor_time, published_through::text AS published_through
       FROM relay_tracker.chain_followers WHERE chain_key = $1`,
      [chainKey],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      chainKey,
      holder: row.holder,
      cursor:
        row.cursor_number !== null && row.cursor_hash !== null ? { number: BigInt(row.cursor_number), hash: row.cursor_hash } : undefined,
      cursorTime: row.cursor_time ?? undefined,
      publishedThrough: row.published_through !== null ? BigInt(row.published_through) : undefined,
    };
  }

  /** One transaction, refused unless the lease and the cursor are still this follower's. */
  async commit(chainKey: string, holder: string, commit: RangeCommit): Promise<void> {
    await this.inTransaction(async (tx) => {
      const moved = await tx.query(
        `UPDATE relay_tracker.chain_followers
         SET cursor_number = $3, cursor_hash = $4, cursor_time = $5, published_through = $6, updated_at = now()
         WHERE chain_key = $1 AND holder = $2 AND lease_until > now()
           AND cursor_number IS NOT DISTINCT FROM $7::bigint AND cursor_hash IS NOT DISTINCT FROM $8::text`,
        [
          chainKey,
          holder,
          commit.to.number,
          commit.to.hash,
          commit.to.time,
          commit.publishedThrough ?? null,
          commit.expected?.number ?? null,
          commit.expected?.hash ?? null,
        ],
      );
      if (moved.rowCount !== 1) throw new LostLeaseError(chainKey);
      await insertEvents(tx, commit.events);
      if (commit.blocks.length) {
        await tx.query(
          `INSERT INTO relay_tracker.chain_blocks (chain_key, number, hash)
           SELECT $1, n, h FROM unnest($2::bigint[], $3::text[]) AS b(n, h)
           ON CONFLICT (chain_key, number) DO UPDATE SET hash = excluded.hash`,
          [chainKey, commit.blocks.map((b) => b.number), commit.blocks.map((b) => b.hash)],
        );
      }
      await tx.query(`DELETE FROM relay_tracker.chain_blocks WHERE chain_key = $1 AND number < $2`, [
        chainKey,
        commit.to.number - BigInt(commit.keepBlocks),
      ]);
    });
  }

  async markPublished(chainKey: string, holder: string, through: bigint): Promise<void> {
    await this.writes.query(`UPDATE relay_tracker.chain_followers SET published_through = $3 WHERE chain_key = $1 AND holder = $2`, [
      chainKey,
      holder,
      through,
    ]);
  }

  /** Retracts the events after `fork` (returned: their swaps are looked at again) and moves the cursor back to it. */
  async rewind(chainKey: string, holder: string, from: FollowCursor, fork: FollowCursor & { time?: Date }): Promise<IndexedChainEvent[]> {
    return this.inTransaction(async (tx) => {
      const moved = await tx.query(
        `UPDATE relay_tracker.chain_followers
         SET cursor_number = $3, cursor_hash = $4, cursor_time = COALESCE($5, cursor_time),
             published_through = LEAST(published_through, $3), updated_at = now()
         WHERE chain_key = $1 AND holder = $2 AND lease_until > now() AND cursor_number = $6 AND cursor_hash = $7`,
        [chainKey, holder, fork.number, fork.hash, fork.time ?? null, from.number, from.hash],
      );
      if (moved.rowCount !== 1) throw new LostLeaseError(chainKey);
      const dropped = await tx.query<EventRow>(
        `DELETE FROM relay_tracker.chain_events e WHERE e.chain_key = $1 AND e.block_number > $2 RETURNING ${EVENT_COLUMNS}`,
        [chainKey, fork.number],
      );
      await tx.query(`DELETE FROM relay_tracker.chain_blocks WHERE chain_key = $1 AND number > $2`, [chainKey, fork.number]);
      return dropped.rows.map(toEvent);
    });
  }

  async recentBlocks(chainKey: string, limit: number): Promise<FollowCursor[]> {
    const { rows } = await this.writes.query<{ number: string; hash: string }>(
      `SELECT b.number::text AS number, b.hash FROM relay_tracker.chain_blocks b WHERE b.chain_key = $1 ORDER BY b.number DESC LIMIT $2`,
      [chainKey, limit],
    );
    return rows.map((r) => ({ number: BigInt(r.number), hash: r.hash }));
  }

  async eventsBetween(chainKey: string, from: bigint, to: bigint): Promise<IndexedChainEvent[]> {
    return this.events(
      `SELECT ${EVENT_COLUMNS} FROM relay_tracker.chain_events e
       WHERE e.chain_key = $1 AND e.block_number BETWEEN $2 AND $3 ORDER BY e.block_number, e.log_index`,
      [chainKey, from, to],
      this.writes,
    );
  }

  /** `hubTime`: the hub cursor's block time, the clock for deadlines (undefined while nobody follows the hub). */
  async intentEvents(intentHash: string, hubKey: string): Promise<{ events: IndexedChainEvent[]; hubTime?: Date }> {
    const { rows } = await this.pool.query<EventRow & { hub_time: Date | null }>(
      `SELECT ${EVENT_COLUMNS}, NULL::timestamptz AS hub_time FROM relay_tracker.chain_events e WHERE e.intent_hash = $1
       UNION ALL SELECT ${NO_EVENT}, cursor_time FROM relay_tracker.chain_followers WHERE chain_key = $2`,
      [intentHash.toLowerCase(), hubKey],
    );
    const clock = rows.find((r) => r.chain_key === null);
    const events = rows.filter((r) => r.chain_key !== null).map(toEvent);
    events.sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : BigInt(a.blockNumber) < BigInt(b.blockNumber) ? -1 : 1,
    );
    return { events, hubTime: clock?.hub_time ?? undefined };
  }

  async txEvents(chainKey: string, txHash: string): Promise<IndexedChainEvent[]> {
    return this.events(
      `SELECT ${EVENT_COLUMNS} FROM relay_tracker.chain_events e WHERE e.chain_key = $1 AND e.tx_hash = $2 ORDER BY e.block_number, e.log_index`,
      [chainKey, txHash.toLowerCase()],
    );
  }

  /** A spoke deposit on the hub: its intent created, or its message (by sequence number) delivered with calls that failed. */
  async hubOutcome(
    intentHash: string,
    source: { chainKey: string; txHash: string; relayChainId: string },
    hub: { key: string; relayChainId: string },
  ): Promise<{ created?: IndexedChainEvent; refused?: IndexedChainEvent }> {
    const events = await this.events(
      `SELECT ${EVENT_COLUMNS} FROM relay_tracker.chain_events e WHERE e.intent_hash = $1 AND e.kind = 'intent_created'
       UNION ALL
       SELECT ${EVENT_COLUMNS} FROM relay_tracker.chain_events s
       JOIN relay_tracker.chain_events e ON e.chain_key = $4 AND e.kind = 'message_received' AND e.peer_chain = $5 AND e.conn_sn = s.conn_sn
       WHERE s.chain_key = $2 AND s.tx_hash = $3 AND s.kind = 'message_sent' AND s.peer_chain = $6`,
      [intentHash.toLowerCase(), source.chainKey, source.txHash.toLowerCase(), hub.key, source.relayChainId, hub.relayChainId],
    );
    const created = events.find((e) => e.kind === 'intent_created');
    const refused = events.find((e) => e.kind === 'message_received' && (e.data as { ok?: boolean } | undefined)?.ok === false);
    return { created, refused };
  }

  /** The delivery of the message a hub transaction sent to `dst` (a fill's output). */
  async deliveryOf(
    hub: { key: string; relayChainId: string },
    hubTxHash: string,
    dst: { key: string; relayChainId: string },
  ): Promise<IndexedChainEvent | undefined> {
    const [delivered] = await this.events(
      `SELECT ${EVENT_COLUMNS} FROM relay_tracker.chain_events s
       JOIN relay_tracker.chain_events e ON e.chain_key = $3 AND e.kind = 'message_received' AND e.peer_chain = $4 AND e.conn_sn = s.conn_sn
       WHERE s.chain_key = $1 AND s.tx_hash = $2 AND s.kind = 'message_sent' AND s.peer_chain = $5
       ORDER BY e.block_number LIMIT 1`,
      [hub.key, hubTxHash.toLowerCase(), dst.key, hub.relayChainId, dst.relayChainId],
    );
    return delivered;
  }

  private async events(text: string, params: unknown[], pool = this.pool): Promise<IndexedChainEvent[]> {
    return (await pool.query<EventRow>(text, params)).rows.map(toEvent);
  }

  private inTransaction<T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.writes, work);
  }
}

/** EVENT_COLUMNS all null, for a row of another kind in a UNION with events. */
const NO_EVENT = `NULL::text, NULL::text, NULL::text, NULL::int, NULL::text, NULL::timestamptz, NULL::text, NULL::char(66), NULL::text, NULL::text, NULL::jsonb`;

async function insertEvents(tx: pg.PoolClient, events: IndexedChainEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    `INSERT INTO relay_tracker.chain_events (chain_key, block_number, block_hash, log_index, tx_hash, block_time, kind, intent_hash, peer_chain, conn_sn, data)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::int[], $5::text[], $6::timestamptz[], $7::text[], $8::text[], $9::text[], $10::numeric[], $11::jsonb[])
     ON CONFLICT (chain_key, block_number, log_index) DO NOTHING`,
    [
      events.map((e) => e.chainKey),
      events.map((e) => e.blockNumber),
      events.map((e) => e.blockHash),
      events.map((e) => e.logIndex),
      events.map((e) => e.txHash),
      events.map((e) => e.blockTime),
      events.map((e) => e.kind),
      events.map((e) => e.intentHash ?? null),
      events.map((e) => e.peerChain ?? null),
      events.map((e) => e.connSn ?? null),
      events.map((e) => JSON.stringify(e.data ?? {})),
    ],
  );
}

function toEvent(row: EventRow): IndexedChainEvent {
  return {
    chainKey: row.chain_key,
    blockNumber: row.block_number,
    blockHash: row.block_hash,
    logIndex: row.log_index,
    txHash: row.tx_hash,
    blockTime: row.block_time.toISOString(),
    kind: row.kind,
    ...(row.intent_hash ? { intentHash: row.intent_hash } : {}),
    ...(row.peer_chain ? { peerChain: row.peer_chain } : {}),
    ...(row.conn_sn ? { connSn: row.conn_sn } : {}),
    ...(row.data && Object.keys(row.data).length ? { data: row.data } : {}),
  };
}
