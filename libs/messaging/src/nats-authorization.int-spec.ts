import { ServiceConfig, WithBus, loadConfig } from '@swap/config';
import { AppError, Broadcasts, Events, EventStreams, Subjects, WorkQueues } from '@swap/contracts';
import { eventually, testInfra, TestNatsServer, unusedPort, within } from '@swap/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, nkeyAuthenticator, nkeys, type Msg, type NatsConnection, type NatsError, type Subscription } from 'nats';
import { encodeErrorReply, encodeReply } from './envelope';
import { JetStreamEventStream } from './jetstream-event-stream';
import { provisionJetStream, type EventStreamResource, type JetStreamResource } from './jetstream-resources';
import { JetStreamWorkQueue } from './jetstream-work-queue';
import { MessagingClient } from './messaging-client';
import { NatsBus, type PermissionRefusal } from './nats-bus';
import { inboxPrefixOf, natsBusOptions } from './nats-settings';
import { RequestSignatureCheck, RequestSigner } from './request-signatures';
import { generateSigningKeyPair, parsePublicKeys, parseSigningKey } from './signed-payload';

/**
 * The chart's NATS authorization (charts/swap-platform/files/nats-permissions.conf, the file
 * k8s/ ships too), on a nats-server of this test's own: every service's real traffic passes,
 * and whoever holds another service's credentials, or none, is refused key-registry's
 * voice, its management subjects and everyone's replies.
 */
jest.setTimeout(30_000);

const SHIPPED = join(__dirname, '..', '..', '..', 'charts', 'swap-platform', 'files', 'nats-permissions.conf');
const USERS = [
  'key-registry',
  'partner-portal-api',
  'swap-gateway',
  'quote-builder',
  'relay-tracker',
  'sponsorship-keys',
  'operator',
] as const;
type User = (typeof USERS)[number];
const KEY_REGISTRY_REQUESTS = [
  Subjects.orgCreate,
  Subjects.orgList,
  Subjects.keyCreate,
  Subjects.keyList,
  Subjects.keyRevoke,
  Subjects.keySetSnapshot,
];
const MANAGEMENT = KEY_REGISTRY_REQUESTS.filter((s) => s !== Subjects.keySetSnapshot);
const PORTAL_CALLS = [Subjects.orgCreate, Subjects.orgList, Subjects.keyCreate, Subjects.keyList, Subjects.keyRevoke];
const WEBHOOK_CALLS = [
  Subjects.webhookCreate,
  Subjects.webhookList,
  Subjects.webhookDelete,
  Subjects.webhookRotate,
  Subjects.webhookTest,
  Subjects.webhookDeliveries,
  Subjects.webhookReplay,
];
/** One subject each user may publish on. */
const MAY_PUBLISH: Record<User, string> = {
  'key-registry': Events.keySetChanged,
  'partner-portal-api': Subjects.orgList,
  'swap-gateway': Subjects.keySetSnapshot,
  'quote-builder': Broadcasts.rfq,
  'relay-tracker': Subjects.intentExecute,
  'sponsorship-keys': Subjects.catalogSnapshot,
  operator: '$JS.API.INFO',
};

/**
 * The platform's traffic, read from the services' code (their @MessagePattern and
 * @EventPattern handlers, their MessagingClient calls and the RFQ broadcast), written here
 * rather than taken from the permissions file under test.
 */
