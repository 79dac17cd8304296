import { ChainAccess, INTENTS_ABI, intentValues, type ChainInfo } from '@swap/chains';
import type { ChainEventBatch, Intent } from '@swap/contracts';
import { ServiceMetrics } from '@swap/observability';
import { createPrismaClient, type DatabaseHandle } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase, eventually, unusedPort } from '@swap/testing';
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
  http,
  keccak256,
  toEventSelector,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { PrismaClient } from '../generated/prisma/client';
import { relayTracker } from '../relay-tracker.definition';
import { RelayTrackerMetrics } from '../relay-tracker.metrics';
import { ChainFollower, type FollowerSettings } from './chain-follower';
import { ChainIndex, LostLeaseError } from './chain-index';
import { LeaseKeeper, PgLeaseStore } from './follower-leases';

jest.setTimeout(60_000);

/**
 * The chain followers against a real chain (anvil) and relay-tracker's real schema: a
 * contract on the hub emits the intents contract's IntentCreated (a log emitter standing
 * where the profile names the intents contract), and followers read it into the index.
 */

/** Runtime: LOG1(topic = calldata[0:32], data = calldata[32:]); init code returns it. */
const EMITTER_INIT: Hex = '0x6011600c60003960116000f3366000600037600051602036036020a100';
const DEV_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const CREATED = getAbiItem({ abi: INTENTS_ABI, name: 'IntentCreated' });
const HUB = '0x92.sonic';
const SETTINGS: FollowerSettings = { confirmations: 0, pollMs: 30, backfillBlocks: 0, maxRange: 2 };

