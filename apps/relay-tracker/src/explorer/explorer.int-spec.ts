import { randomBytes, randomUUID } from 'node:crypto';
import { ChainAccess, ChainDirectory, INTENTS_ABI, intentValues, partnerFeeData, type ChainInfo } from '@swap/chains';
import { AppError, type Intent } from '@swap/contracts';
import { ServiceMetrics } from '@swap/observability';
import { createPrismaClient, type DatabaseHandle } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase, eventually, unusedPort } from '@swap/testing';
import { getBase58Decoder } from '@solana/kit';
import { spawn, type ChildProcess } from 'node:child_process';
import pino from 'pino';
import {
  concat,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  getAbiItem,
  hexToBytes,
  http,
  keccak256,
  toEventSelector,
  toHex,
  type Address,
  type Hex,
  getAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ChainFollower } from '../chain-events/chain-follower';
import { ChainIndex } from '../chain-events/chain-index';
import { PgLeaseStore } from '../chain-events/follower-leases';
import { PrismaClient } from '../generated/prisma/client';
import { relayTracker } from '../relay-tracker.definition';
import { RelayTrackerMetrics } from '../relay-tracker.metrics';
import { SettlementChains } from '../settlement/settlement-chains';
import { ExplorerReads } from './explorer-reads';
import { SwapLookups } from './swap-lookups';

jest.setTimeout(90_000);

/**
 * The explorer's reads against a real hub index: a log emitter on anvil stands where the
 * profile names the intents contract and emits the intents contract's own events (created,
 * partial fills from two solvers, a cancel: the devnet's contract refuses partial fills), a
 * chain follower reads them into relay-tracker's schema, and the answers are checked field
 * by field.
 */

/** Runtime: LOG1(topic = calldata[0:32], data = calldata[32:]); init code returns it. */
const EMITTER_INIT: Hex = '0x6011600c60003960116000f3366000600037600051602036036020a100';
const KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
];
const [USER, SOLVER_A, SOLVER_B] = KEYS.map((k) => privateKeyToAccount(k));
const CREATED = getAbiItem({ abi: INTENTS_ABI, name: 'IntentCreated' });
const FILLED = getAbiItem({ abi: INTENTS_ABI, name: 'IntentFilled' });
const CANCELLED = getAbiItem({ abi: INTENTS_ABI, name: 'IntentCancelled' });
const HUB = '0x92.sonic';
const IN_TOKEN = '0x1111111111111111111111111111111111111111';
const OUT_TOKEN = '0x2222222222222222222222222222222222222222';
const FEE_RECEIVER = '0x00000000000000000000000000000000000fee01' as Address;
const SOLANA_USER = toHex(new Uint8Array(32).fill(7));

