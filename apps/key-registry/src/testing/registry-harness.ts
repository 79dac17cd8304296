import { MemoryCache, type Cache } from '@swap/cache';
import {
  AppError,
  Events,
  type KeySetHead,
  type PortalKeySetChange,
  type PortalKeySetSnapshot,
  type SignedKeySet,
  type V2,
} from '@swap/contracts';
import { portalKeySetChangeOf, portalKeySetSnapshotOf } from '@swap/key-auth';
import {
  type Bus,
  generateSigningKeyPair,
  InProcessBus,
  MessagingClient,
  parsePublicKey,
  parseSigningKey,
  PayloadSigner,
  SignatureCheck,
} from '@swap/messaging';
import { createLogger, type Logger } from '@swap/observability';
import { createPrismaClient, type DatabaseHandle } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase, uniqueId } from '@swap/testing';
import type pg from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import { keyRegistry } from '../key-registry.definition';
import { KeySetPublisher } from '../keyset/key-set-publisher';
import { PublishedMark } from '../keyset/published-mark';
import { KeyRegistryService } from '../registry/key-registry.service';

/** One key-registry replica: the registry, its key set, and the mark of what it announced (in a cache of its own unless given one). */
export interface Replica {
  registry: KeyRegistryService;
  keySet: KeySetPublisher;
  mark: PublishedMark;
  cache: Cache;
}

/**
 * KeyRegistryService and KeySetPublisher built directly (no Nest, no HTTP) over a fresh PostgreSQL database
 * with key-registry's migrations, an in-process bus, a signing pair made for the run and
 * a silent logger. Every change event on the bus is kept, and opened only if its signature
 * verifies against the public half of the pair (and its shape is a change's).
 */
export class RegistryHarness {
  readonly bus = new InProcessBus();
  readonly events: ChangeEvents;
  /** The public half of the signing pair, as every service's KEYSET_PUBLIC_KEY holds it. */
  readonly publicKey: string;
  readonly signer: PayloadSigner;
  private readonly check: SignatureCheck;

  private constructor(
    private readonly db: { url: string; drop: () => Promise<void> },
    private readonly handle: DatabaseHandle<PrismaClient>,
  ) {
    const pair = generateSigningKeyPair();
    this.publicKey = pair.publicKey;
    this.signer = new PayloadSigner(parseSigningKey(pair.signingKey));
    this.check = new SignatureCheck([parsePublicKey(pair.publicKey)]);
    this.events = new ChangeEvents(this.bus, (signed) => portalKeySetChangeOf(this.check.open(signed)));
  }

  static async start(): Promise<RegistryHarness> {
    const db = await createTestDatabase();
    await migrateService(db.url, keyRegistry);
    const handle = createPrismaClient(PrismaClient, { url: db.url, schema: keyRegistry.uses.database!.schema, poolMax: 12 });
    return new RegistryHarness(db, handle);
  }

  get prisma(): PrismaClient {
    return this.handle.client;
  }

  /** Plain SQL on the test database, to arrange a state the public methods cannot reach (a restored database, a family's mode). */
  async sql(text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
    return (await this.handle.pool.query(text, params)).rows;
  }

  get pool(): pg.Pool {
    return this.handle.pool;
  }

  /** A connection of its own (for a transaction the test holds open); release it when done. */
  connection(): Promise<pg.PoolClient> {
    return this.handle.pool.connect();
  }

  /** A replica over the shared database; its own cache (the mark) and this harness' bus unless told otherwise. */
  replica(options: { cache?: Cache; bus?: Bus; logger?: Logger } = {}): Replica {
    // The cache keeps its own clock: a test that pins Date.now must not expire the mark it wrote.
    const cache =
      options.cache ?? new MemoryCache({ namespace: uniqueId('key-registry'), now: () => performance.timeOrigin + performance.now() });
    const mark = new PublishedMark(cache, this.signer);
    const messaging = new MessagingClient(options.bus ?? this.bus, { timeoutMs: 1_000 });
    const logger = options.logger ?? createLogger({ service: 'key-registry', level: 'silent' });
    const keySet = new KeySetPublisher(this.prisma, messaging, this.signer, mark, logger);
    return { registry: new KeyRegistryService(this.prisma, keySet, logger), keySet, mark, cache };
  }

