/** The public reads the page makes, same origin through the gateway (keyless: /v1/be/* and the status stream). */

import type { ExplorerIntent, Schemas, SubmissionStatus } from '@swap/client/types';

// The public API's own types (generated from its OpenAPI document), not copies of them.
export type Submission = SubmissionStatus;
export type Status = Submission['status'];
export type Transition = Submission['history'][number];
export type Intent = ExplorerIntent;
export type IntentEvent = Intent['events'][number];
export type SwapLookup = Schemas['SwapLookupDto'];
export type HubAsset = Schemas['HubAssetDto'];

/** An answer outside 2xx, with the platform's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function get<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  const body = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
  if (!res.ok) throw new ApiError(res.status, body?.message ?? `${res.status} ${res.statusText}`);
  return body as T;
}

export function lookup(hash: string): Promise<SwapLookup> {
  return get(`/v1/be/intent/swap/${encodeURIComponent(hash)}`);
}

/** Hub assets by their address (lower case): the symbol and decimals of intent amounts. */
export async function hubAssets(): Promise<Map<string, HubAsset>> {
  const byChain = await get<Record<string, Record<string, HubAsset>>>('/v1/be/config/hub/assets');
  const out = new Map<string, HubAsset>();
  for (const assets of Object.values(byChain)) for (const a of Object.values(assets)) out.set(a.asset.toLowerCase(), a);
  return out;
}

/** Chain names by chain key (the deployment's chain map), so the page can say "Arbitrum" as well as its key. */
export async function chainNames(): Promise<Map<string, string>> {
  const chains = await get<{ key: string; name: string }[]>('/v1/be/config/chains');
  return new Map(chains.map((c) => [c.key, c.name]));
}

const STATUSES: Status[] = ['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution', 'solved', 'failed'];

/**
 * Follows a swap in flight on its status stream (server-sent events named by status, carrying the status answer's data);
 * while the stream cannot be had (refused, or reconnecting; it replays what it missed), polls every 3 s, handing over the lookup read.
 */
export function follow(submission: Submission, onChange: (latest: Submission, read?: SwapLookup) => void): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let polling = false;
  const poll = async () => {
    if (stopped || !polling) return;
    try {
      const found = await lookup(submission.txHash);
      if (found.submission) onChange(found.submission, found);
      if (found.submission?.terminal) return stop();
    } catch {
      // try again at the next tick
    }
    if (polling) timer = setTimeout(() => void poll(), 3_000);
  };
  const query = new URLSearchParams({ txHash: submission.txHash, srcChainKey: submission.srcChainKey });
  const stream = new EventSource(`/v1/swaps/submit-tx/events?${query}`);
  for (const status of STATUSES) {
    stream.addEventListener(status, (event) => {
      const latest = JSON.parse((event as MessageEvent<string>).data) as Submission;
      onChange(latest);
      if (latest.terminal) stop();
    });
  }
  stream.onopen = () => {
    polling = false;
    clearTimeout(timer);
  };
  stream.onerror = () => {
    if (stopped || polling) return;
    polling = true;
    void poll();
  };
  function stop(): void {
    stopped = true;
    polling = false;
    stream.close();
    clearTimeout(timer);
  }
  return stop;
}