describe('explorer reads from the hub index (anvil, PostgreSQL)', () => {
  let anvil: ChildProcess;
  let rpc: string;
  let db: { url: string; drop: () => Promise<void> };
  let handle: DatabaseHandle<PrismaClient>;
  let index: ChainIndex;
  let reads: ExplorerReads;
  let chains: SettlementChains;
  let emitter: Address;
  let follower: ChainFollower;
  let intentId = 0;
  const viemChain = defineChain({
    id: 146,
    name: 'hub',
    nativeCurrency: { name: 'S', symbol: 'S', decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
  const read = () => createPublicClient({ chain: viemChain, transport: http(rpc), pollingInterval: 20 });
  const test = () => createTestClient({ chain: viemChain, transport: http(rpc), mode: 'anvil' });
  const metrics = new RelayTrackerMetrics(new ServiceMetrics('relay-tracker', { defaultMetrics: false }));

  /** Sends one event of the intents contract from `from`; its transaction hash and block once mined. */
  const emit = async (data: Hex, from = USER): Promise<{ tx: Hex; block: bigint }> => {
    const write = createWalletClient({ chain: viemChain, transport: http(rpc), account: from });
    const tx = await write.sendTransaction({ to: emitter, data });
    const receipt = await read().waitForTransactionReceipt({ hash: tx });
    return { tx, block: receipt.blockNumber };
  };
  const intentOf = (over: Partial<Intent>): Intent => ({
    intentId: String(++intentId),
    creator: USER.address,
    inputToken: IN_TOKEN,
    outputToken: OUT_TOKEN,
    inputAmount: '1000',
    minOutputAmount: '900',
    deadline: '0',
    allowPartialFill: true,
    srcChain: '23',
    dstChain: '146',
    srcAddress: USER.address.toLowerCase(),
    dstAddress: USER.address.toLowerCase(),
    solver: '0x0000000000000000000000000000000000000000',
    data: '0x',
    ...over,
  });
  const create = async (intent: Intent) => {
    const hash = keccak256(toHex(`explorer-${intent.intentId}-${Date.now()}`));
    const sent = await emit(concat([toEventSelector(CREATED), encodeAbiParameters(CREATED.inputs, [hash, intentValues(intent)])]));
    return { hash, ...sent };
  };
  const fill = (hash: Hex, remainingInput: bigint, receivedOutput: bigint, solver = SOLVER_A) =>
    emit(
      concat([
        toEventSelector(FILLED),
        encodeAbiParameters(FILLED.inputs, [hash, { exists: true, remainingInput, receivedOutput, pendingPayment: false }]),
      ]),
      solver,
    );
  const cancel = (hash: Hex) => emit(concat([toEventSelector(CANCELLED), encodeAbiParameters(CANCELLED.inputs, [hash])]));
  /** Waits until the follower has read the chain's head. */
  const caughtUp = async () => {
    const head = await read().getBlockNumber();
    await eventually(async () => ((await index.state(HUB))?.cursor?.number ?? -1n) >= head, 10_000, 20);
  };
  const rejection = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).toBody();
  };

  beforeAll(async () => {
    const port = await unusedPort();
    rpc = `http://127.0.0.1:${port}`;
    anvil = spawn(require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil'), ['--port', String(port), '--chain-id', '146', '--silent'], {
      stdio: 'ignore',
    });
    await eventually(async () => (await read().getChainId()) === 146, 20_000, 50);
    const deployed = await read().waitForTransactionReceipt({
      hash: await createWalletClient({ chain: viemChain, transport: http(rpc), account: USER }).sendTransaction({ data: EMITTER_INIT }),
    });
    emitter = deployed.contractAddress!;
    const hub: ChainInfo = {
      key: HUB,
      name: 'hub (anvil)',
      type: 'EVM',
      chainId: 146,
      relayChainId: '146',
      hub: true,
      assetManager: null,
      connection: null,
      aliases: ['sonic'],
      rpcUrls: [rpc],
      contracts: { intents: emitter },
    };
    const spoke: ChainInfo = {
      ...hub,
      key: '0xa4b1.arbitrum',
      name: 'spoke',
      chainId: 42161,
      relayChainId: '23',
      hub: false,
      aliases: ['arbitrum'],
      contracts: {},
    };
    const solana: ChainInfo = { ...spoke, key: 'solana', type: 'SOLANA', chainId: 'solana', relayChainId: '1', aliases: [] };
    // Ethereum's EVM chain id is Solana's relay chain id: listed first, it must not win a numeric `1`.
    const ethereum: ChainInfo = { ...spoke, key: '0x1.ethereum', chainId: 1, relayChainId: '26', aliases: ['ethereum'] };
    const directory = new ChainDirectory({ name: 'explorer-test', chains: [hub, spoke, ethereum, solana], tokens: [] });
    db = await createTestDatabase();
    await migrateService(db.url, relayTracker);
    handle = createPrismaClient(PrismaClient, { url: db.url, schema: 'relay_tracker', poolMax: 6 });
    index = new ChainIndex(handle.pool);
    // The real methods over this directory; only the hub is followed (no spoke RPC here).
    chains = Object.assign(Object.create(SettlementChains.prototype) as SettlementChains, { directory, followedKeys: new Set([hub.key]) });
    reads = new ExplorerReads(handle.pool, chains);
    await index.ensureFollowers([HUB]);
    expect(await new PgLeaseStore(handle.pool).acquire([HUB], 'explorer', 60_000)).toEqual([HUB]);
    follower = new ChainFollower(
      {
        chain: hub,
        holder: 'explorer',
        access: new ChainAccess({ timeoutMs: 2_000, observer: metrics }),
        index,
        feed: { publish: async () => undefined },
        metrics,
        logger: pino({ level: 'silent' }),
      },
      { confirmations: 0, pollMs: 20, backfillBlocks: 0, maxRange: 50 },
    );
    follower.start();
    await eventually(async () => (await index.state(HUB))?.cursor);
  });

  afterAll(async () => {
    await follower?.stop();
    await handle?.close();
    await db?.drop();
    anvil?.kill('SIGKILL');
  });

  it('answers an intent by transaction and by hash, field by field, with partial fills from two solvers in order', async () => {
    const intent = intentOf({ data: partnerFeeData(25n, FEE_RECEIVER) });
    const created = await create(intent);
    const first = await fill(created.hash, 600n, 360n, SOLVER_A);
    const second = await fill(created.hash, 0n, 610n, SOLVER_B);
    await caughtUp();

    const answer = await reads.intentByTx(created.tx);
    const times = async (block: bigint) => new Date(Number((await read().getBlock({ blockNumber: block })).timestamp) * 1000).toISOString();
    expect(answer).toEqual({
      intentHash: created.hash,
      txHash: created.tx,
      logIndex: 0,
      chainId: 146,
      chainKey: HUB,
      blockNumber: Number(created.block),
      timestamp: await times(created.block),
      open: false,
      cancelled: false,
      intent: { ...intent, srcChain: 23, dstChain: 146 },
      srcChainKey: '0xa4b1.arbitrum',
      dstChainKey: HUB,
      intentState: { exists: true, remainingInput: '0', receivedOutput: '610', pendingPayment: false },
      events: [
        {
          event: 'IntentCreated',
          txHash: created.tx,
          logIndex: 0,
          blockNumber: Number(created.block),
          timestamp: await times(created.block),
        },
        {
          event: 'IntentFilled',
          txHash: first.tx,
          logIndex: 0,
          blockNumber: Number(first.block),
          timestamp: await times(first.block),
          intentState: { remainingInput: '600', receivedOutput: '360', pendingPayment: false },
          solver: SOLVER_A.address,
        },
        {
          event: 'IntentFilled',
          txHash: second.tx,
          logIndex: 0,
          blockNumber: Number(second.block),
          timestamp: await times(second.block),
          intentState: { remainingInput: '0', receivedOutput: '610', pendingPayment: false },
          solver: SOLVER_B.address,
        },
      ],
    });
    expect(await reads.intentByHash(created.hash.toUpperCase().replace('0X', '0x'))).toEqual(answer);

    // Each fill is its own volume record: what it took of the input and gave of the output.
    const volume = await reads.volume({ solver: SOLVER_B.address });
    expect(volume.items).toEqual([
      {
        intentHash: created.hash,
        solver: SOLVER_B.address,
        inputToken: IN_TOKEN,
        outputToken: OUT_TOKEN,
        amount: '600',
        outputAmount: '250',
        chainId: 146,
        blockNumber: Number(second.block),
        txHash: second.tx,
        logIndex: 0,
        timestamp: await times(second.block),
      },
    ]);
    const both = await reads.volume({ inputToken: IN_TOKEN, sort: 'asc', includeData: 'true' });
    const mine = both.items.filter((r) => r.intentHash === created.hash);
    expect(mine.map((r) => [r.solver, r.amount, r.outputAmount])).toEqual([
      [SOLVER_A.address, '400', '360'],
      [SOLVER_B.address, '600', '250'],
    ]);
    expect(mine[0]!.data).toEqual({ ...intent, srcChain: 23, dstChain: 146 });

    // The partner fee: collected in full (all the input was filled), and the output its intent received.
    const summary = await reads.partnerSummary(FEE_RECEIVER, {});
    expect(summary).toEqual({
      receiver: getAddress(FEE_RECEIVER),
      chainId: null,
      feeByInputToken: { [IN_TOKEN]: '25' },
      volumeByOutputToken: { [OUT_TOKEN]: '610' },
    });
    expect((await reads.partnerSummary(FEE_RECEIVER, { chainId: 'solana' })).feeByInputToken).toEqual({});
    const partners = await reads.partners({ chainId: 'arbitrum' });
    expect(partners.partners).toEqual([
      { receiver: getAddress(FEE_RECEIVER), intentCount: 1, filledCount: 1, lastSeenAt: await times(created.block) },
    ]);
  });

  it('lists a user’s intents by hub wallet and by source address (EVM and Solana), newest first, and the open orderbook', async () => {
    const other = privateKeyToAccount(KEYS[2]!);
    const wallet = '0x00000000000000000000000000000000000000aa';
    const fromSpoke = await create(intentOf({ creator: wallet, srcAddress: other.address.toLowerCase() }));
    const fromHub = await create(intentOf({ creator: other.address, srcChain: '146', srcAddress: other.address.toLowerCase() }));
    // Each of the wallet's intents a minute apart (blocks of the same second share a time).
    await test().increaseTime({ seconds: 60 });
    const fromSolana = await create(intentOf({ creator: wallet, srcChain: '1', srcAddress: SOLANA_USER, deadline: '1900000000' }));
    await test().increaseTime({ seconds: 60 });
    const cancelled = await create(intentOf({ creator: wallet }));
    await cancel(cancelled.hash);
    await caughtUp();

    const byAddress = await reads.userIntents(other.address, {});
    expect(byAddress).toMatchObject({ total: 2, offset: 0, limit: 50 });
    expect(byAddress.items.map((i) => i.intentHash)).toEqual([fromHub.hash, fromSpoke.hash]);
    const byWallet = await reads.userIntents(wallet, { limit: '2' });
    expect(byWallet.total).toBe(3);
    expect(byWallet.items.map((i) => i.intentHash)).toEqual([cancelled.hash, fromSolana.hash]);
    expect(byWallet.items[0]).toMatchObject({ open: false, cancelled: true });
    expect(byWallet.items[0]!.events.map((e) => e.event)).toEqual(['IntentCreated', 'IntentCancelled']);
    const second = await reads.userIntents(wallet, { limit: '2', offset: '2' });
    expect(second.items.map((i) => i.intentHash)).toEqual([fromSpoke.hash]);
    const solanaKey = getBase58Decoder().decode(hexToBytes(SOLANA_USER));
    expect((await reads.userIntents(solanaKey, {})).items.map((i) => i.intentHash)).toEqual([fromSolana.hash]);
    const createdAt = (await reads.intentByHash(fromSolana.hash)).timestamp;
    expect((await reads.userIntents(wallet, { startDate: createdAt })).total).toBe(2);
    expect((await reads.userIntents(wallet, { endDate: String(Date.parse(createdAt) - 1) })).total).toBe(1);
    expect((await reads.userIntents(wallet, { fromBlock: String(fromSolana.block), toBlock: String(fromSolana.block) })).total).toBe(1);

    const book = await reads.orderbook({ creator: wallet });
    expect(book.total).toBe(2);
    expect(book.data.map((e) => e.intentData.intentHash)).toEqual([fromSolana.hash, fromSpoke.hash]);
    expect(book.data[0]).toEqual({
      intentState: { exists: true, remainingInput: '1000', receivedOutput: '0', pendingPayment: false },
      intentData: expect.objectContaining({
        intentHash: fromSolana.hash,
        txHash: fromSolana.tx,
        blockNumber: Number(fromSolana.block),
        srcChain: 1,
      }),
    });
    expect((await reads.orderbook({ srcChain: 'solana' })).data.map((e) => e.intentData.intentHash)).toEqual([fromSolana.hash]);
    // A number is a relay chain id first (1: Solana), else an EVM chain id (42161: Arbitrum, relay id 23).
    expect((await reads.orderbook({ srcChain: '1' })).data.map((e) => e.intentData.intentHash)).toEqual([fromSolana.hash]);
    expect((await reads.orderbook({ srcChain: '42161' })).data.map((e) => e.intentData.intentHash)).toEqual([fromSpoke.hash]);
    expect((await reads.orderbook({ srcChain: '23' })).data.map((e) => e.intentData.intentHash)).toEqual([fromSpoke.hash]);
    expect((await reads.orderbook({ creator: wallet, excludeZeroDeadline: 'true' })).total).toBe(1);
    expect((await reads.orderbook({ creator: wallet, deadlineAfter: '1900000001' })).total).toBe(0);
    expect((await reads.orderbook({ dstChain: '146', creator: other.address })).total).toBe(1);
  });

  it('pages volume by cursor without gaps or repeats while fills arrive', async () => {
    const { hash } = await create(intentOf({ inputAmount: '100000' }));
    let remaining = 100_000n;
    const fillOnce = async () => {
      remaining -= 1_000n;
      await fill(hash, remaining, 100_000n - remaining);
    };
    for (let i = 0; i < 5; i++) await fillOnce();
    await caughtUp();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 30; page++) {
      const answer = await reads.volume({ sort: 'asc', limit: '2', cursor });
      seen.push(...answer.items.map((r) => `${r.blockNumber}:${r.logIndex}`));
      // New fills land between pages (a sort by block ascending reaches them).
      if (page < 3) {
        await fillOnce();
        await caughtUp();
      }
      if (!answer.hasMore) {
        expect(answer.nextCursor).toBeNull();
        break;
      }
      cursor = answer.nextCursor!;
    }
    const all = await handle.client.$queryRawUnsafe<{ key: string }[]>(
      `SELECT block_number || ':' || log_index AS key FROM relay_tracker.explorer_fills ORDER BY block_number, log_index`,
    );
    expect(seen).toEqual(all.map((r) => r.key));
    expect(new Set(seen).size).toBe(seen.length);
    const newest = await reads.volume({ limit: '3' });
    expect(newest.items.map((r) => `${r.blockNumber}:${r.logIndex}`)).toEqual(
      all
        .map((r) => r.key)
        .reverse()
        .slice(0, 3),
    );
    expect((await reads.volumeStats()).filledCount).toBe(all.length);
  });

  it('retracts a fill the chain reorganised away, and the intent is open again', async () => {
    const { hash } = await create(intentOf({}));
    await caughtUp();
    const snapshot = await test().snapshot();
    await fill(hash, 0n, 950n);
    await caughtUp();
    expect((await reads.intentByHash(hash)).open).toBe(false);
    await test().revert({ id: snapshot });
    await test().mine({ blocks: 3 });
    await eventually(async () => (await reads.intentByHash(hash)).open, 10_000, 20);
    const after = await reads.intentByHash(hash);
    expect(after.intentState).toEqual({ exists: true, remainingInput: '1000', receivedOutput: '0', pendingPayment: false });
    expect(after.events.map((e) => e.event)).toEqual(['IntentCreated']);
    expect((await reads.volume({ limit: '100' })).items.some((r) => r.intentHash === hash)).toBe(false);
  });

  it('finds the swap of a hub transaction or intent hash not submitted here: its intent, no submission; 404 and 400 otherwise', async () => {
    const lookups = new SwapLookups(handle.pool, reads, chains);
    const created = await create(intentOf({}));
    await caughtUp();
    const byTx = await lookups.swap(created.tx);
    // Its source chain (Arbitrum) is not followed here: no deposit to point to. Addresses in their networks' forms.
    expect(byTx).toEqual({
      submission: null,
      intent: await reads.intentByHash(created.hash),
      source: null,
      addresses: { from: USER.address, to: USER.address },
    });
    expect(await lookups.swap(created.hash)).toEqual(byTx);
    const fromHub = await create(intentOf({ srcChain: '146', dstChain: '1', dstAddress: SOLANA_USER }));
    await caughtUp();
    expect(await lookups.swap(fromHub.hash)).toMatchObject({
      source: { chainKey: HUB, txHash: fromHub.tx },
      addresses: { from: USER.address, to: getBase58Decoder().decode(hexToBytes(SOLANA_USER)) },
    });
    // A fill transaction leads to the intent it filled.
    const filled = await fill(created.hash, 0n, 990n, SOLVER_B);
    await caughtUp();
    expect((await lookups.swap(filled.tx)).intent).toMatchObject({ intentHash: created.hash, open: false });
    expect(await rejection(lookups.swap(`0x${'cd'.repeat(32)}`))).toMatchObject({
      statusCode: 404,
      message: expect.stringContaining('No swap found'),
    });
    expect(await rejection(lookups.swap('0xnope'))).toMatchObject({
      statusCode: 400,
      details: [{ field: 'hash', rule: 'transactionHash' }],
    });
  });

  it('finds a swap submitted from any network by its source transaction, in that network’s own form and spelling', async () => {
    const lookups = new SwapLookups(handle.pool, reads, chains);
    const sources = [
      { chain: 'sui', stored: '9NPLa6b8G635eU1Tsk26BafpgmHcb5gBAGujVYgDMnXs', asked: ['9NPLa6b8G635eU1Tsk26BafpgmHcb5gBAGujVYgDMnXs'] },
      { chain: 'stellar', stored: 'ab'.repeat(32), asked: ['ab'.repeat(32), 'AB'.repeat(32)] },
      { chain: 'injective-1', stored: 'CD'.repeat(32), asked: ['cd'.repeat(32), `0x${'CD'.repeat(32)}`] },
    ];
    const ids: string[] = [];
    try {
      for (const { chain, stored } of sources) {
        const id = randomUUID();
        ids.push(id);
        await handle.pool.query(
          `INSERT INTO relay_tracker.submissions (id, tx_hash, src_chain_key, wallet_address, intent, relay_data, intent_hash, history)
           VALUES ($1, $2, $3, 'someone', '{}', '0x', $4, '[{"status":"pending","at":"2026-11-27T12:00:00.000Z","detail":"submitted"}]'::jsonb)`,
          [id, stored, chain, `0x${randomBytes(32).toString('hex')}`],
        );
      }
      for (const { chain, stored, asked } of sources)
        for (const hash of asked)
          expect({ hash, found: await lookups.swap(hash) }).toMatchObject({
            hash,
            found: { submission: { txHash: stored, srcChainKey: chain }, source: { chainKey: chain, txHash: stored }, addresses: null },
          });
    } finally {
      await handle.pool.query(`DELETE FROM relay_tracker.submissions WHERE id = ANY($1::uuid[])`, [ids]);
    }
  });

  it('refuses malformed parameters with a 400 naming the field, and answers 404 for an unknown intent', async () => {
    expect(await rejection(reads.intentByTx('0x1234'))).toMatchObject({ statusCode: 400, details: [{ field: 'txHash', rule: 'evmHash' }] });
    expect(await rejection(reads.intentByHash(`0x${'ab'.repeat(32)}`))).toMatchObject({
      statusCode: 404,
      code: 'INTENT_NOT_FOUND',
      message: expect.stringContaining('Intent not found'),
    });
    expect(await rejection(reads.userIntents('not-an-address', {}))).toMatchObject({ details: [{ field: 'userAddress' }] });
    expect(await rejection(reads.userIntents(USER.address, { limit: '101' }))).toMatchObject({
      details: [{ field: 'limit', rule: 'range' }],
    });
    expect(await rejection(reads.orderbook({ limit: '0' }))).toMatchObject({ details: [{ field: 'limit' }] });
    expect(await rejection(reads.orderbook({ offset: '100001' }))).toMatchObject({ details: [{ field: 'offset', rule: 'max' }] });
    expect(await rejection(reads.orderbook({ srcChain: 'atlantis' }))).toMatchObject({
      details: [{ field: 'srcChain', rule: 'knownChain' }],
    });
    expect(await rejection(reads.volume({ fromBlock: '1', since: '2026-01-01' }))).toMatchObject({ details: [{ rule: 'oneRangeKind' }] });
    expect(await rejection(reads.volume({ cursor: 'bm9wZQ' }))).toMatchObject({ details: [{ field: 'cursor' }] });
    expect(await rejection(reads.partnerSummary('0x12', {}))).toMatchObject({ details: [{ field: 'receiver' }] });
    expect(await rejection(reads.userIntents(USER.address, { startDate: '2026-13-45' }))).toMatchObject({
      details: [{ field: 'startDate' }],
    });
    // Date would take 30 February for 2 March.
    expect(await rejection(reads.userIntents(USER.address, { endDate: '2026-02-30' }))).toMatchObject({
      details: [{ field: 'endDate', rule: 'date' }],
    });
    expect((await reads.userIntents(USER.address, { startDate: '2028-02-29', limit: '007' })).limit).toBe(7);
    const desc = Buffer.from('5:0:d').toString('base64url');
    expect(await rejection(reads.volume({ cursor: desc, sort: 'asc' }))).toMatchObject({
      details: [{ field: 'cursor', rule: 'sameSort' }],
    });
    expect(await rejection(reads.volume({ cursor: Buffer.from('5:0:a').toString('base64url') }))).toMatchObject({
      details: [{ rule: 'sameSort' }],
    });
    const miscased = getAddress(FEE_RECEIVER).replace(/[a-fA-F]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
    expect(await rejection(reads.partnerSummary(miscased, {}))).toMatchObject({ details: [{ field: 'receiver', rule: 'evmChecksum' }] });
  });
});