  /** A snapshot's payload, only if its signature verifies against the public key and its shape is a snapshot's. */
  openSnapshot(signed: SignedKeySet<PortalKeySetSnapshot>): PortalKeySetSnapshot {
    return portalKeySetSnapshotOf(this.check.open(JSON.parse(JSON.stringify(signed))));
  }

  /** A snapshot as the previous release's replicas read it (key set v2). */
  openSnapshotV2(signed: SignedKeySet<V2<PortalKeySetSnapshot>>): V2<PortalKeySetSnapshot> {
    return portalKeySetSnapshotOf(this.check.open(JSON.parse(JSON.stringify(signed))), 2);
  }

  openChangeV2(signed: SignedKeySet<V2<PortalKeySetChange>>): V2<PortalKeySetChange> {
    return portalKeySetChangeOf(this.check.open(JSON.parse(JSON.stringify(signed))), 2);
  }

  /** Opened as this release reads a snapshot (v3): throws for a v2 one. */
  openAsV3(signed: SignedKeySet<unknown>): PortalKeySetSnapshot {
    return portalKeySetSnapshotOf(this.check.open(JSON.parse(JSON.stringify(signed))));
  }

  async stop(): Promise<void> {
    await this.bus.close();
    await this.handle.close();
    await this.db.drop();
  }
}

/** The signed change events key-registry published, in the order the bus delivered them. */
export class ChangeEvents {
  /** Every event as it arrived (parsed from the bus' text, not yet verified). */
  readonly received: SignedKeySet<PortalKeySetChange>[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(
    bus: Bus,
    private readonly open: (signed: unknown) => PortalKeySetChange,
  ) {
    bus.subscribe(Events.keySetChanged, (message) => {
      this.received.push(JSON.parse(message.data) as SignedKeySet<PortalKeySetChange>);
      for (const wake of this.waiters) wake();
    });
  }

  /** How many events have arrived so far: pass it to `headsSince` to see what came after. */
  count(): number {
    return this.received.length;
  }

  /** The (epoch, version) of every event that arrived after `count()` answered `from`. */
  headsSince(from: number): KeySetHead[] {
    return this.received.slice(from).map(({ payload }) => ({ epoch: payload.epoch, version: payload.version }));
  }

  /**
   * The change announcing `head` (among those that arrived after `count()` answered `since`),
   * verified; waits for it (no polling), failing after `timeoutMs` with what did arrive.
   */
  async of(head: KeySetHead, since = 0, timeoutMs = 3_000): Promise<PortalKeySetChange> {
    const find = () => this.received.slice(since).find(({ payload }) => payload.epoch === head.epoch && payload.version === head.version);
    let found = find();
    if (!found) {
      found = await new Promise<SignedKeySet<PortalKeySetChange>>((resolve, reject) => {
        const wake = () => {
          const event = find();
          if (!event) return;
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve(event);
        };
        const timer = setTimeout(() => {
          this.waiters.delete(wake);
          const seen = this.received.map(({ payload }) => `${payload.epoch}/${payload.version}`).slice(-10);
          reject(
            new Error(
              `no key set change ${head.epoch}/${head.version} within ${timeoutMs} ms; the last ones: ${seen.join(', ') || 'none'}`,
            ),
          );
        }, timeoutMs);
        this.waiters.add(wake);
      });
    }
    return this.open(found);
  }
}

/** What a refused call threw, as a plain object a failed assertion prints in full; a call that succeeded fails the test. */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; code: string; message: string; details?: unknown }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error.details === undefined
      ? { status: error.getStatus(), code: error.code, message: error.message }
      : { status: error.getStatus(), code: error.code, message: error.message, details: error.details };
  }
  throw new Error('expected the call to be refused, and it succeeded');
}
