import {
  AppError,
  ErrorCode,
  Subjects,
  type ApiKeyView,
  type Organisation,
  READINESS_THRESHOLD,
  type RpcReply,
  type RpcRequest,
  type RpcSubject,
} from '@swap/contracts';
import { encodeErrorReply, encodeReply, NatsBus } from '@swap/messaging';
import { createPrismaClient, type DatabaseHandle } from '@swap/persistence';
import { migrateService, startServiceFromEnv, type RunningService } from '@swap/service-kit';
import { createTestDatabase, RUN_PREFIX, testInfra, testServiceEnv } from '@swap/testing';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PrismaClient, type Role } from '../generated/prisma/client';
import { partnerPortalApi } from '../partner-portal-api.definition';

/*
 * partner-portal-api for its integration specs (*.int-spec.ts): the service as a cluster
 * runs it (its own HTTP port, the machine's NATS under this file's subject prefix, Redis,
 * a fresh PostgreSQL database with its migrations), key-registry's subjects answered by a
 * stand-in on the same NATS (an app never imports another app), and browsers that sign up
 * and call it the way the portal's page does (cookies and the CSRF header).
 */

/** The operator credential of the harness's portal (OPS_TOKEN `tester:<token>`). */
export const TESTER_TOKEN = `tester-${randomBytes(16).toString('hex')}`;

/** An answer as the specs read it: status and parsed JSON body. */
export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body each spec reads as it expects
  body: any;
}

/** One request key-registry's stand-in received. */
export interface RegistryRequest {
  subject: string;
  payload: Record<string, unknown>;
}

/**
 * key-registry's organisation and key subjects as the portal meets them, on the real NATS:
 * organisations and keys kept in memory, a key revoked only within its own organisation
 * (404 otherwise, as key-registry answers). Every request is kept, so a spec can say a
 * refused call never reached key-registry. It also answers relay-tracker's reads of an organisation's swaps (none).
 */
/** What the stand-in answers for every organisation's fee report. */
export const FEE_ROWS = [
  { day: '2026-11-25', token: `0x${'aa'.repeat(20)}`, receiver: `0x${'bb'.repeat(20)}`, amount: '2500', swaps: 2 },
  {
    day: '2026-11-26',
    token: `0x${'aa'.repeat(20)}`,
    receiver: `0x${'bb'.repeat(20)}`,
    amount: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
    swaps: 1,
  },
];

const NO_USAGE = {
  requests: 0,
  clientErrors: 0,
  serverErrors: 0,
  errorShare: 0,
  outcomes: { valid: 0, missing: 0, invalid: 0, scope: 0, suspended: 0, unavailable: 0 },
};

export class KeyRegistryStandIn {
  readonly received: RegistryRequest[] = [];
  readonly organisations = new Map<string, Organisation>();
  readonly keys = new Map<string, ApiKeyView[]>();

  private constructor(private readonly bus: NatsBus) {}

