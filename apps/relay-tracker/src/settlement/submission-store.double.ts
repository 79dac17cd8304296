import { TERMINAL_STATUSES, type IndexedChainEvent, type Intent, type StoredTransition, type SubmissionStatus } from '@swap/contracts';
import { intentHash } from '@swap/chains';
import { randomUUID } from 'node:crypto';
import { HUB, payloadOf, SETTINGS, SPOKE, UNFOLLOWED, USER } from './settlement.fixtures';
import type { SettlementFacts } from './submission-sql';
import type { SubmissionPatch, SubmissionRow, SubmissionStore } from './submission-store';

type Write = 'transition' | 'patch' | 'park' | 'touch';
export interface Announced {
  txHash: string;
  from: SubmissionStatus;
  status: SubmissionStatus;
  detail: string;
  terminal: boolean;
}
const relayIdOf = (chainKey: string) => [HUB, SPOKE, UNFOLLOWED].find((c) => c.key === chainKey)?.relayChainId;
const ORDER: SubmissionStatus[] = ['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution'];

/** SubmissionStore in memory, keeping the SQL's compare-and-set, version and attempts rules and its facts. */
export class MemorySubmissionStore implements Pick<SubmissionStore, 'find' | 'transition' | 'patch' | 'park' | 'touch'> {
  private readonly rows = new Map<string, SubmissionRow>();
  readonly index: IndexedChainEvent[] = [];
  hubTime?: Date;
  readonly announced: Announced[] = [];
  private readonly before = new Map<Write, () => Promise<unknown>>();

  submitted(intent: Intent, fields: Partial<SubmissionRow> & Pick<SubmissionRow, 'txHash' | 'srcChainKey'>): SubmissionRow {
    const now = new Date();
    const through = ORDER.slice(0, ORDER.indexOf(fields.status ?? 'pending') + 1);
    const row: SubmissionRow = {
      id: randomUUID(),
      walletAddress: USER,
      intent,
      relayData: payloadOf(intent),
      intentHash: intentHash(intent),
      status: 'pending',
      userMessage: null,
      createdAt: now,
      updatedAt: now,
      history: through.map((status, i) => ({ status, at: now.toISOString(), detail: i === 0 ? 'submitted' : 'earlier step' })),
      processingAttempts: 0,
      failedAtStep: null,
      verified: fields.status !== undefined && fields.status !== 'pending',
      notFoundSince: null,
      hubTxHash: null,
      fillTxHash: null,
      deliveryTxHash: null,
      intentCancelled: false,
      submittedByOrg: null,
      version: 1n,
      eventSeq: 0,
      wakeAt: new Date(now.getTime() + SETTINGS.FALLBACK_CHECK_MS),
      adopted: false,
      claimsPending: false,
      ...fields,
    };
    this.rows.set(row.id, row);
    return this.read(row);
  }

  get(id: string): SubmissionRow {
    const row = this.rows.get(id);
    if (!row) throw new Error(`no submission ${id}`);
    return this.read(row);
  }

  statuses(id: string): SubmissionStatus[] {
    return (this.get(id).history as StoredTransition[]).map((h) => h.status);
  }

  /** Wakes the swaps concerned as SettlementWakeups does. */
  record(...batch: IndexedChainEvent[]): void {
    this.index.push(...batch);
    const txs = batch.filter((e) => e.kind !== 'message_received');
    const delivered = batch.filter((e) => e.chainKey !== HUB.key && e.kind === 'message_received' && e.peerChain === HUB.relayChainId);
    for (const row of this.rows.values()) {
      if (row.wakeAt === null) continue;
      const concerned =
        txs.some((e) => e.chainKey === row.srcChainKey && e.txHash === row.txHash) ||
        batch.some((e) => e.intentHash !== undefined && e.intentHash === row.intentHash) ||
        this.index.some(
          (s) =>
            s.chainKey === HUB.key &&
            s.kind === 'message_sent' &&
            s.txHash === row.fillTxHash &&
            delivered.some((d) => d.connSn === s.connSn && relayIdOf(d.chainKey) === s.peerChain),
        );
      if (!concerned) continue;
      row.eventSeq += 1;
      row.wakeAt = new Date(Date.now() + 2_000);
    }
  }

  /** Runs `fn` just before the next write of this kind (another replica, or an event, between a step's read and its write). */
  beforeNext(write: Write, fn: () => Promise<unknown>): void {
    this.before.set(write, fn);
  }

