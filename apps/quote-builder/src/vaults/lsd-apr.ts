import { Injectable } from '@nestjs/common';
import type { LsdApr, LsdSource } from '@swap/contracts';
import { QuoteBuilderConfig } from '../quote-builder.config';

const RAY_PER_PERCENT = 10n ** 25n;
const KEEP_MS = 10 * 60_000;
const RETRY_MS = 60_000;
const TIMEOUT_MS = 3_000;

/** Percent with up to 6 decimals, in RAY (1e27 = 100%). */
export function percentToRay(percent: number): bigint {
  return (BigInt(Math.round(percent * 1e6)) * RAY_PER_PERCENT) / 1_000_000n;
}

/** A staking yield from the yields API (`LSD_APR_URL`, DefiLlama's shape: GET /chart/{poolId} → { data: [{ apy }] }), kept ten minutes; the configured fallback, stale, when it cannot be read. */
@Injectable()
export class LsdAprSource {
  private readonly kept = new Map<string, { apr: Promise<bigint>; at: number }>();

  constructor(private readonly config: QuoteBuilderConfig) {}

  async aprOf(source: LsdSource | undefined): Promise<LsdApr> {
    if (!source) return { aprRay: '0', label: '', stale: false };
    try {
      return { aprRay: (await this.fetched(source.poolId)).toString(), label: source.label, stale: false };
    } catch {
      return { aprRay: percentToRay(source.fallbackAprPct).toString(), label: `${source.label} (fallback)`, stale: true };
    }
  }

  private fetched(poolId: string): Promise<bigint> {
    const base = this.config.LSD_APR_URL;
    if (!base) return Promise.reject(new Error('LSD_APR_URL is not set'));
    const held = this.kept.get(poolId);
    if (held && Date.now() - held.at < KEEP_MS) return held.apr;
    const apr = fetch(`${base.replace(/\/$/, '')}/chart/${encodeURIComponent(poolId)}`, { signal: AbortSignal.timeout(TIMEOUT_MS) }).then(
      async (res) => {
        if (!res.ok) throw new Error(`yields API answered ${res.status}`);
        const points = ((await res.json()) as { data?: { apy?: unknown }[] }).data;
        const apy = points?.at(-1)?.apy;
        if (typeof apy !== 'number' || !Number.isFinite(apy)) throw new Error('yields API answered no apy');
        return percentToRay(apy);
      },
    );
    this.kept.set(poolId, { apr, at: Date.now() });
    // A source that cannot be read is asked again after a minute, not by every read meanwhile.
    apr.catch(() => this.kept.set(poolId, { apr, at: Date.now() - KEEP_MS + RETRY_MS }));
    return apr;
  }
}
