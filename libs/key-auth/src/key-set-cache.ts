import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type {
  EnforcementMode,
  KeySetEntry,
  KeySetHead,
  KeySetSnapshot,
  PortalKeySetChange,
  RouteFamily,
  RouteModes,
} from '@swap/contracts';
import type { Logger, ServiceMetrics } from '@swap/observability';
import { Counter, Gauge, Histogram } from 'prom-client';
import { hashKey } from './key-format';
import { SignatureRefused } from '@swap/messaging';

export type KeyCheckOutcome = 'ok' | 'missing' | 'invalid' | 'suspended' | 'scope' | 'unavailable';

/** `routeModes`: the portal key set's per-route modes (sponsoring keys have none). */
export type VersionedKeySet = KeySetHead & KeySetSnapshot & { routeModes?: RouteModes };

export type KeySetDelta = KeySetHead &
  Pick<PortalKeySetChange, 'extends' | 'upserts' | 'removals' | 'routeModes'> &
  Pick<KeySetSnapshot, 'modes'>;

export type OfferOutcome = 'applied' | 'same' | 'older';
/** `ahead`: a snapshot is needed to get there. */
export type ChangeOutcome = 'applied' | 'stale' | 'ahead';

export interface KeySetSource {
  /** See docs/architecture/runtime.md#key-checks-in-a-service. */
  readonly ordering: 'newer-only' | 'follow-source';
  pull(cache: KeySetCache): Promise<void>;
  /** Before the first pull: the last good set kept outside the process, if any. */
  restore?(cache: KeySetCache): Promise<void>;
  onEvent?(event: unknown, cache: KeySetCache): void;
}

export interface KeySetCacheOptions {
  /** `portal` or `sponsoring`. */
  name: string;
  source: KeySetSource;
  refreshMs: number;
  /** Modes no key set can move (sponsorships: always enforced). */
  fixedModes?: Partial<Record<RouteFamily, EnforcementMode>>;
  logger: Logger;
  metrics?: ServiceMetrics;
}