  static async start(): Promise<KeyRegistryStandIn> {
    const bus = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'key-registry-stand-in', subjectPrefix: RUN_PREFIX });
    const standIn = new KeyRegistryStandIn(bus);
    standIn.answer(Subjects.orgCreate, ({ name }) => standIn.addOrganisation(name));
    standIn.answer(Subjects.orgList, () => [...standIn.organisations.values()]);
    standIn.answer(Subjects.keyCreate, ({ orgId, name, prefix }) => {
      const apiKey: ApiKeyView = {
        id: randomUUID(),
        name,
        prefix,
        scopes: ['swaps:read', 'swaps:write'],
        createdAt: new Date().toISOString(),
      };
      standIn.keys.set(orgId, [...standIn.keysOf(orgId), apiKey]);
      return { apiKey };
    });
    standIn.answer(Subjects.keyList, ({ orgId }) => standIn.keysOf(orgId));
    // relay-tracker's reads of an organisation's swaps: none kept here (relay-tracker's own spec fills them).
    standIn.answer(Subjects.orgSwapList, () => ({ swaps: [] }));
    standIn.answer(Subjects.orgSwapFees, () => ({ fees: FEE_ROWS }));
    // key-registry's usage reads: nothing counted (key-registry's own spec counts).
    standIn.answer(Subjects.usageReport, ({ from, to, interval }) => ({ from, to, interval, totals: NO_USAGE, routes: [], series: [] }));
    standIn.answer(Subjects.usageReadiness, () => ({ from: '', to: '', threshold: READINESS_THRESHOLD, routes: [], modes: [] }));
    standIn.answer(Subjects.orgSwapGet, ({ txHash, srcChainKey }) => {
      throw new AppError(
        404,
        ErrorCode.NotFound,
        `No swap of transaction ${txHash} on ${srcChainKey} was submitted with this organisation's keys`,
      );
    });
    standIn.answer(Subjects.keyRevoke, ({ orgId, keyId }) => {
      const kept = standIn.keysOf(orgId).filter((k) => k.id !== keyId);
      if (kept.length === standIn.keysOf(orgId).length)
        throw new AppError(404, ErrorCode.NotFound, 'API key not found; it may already be revoked');
      standIn.keys.set(orgId, kept);
      return { revoked: keyId };
    });
    // The subscriptions are on the server before anyone asks.
    await bus.ping();
    return standIn;
  }

  /** An organisation key-registry knows of and the portal does not (one made before the portal). */
  addOrganisation(name: string): Organisation {
    const org: Organisation = { id: randomUUID(), name, status: 'active', createdAt: new Date().toISOString() };
    this.organisations.set(org.id, org);
    return org;
  }

  keysOf(orgId: string): ApiKeyView[] {
    return this.keys.get(orgId) ?? [];
  }

  /** The requests received on one subject, in order. */
  requestsOn(subject: RpcSubject): Record<string, unknown>[] {
    return this.received.filter((r) => r.subject === subject).map((r) => r.payload);
  }

  /** Forgets an organisation and its keys. */
  forget(orgId: string): void {
    this.organisations.delete(orgId);
    this.keys.delete(orgId);
  }

  close(): Promise<void> {
    return this.bus.close();
  }

  /** Serves `subject` in the reply envelope a real BusServer writes (a thrown AppError travels as its error body). */
  private answer<S extends RpcSubject>(subject: S, handler: (payload: RpcRequest<S>) => RpcReply<S>): void {
    this.bus.subscribe(
      subject,
      (message) => {
        const payload = JSON.parse(message.data) as RpcRequest<S>;
        this.received.push({ subject, payload: payload as Record<string, unknown> });
        let reply: string;
        try {
          reply = encodeReply(handler(payload));
        } catch (error) {
          reply = encodeErrorReply(error);
        }
        message.respond?.(reply);
      },
      { queue: 'key-registry' },
    );
  }
}

/** A browser: its cookie jar, and the CSRF header the portal's page echoes on every mutation. */
export class PortalBrowser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  async call(method: string, path: string, body?: unknown, options: { csrf?: boolean; headers?: Record<string, string> } = {}) {
    const csrf = options.csrf === false ? undefined : this.cookies.get('portal_csrf');
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(csrf ? { 'x-csrf-token': csrf } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0];
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined } as Answer;
  }
}

/** A signed-in portal user and their browser. */
export class Person extends PortalBrowser {
  id = '';

  constructor(
    base: string,
    readonly email: string,
  ) {
    super(base);
  }
}

/** What a spec compares before and after a refused call: an organisation's members, invitations and keys. */
export interface OrgState {
  members: [email: string, role: Role][];
  invitations: { email: string; role: Role; accepted: boolean }[];
  keys: string[];
}

/** A UUID as the portal answers ids. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** SHA-256 in hex, as keys and invitation tokens are stored. */
export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A harness for the enclosing describe (`env` as for `start`): started before its tests, cleaned after each, stopped after all. */
export function portalHarnessPerSuite(
  env: () => Promise<Record<string, string>> | Record<string, string> = () => ({}),
): () => PortalHarness {
  let h: PortalHarness | undefined;
  beforeAll(async () => {
    h = await PortalHarness.start(await env());
  });
  afterEach(() => h!.cleanUp());
  afterAll(() => h?.stop());
  return () => h!;
}

export class PortalHarness {
  private readonly people: string[] = [];
  private readonly orgs: string[] = [];

  private constructor(
    readonly service: RunningService,
    readonly registry: KeyRegistryStandIn,
    private readonly handle: DatabaseHandle<PrismaClient>,
    private readonly database: { url: string; drop: () => Promise<void> },
  ) {}

