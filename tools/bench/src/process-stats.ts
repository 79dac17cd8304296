import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { parseMetrics } from '../../ops/src/prometheus-text';

/** Jiffies; zeros where there is no /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - fields[3] - (fields[4] ?? 0), total };
  } catch {
    return { busy: 0, total: 1 };
  }
}

export function processCpuSeconds(pid: number | undefined): number {
  const { user, system } = processCpuSplit(pid);
  return user + system;
}

type CpuSplit = { user: number; system: number };

/** `children`: also the CPU of its children that have exited (waited for). */
export function processCpuSplit(pid: number | undefined, children = false): CpuSplit {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime in clock ticks (100 Hz on Linux)
    const ticks = (at: number) => Number(fields[at]) + (children ? Number(fields[at + 2]) : 0);
    return { user: ticks(11) / 100, system: ticks(12) / 100 };
  } catch {
    return { user: 0, system: 0 };
  }
}

/** A name stands for one process, or for a sum read afresh each time (PostgreSQL's backends come and go). */
export function cpuMicrosPerRequestSince(
  processes: Record<string, number | (() => CpuSplit) | undefined>,
): (requests: number) => { name: string; user: number; system: number }[] {
  const before = Object.entries(processes)
    .filter(([, pid]) => pid !== undefined)
    .map(([name, pid]) => {
      const read = typeof pid === 'function' ? pid : () => processCpuSplit(pid);
      return { name, read, at: read() };
    });
  return (requests) =>
    before.map(({ name, read, at }) => {
      const after = read();
      const us = (seconds: number) => (seconds / Math.max(1, requests)) * 1e6;
      return { name, user: us(after.user - at.user), system: us(after.system - at.system) };
    });
}

export function cpuSplitText(split: { name: string; user: number; system: number }[]): string[] {
  return split.map(({ name, user, system }) => `${name} ${user.toFixed(0)}+${system.toFixed(0)}`);
}

export function cpuPerRequestSince(processes: Record<string, number | undefined>): (requests: number) => string[] {
  const since = cpuMicrosPerRequestSince(processes);
  return (requests) => cpuSplitText(since(requests));
}

/** Its CPU is part of every bus hop. */
export function natsServerPid(): number | undefined {
  return pidsNamed('nats-server')[0];
}

/** The server, its living backends and those that have exited: a query's CPU is spent in one of them. */
export function postgresCpu(): CpuSplit {
  const pids = new Set(pidsNamed('postgres'));
  let user = 0;
  let system = 0;
  for (const pid of pids) {
    const server = !pids.has(parentOf(pid));
    const split = processCpuSplit(pid, server);
    user += split.user;
    system += split.system;
  }
  return { user, system };
}

function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

function pidsNamed(command: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === command) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export async function metricSum(adminPort: number, name: string): Promise<number> {
  const samples = parseMetrics(await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text());
  return samples.filter((m) => m.name === name).reduce((total, m) => total + m.value, 0);
}

/** From PostgreSQL's statistics, flushed when a backend idles. */
export async function rowsWritten(sql: pg.Pool, schema: string): Promise<number> {
  const { rows } = await sql.query<{ n: string }>(
    `SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::text AS n FROM pg_stat_user_tables WHERE schemaname = $1`,
    [schema],
  );
  return Number(rows[0].n);
}

export async function natsMessagesIn(monitorUrl: string): Promise<number> {
  const varz = (await (await fetch(`${monitorUrl}/varz`)).json()) as { in_msgs: number };
  return varz.in_msgs;
}

export function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

export function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export async function until(probe: () => boolean | Promise<boolean>, timeoutMs: number, message: string, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(message);
    await sleep(everyMs);
  }
}

export async function mapLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}
