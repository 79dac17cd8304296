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
 * Follows a swap in flight on its status stream (server-sent events: each event is named by
 * its status and carries the status answer's data); when the stream cannot be had, polls
 * every 3 s. Returns the function that stops it.
 */
export function follow(submission: Submission, onChange: (latest: Submission) => void): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    if (stopped) return;
    try {
      const found = await lookup(submission.txHash);
      if (found.submission) onChange(found.submission);
      if (found.submission?.terminal) return;
    } catch {
      // try again at the next tick
    }
    timer = setTimeout(() => void poll(), 3_000);
  };
  const query = new URLSearchParams({ txHash: submission.txHash, srcChainKey: submission.srcChainKey });
  const stream = new EventSource(`/v1/swaps/submit-tx/events?${query}`);
  for (const status of STATUSES) {
    stream.addEventListener(status, (event) => {
      const latest = JSON.parse((event as MessageEvent<string>).data) as Submission;
      onChange(latest);
      if (latest.terminal) stream.close();
    });
  }
  stream.onerror = () => {
    if (stream.readyState !== EventSource.CLOSED || stopped) return;
    // Closed without reaching the end (refused, or the server went away for good): poll instead.
    void poll();
  };
  return () => {
    stopped = true;
    stream.close();
    clearTimeout(timer);
  };
}
