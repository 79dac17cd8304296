import { Pool } from 'undici';

export interface LatencyRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** A different one stops the bench. */
  status?: number;
  /** The machine idles between requests, as while a quote waits for solvers. */
  pauseMs?: number;
}

/** One request at a time: under saturating load p50 is mostly queueing (Little's law), not what a hop adds. */
export async function sequentialLatency(
  origin: string,
  request: LatencyRequest,
  seconds: number,
): Promise<{ p50: number; p99: number; n: number }> {
  const pool = new Pool(origin, { connections: 1 });
  const samples: number[] = [];
  const until = performance.now() + seconds * 1000;
  const headers = request.body ? { 'content-type': 'application/json' } : undefined;
  try {
    while (performance.now() < until) {
      if (request.pauseMs) await new Promise((r) => setTimeout(r, request.pauseMs));
      const started = performance.now();
      const res = await pool.request({ method: request.method, path: request.path, body: request.body, headers });
      await res.body.arrayBuffer();
      if (res.statusCode !== (request.status ?? 200)) throw new Error(`${request.method} ${request.path} answered ${res.statusCode}`);
      samples.push(performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  return percentiles(samples);
}

/** Sorts in place. */
export function percentiles(samples: number[]): { p50: number; p99: number; n: number } {
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { p50: at(0.5), p99: at(0.99), n: samples.length };
}

export async function concurrently(clients: number, seconds: number, once: (i: number) => Promise<number | void>) {
  const samples: number[] = [];
  let next = 0;
  let size = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        size = (await once(next++)) || size;
        samples.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { ...percentiles(samples), rps: samples.length / elapsed, bytes: size };
}
