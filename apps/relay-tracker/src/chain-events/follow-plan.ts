import type { BlockRef } from '@swap/chains';

/** The last block a follower read into the index. */
export interface FollowCursor {
  number: bigint;
  hash: string;
}

/**
 * What a follower does next, from its cursor and the chain's head:
 * - `idle`: nothing past the cursor is deep enough yet;
 * - `read`: blocks `from`…`to`; `checkCursor` when the cursor must first be proven still
 *   part of the chain (the head names it as its parent only when it is the very next block);
 * - `rewind`: the chain no longer holds the cursor (the head is below it, or the next
 *   block's parent is another block): find where it forked and retract what came after.
 */
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

/** Where a follower starts the first time: `backfill` blocks below the deepest block it may read. */
export function firstCursorHeight(head: bigint, confirmations: number, backfill: number): bigint {
  const start = head - BigInt(confirmations) - BigInt(backfill);
  return start > 0n ? start : 0n;
}

/**
 * The newest of the blocks read (newest first) that the chain still holds at its height:
 * where a reorganised chain forked. Undefined when none is (the reorganisation is deeper
 * than the blocks kept).
 */
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

/**
 * Where to start again after a reorganisation deeper than the blocks kept: just below the
 * oldest kept block, unless the chain no longer even reaches that height: then it is
 * another chain under the same key (a devnet restarted from its genesis), read again from
 * its first block (everything indexed of the old one is retracted).
 */
export function deepRewindHeight(oldestKept: bigint, head: bigint): { height: bigint; newChain: boolean } {
  const below = oldestKept > 0n ? oldestKept - 1n : 0n;
  return head < below ? { height: 0n, newChain: true } : { height: below, newChain: false };
}

/** Blocks to keep hashes of: enough to find a fork within the confirmation depth, and some. */
export function reorgWindow(confirmations: number): number {
  return Math.max(64, confirmations * 2 + 16);
}