const REQUESTS: { caller: User; responder: User; subjects: string[] }[] = [
  {
    caller: 'swap-gateway',
    responder: 'quote-builder',
    subjects: [
      Subjects.quoteRequest,
      Subjects.intentBuild,
      Subjects.limitOrderBuild,
      Subjects.gasEstimate,
      Subjects.intentSolverStatus,
      Subjects.allowanceCheck,
      Subjects.approveBuild,
      Subjects.intentCancel,
      Subjects.intentHash,
      Subjects.deadline,
      Subjects.vaultRead,
      Subjects.vaultQuote,
      Subjects.vaultDeposit,
      Subjects.vaultAllowanceCheck,
      Subjects.vaultApprove,
      Subjects.vaultWithdrawQuote,
      Subjects.vaultWithdraw,
      Subjects.intentLookup,
      Subjects.catalogSnapshot,
      // Its v2 name, answered beside it for one release.
      Subjects.catalogSnapshotV2,
    ],
  },
  {
    caller: 'swap-gateway',
    responder: 'relay-tracker',
    subjects: [
      Subjects.submissionSubmit,
      Subjects.submissionStatus,
      Subjects.submissionEvents,
      Subjects.relayPacket,
      Subjects.relayExtraData,
      Subjects.relaySubmit,
    ],
  },
  {
    caller: 'swap-gateway',
    responder: 'key-registry',
    // Its v2 name (no routeModes), answered beside it for one release.
    subjects: [Subjects.keySetSnapshot, Subjects.keySetSnapshotV2, Subjects.usageRecord],
  },
  { caller: 'sponsorship-keys', responder: 'quote-builder', subjects: [Subjects.catalogSnapshot, Subjects.catalogSnapshotV2] },
  { caller: 'relay-tracker', responder: 'quote-builder', subjects: [Subjects.intentExecute, Subjects.intentSolverStatus] },
  { caller: 'partner-portal-api', responder: 'key-registry', subjects: [...PORTAL_CALLS, Subjects.usageReport, Subjects.usageReadiness] },
  {
    caller: 'partner-portal-api',
    responder: 'relay-tracker',
    subjects: [...WEBHOOK_CALLS, Subjects.orgSwapList, Subjects.orgSwapGet, Subjects.orgSwapFees],
  },
];
/** Handlers quote-builder serves that no service calls over the bus today: it may still listen. */
const SERVED_ONLY: { responder: User; subjects: string[] }[] = [
  { responder: 'quote-builder', subjects: [Subjects.tokensList, Subjects.tokensByChain, Subjects.chainGet, Subjects.partnerFee] },
];
const EVENTS: { publisher: User; subject: string; subscribers: User[] }[] = [
  { publisher: 'key-registry', subject: Events.keySetChanged, subscribers: ['swap-gateway'] },
  // keySetChanged's v2 name (no routeModes), sent beside it for one release.
  { publisher: 'key-registry', subject: Events.keySetChangedV2, subscribers: ['swap-gateway'] },
  { publisher: 'sponsorship-keys', subject: Events.sponsoringKeySetChanged, subscribers: ['sponsorship-keys'] },
  { publisher: 'quote-builder', subject: Events.solverChanged, subscribers: ['quote-builder'] },
  { publisher: 'quote-builder', subject: Events.executionPosted, subscribers: ['quote-builder'] },
  { publisher: 'quote-builder', subject: Events.replicaPresent, subscribers: ['quote-builder'] },
  { publisher: 'quote-builder', subject: Events.replicaLeaving, subscribers: ['quote-builder'] },
  { publisher: 'quote-builder', subject: Events.catalogChanged, subscribers: ['swap-gateway', 'sponsorship-keys'] },
  // catalogChanged's v2 name (unsigned), sent beside it for one release.
  { publisher: 'quote-builder', subject: Events.catalogChangedV2, subscribers: ['swap-gateway', 'sponsorship-keys'] },
  // swap-gateway's status streams hear every transition.
  { publisher: 'relay-tracker', subject: Events.submissionTransitioned, subscribers: ['swap-gateway'] },
  { publisher: 'quote-builder', subject: Events.intentBuilt, subscribers: ['relay-tracker'] },
];

/** A nats-server with JetStream and exactly the shipped authorization (included as the platform team includes it), the users' public keys in its environment; `extra` adds to its configuration (TLS). */
function startServer(publicKeys: Record<User, string>, extra: string[] = []): Promise<TestNatsServer> {
  return TestNatsServer.start({
    config: [...extra, 'include "nats-permissions.conf"'],
    files: [SHIPPED],
    env: Object.fromEntries(USERS.map((user) => [`NATS_NKEY_${user.toUpperCase().replace(/-/g, '_')}`, publicKeys[user]])),
  });
}

/** A connection as a service makes it (its nkey, its own inbox prefix), with the refusals the server sends it. */
class Client {
  readonly refusals: PermissionRefusal[] = [];
  private waiters: { subject: string; resolve: () => void }[] = [];

  private constructor(
    readonly user: User,
    readonly nc: NatsConnection,
  ) {
    void (async () => {
      for await (const status of nc.status()) {
        const context = (status as { permissionContext?: PermissionRefusal }).permissionContext;
        if (!context) continue;
        this.refusals.push({ operation: context.operation, subject: context.subject });
        for (const waiter of this.waiters.filter((w) => w.subject === context.subject)) waiter.resolve();
        this.waiters = this.waiters.filter((w) => w.subject !== context.subject);
      }
    })();
  }

