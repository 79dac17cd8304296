import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { EnforcementMode, KeySetEntry, KeySetSnapshot, RouteFamily } from '@swap/contracts';
import type { Logger, ServiceMetrics } from '@swap/observability';
import { Counter, Gauge } from 'prom-client';
import { hashKey } from './key-format';

export type KeyCheckOutcome = 'ok' | 'missing' | 'invalid' | 'suspended' | 'scope' | 'unavailable';

export interface KeySetCacheOptions {
  /** Which registry this is (labels metrics and logs): `portal` or `sponsoring`. */
  name: string;
  load: () => Promise<KeySetSnapshot>;
  /** Periodic refresh (the spec's 15 s); a change event refreshes at once. */
  refreshMs: number;
  /** Until a first snapshot arrives the registry's modes are unknown: these apply. */
  modesUntilLoaded: Partial<Record<RouteFamily, EnforcementMode>>;
  /** Modes no snapshot can move (sponsorships: always enforced). */
  fixedModes?: Partial<Record<RouteFamily, EnforcementMode>>;
  logger: Logger;
  metrics?: ServiceMetrics;
}

/**
 * The active key set of one registry, held in memory: a request is checked by hashing its
 * header and looking the hash up, with no network call. The set is loaded at start,
 * refreshed every `refreshMs` and at once on a change event carrying a newer version; a
 * failed refresh keeps the last good set (so revocation is prompt, not guaranteed, while
 * the registry is unreachable; spec: Authentication rule 10).
 */
export class KeySetCache implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private entries = new Map<string, KeySetEntry>();
  private modes: Partial<Record<RouteFamily, EnforcementMode>> = {};
  private timer?: NodeJS.Timeout;
  private refreshing?: Promise<boolean>;
  private pendingVersion = 0;
  version = 0;
  loaded = false;
  private readonly failures?: Counter;
  private readonly sizeGauge?: Gauge;
  private readonly versionGauge?: Gauge;

  constructor(private readonly options: KeySetCacheOptions) {
    if (options.metrics) {
      const registers = [options.metrics.registry];
      const labelNames = ['registry'];
      this.failures = new Counter({ name: `api_key_set_refresh_failures_total`, help: 'Key set refreshes that failed (the last good set stays)', labelNames, registers });
      this.sizeGauge = new Gauge({ name: 'api_key_set_keys', help: 'Active keys in the cached key set', labelNames, registers });
      this.versionGauge = new Gauge({ name: 'api_key_set_version', help: 'Version of the cached key set', labelNames, registers });
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.refresh();
    this.schedule();
  }

  beforeApplicationShutdown(): void {
    clearTimeout(this.timer);
  }

  /** Until the first load succeeds, retries every second; then every `refreshMs`. */
  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => void this.refresh().finally(() => this.schedule()),
      this.loaded ? this.options.refreshMs : Math.min(1_000, this.options.refreshMs),
    );
    this.timer.unref();
  }

  /** A change event: refresh now unless this version (or a newer one) is already held. */
  onChanged(version: number): void {
    if (version <= this.version) return;
    this.pendingVersion = Math.max(this.pendingVersion, version);
    void this.refresh();
  }

  /**
   * Loads the snapshot; calls while a load runs share it, so loads never overlap and the
   * last one to finish is the newest (a registry restored to a lower version is followed
   * too). Resolves false when it failed; the timer retries, never a tight loop.
   */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.load().then((ok) => {
      this.refreshing = undefined;
      // An event announced a version newer than this load saw (it started just before the
      // change committed): load once more.
      const wanted = this.pendingVersion;
      this.pendingVersion = 0;
      if (ok && wanted > this.version) return this.refresh();
      return ok;
    });
    return this.refreshing;
  }

  private async load(): Promise<boolean> {
    try {
      const snapshot = await this.options.load();
      this.entries = new Map(snapshot.keys.map((k) => [k.hash, k]));
      this.modes = snapshot.modes;
      this.version = snapshot.version;
      if (!this.loaded) this.options.logger.info({ registry: this.options.name, version: snapshot.version, keys: this.entries.size }, 'key set loaded');
      this.loaded = true;
      this.sizeGauge?.set({ registry: this.options.name }, this.entries.size);
      this.versionGauge?.set({ registry: this.options.name }, this.version);
      return true;
    } catch (error) {
      this.failures?.inc({ registry: this.options.name });
      this.options.logger.warn({ registry: this.options.name, err: error, keepingVersion: this.loaded ? this.version : null }, 'key set refresh failed; keeping the last good set');
      return false;
    }
  }

  modeOf(family: RouteFamily): EnforcementMode {
    return this.options.fixedModes?.[family] ?? (this.loaded ? this.modes[family] : this.options.modesUntilLoaded[family]) ?? 'off';
  }

  /** The outcome of checking a presented key (raw `x-api-key` header) against a scope. */
  check(presented: string | string[] | undefined, scope?: string): { outcome: KeyCheckOutcome; entry?: KeySetEntry } {
    if (presented === undefined || presented === '') return { outcome: 'missing' };
    if (!this.loaded) return { outcome: 'unavailable' };
    if (Array.isArray(presented)) return { outcome: 'invalid' };
    const entry = this.entries.get(hashKey(presented));
    if (!entry) return { outcome: 'invalid' };
    if (entry.suspended) return { outcome: 'suspended', entry };
    if (scope && !entry.scopes.includes(scope)) return { outcome: 'scope', entry };
    return { outcome: 'ok', entry };
  }
}
