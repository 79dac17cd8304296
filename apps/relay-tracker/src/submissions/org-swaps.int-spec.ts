import { loadChainDirectory } from '@swap/chains';
import { AppError } from '@swap/contracts';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase } from '@swap/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { relayTracker } from '../relay-tracker.definition';
import { SettlementChains } from '../settlement/settlement-chains';
import { OrgSwaps } from './org-swaps';

const ORG_A = randomUUID();
const ORG_B = randomUUID();
const ARB = '0xa4b1.arbitrum';

describe("an organisation's swaps, for the partner portal (PostgreSQL)", () => {
  let db: { url: string; drop: () => Promise<void> };
  let pool: pg.Pool;
  let swaps: OrgSwaps;

  /** A swap submitted with `orgId`'s key at `second` past a fixed minute, through `statuses`. */
  const swapOf = async (
    orgId: string | null,
    second: number,
    statuses: string[] = [],
    txHash = `0x${randomBytes(32).toString('hex')}`,
    chain = ARB,
  ) => {
    const at = (i: number) => new Date(Date.UTC(2026, 10, 25, 12, 0, second, i)).toISOString();
    const history = [
      { status: 'pending', at: at(0), detail: 'submitted' },
      ...statuses.map((status, i) => ({ status, at: at(i + 1), detail: status })),
    ];
    await pool.query(
      `INSERT INTO relay_tracker.submissions (id, tx_hash, src_chain_key, wallet_address, intent, relay_data, intent_hash, history, submitted_by_org,
         status, created_at, user_message)
       VALUES ($1, $2, $3, '0x1', '{}', '0x', $4, $5::jsonb, $6, $7::relay_tracker."SubmissionStatus", $8, $9)`,
      [
        randomUUID(),
        txHash,
        chain,
        `0x${'11'.repeat(32)}`,
        JSON.stringify(history),
        orgId,
        statuses.at(-1) ?? 'pending',
        at(0),
        statuses.at(-1) === 'failed' ? 'The solver could not fill this swap in time' : null,
      ],
    );
    return txHash;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrateService(db.url, relayTracker);
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    const directory = loadChainDirectory('mainnet');
    swaps = new OrgSwaps(pool, Object.assign(Object.create(SettlementChains.prototype) as SettlementChains, { directory }));
  });

  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('lists only the organisation’s swaps, newest first, in pages that neither skip nor repeat while swaps arrive', async () => {
    const mine: string[] = [];
    for (let s = 0; s < 7; s++)
      mine.push(await swapOf(ORG_A, s, s % 2 ? ['relaying', 'relayed', 'posting_execution', 'posted_execution', 'solved'] : []));
    await swapOf(ORG_B, 3);
    await swapOf(null, 4);

    const first = await swaps.list({ orgId: ORG_A, limit: 3 });
    expect(first.swaps.map((s) => s.txHash)).toEqual([mine[6], mine[5], mine[4]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    // A newer swap arrives between pages: it is on no later page, and nothing moves.
    const newer = await swapOf(ORG_A, 30);
    const second = await swaps.list({ orgId: ORG_A, limit: 3, cursor: first.nextCursor });
    const third = await swaps.list({ orgId: ORG_A, limit: 3, cursor: second.nextCursor });
    expect([...second.swaps, ...third.swaps].map((s) => s.txHash)).toEqual([mine[3], mine[2], mine[1], mine[0]]);
    expect(third.nextCursor).toBeUndefined();
    expect((await swaps.list({ orgId: ORG_A })).swaps.map((s) => s.txHash)).toEqual([newer, ...[...mine].reverse()]);
    // Each item is the status answer's data: its history with durations.
    const solved = first.swaps[1];
    expect(solved).toMatchObject({ txHash: mine[5], srcChainKey: ARB, status: 'solved', terminal: true });
    expect(solved.history.map((h) => h.status)).toEqual([
      'pending',
      'relaying',
      'relayed',
      'posting_execution',
      'posted_execution',
      'solved',
    ]);
  });

  it('filters by status and by transaction hash (any case of an EVM hash)', async () => {
    const failed = await swapOf(ORG_A, 40, ['relaying', 'failed']);
    await swapOf(ORG_B, 41, ['relaying', 'failed']);

    const byStatus = await swaps.list({ orgId: ORG_A, status: 'failed' });
    expect(byStatus.swaps.map((s) => [s.txHash, s.userMessage])).toEqual([[failed, 'The solver could not fill this swap in time']]);
    expect((await swaps.list({ orgId: ORG_A, txHash: failed.toUpperCase().replace('0X', '0x') })).swaps.map((s) => s.txHash)).toEqual([
      failed,
    ]);
    // Stored as canonicalTxHash leaves them: Injective's upper case without 0x, Stellar's lower case without it.
    const injective = randomBytes(32).toString('hex').toUpperCase();
    const stellar = randomBytes(32).toString('hex');
    await swapOf(ORG_A, 42, [], injective, 'injective-1');
    await swapOf(ORG_A, 43, [], stellar, 'stellar');
    for (const [given, stored] of [
      [injective, injective],
      [`0x${injective.toLowerCase()}`, injective],
      [stellar.toUpperCase(), stellar],
      [`0x${stellar}`, stellar],
    ])
      expect((await swaps.list({ orgId: ORG_A, txHash: given })).swaps.map((s) => s.txHash)).toEqual([stored]);
  });

  it('answers one swap to its organisation only: another’s is 404, as if unknown', async () => {
    const theirs = await swapOf(ORG_B, 50, ['relaying']);

    expect(await swaps.get(ORG_B, theirs, ARB)).toMatchObject({ txHash: theirs, status: 'relaying' });
    await expect(swaps.get(ORG_A, theirs, ARB)).rejects.toMatchObject({ status: 404 });
    await expect(swaps.get(ORG_B, theirs, '0x2105.base')).rejects.toBeInstanceOf(AppError);
    expect((await swaps.list({ orgId: ORG_A, txHash: theirs })).swaps).toEqual([]);
  });

  it('refuses a cursor it did not make: 400 naming cursor', async () => {
    for (const cursor of [
      'nope',
      Buffer.from('2026-01-01T00:00:00Z|not-a-uuid').toString('base64url'),
      Buffer.from('x|y|z').toString('base64url'),
    ])
      await expect(swaps.list({ orgId: ORG_A, cursor })).rejects.toMatchObject({
        status: 400,
        details: [expect.objectContaining({ field: 'cursor' })],
      });
  });

  describe('fees', () => {
    const TOKEN = `0x${'Ab'.repeat(20)}`;
    const OTHER_TOKEN = `0x${'cd'.repeat(20)}`;
    const RECEIVER = `0x${'ee'.repeat(20)}`;
    /** A swap of `orgId` in `status` since `solvedAt`, its intent on the hub with `fee` (null: none) in `token`. */
    const feeSwap = async (orgId: string, status: string, solvedAt: string, fee: string | null, token = TOKEN) => {
      const intentHash = `0x${randomBytes(32).toString('hex')}`;
      await pool.query(
        `INSERT INTO relay_tracker.explorer_intents (intent_hash, chain_key, tx_hash, log_index, block_number, block_time, intent, creator, src_address,
           src_chain, dst_chain, input_token, output_token, deadline, fee_receiver, fee_amount, remaining_input)
         VALUES ($1, '0x92.sonic', $2, 0, 1, now(), '{}', '0x1', '0x1', 23, 146, $3, '0x2', 0, $4, $5, 0)`,
        [intentHash, `0x${randomBytes(32).toString('hex')}`, token, fee === null ? null : RECEIVER, fee],
      );
      await pool.query(
        `INSERT INTO relay_tracker.submissions (id, tx_hash, src_chain_key, wallet_address, intent, relay_data, intent_hash, history, submitted_by_org,
           status, updated_at)
         VALUES ($1, $2, $3, '0x1', '{}', '0x', $4, '[]', $5, $6::relay_tracker."SubmissionStatus", $7)`,
        [randomUUID(), `0x${randomBytes(32).toString('hex')}`, ARB, intentHash, orgId, status, solvedAt],
      );
    };

    it('sums the fees of the organisation’s solved swaps per UTC day, token and receiver, in [from, to)', async () => {
      const org = randomUUID();
      await feeSwap(org, 'solved', '2026-11-25T01:00:00Z', '1000');
      await feeSwap(
        org,
        'solved',
        '2026-11-25T23:59:59.999Z',
        '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      );
      await feeSwap(org, 'solved', '2026-11-26T00:00:00Z', '7', OTHER_TOKEN);
      await feeSwap(org, 'solved', '2026-11-26T12:00:00Z', null);
      await feeSwap(org, 'failed', '2026-11-26T12:00:00Z', '5000');
      await feeSwap(org, 'posted_execution', '2026-11-26T12:00:00Z', '5000');
      await feeSwap(randomUUID(), 'solved', '2026-11-26T12:00:00Z', '9999');
      await feeSwap(org, 'solved', '2026-11-27T00:00:00Z', '1');

      const { fees } = await swaps.fees({ orgId: org, from: '2026-11-25T00:00:00.000Z', to: '2026-11-27T00:00:00.000Z' });

      expect(fees).toEqual([
        {
          day: '2026-11-25',
          token: TOKEN.toLowerCase(),
          receiver: RECEIVER,
          amount: (1000n + 115792089237316195423570985008687907853269984665640564039457584007913129639935n).toString(),
          swaps: 2,
        },
        { day: '2026-11-26', token: OTHER_TOKEN, receiver: RECEIVER, amount: '7', swaps: 1 },
      ]);
    });
  });
});
