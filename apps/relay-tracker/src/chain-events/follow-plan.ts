import type { BlockRef } from '@swap/chains';

export interface FollowCursor {
  number: bigint;
  hash: string;
}

/** `checkCursor`: the head names the cursor as its parent only when it is the very next block; otherwise prove it first. */
export type FollowStep = { kind: 'idle' } | { kind: 'read'; from: bigint; to: bigint; checkCursor: boolean } | { kind: 'rewind' };

export function planStep(cursor: FollowCursor, head: BlockRef, confirmations: number, maxRange: number): FollowStep {
  if (head.number < cursor.number) return { kind: 'rewind' };
  const safe = head.number - BigInt(confirmations);
  if (safe <= cursor.number) return { kind: 'idle' };
  const to = safe < cursor.number + BigInt(maxRange) ? safe : cursor.number + BigInt(maxRange);
  const linked = head.number === cursor.number + 1n;
  if (linked && head.parentHash.toLowerCase() !== cursor.hash.toLowerCase()) return { kind: 'rewind' };
  return { kind: 'read', from: cursor.number + 1n, to, checkCursor: !linked };
}

export function firstCursorHeight(head: bigint, confirmations: number, backfill: number): bigint {
  const start = head - BigInt(confirmations) - BigInt(backfill);
  return start > 0n ? start : 0n;
}

/** The newest known block the chain still holds; undefined when the reorganisation is deeper than the blocks kept. */
export async function forkPoint(
  known: readonly FollowCursor[],
  canonicalHashAt: (number: bigint) => Promise<string | undefined>,
): Promise<FollowCursor | undefined> {
  for (const block of known) {
    const hash = await canonicalHashAt(block.number);
    if (hash !== undefined && hash.toLowerCase() === block.hash.toLowerCase()) return block;
  }
  return undefined;
}

/** Below the oldest kept block, unless the chain no longer reaches it: another chain under the same key (a restarted devnet). */
export function deepRewindHeight(oldestKept: bigint, head: bigint): { height: bigint; newChain: boolean } {
  const below = oldestKept > 0n ? oldestKept - 1n : 0n;
  return head < below ? { height: 0n, newChain: true } : { height: below, newChain: false };
}

export function reorgWindow(confirmations: number): number {
  return Math.max(64, confirmations * 2 + 16);
}
