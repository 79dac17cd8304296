export interface DependencyCheck {
  name: 'postgresql' | 'nats' | 'redis' | string;
  check(): Promise<void>;
  /** Reported when down, but the service stays ready (a cache). */
  optional?: boolean;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, { status: 'up' | 'down'; error?: string; ms: number; optional?: true }>;
}

export async function probeDependencies(checks: DependencyCheck[], timeoutMs = 2_000): Promise<ReadinessReport> {
  const entries = await Promise.all(
    checks.map(async (dep) => {
      const started = performance.now();
      try {
        await withTimeout(dep.check(), timeoutMs, `${dep.name} did not answer within ${timeoutMs} ms`);
        return [
          dep.name,
          { status: 'up' as const, ms: Math.round(performance.now() - started), ...(dep.optional ? { optional: true as const } : {}) },
        ] as const;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return [
          dep.name,
          {
            status: 'down' as const,
            error: message,
            ms: Math.round(performance.now() - started),
            ...(dep.optional ? { optional: true as const } : {}),
          },
        ] as const;
      }
    }),
  );
  const report: ReadinessReport = { ready: true, checks: {} };
  for (const [name, result] of entries) {
    report.checks[name] = result;
    if (result.status === 'down' && !result.optional) report.ready = false;
  }
  return report;
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