  async find(id: string): Promise<SubmissionRow | null> {
    const row = this.rows.get(id);
    return row ? this.read(row) : null;
  }

  async transition(
    row: SubmissionRow,
    steps: { status: SubmissionStatus; detail: string }[],
    patch: SubmissionPatch,
    wakeAt: Date | null,
  ): Promise<SubmissionRow | undefined> {
    const stored = await this.matching('transition', row);
    if (!stored) return undefined;
    const at = new Date().toISOString();
    const entries = steps.map((s) => ({ status: s.status, at, detail: s.detail }));
    Object.assign(stored, this.patched(patch), {
      status: steps.at(-1)!.status,
      history: [...(stored.history as StoredTransition[]), ...entries],
      processingAttempts: 0,
      version: stored.version + 1n,
      wakeAt,
      updatedAt: new Date(),
    });
    let from = row.status;
    for (const entry of entries) {
      this.announced.push({
        txHash: row.txHash,
        from,
        status: entry.status,
        detail: entry.detail,
        terminal: TERMINAL_STATUSES.includes(entry.status),
      });
      from = entry.status;
    }
    return this.read(stored);
  }

  async patch(row: SubmissionRow, patch: SubmissionPatch): Promise<SubmissionRow | undefined> {
    const stored = await this.matching('patch', row);
    if (!stored) return undefined;
    Object.assign(stored, this.patched(patch), { version: stored.version + 1n, updatedAt: new Date() });
    return this.read(stored);
  }

  async park(row: SubmissionRow, wakeAt: Date | null): Promise<boolean> {
    const stored = await this.matching('park', row);
    if (!stored || stored.eventSeq !== row.eventSeq) return false;
    stored.wakeAt = wakeAt;
    return true;
  }

  async touch(row: SubmissionRow, wakeAt: Date): Promise<void> {
    const stored = await this.matching('touch', row);
    if (!stored) return;
    Object.assign(stored, {
      processingAttempts: stored.processingAttempts + 1,
      version: stored.version + 1n,
      wakeAt,
      updatedAt: new Date(),
    });
  }

  private async matching(write: Write, row: SubmissionRow): Promise<SubmissionRow | undefined> {
    const hook = this.before.get(write);
    this.before.delete(write);
    await hook?.();
    const stored = this.rows.get(row.id);
    return stored?.status === row.status ? stored : undefined;
  }

  private patched(patch: SubmissionPatch): Partial<SubmissionRow> {
    return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  }

  /** A copy: a step never holds the stored row. */
  private read(stored: SubmissionRow): SubmissionRow {
    const { facts: _none, ...row } = stored;
    const copy = structuredClone(row);
    return { ...copy, facts: this.factsOf(copy) };
  }

  private factsOf(row: SubmissionRow): SettlementFacts {
    const ordered = [...this.index].sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : BigInt(a.blockNumber) < BigInt(b.blockNumber) ? -1 : 1,
    );
    const is = (...statuses: SubmissionStatus[]) => statuses.includes(row.status);
    const sentBy = (chainKey: string, txHash: string | null, peer?: string) =>
      ordered.filter((s) => s.chainKey === chainKey && s.txHash === txHash && s.kind === 'message_sent' && (!peer || s.peerChain === peer));
    const deliveries = (sent: IndexedChainEvent[], where: (r: IndexedChainEvent) => boolean) =>
      ordered.filter((r) => r.kind === 'message_received' && where(r) && sent.some((s) => s.connSn === r.connSn));
    return {
      sourceEvents: is('pending') ? ordered.filter((e) => e.chainKey === row.srcChainKey && e.txHash === row.txHash) : [],
      intentEvents: is('relaying', 'posted_execution', 'failed') ? ordered.filter((e) => e.intentHash === row.intentHash) : [],
      sourceDeliveries: is('relaying')
        ? deliveries(sentBy(row.srcChainKey, row.txHash, HUB.relayChainId), (r) => r.chainKey === HUB.key)
        : [],
      fillDeliveries:
        is('posted_execution') && row.fillTxHash
          ? deliveries(sentBy(HUB.key, row.fillTxHash), (r) => r.peerChain === HUB.relayChainId)
          : [],
      ...(is('posted_execution') && this.hubTime ? { hubTime: new Date(this.hubTime) } : {}),
    };
  }
}