  static async as(url: string, user: User, seed: string): Promise<Client> {
    const nc = await connect({
      servers: url,
      name: user,
      authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)),
      inboxPrefix: inboxPrefixOf(user),
      reconnect: false,
      timeout: 5_000,
    });
    return new Client(user, nc);
  }

  /** Resolves when the server refuses this connection something on `subject`. */
  refusal(subject: string): Promise<void> {
    if (this.refusals.some((r) => r.subject === subject)) return Promise.resolve();
    return within(new Promise<void>((resolve) => this.waiters.push({ subject, resolve })), 5_000, `${this.user} to be refused ${subject}`);
  }

  /** A publish the server must refuse: resolves on its refusal. */
  async publishRefused(subject: string, data = 'forged'): Promise<void> {
    const refused = this.refusal(subject);
    this.nc.publish(subject, data);
    await refused;
  }

  /** A subscription the server must refuse: resolves with the error its callback gets. */
  subscribeRefused(subject: string, heard: string[]): Promise<NatsError> {
    return within(
      new Promise<NatsError>((resolve) => {
        this.nc.subscribe(subject, {
          callback: (err, msg) => {
            if (err) resolve(err);
            else heard.push(`${this.user} heard ${msg.subject}`);
          },
        });
      }),
      5_000,
      `${this.user}'s subscription to ${subject} to be refused`,
    );
  }

  /** Every refusal this connection got so far, once the server has handled all it sent. */
  async settledRefusals(): Promise<PermissionRefusal[]> {
    await this.nc.flush();
    // The status stream hands a refusal over a few promise turns after the -ERR is read.
    await new Promise((resolve) => setImmediate(resolve));
    return this.refusals;
  }
}

const dec = new TextDecoder();

/** A test CA, a certificate for 127.0.0.1 signed by it, and a client certificate (openssl). */
function makeCertificates(dir: string): void {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore', timeout: 30_000 });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=swap-platform test CA');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, subject] of [
    ['server', '/CN=nats'],
    ['client', '/CN=swap-gateway'],
  ]) {
    openssl('req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '1',
      '-extfile',
      `${name}.ext`,
    );
  }
}

