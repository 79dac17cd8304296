import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { ChainEventBatch, IndexedChainEvent } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import { DATABASE_POOL, LOGGER } from '@swap/service-kit';
import type pg from 'pg';
import { ChainEventFeed } from '../chain-events/chain-event-feed';
import { SettlementChains } from './settlement-chains';
import { SettlementQueue } from './settlement-queue';

const BATCH_CONCURRENCY = 4;

/** Wakes the swaps a batch concerns; see docs/architecture/settlement.md#waking-on-events. */
@Injectable()
export class SettlementWakeups implements OnModuleInit {
  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    private readonly chains: SettlementChains,
    private readonly feed: ChainEventFeed,
    private readonly queue: SettlementQueue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.feed.consume(async (batch) => void (await this.wake(batch)), BATCH_CONCURRENCY);
  }

  async wake(batch: ChainEventBatch): Promise<string[]> {
    const events: IndexedChainEvent[] = [...batch.events, ...(batch.retracted ?? [])];
    if (events.length === 0) return [];
    const chain = this.chains.directory.findChain(batch.chainKey);
    if (!chain) return [];
    const hub = this.chains.hub;
    const txs = unique(events.filter((e) => e.kind !== 'message_received').map((e) => e.txHash));
    const intents = unique(events.flatMap((e) => (e.intentHash ? [e.intentHash] : [])));
    // A fill's output delivered on a spoke.
    const delivered = chain.hub
      ? []
      : unique(events.filter((e) => e.kind === 'message_received' && e.peerChain === hub.relayChainId && e.connSn).map((e) => e.connSn!));
    const { rows } = await this.pool.query<WokenRow>(
      `UPDATE relay_tracker.submissions s SET event_seq = s.event_seq + 1, wake_at = now() + interval '2 seconds'
       WHERE s.wake_at IS NOT NULL AND (
         (s.src_chain_key = $1 AND s.tx_hash = ANY($2::text[]))
         OR s.intent_hash = ANY($3::text[])
         OR s.fill_tx_hash IN (
           SELECT e.tx_hash FROM relay_tracker.chain_events e
           WHERE e.chain_key = $4 AND e.kind = 'message_sent' AND e.peer_chain = $5 AND e.conn_sn = ANY($6::numeric[])))
       RETURNING s.id::text AS id, s.trace_parent`,
      [chain.key, txs, intents, hub.key, chain.relayChainId, delivered],
    );
    // Deposits whose hub calls failed.
    const refused = chain.hub
      ? events.filter((e) => e.kind === 'message_received' && e.connSn && (e.data as { ok?: boolean } | undefined)?.ok === false)
      : [];
    if (refused.length) {
      const sources = refused.flatMap((e) => {
        const src = this.chains.byRelayId(e.peerChain ?? '');
        return src ? [{ chainKey: src.key, connSn: e.connSn! }] : [];
      });
      rows.push(
        ...(
          await this.pool.query<WokenRow>(
            `UPDATE relay_tracker.submissions s SET event_seq = s.event_seq + 1, wake_at = now() + interval '2 seconds'
           WHERE s.wake_at IS NOT NULL AND s.status = 'relaying' AND (s.src_chain_key, s.tx_hash) IN (
             SELECT e.chain_key, e.tx_hash FROM relay_tracker.chain_events e
             JOIN unnest($1::text[], $2::numeric[]) AS r(chain_key, conn_sn) ON e.chain_key = r.chain_key AND e.conn_sn = r.conn_sn
             WHERE e.kind = 'message_sent' AND e.peer_chain = $3)
           RETURNING s.id::text AS id, s.trace_parent`,
            [sources.map((s) => s.chainKey), sources.map((s) => s.connSn), hub.relayChainId],
          )
        ).rows,
      );
    }
    for (const { id, trace_parent } of rows) await this.queue.add(id, trace_parent);
    if (rows.length) this.logger.debug({ chain: chain.key, events: events.length, woken: rows.length }, 'swaps woken by chain events');
    return rows.map((r) => r.id);
  }
}

type WokenRow = { id: string; trace_parent: string | null };

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
