import type { BlockRef } from '@swap/chains';
import type { Hex } from 'viem';
import { deepRewindHeight, firstCursorHeight, forkPoint, planStep, reorgWindow, type FollowCursor } from './follow-plan';

const hash = (n: number, fork = 0): Hex => `0x${(fork * 1_000_000 + n).toString(16).padStart(64, '0')}`;
const block = (n: number, fork = 0, parentFork = fork): BlockRef => ({
  number: BigInt(n),
  hash: hash(n, fork),
  parentHash: hash(n - 1, parentFork),
  timestamp: BigInt(1_800_000_000 + n),
});
const cursorAt = (n: number, fork = 0): FollowCursor => ({ number: BigInt(n), hash: hash(n, fork) });

describe('planStep: what a follower reads next', () => {
  it('is idle while nothing past the cursor is deep enough', () => {
    expect(planStep(cursorAt(100), block(100), 0, 500)).toEqual({ kind: 'idle' });
    expect(planStep(cursorAt(100), block(102), 2, 500)).toEqual({ kind: 'idle' });
  });

  it('reads up to the head less the confirmations, at most maxRange blocks at once', () => {
    expect(planStep(cursorAt(100), block(110), 0, 500)).toEqual({ kind: 'read', from: 101n, to: 110n, checkCursor: true });
    expect(planStep(cursorAt(100), block(110), 3, 500)).toEqual({ kind: 'read', from: 101n, to: 107n, checkCursor: true });
    expect(planStep(cursorAt(100), block(2_000), 0, 500)).toEqual({ kind: 'read', from: 101n, to: 600n, checkCursor: true });
  });

  it('needs no extra read to trust the cursor when the head is its child, and rewinds when the child names another parent', () => {
    expect(planStep(cursorAt(100), block(101), 0, 500)).toEqual({ kind: 'read', from: 101n, to: 101n, checkCursor: false });
    expect(planStep(cursorAt(100), block(101, 1, 1), 0, 500)).toEqual({ kind: 'rewind' });
    // Parent hashes compare without regard to letter case.
    const upper = { ...block(101), parentHash: hash(100).toUpperCase().replace('0X', '0x') as Hex };
    expect(planStep(cursorAt(100), upper, 0, 500)).toEqual({ kind: 'read', from: 101n, to: 101n, checkCursor: false });
  });

  it('rewinds when the head is below the cursor (the chain went back)', () => {
    expect(planStep(cursorAt(100), block(98), 0, 500)).toEqual({ kind: 'rewind' });
  });
});

describe('firstCursorHeight', () => {
  it('starts the backfill window below the deepest readable block, never below block 0', () => {
    expect(firstCursorHeight(1_000n, 2, 100)).toBe(898n);
    expect(firstCursorHeight(1_000n, 0, 0)).toBe(1_000n);
    expect(firstCursorHeight(50n, 2, 100)).toBe(0n);
  });
});

describe('forkPoint: where a reorganised chain forked', () => {
  const known = [cursorAt(105), cursorAt(104), cursorAt(103), cursorAt(102)];

  it('is the newest block read that the chain still holds at its height', async () => {
    // The chain replaced 104 and 105 (fork 1); 103 and below are as read.
    const canonical = async (n: bigint) => (n >= 104n ? hash(Number(n), 1) : hash(Number(n)));
    await expect(forkPoint(known, canonical)).resolves.toEqual(cursorAt(103));
  });

  it('treats a height the chain no longer reaches as forked', async () => {
    const canonical = async (n: bigint) => (n > 103n ? undefined : hash(Number(n)));
    await expect(forkPoint(known, canonical)).resolves.toEqual(cursorAt(103));
  });

  it('is undefined when the reorganisation is deeper than the blocks kept', async () => {
    await expect(forkPoint(known, async (n) => hash(Number(n), 7))).resolves.toBeUndefined();
  });

  it('after a reorganisation deeper than the blocks kept, starts below the oldest; a chain now shorter than that is new: from its genesis', () => {
    expect(deepRewindHeight(100n, 150n)).toEqual({ height: 99n, newChain: false });
    expect(deepRewindHeight(100n, 99n)).toEqual({ height: 99n, newChain: false });
    // A devnet restarted under the same key: 12 blocks where 164 were read.
    expect(deepRewindHeight(100n, 12n)).toEqual({ height: 0n, newChain: true });
    expect(deepRewindHeight(0n, 0n)).toEqual({ height: 0n, newChain: false });
  });

  it('keeps enough blocks for the confirmation depth', () => {
    expect(reorgWindow(0)).toBe(64);
    expect(reorgWindow(100)).toBe(216);
  });
});