describe('chain followers on anvil and PostgreSQL', () => {
  let anvil: ChildProcess;
  let rpc: string;
  let db: { url: string; drop: () => Promise<void> };
  let handle: DatabaseHandle<PrismaClient>;
  let index: ChainIndex;
  let emitter: Address;
  let chain: ChainInfo;
  let intentId = 0;
  const account = privateKeyToAccount(DEV_KEY);
  const viemChain = defineChain({
    id: 146,
    name: 'hub',
    nativeCurrency: { name: 'S', symbol: 'S', decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
  const clients = () => {
    const transport = http(rpc);
    return {
      read: createPublicClient({ chain: viemChain, transport, pollingInterval: 20 }),
      write: createWalletClient({ chain: viemChain, transport, account }),
      test: createTestClient({ chain: viemChain, transport, mode: 'anvil' }),
    };
  };
  const metrics = new RelayTrackerMetrics(new ServiceMetrics('relay-tracker', { defaultMetrics: false }));
  const logger = pino({ level: 'silent' });
  const access = new ChainAccess({ timeoutMs: 2_000, observer: metrics });
  const leases = () => new PgLeaseStore(handle.pool);

  /** Emits IntentCreated for a fresh intent in a block of its own; its hash and block. */
  const emit = async (): Promise<{ hash: string; block: bigint }> => {
    const intent: Intent = {
      intentId: String(++intentId),
      creator: account.address,
      inputToken: account.address,
      outputToken: account.address,
      inputAmount: '1000',
      minOutputAmount: '1',
      deadline: '0',
      allowPartialFill: false,
      srcChain: '146',
      dstChain: '146',
      srcAddress: account.address.toLowerCase(),
      dstAddress: account.address.toLowerCase(),
      solver: '0x0000000000000000000000000000000000000000',
      data: '0x',
    };
    const hash = keccak256(toHex(`intent-${intentId}-${Date.now()}`));
    const data = concat([toEventSelector(CREATED), encodeAbiParameters(CREATED.inputs, [hash, intentValues(intent)])]);
    const { read, write } = clients();
    const tx = await write.sendTransaction({ to: emitter, data });
    const receipt = await read.waitForTransactionReceipt({ hash: tx });
    return { hash, block: receipt.blockNumber };
  };
  const indexed = async () =>
    handle.client.$queryRawUnsafe<{ intent_hash: string; block_number: string; log_index: number; block_time: Date }[]>(
      `SELECT intent_hash, block_number::text AS block_number, log_index, block_time FROM relay_tracker.chain_events WHERE chain_key = $1 ORDER BY block_number, log_index`,
      HUB,
    );
  const follower = (holder: string, batches: ChainEventBatch[], feed?: (batch: ChainEventBatch) => Promise<void>) =>
    new ChainFollower(
      {
        chain,
        holder,
        access,
        index,
        feed: { publish: feed ?? (async (batch) => void batches.push(batch)) },
        metrics,
        logger,
      },
      SETTINGS,
    );
  const take = async (holder: string) => expect(await leases().acquire([HUB], holder, 30_000)).toEqual([HUB]);

  beforeAll(async () => {
    const port = await unusedPort();
    rpc = `http://127.0.0.1:${port}`;
    anvil = spawn(require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil'), ['--port', String(port), '--chain-id', '146', '--silent'], {
      stdio: 'ignore',
    });
    await eventually(async () => (await clients().read.getChainId()) === 146, 20_000, 50);
    const { read, write } = clients();
    const deployed = await read.waitForTransactionReceipt({ hash: await write.sendTransaction({ data: EMITTER_INIT }) });
    emitter = deployed.contractAddress!;
    chain = {
      key: HUB,
      name: 'hub (anvil)',
      type: 'EVM',
      chainId: 146,
      relayChainId: '146',
      hub: true,
      assetManager: null,
      connection: null,
      aliases: [],
      rpcUrls: [rpc],
      contracts: { intents: emitter },
    };
    db = await createTestDatabase();
    await migrateService(db.url, relayTracker);
    handle = createPrismaClient(PrismaClient, { url: db.url, schema: 'relay_tracker', poolMax: 4 });
    index = new ChainIndex(handle.pool);
  });

  beforeEach(async () => {
    await handle.client.$executeRawUnsafe('TRUNCATE relay_tracker.chain_followers, relay_tracker.chain_events, relay_tracker.chain_blocks');
    await index.ensureFollowers([HUB]);
  });

  afterAll(async () => {
    await handle?.close();
    await db?.drop();
    anvil?.kill('SIGKILL');
  });

  it('indexes each event once with its block, log index and time, and a restarted follower resumes without gap or duplicate', async () => {
    await take('a');
    const batches: ChainEventBatch[] = [];
    const first = follower('a', batches);
    first.start();
    await eventually(async () => (await index.state(HUB))?.cursor);
    const before = [await emit(), await emit(), await emit()];
    await eventually(async () => (await indexed()).length === 3);
    await first.stop();
    // Emitted while nobody follows the chain: read by the next follower, from the cursor on.
    const during = [await emit(), await emit(), await emit()];
    const second = follower('a', batches);
    second.start();
    const after = [await emit()];
    await eventually(async () => (await indexed()).length === 7, 10_000);
    await second.stop();

    const rows = await indexed();
    const emitted = [...before, ...during, ...after];
    expect(rows.map((r) => [r.intent_hash, r.block_number])).toEqual(emitted.map((e) => [e.hash, e.block.toString()]));
    const { read } = clients();
    const times = await Promise.all(
      emitted.map(async (e) => new Date(Number((await read.getBlock({ blockNumber: e.block })).timestamp) * 1000)),
    );
    expect(rows.map((r) => r.block_time)).toEqual(times);
    // Every event reached settlement exactly once.
    const handed = batches.flatMap((b) => b.events.map((e) => e.intentHash));
    expect(handed).toEqual(emitted.map((e) => e.hash));
  });

  it('hands out again, after a restart, what a follower indexed but could not hand out', async () => {
    await take('a');
    const batches: ChainEventBatch[] = [];
    let failing = false;
    const broken = follower('a', batches, async (batch) => {
      if (failing) throw new Error('NATS unreachable');
      batches.push(batch);
    });
    broken.start();
    await eventually(async () => (await index.state(HUB))?.cursor);
    failing = true;
    const lost = await emit();
    // Indexed (committed with the cursor), not handed out.
    await eventually(async () => (await indexed()).some((r) => r.intent_hash === lost.hash));
    await broken.stop();
    expect(batches.flatMap((b) => b.events.map((e) => e.intentHash))).toEqual([]);

    const next = follower('a', batches);
    next.start();
    await eventually(async () => batches.some((b) => b.events.some((e) => e.intentHash === lost.hash)), 10_000);
    await next.stop();
    expect(batches.flatMap((b) => b.events.map((e) => e.intentHash))).toEqual([lost.hash]);
  });

  it('retracts the events of blocks a reorganisation dropped, and indexes the chain that replaced them', async () => {
    await take('a');
    const batches: ChainEventBatch[] = [];
    const running = follower('a', batches);
    running.start();
    await eventually(async () => (await index.state(HUB))?.cursor);
    const kept = await emit();
    const { test } = clients();
    const snapshot = await test.snapshot();
    const dropped = await emit();
    await eventually(async () => (await indexed()).some((r) => r.intent_hash === dropped.hash));
    await test.revert({ id: snapshot });
    const replacement = await emit();
    await test.mine({ blocks: 2 });
    await eventually(async () => (await indexed()).some((r) => r.intent_hash === replacement.hash), 10_000);
    await running.stop();

    expect((await indexed()).map((r) => r.intent_hash)).toEqual([kept.hash, replacement.hash]);
    const retraction = batches.find((b) => b.retractedAfter !== undefined);
    expect(retraction).toMatchObject({
      retractedAfter: kept.block.toString(),
      retracted: [expect.objectContaining({ intentHash: dropped.hash })],
    });
    expect(replacement.block).toBe(dropped.block);
  });

  it('reads a chain that came back shorter than the blocks kept (a devnet restarted) from its first block, retracting the old one', async () => {
    const { test } = clients();
    const genesis = await test.snapshot();
    // The follower starts above the height the chain will come back to: none of its blocks survive.
    await test.mine({ blocks: 5 });
    await take('a');
    const batches: ChainEventBatch[] = [];
    const running = follower('a', batches);
    running.start();
    try {
      await eventually(async () => (await index.state(HUB))?.cursor);
      const old = await emit();
      await eventually(async () => (await indexed()).some((r) => r.intent_hash === old.hash));
      // Far past the blocks the follower keeps hashes of (reorgWindow: 64).
      await test.mine({ blocks: 100 });
      // A range without events is committed at most every 2 s: a block now and then lets it commit.
      await eventually(
        async () => {
          await test.mine({ blocks: 1 });
          return ((await index.state(HUB))?.cursor?.number ?? 0n) >= old.block + 100n;
        },
        20_000,
        200,
      );
      // Another chain under the same key: back to a height below every block kept.
      await test.revert({ id: genesis });
      const fresh = await emit();
      await test.mine({ blocks: 2 });
      await eventually(async () => (await indexed()).some((r) => r.intent_hash === fresh.hash), 20_000);

      // Read from its first block: the fresh event (and those earlier tests left below it), not the old chain's.
      const hashes = (await indexed()).map((r) => r.intent_hash);
      expect(hashes).toContain(fresh.hash);
      expect(hashes).not.toContain(old.hash);
      expect(batches.find((b) => b.retractedAfter !== undefined)).toMatchObject({
        retracted: [expect.objectContaining({ intentHash: old.hash })],
      });
    } finally {
      await running.stop();
    }
  });

  it('lets one replica follow the chain at a time: a non-holder cannot commit, and a dead holder’s chain is taken over within the lease', async () => {
    const LEASE_MS = 1_500;
    const EVERY_MS = 300;
    const batches: ChainEventBatch[] = [];
    const running = new Map<string, ChainFollower>();
    const log: string[] = [];
    const keeper = (holder: string) =>
      new LeaseKeeper(leases(), {
        chains: [HUB],
        holder,
        leaseMs: LEASE_MS,
        everyMs: EVERY_MS,
        onGained: () => {
          log.push(`${holder} gained`);
          const f = follower(holder, batches);
          running.set(holder, f);
          f.start();
        },
        onLost: () => {
          log.push(`${holder} lost`);
          void running.get(holder)?.stop();
        },
      });
    const a = keeper('a');
    a.start();
    await eventually(() => log.includes('a gained'));
    const b = keeper('b');
    b.start();
    const first = await emit();
    await eventually(async () => (await indexed()).some((r) => r.intent_hash === first.hash));
    expect(log).toEqual(['a gained']);
    // b may not move the cursor while a holds the chain.
    const state = (await index.state(HUB))!;
    await expect(
      index.commit(HUB, 'b', {
        expected: state.cursor,
        to: { number: state.cursor!.number + 1n, hash: '0x01', time: new Date() },
        events: [],
        blocks: [],
        publishedThrough: undefined,
        keepBlocks: 64,
      }),
    ).rejects.toBeInstanceOf(LostLeaseError);

    // a dies without a word: its follower stops, its lease is left to run out.
    const diedAt = Date.now();
    await a.stop(false);
    await running.get('a')!.stop();
    await eventually(() => log.includes('b gained'), 10_000, 20);
    const tookMs = Date.now() - diedAt;
    expect(tookMs).toBeLessThan(LEASE_MS + 2 * EVERY_MS + 500);
    const second = await emit();
    await eventually(async () => (await indexed()).some((r) => r.intent_hash === second.hash));
    expect((await index.state(HUB))!.holder).toBe('b');
    await b.stop(true, async () => void (await running.get('b')?.stop()));
    expect((await indexed()).map((r) => r.intent_hash)).toEqual([first.hash, second.hash]);
  });
});