  /** The portal over a fresh database; `env` adds to (or overrides) the test defaults. */
  static async start(env: Record<string, string> = {}): Promise<PortalHarness> {
    // @fastify/cookie loads `cookie` with import(), which Jest's module sandbox allows only with this flag.
    if (!`${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`.includes('--experimental-vm-modules'))
      throw new Error(
        'partner-portal-api needs NODE_OPTIONS=--experimental-vm-modules under Jest (its cookie plugin imports an ES module); npm test sets it',
      );
    const database = await createTestDatabase();
    let registry: KeyRegistryStandIn | undefined;
    let service: RunningService | undefined;
    try {
      await migrateService(database.url, partnerPortalApi);
      registry = await KeyRegistryStandIn.start();
      service = await startServiceFromEnv(
        partnerPortalApi,
        testServiceEnv({
          DATABASE_URL: database.url,
          SCRYPT_LOG_N: '10',
          RPC_TIMEOUT_MS: '2000',
          OPS_TOKEN: `tester:${TESTER_TOKEN}`,
          PORTAL_PUBLIC_URL: 'https://portal.example',
          ...env,
        }),
      );
      const handle = createPrismaClient(PrismaClient, { url: database.url, schema: partnerPortalApi.uses.database!.schema, poolMax: 4 });
      return new PortalHarness(service, registry, handle, database);
    } catch (error) {
      await service?.close().catch(() => undefined);
      await registry?.close().catch(() => undefined);
      await database.drop().catch(() => undefined);
      throw error;
    }
  }

  /** The portal's tables, to read what is stored (and to age an invitation or a session). */
  get db(): PrismaClient {
    return this.handle.client;
  }

  get url(): string {
    return this.service.url;
  }

  /** A browser that has not signed in (it has fetched its CSRF cookie). */
  async anonymous(): Promise<PortalBrowser> {
    const browser = new PortalBrowser(this.url);
    await browser.call('GET', '/portal/api/auth/csrf');
    return browser;
  }

  /** A new account, signed in; its email is `<label>-<random>@example.com` unless `email` is given. */
  async person(label: string, email = `${label}-${randomBytes(4).toString('hex')}@example.com`): Promise<Person> {
    const person = new Person(this.url, email.toLowerCase());
    await person.call('GET', '/portal/api/auth/csrf');
    const res = await person.call('POST', '/portal/api/auth/sign-up', { email, password: 'correct horse battery' });
    if (res.status !== 201) throw new Error(`sign-up of ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
    person.id = res.body.user.id;
    this.people.push(person.id);
    return person;
  }

  /**
   * An organisation created by `owner` through the portal, with each other person added
   * with their role straight into the table (the setup, not what is tested).
   */
  async org(owner: Person, others: [Person, Role][] = [], name = 'Acme Wallet'): Promise<string> {
    const res = await owner.call('POST', '/portal/api/orgs', { name });
    if (res.status !== 201) throw new Error(`creating ${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
    const orgId: string = res.body.id;
    this.orgs.push(orgId);
    for (const [person, role] of others) await this.db.membership.create({ data: { orgId, orgName: name, userId: person.id, role } });
    return orgId;
  }

  /** An organisation of an owner, an admin and a member (its name `name`). */
  async team(name?: string): Promise<{ orgId: string; owner: Person; admin: Person; member: Person }> {
    const [owner, admin, member] = [await this.person('owner'), await this.person('admin'), await this.person('member')];
    const orgId = await this.org(
      owner,
      [
        [admin, 'admin'],
        [member, 'member'],
      ],
      name,
    );
    return { orgId, owner, admin, member };
  }

  /** Notes an organisation made otherwise (an operator's), so `cleanUp` removes it. */
  track(orgId: string): void {
    this.orgs.push(orgId);
  }

  /** Members (in the order they joined), invitations (in the order made) and key names of an organisation. */
  async stateOf(orgId: string): Promise<OrgState> {
    const members = await this.db.membership.findMany({
      where: { orgId },
      include: { user: true },
      orderBy: [{ createdAt: 'asc' }, { user: { email: 'asc' } }],
    });
    const invitations = await this.db.invitation.findMany({ where: { orgId }, orderBy: [{ createdAt: 'asc' }, { email: 'asc' }] });
    return {
      members: members.map((m) => [m.user.email, m.role]),
      invitations: invitations.map((i) => ({ email: i.email, role: i.role, accepted: i.acceptedAt !== null })),
      keys: this.registry.keysOf(orgId).map((k) => k.name),
    };
  }

  /** Removes what this test made: its people (their sessions and memberships go with them), organisations and invitations. */
  async cleanUp(): Promise<void> {
    const orgs = this.orgs.splice(0);
    const people = this.people.splice(0);
    await this.db.invitation.deleteMany({ where: { orgId: { in: orgs } } });
    await this.db.membership.deleteMany({ where: { orgId: { in: orgs } } });
    await this.db.user.deleteMany({ where: { id: { in: people } } });
    for (const orgId of orgs) this.registry.forget(orgId);
    this.registry.received.splice(0);
  }

  async stop(): Promise<void> {
    await this.service.close();
    await this.registry.close();
    await this.handle.close();
    await this.database.drop();
  }
}