describe('the shipped NATS authorization on a real nats-server', () => {
  const seeds = {} as Record<User, string>;
  const publicKeys = {} as Record<User, string>;
  for (const user of USERS) {
    const pair = nkeys.createUser();
    seeds[user] = dec.decode(pair.getSeed());
    publicKeys[user] = pair.getPublicKey();
  }
  let server: TestNatsServer;
  const clients: Client[] = [];
  const buses: NatsBus[] = [];
  const as = async (user: User) => {
    const client = await Client.as(server.url, user, seeds[user]);
    clients.push(client);
    return client;
  };
  /** The platform's own client, configured as a service is: WithBus variables, natsBusOptions. */
  const busOf = async (user: User, extra: { onPermissionError?: (refusal: PermissionRefusal) => void } = {}) => {
    const config = loadConfig(WithBus(ServiceConfig), { NATS_URL: server.url, NATS_NKEY_SEED: seeds[user] });
    const bus = await NatsBus.connect({ ...natsBusOptions(config, user), ...extra });
    buses.push(bus);
    return bus;
  };

  beforeAll(async () => {
    server = await startServer(publicKeys);
  });

  // Each test's connections go with it: a subscriber left behind would answer the next test's requests.
  afterEach(async () => {
    for (const bus of buses.splice(0)) await bus.close().catch(() => undefined);
    for (const client of clients.splice(0)) await client.nc.close().catch(() => undefined);
  });

  afterAll(async () => {
    await server?.remove();
  });

  it('lists every subject of libs/contracts in the traffic these tests send', () => {
    const covered = new Set([
      ...REQUESTS.flatMap((r) => r.subjects),
      ...SERVED_ONLY.flatMap((s) => s.subjects),
      ...EVENTS.map((e) => e.subject),
      Broadcasts.rfq,
    ]);
    const all = [...Object.values(Subjects), ...Object.values(Events), ...Object.values(Broadcasts)];
    expect(all.filter((subject) => !covered.has(subject))).toEqual([]);
  });

  it("passes every service's requests to the service that answers them, and its answers back", async () => {
    const connections = new Map<User, Client>();
    const clientOf = async (user: User) => connections.get(user) ?? connections.set(user, await as(user)).get(user)!;
    const subscriptions: Subscription[] = [];
    for (const { responder, subjects } of [...REQUESTS, ...SERVED_ONLY]) {
      const client = await clientOf(responder);
      for (const subject of subjects) {
        // In the service's queue group, as BusServer subscribes its @MessagePattern handlers.
        subscriptions.push(
          client.nc.subscribe(subject, {
            queue: responder,
            callback: (err, msg) => !err && msg.respond(`${responder} answers ${msg.subject}`),
          }),
        );
      }
    }
    for (const client of connections.values()) expect(await client.settledRefusals()).toEqual([]);

    for (const { caller, responder, subjects } of REQUESTS) {
      const client = await clientOf(caller);
      for (const subject of subjects) {
        const reply = await client.nc.request(subject, 'asked', { timeout: 5_000 });
        expect(`${caller} got ${dec.decode(reply.data)}`).toBe(`${caller} got ${responder} answers ${subject}`);
        // The reply came to the caller's own inbox.
        expect(reply.subject.slice(0, inboxPrefixOf(caller).length + 1)).toBe(`${inboxPrefixOf(caller)}.`);
      }
      expect(await client.settledRefusals()).toEqual([]);
    }
    for (const sub of subscriptions) sub.unsubscribe();
  });

  it("delivers every service's events to the services that listen to them", async () => {
    for (const { publisher, subject, subscribers } of EVENTS) {
      const heard: Promise<string>[] = [];
      for (const subscriber of subscribers) {
        const client = await as(subscriber);
        heard.push(
          within(
            new Promise<string>((resolve, reject) =>
              client.nc.subscribe(subject, {
                max: 1,
                callback: (err, msg) => (err ? reject(err) : resolve(`${subscriber} heard ${dec.decode(msg.data)}`)),
              }),
            ),
            5_000,
            `${subscriber} to hear ${subject}`,
          ),
        );
        await client.nc.flush();
        expect(await client.settledRefusals()).toEqual([]);
      }
      const source = await as(publisher);
      source.nc.publish(subject, `${publisher}'s ${subject}`);
      expect(await source.settledRefusals()).toEqual([]);
      expect(await Promise.all(heard)).toEqual(subscribers.map((s) => `${s} heard ${publisher}'s ${subject}`));
    }
  });

  it('lets only key-registry announce a key-set change: a forged announcement is refused and never arrives', async () => {
    const gateway = await as('swap-gateway');
    const heard: string[] = [];
    let genuine!: () => void;
    const genuineArrived = new Promise<void>((resolve) => (genuine = resolve));
    gateway.nc.subscribe(Events.keySetChanged, {
      callback: (_, msg) => {
        heard.push(dec.decode(msg.data));
        if (dec.decode(msg.data) === 'genuine') genuine();
      },
    });
    await gateway.nc.flush();
    for (const user of USERS.filter((u) => u !== 'key-registry'))
      await (await as(user)).publishRefused(Events.keySetChanged, `forged by ${user}`);
    (await as('key-registry')).nc.publish(Events.keySetChanged, 'genuine');
    await within(genuineArrived, 5_000, 'the genuine announcement');
    expect(heard).toEqual(['genuine']);
  });

  it('lets only key-registry hear (and so answer) the key-set snapshot and the management subjects', async () => {
    const heard: string[] = [];
    for (const user of USERS.filter((u) => u !== 'key-registry')) {
      const rogue = await as(user);
      for (const subject of KEY_REGISTRY_REQUESTS) {
        expect((await rogue.subscribeRefused(subject, heard)).code).toBe('PERMISSIONS_VIOLATION');
        // Nor in key-registry's queue group, to take its turn at answering.
        expect((await rogue.subscribeRefused(subject, heard)).code).toBe('PERMISSIONS_VIOLATION');
      }
      // A wildcard over key-registry's subjects is refused too.
      expect((await rogue.subscribeRefused('key-registry.>', heard)).code).toBe('PERMISSIONS_VIOLATION');
    }
    // The snapshot answer a service gets is key-registry's own.
    const registry = await as('key-registry');
    registry.nc.subscribe(Subjects.keySetSnapshot, { queue: 'key-registry', callback: (_, msg) => msg.respond('from key-registry') });
    await registry.nc.flush();
    const gateway = await as('swap-gateway');
    expect(dec.decode((await gateway.nc.request(Subjects.keySetSnapshot, '', { timeout: 5_000 })).data)).toBe('from key-registry');
    expect(heard).toEqual([]);
  });

  it('lets only partner-portal-api call the management subjects (its own calls; operators use the operator routes)', async () => {
    const registry = await as('key-registry');
    const heard: string[] = [];
    registry.nc.subscribe('key-registry.*.*.*', { callback: () => undefined }); // refused: key-registry listens subject by subject
    for (const subject of KEY_REGISTRY_REQUESTS)
      registry.nc.subscribe(subject, {
        callback: (_, msg: Msg) => (heard.push(`${dec.decode(msg.data)} ${subject}`), msg.respond('done')),
      });
    await registry.refusal('key-registry.*.*.*');

    const mayCall: Record<User, string[]> = { 'partner-portal-api': PORTAL_CALLS } as Record<User, string[]>;
    for (const user of USERS.filter((u) => u !== 'key-registry')) {
      const caller = await as(user);
      for (const subject of MANAGEMENT) {
        if (mayCall[user]?.includes(subject)) {
          expect(dec.decode((await caller.nc.request(subject, user, { timeout: 5_000 })).data)).toBe('done');
          continue;
        }
        await expect(caller.nc.request(subject, `forged by ${user}`, { timeout: 5_000 })).rejects.toMatchObject({
          code: 'PERMISSIONS_VIOLATION',
        });
        await caller.publishRefused(subject, `forged by ${user}`);
      }
    }
    await registry.nc.flush();
    expect(heard.filter((h) => h.startsWith('forged'))).toEqual([]);
    expect(heard.sort()).toEqual(PORTAL_CALLS.map((s) => `partner-portal-api ${s}`).sort());
  });

  it("keeps every service's replies to itself: no one subscribes to another's inbox or to _INBOX.>, nor replies into it uninvited", async () => {
    const heard: string[] = [];
    for (const user of USERS) {
      const client = await as(user);
      for (const subject of [
        '_INBOX.>',
        '>',
        '_INBOX_*.>',
        ...USERS.filter((u) => u !== user).map((other) => `${inboxPrefixOf(other)}.>`),
      ]) {
        expect((await client.subscribeRefused(subject, heard)).code).toBe('PERMISSIONS_VIOLATION');
      }
      for (const other of USERS.filter((u) => u !== user)) await client.publishRefused(`${inboxPrefixOf(other)}.forged.reply`);
      // Nor may it ask with the shared inbox prefix, where any subscriber of _INBOX.> would read the answer.
      const shared = await connect({
        servers: server.url,
        authenticator: nkeyAuthenticator(new TextEncoder().encode(seeds[user])),
        reconnect: false,
      });
      await expect(shared.request(MAY_PUBLISH[user], '', { timeout: 5_000 })).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
      await shared.close();
    }
    expect(heard).toEqual([]);
  });

  it("never lets a caller aim a service's answer at a subject: no responder publishes onto key-registry's subjects on a rogue's behalf", async () => {
    // The server lets a responder publish onto whatever reply address a request carried
    // (allow_responses): a caller that names key-registry's management subject, or its
    // key-set announcement, as the reply address would have the responder publish there.
    const heard: string[] = [];
    const hear = (_: NatsError | null, msg: Msg) => heard.push(`${msg.subject}: ${dec.decode(msg.data)}`);
    const registry = await as('key-registry');
    for (const subject of MANAGEMENT) registry.nc.subscribe(subject, { callback: hear });
    const listener = await as('swap-gateway');
    listener.nc.subscribe(Events.keySetChanged, { callback: hear });
    await Promise.all([registry.nc.flush(), listener.nc.flush()]);
    // Every responder, answering as the platform's client does (libs/messaging).
    for (const { caller, responder, subjects } of REQUESTS.filter((r) => r.responder !== 'key-registry')) {
      const answering = await busOf(responder);
      for (const subject of subjects)
        answering.subscribe(subject, (message) => message.respond?.(`answer of ${responder}`), { queue: responder });
      await answering.ping();
      const rogue = await as(caller);
      for (const subject of subjects)
        for (const aim of [Subjects.orgCreate, Subjects.keyCreate, Events.keySetChanged]) rogue.nc.publish(subject, '{}', { reply: aim });
      await rogue.nc.flush();
      // The same responder still answers a genuine request, sent after the rogue's.
      const genuine = await busOf(caller);
      expect((await genuine.request(subjects[0], '{}', { timeoutMs: 5_000 })).data).toBe(`answer of ${responder}`);
      await answering.ping();
    }
    await Promise.all([registry.nc.flush(), listener.nc.flush()]);
    expect(await registry.settledRefusals()).toEqual([]);
    expect(heard).toEqual([]);
  });

  it('is found to refuse anonymous clients, where the machine’s plain test server admits them (the check a service makes at start)', async () => {
    expect(await NatsBus.acceptsAnonymous({ servers: server.url, name: 'probe' })).toBe(false);
    expect(await NatsBus.acceptsAnonymous({ servers: testInfra.natsUrl, name: 'probe' })).toBe(true);
    expect(await NatsBus.acceptsAnonymous({ servers: `nats://127.0.0.1:${await unusedPort()}`, name: 'probe' })).toBe(false);
  });

  it('refuses a client without credentials, with an unknown nkey, or with a user and password', async () => {
    const stranger = dec.decode(nkeys.createUser().getSeed());
    const attempts = [
      {},
      { authenticator: nkeyAuthenticator(new TextEncoder().encode(stranger)) },
      { user: 'key-registry', pass: 'key-registry' },
    ];
    for (const credentials of attempts) {
      await expect(connect({ servers: server.url, reconnect: false, timeout: 5_000, ...credentials })).rejects.toMatchObject({
        code: 'AUTHORIZATION_VIOLATION',
      });
    }
  });

  describe("the platform's messaging client (libs/messaging), configured from the WithBus variables", () => {
    it('connects with its nkey and its own inbox prefix, and a request gets its answer through the restricted server', async () => {
      // The portal signs it (PORTAL_SIGNING_KEY); the registry checks it as its bus server does.
      const pair = generateSigningKeyPair();
      const check = new RequestSignatureCheck(parsePublicKeys(pair.publicKey), 'partner-portal-api');
      const registry = await busOf('key-registry');
      registry.subscribe(
        Subjects.keyCreate,
        (message) => {
          void check.verify(Subjects.keyCreate, message.headers, message.data).then(
            () => message.respond?.(encodeReply({ apiKey: { id: 'k1', heard: JSON.parse(message.data) } })),
            (error: unknown) => message.respond?.(encodeErrorReply(error)),
          );
        },
        { queue: 'key-registry' },
      );
      await registry.ping();
      const portal = new MessagingClient(await busOf('partner-portal-api'), {
        timeoutMs: 5_000,
        signers: { portal: new RequestSigner(parseSigningKey(pair.signingKey)) },
      });
      const reply = await portal.request(Subjects.keyCreate, {
        orgId: 'o1',
        name: 'ci',
        keyHash: 'ab'.repeat(32),
        prefix: 'sk_live_ab',
        actor: 'user:1',
      });
      expect(reply).toEqual({
        apiKey: { id: 'k1', heard: { orgId: 'o1', name: 'ci', keyHash: 'ab'.repeat(32), prefix: 'sk_live_ab', actor: 'user:1' } },
      });
    });

    it('turns a refused request into a 503 and reports the refusal', async () => {
      let reported!: (refusal: PermissionRefusal) => void;
      const refusal = new Promise<PermissionRefusal>((resolve) => (reported = resolve));
      const gateway = new MessagingClient(await busOf('swap-gateway', { onPermissionError: (r) => reported(r) }), { timeoutMs: 5_000 });
      const error = await gateway.request(Subjects.orgList, {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).getStatus()).toBe(503);
      expect(await within(refusal, 5_000, 'the refusal to be reported')).toEqual({ operation: 'publish', subject: Subjects.orgList });
    });

    it("gathers a request for quote's several answers from another quote-builder replica", async () => {
      const [asking, answering] = [await busOf('quote-builder'), await busOf('quote-builder')];
      answering.subscribe(Broadcasts.rfq, (message) => {
        for (const answer of ['ack', 'solver-a', 'solver-b']) message.respond?.(answer);
      });
      await answering.ping();
      const answers: string[] = [];
      let all!: () => void;
      const complete = new Promise<void>((resolve) => (all = resolve));
      const gathering = asking.gather(Broadcasts.rfq, '{}', (reply) => {
        answers.push(reply.data);
        if (answers.length === 3) all();
      });
      await within(complete, 5_000, 'three answers');
      gathering.close();
      expect(answers).toEqual(['ack', 'solver-a', 'solver-b']);
    });

    /** `npm run migrate`'s step, as the operator's user. */
    const provisioned = async (...resources: JetStreamResource[]) => {
      const jsm = await (await busOf('operator')).connection.jetstreamManager();
      return Promise.all(resources.map((resource) => provisionJetStream(jsm, resource)));
    };
    const chainEvents: EventStreamResource = {
      kind: 'event-stream',
      ...EventStreams.chainEvents,
      maxAgeMs: 60_000,
      duplicateWindowMs: 10_000,
      ackWaitMs: 5_000,
    };

    it('lets relay-tracker only use its streams: one missing is an error naming npm run migrate, and no create reaches the server', async () => {
      const bus = await busOf('relay-tracker');
      await expect(JetStreamWorkQueue.open(bus.connection, { ...WorkQueues.webhooks, ackWaitMs: 5_000 })).rejects.toThrow(
        /JetStream stream RELAY_TRACKER_WEBHOOKS does not exist, and this NATS user may not create it: run `npm run migrate`/,
      );
      const jsm = await (await busOf('operator')).connection.jetstreamManager();
      await expect(jsm.streams.info(WorkQueues.webhooks.stream)).rejects.toMatchObject({ api_error: { err_code: 10059 } });
    });

    it.each([
      ['settlement', WorkQueues.settlement],
      ['webhook', WorkQueues.webhooks],
    ])("runs relay-tracker's %s queue on JetStream as the operator made it: takes work, acknowledges it", async (_name, names) => {
      const [made] = await provisioned({ kind: 'work-queue', ...names, ackWaitMs: 5_000 });
      expect(made.outcome).toBe('created');
      const bus = await busOf('relay-tracker');
      const errors: unknown[] = [];
      const queue = await JetStreamWorkQueue.open(bus.connection, {
        ...names,
        ackWaitMs: 5_000,
        pullWaitMs: 1_000,
        onError: (e) => errors.push(e),
      });
      let handled!: (id: string) => void;
      const taken = new Promise<string>((resolve) => (handled = resolve));
      queue.start(async (item) => (handled(item.id), { done: true }), { concurrency: 2 });
      await queue.add('tx-1');
      expect(await within(taken, 10_000, 'the work item')).toBe('tx-1');
      await queue.stop();
      // The acknowledgement reaches the stream after the handler returns.
      expect(await eventually(async () => (await queue.depth()) === 0)).toBe(true);
      expect(errors).toEqual([]);
      // A replica configured with another lease is told the operator's step, and still works.
      await JetStreamWorkQueue.open((await busOf('relay-tracker')).connection, {
        ...names,
        ackWaitMs: 9_000,
        onError: (e) => errors.push(e),
      });
      expect(errors.map(String)).toEqual([expect.stringMatching(/differs from this release's settings \(ack_wait\).*npm run migrate/)]);
      // Run again, the operator's step brings the ack wait to the new lease.
      expect((await provisioned({ kind: 'work-queue', ...names, ackWaitMs: 9_000 }))[0]).toMatchObject({ outcome: 'updated' });
    });

    it("runs relay-tracker's chain event stream on JetStream as the operator made it: publishes a batch, takes it, acknowledges it", async () => {
      expect((await provisioned(chainEvents))[0].outcome).toBe('created');
      const bus = await busOf('relay-tracker');
      const stream = await JetStreamEventStream.open<{ n: number }>(bus.connection, chainEvents);
      let handled!: (n: number) => void;
      const taken = new Promise<number>((resolve) => (handled = resolve));
      stream.start(async (event) => handled(event.n), { concurrency: 2 });
      await stream.publish({ n: 7 }, 'batch-7');
      expect(await within(taken, 10_000, 'the chain event batch')).toBe(7);
      await stream.stop();
      expect(await eventually(async () => (await stream.backlog()).inHand === 0)).toBe(true);
      // A second replica opens the same stream and consumer.
      await JetStreamEventStream.open((await busOf('relay-tracker')).connection, chainEvents);
    });

    it('lets no service reconfigure a stream (whose settings could republish onto key-registry.keyset.changed) or reach another JetStream API', async () => {
      const streams = [
        {
          stream: WorkQueues.settlement.stream,
          consumer: WorkQueues.settlement.consumer,
          publish: `${WorkQueues.settlement.subject}.forged`,
        },
        { stream: EventStreams.chainEvents.stream, consumer: EventStreams.chainEvents.consumer, publish: EventStreams.chainEvents.subject },
      ];
      const [relay, operator] = [await as('relay-tracker'), await as('operator')];
      for (const { stream, consumer } of streams) {
        const republish = JSON.stringify({
          name: stream,
          subjects: ['relay-tracker.>'],
          republish: { src: '>', dest: Events.keySetChanged },
        });
        for (const subject of [
          `$JS.API.STREAM.CREATE.${stream}`,
          `$JS.API.STREAM.UPDATE.${stream}`,
          `$JS.API.STREAM.DELETE.${stream}`,
          `$JS.API.STREAM.PURGE.${stream}`,
          `$JS.API.CONSUMER.CREATE.${stream}.${consumer}`,
          `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${consumer}`,
          '$JS.API.STREAM.CREATE.FORGER',
          '$JS.API.STREAM.NAMES',
        ]) {
          await expect(relay.nc.request(subject, republish, { timeout: 5_000 })).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
        }
        // The operator's step makes and updates them; it neither deletes, purges nor reads their work.
        for (const subject of [
          `$JS.API.STREAM.DELETE.${stream}`,
          `$JS.API.STREAM.PURGE.${stream}`,
          `$JS.API.CONSUMER.MSG.NEXT.${stream}.${consumer}`,
          '$JS.API.STREAM.CREATE.FORGER',
        ]) {
          await expect(operator.nc.request(subject, '{}', { timeout: 5_000 })).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
        }
      }
      for (const user of USERS.filter((u) => u !== 'relay-tracker' && u !== 'operator')) {
        const client = await as(user);
        for (const { stream, consumer, publish } of streams) {
          for (const subject of ['$JS.API.INFO', `$JS.API.STREAM.CREATE.${stream}`, `$JS.API.CONSUMER.MSG.NEXT.${stream}.${consumer}`]) {
            await expect(client.nc.request(subject, '{}', { timeout: 5_000 })).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
          }
          await client.publishRefused(publish);
        }
      }
    });
  });

  describe('over TLS, with a client certificate the server verifies', () => {
    let tlsServer: TestNatsServer;
    let certs: string;
    const tlsBus = (user: User, settings: Record<string, string>, connectTimeoutMs = 5_000) =>
      NatsBus.connect({
        ...natsBusOptions(loadConfig(WithBus(ServiceConfig), { NATS_NKEY_SEED: seeds[user], ...settings }), user),
        connectTimeoutMs,
      });

    beforeAll(async () => {
      certs = mkdtempSync(join(tmpdir(), 'nats-tls-'));
      makeCertificates(certs);
      const file = (name: string) => JSON.stringify(join(certs, name));
      tlsServer = await startServer(publicKeys, [
        `tls { cert_file: ${file('server.crt')}, key_file: ${file('server.key')}, ca_file: ${file('ca.crt')}, verify: true }`,
      ]);
    });

    afterAll(async () => {
      await tlsServer?.remove();
      rmSync(certs, { recursive: true, force: true });
    });

    it('connects with NATS_TLS_CA_FILE and a client certificate, and a request gets its answer', async () => {
      const tls = {
        NATS_URL: tlsServer.url.replace('nats://', 'tls://'),
        NATS_TLS_CA_FILE: join(certs, 'ca.crt'),
        NATS_TLS_CERT_FILE: join(certs, 'client.crt'),
        NATS_TLS_KEY_FILE: join(certs, 'client.key'),
      };
      const registry = await tlsBus('key-registry', tls);
      buses.push(registry);
      registry.subscribe(Subjects.keySetSnapshot, (message) => message.respond?.(encodeReply({ over: 'tls' })), { queue: 'key-registry' });
      await registry.ping();
      const gateway = await tlsBus('swap-gateway', tls);
      buses.push(gateway);
      expect(await new MessagingClient(gateway, { timeoutMs: 5_000 }).request(Subjects.keySetSnapshot, {})).toEqual({ over: 'tls' });
    });

    it('refuses a server whose certificate the CA did not sign, and a client without a certificate', async () => {
      const url = tlsServer.url.replace('nats://', 'tls://');
      // The system's CAs do not know the test CA.
      await expect(
        tlsBus('swap-gateway', {
          NATS_URL: url,
          NATS_TLS_CERT_FILE: join(certs, 'client.crt'),
          NATS_TLS_KEY_FILE: join(certs, 'client.key'),
        }),
      ).rejects.toThrow(/Cannot connect to NATS at .*certificate/);
      // Without a client certificate the server ends the handshake; nats.js notices only at its connect timeout.
      await expect(tlsBus('swap-gateway', { NATS_URL: url, NATS_TLS_CA_FILE: join(certs, 'ca.crt') }, 1_000)).rejects.toThrow(
        /Cannot connect to NATS/,
      );
    });

    it('will not talk in plain text when TLS is asked for, and never shows credentials of the URL', async () => {
      // The server of the tests above offers no TLS: a tls:// URL (or a CA) must not fall back to plain text.
      const plain = server.url.replace('nats://', 'tls://user:hunter2@');
      const error = await tlsBus('swap-gateway', { NATS_URL: plain }).catch((e: unknown) => e as Error);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/^Cannot connect to NATS at tls:\/\/user:\*\*\*@127\.0\.0\.1:\d+: /);
      expect((error as Error).message).not.toContain('hunter2');
      await expect(tlsBus('swap-gateway', { NATS_URL: server.url, NATS_TLS_CA_FILE: join(certs, 'ca.crt') })).rejects.toThrow(
        /Cannot connect to NATS/,
      );
    });
  });
});