/** One key set (`portal` or `sponsoring`) in memory, failing closed; see docs/architecture/key-sets.md#fail-closed (spec: Authentication rule 10). */
export class KeySetCache implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly entries = new Map<string, KeySetEntry>();
  private modes: Partial<Record<RouteFamily, EnforcementMode>> = {};
  private routeModes: RouteModes = {};
  private held?: { epoch: number; version: number };
  private timer?: NodeJS.Timeout;
  private refreshing?: Promise<boolean>;
  private again = false;
  private readonly failures?: Counter;
  private readonly refusals?: Counter;
  private readonly sizeGauge?: Gauge;
  private readonly versionGauge?: Gauge;
  private readonly epochGauge?: Gauge;
  private readonly propagation?: Histogram;
  /** When the held set was last confirmed current (loaded, found unchanged, or changed); before any, when the cache began. */
  private confirmedAt = Date.now();

  constructor(private readonly options: KeySetCacheOptions) {
    if (options.metrics) {
      const registers = [options.metrics.registry];
      const labelNames = ['registry'];
      this.failures = new Counter({
        name: 'api_key_set_refresh_failures_total',
        help: 'Key set refreshes that failed or were refused (the last good set stays)',
        labelNames,
        registers,
      });
      this.refusals = new Counter({
        name: 'api_key_set_refused_total',
        help: 'Key sets and changes refused (unsigned, bad signature, bad shape, replayed, older epoch); the held set stays',
        labelNames: ['registry', 'reason'],
        registers,
      });
      this.sizeGauge = new Gauge({ name: 'api_key_set_keys', help: 'Active keys in the cached key set', labelNames, registers });
      this.versionGauge = new Gauge({ name: 'api_key_set_version', help: 'Version of the cached key set', labelNames, registers });
      this.epochGauge = new Gauge({
        name: 'api_key_set_epoch',
        help: 'Epoch of the cached key set (a registry restore starts a new one)',
        labelNames,
        registers,
      });
      this.propagation = new Histogram({
        name: 'keyset_change_propagation_seconds',
        help: 'From a key set change being signed (a key created, changed or revoked) to this replica applying it off the bus, by kind (revocation: it removes or suspends a key)',
        labelNames: ['registry', 'kind'],
        buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
        registers,
      });
      const age: Gauge = new Gauge({
        name: 'keyset_age_seconds',
        help: 'Seconds since this replica last confirmed its key set current (a refresh or a change applied); alert above two refresh periods',
        labelNames,
        registers,
        collect: () => age.set({ registry: options.name }, (Date.now() - this.confirmedAt) / 1000),
      });
    }
  }

  get loaded(): boolean {
    return this.held !== undefined;
  }

  get version(): number {
    return this.held?.version ?? 0;
  }

  get epoch(): number {
    return this.held?.epoch ?? 0;
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.options.source.restore?.(this);
    } catch (error) {
      this.failed(error, 'kept key set not restored');
    }
    await this.refresh();
    this.schedule();
  }

  beforeApplicationShutdown(): void {
    clearTimeout(this.timer);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => void this.refresh().finally(() => this.schedule()),
      this.loaded ? this.options.refreshMs : Math.min(1_000, this.options.refreshMs),
    );
    this.timer.unref();
  }

  onEvent(event: unknown): void {
    this.options.source.onEvent?.(event, this);
  }

  /** Calls during a pull share it and ask for one more: it may have read just before a change committed. */
  refresh(): Promise<boolean> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = this.pull().then((ok) => {
      this.refreshing = undefined;
      const again = this.again;
      this.again = false;
      return ok && again ? this.refresh() : ok;
    });
    return this.refreshing;
  }

  private async pull(): Promise<boolean> {
    try {
      await this.options.source.pull(this);
      return true;
    } catch (error) {
      this.failed(error, 'key set refresh failed; keeping the last good set');
      return false;
    }
  }

  private failed(error: unknown, message: string): void {
    this.failures?.inc({ registry: this.options.name });
    if (error instanceof SignatureRefused) this.refused(error);
    else this.options.logger.warn({ registry: this.options.name, err: error, keeping: this.held ?? null }, message);
  }

  refused(refusal: SignatureRefused): void {
    this.refusals?.inc({ registry: this.options.name, reason: refusal.reason });
    this.options.logger.warn(
      { registry: this.options.name, reason: refusal.reason, detail: refusal.message, held: this.held ?? null },
      'key set refused; keeping the held set',
    );
  }

  compare(set: { epoch: number; version: number }): 1 | 0 | -1 {
    if (!this.held) return 1;
    if (set.epoch !== this.held.epoch) return set.epoch > this.held.epoch ? 1 : -1;
    return set.version === this.held.version ? 0 : set.version > this.held.version ? 1 : -1;
  }

  /** `confirmedAt`: when the set was known current, if not now (a kept copy: when it was signed). */
  offer(set: VersionedKeySet, confirmedAt = Date.now()): OfferOutcome {
    const order = this.compare(set);
    if (this.options.source.ordering === 'newer-only' && order <= 0) {
      if (order === 0) this.confirmedAt = Math.max(this.confirmedAt, confirmedAt);
      return order === 0 ? 'same' : 'older';
    }
    this.entries.clear();
    for (const key of set.keys) this.entries.set(key.hash, key);
    this.modes = { ...set.modes };
    this.routeModes = { ...set.routeModes };
    this.confirmedAt = confirmedAt;
    const first = !this.held;
    this.held = { epoch: set.epoch, version: set.version };
    if (first)
      this.options.logger.info(
        { registry: this.options.name, epoch: set.epoch, version: set.version, keys: this.entries.size },
        'key set loaded',
      );
    this.report();
    return order === 0 ? 'same' : 'applied';
  }

  offerChange(change: KeySetDelta, confirmedAt = Date.now()): ChangeOutcome {
    if (!this.held || change.epoch > this.held.epoch) return 'ahead';
    if (change.epoch < this.held.epoch || change.version <= this.held.version) return 'stale';
    if (change.extends !== this.held.version) return 'ahead';
    for (const hash of change.removals) this.entries.delete(hash);
    for (const key of change.upserts) this.entries.set(key.hash, key);
    this.modes = { ...change.modes };
    this.routeModes = { ...change.routeModes };
    this.confirmedAt = confirmedAt;
    this.held = { epoch: change.epoch, version: change.version };
    this.report();
    return 'applied';
  }

  /** A change heard live, applied: how long it took to get here from its signing. */
  observePropagation(change: PortalKeySetChange, now = Date.now()): void {
    const revocation = change.removals.length > 0 || change.upserts.some((key) => key.suspended);
    const seconds = Math.max(0, now - Date.parse(change.issuedAt)) / 1000;
    this.propagation?.observe({ registry: this.options.name, kind: revocation ? 'revocation' : 'other' }, seconds);
  }

  private report(): void {
    this.sizeGauge?.set({ registry: this.options.name }, this.entries.size);
    this.versionGauge?.set({ registry: this.options.name }, this.version);
    this.epochGauge?.set({ registry: this.options.name }, this.epoch);
  }

  /** The route's own mode (`METHOD /path`), else its family's; undefined while unknown: no set held yet, or the set does not name the family. */
  modeOf(family: RouteFamily, route?: string): EnforcementMode | undefined {
    const fixed = this.options.fixedModes?.[family];
    if (fixed) return fixed;
    if (!this.held) return undefined;
    return (route !== undefined ? this.routeModes[route] : undefined) ?? this.modes[family];
  }

  check(presented: string | string[] | undefined, scope?: string): { outcome: KeyCheckOutcome; entry?: KeySetEntry } {
    if (presented === undefined || presented === '') return { outcome: 'missing' };
    if (!this.held) return { outcome: 'unavailable' };
    if (Array.isArray(presented)) return { outcome: 'invalid' };
    const entry = this.entries.get(hashKey(presented));
    if (!entry) return { outcome: 'invalid' };
    if (entry.suspended) return { outcome: 'suspended', entry };
    if (scope && !entry.scopes.includes(scope)) return { outcome: 'scope', entry };
    return { outcome: 'ok', entry };
  }
}

/** The service's own database (sponsorship-keys); the bus carries only a hint to read sooner. */
export class LocalKeySetSource implements KeySetSource {
  readonly ordering = 'follow-source' as const;

  constructor(private readonly load: () => Promise<Omit<VersionedKeySet, 'epoch'>>) {}

  async pull(cache: KeySetCache): Promise<void> {
    cache.offer({ epoch: 1, ...(await this.load()) });
  }

  onEvent(event: unknown, cache: KeySetCache): void {
    const version = (event as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && Number.isInteger(version) && version > cache.version) void cache.refresh();
  }
}
