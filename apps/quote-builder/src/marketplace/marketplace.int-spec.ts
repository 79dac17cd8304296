import { Events } from '@swap/contracts';
import { NatsBus } from '@swap/messaging';
import { migrateService, startServiceFromEnv, type RunningService } from '@swap/service-kit';
import { createTestDatabase, eventually, jsonOf, RUN_PREFIX, testInfra, testServiceEnv } from '@swap/testing';
import pg from 'pg';
import WebSocket from 'ws';
import { quoteBuilder } from '../quote-builder.definition';
import { SolverConnections } from './solver-connections';

jest.setTimeout(30_000);

/** Mainnet hub assets (USDC, WETH): known to the chain catalog, no chain read needed to quote them. */
const USDC = '0x29219dd400f2Bf60E5a23d13Be72B486D4038894';
const WETH = '0x50c42dEAcD8Fc9773493ED674b675bE577f2634b';
// Generous: the replicas, the solvers and the test share one event loop on a busy 2-core CI machine.
const DEADLINE_MS = 1_000;

type Frame = Record<string, unknown> & { type: string };
type Behaviour = (frame: Frame, solver: FakeSolver) => void;

/** An outside solver over the real marketplace connection; `behaviour` answers what it is sent. */
class FakeSolver {
  ws!: WebSocket;
  readonly frames: Frame[] = [];
  closed!: Promise<{ code: number; reason: string }>;
  constructor(
    readonly name: string,
    readonly credential: string,
    private readonly behaviour: Behaviour = () => undefined,
    private readonly heartbeats = true,
  ) {}

  connect(base: string): Promise<{ status: number; body?: string }> {
    this.ws = new WebSocket(`${base.replace('http', 'ws')}/v1/intent/solvers/connect`, {
      headers: { authorization: `Bearer ${this.credential}` },
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      if (frame.type === 'heartbeat' && this.heartbeats) this.send({ type: 'heartbeat' });
      this.behaviour(frame, this);
    });
    return new Promise((resolve) => {
      this.ws.once('open', () => resolve({ status: 101 }));
      this.ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
    });
  }

  send(frame: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  rfqs(): Frame[] {
    return this.frames.filter((f) => f.type === 'rfq');
  }

  close(): Promise<unknown> {
    this.ws.close();
    return this.closed;
  }
}

const quotes =
  (amount: string, afterMs: number): Behaviour =>
  (frame, solver) => {
    if (frame.type === 'rfq') setTimeout(() => solver.send({ type: 'quote', rfq_id: frame.rfq_id, quoted_amount: amount }), afterMs);
  };

describe('the solver marketplace across two quote-builder replicas over the real NATS', () => {
  let db: { url: string; drop: () => Promise<void> };
  let a: RunningService;
  let b: RunningService;
  const solvers: Record<string, FakeSolver> = {};
  const ids: Record<string, string> = {};

  const ops = async (replica: RunningService, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${replica.url}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await jsonOf(res) };
  };
  const quote = async (
    replica: RunningService,
    body: unknown = { token_src: USDC, token_dst: WETH, amount: '1000000', quote_type: 'exact_input' },
  ) => {
    const started = Date.now();
    const res = await fetch(`${replica.url}/v1/intent/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await jsonOf(res), ms: Date.now() - started };
  };
  const register = async (name: string, behaviour?: Behaviour, heartbeats = true) => {
    const { body } = await ops(a, 'POST', '/ops/solvers', { name });
    ids[name] = body.solver.id;
    solvers[name] = new FakeSolver(name, body.credential, behaviour, heartbeats);
    return solvers[name];
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrateService(db.url, quoteBuilder);
    const env = testServiceEnv({
      DATABASE_URL: db.url,
      RFQ_DEADLINE_MS: String(DEADLINE_MS),
      SOLVER_HEARTBEAT_MS: '400',
      EXCLUSIVITY_MS: '0',
    });
    a = await startServiceFromEnv(quoteBuilder, env);
    b = await startServiceFromEnv(quoteBuilder, env);
    // Connected to either replica: an RFQ must reach each wherever it is.
    expect((await (await register('fast', quotes('1000', 5))).connect(a.url)).status).toBe(101);
    expect((await (await register('slow-best', quotes('1500', 60))).connect(b.url)).status).toBe(101);
    expect((await (await register('too-late', quotes('9999', DEADLINE_MS + 150))).connect(a.url)).status).toBe(101);
    const garbage: Behaviour = (frame, solver) => {
      if (frame.type !== 'rfq') return;
      solver.send('this is not json');
      solver.send({ type: 'quote', rfq_id: frame.rfq_id, quoted_amount: '1e30' });
    };
    expect((await (await register('garbage', garbage)).connect(b.url)).status).toBe(101);
    expect((await (await register('leaver', (frame, solver) => frame.type === 'rfq' && solver.ws.close())).connect(b.url)).status).toBe(
      101,
    );
  });

  afterAll(async () => {
    for (const s of Object.values(solvers)) if (s.ws.readyState === WebSocket.OPEN) await s.close();
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it('refuses a connection without a valid credential before the upgrade', async () => {
    const stranger = new FakeSolver('stranger', 'slv_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    const refused = await stranger.connect(a.url);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body!)).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Invalid solver credential (unknown, suspended or removed)',
    });
  });

  it('asks every solver at once on both replicas; the best valid answer wins; late, garbage and departed ones count for nothing', async () => {
    const res = await quote(a);
    expect(res.status).toBe(200);
    expect(res.body.quoted_amount).toBe('1500');
    // The too-late solver keeps the RFQ open until the deadline, and not beyond it: its
    // answer is counted as missed (below). The wall-time bound only says it never hangs: a
    // busy 2-core CI machine answered a 250 ms deadline in 766 ms once (speed is for benchmarks).
    expect(res.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 10);
    expect(res.ms).toBeLessThan(DEADLINE_MS + 2_000);
    for (const name of ['fast', 'slow-best', 'too-late', 'garbage', 'leaver'])
      expect({ name, asked: solvers[name].rfqs().length }).toEqual({ name, asked: 1 });
    expect(solvers.garbage.frames.filter((f) => f.type === 'error').map((f) => f.message)).toEqual([
      'frames are JSON objects sent as text',
      'quoted_amount must be a positive integer in a decimal string',
    ]);

    const recorded = await ops(b, 'GET', `/ops/quotes/${res.body.quote_uuid}`);
    expect(recorded.body).toMatchObject({
      hubTokenSrc: USDC,
      hubTokenDst: WETH,
      hubAmountIn: '1000000',
      hubQuotedAmount: '1500',
      solver: 'slow-best',
    });
    const parts = Object.fromEntries((recorded.body.answers as { solver: string }[]).map((x) => [x.solver, x]));
    expect(parts).toMatchObject({
      fast: { quotedAmount: '1000' },
      'slow-best': { quotedAmount: '1500' },
      'too-late': { missed: 'late' },
      garbage: { missed: 'invalid' },
      leaver: { missed: 'disconnected' },
    });
    expect(Date.parse(recorded.body.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('decides as soon as the slowest in-time solver has answered when everyone answers', async () => {
    await solvers['too-late'].close();
    await solvers.garbage.close();
    const res = await quote(b);
    expect(res.body.quoted_amount).toBe('1500');
    expect(res.ms).toBeLessThan(DEADLINE_MS);
  });

  it('closes no connection for a forged suspension on the bus: the database says the solver is active', async () => {
    const connections = b.app.get(SolverConnections);
    const rechecked = new Promise<void>((resolve) => {
      const recheck = connections.recheck.bind(connections);
      jest.spyOn(connections, 'recheck').mockImplementationOnce((...args) => recheck(...args).finally(resolve));
    });
    const rogue = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'rogue', subjectPrefix: RUN_PREFIX });
    try {
      rogue.publish(Events.solverChanged, JSON.stringify({ solverId: ids['slow-best'], status: 'suspended' }));
      await rechecked;
    } finally {
      await rogue.close();
    }
    // Still connected: its better price wins (a closed connection would leave fast's 1000).
    expect((await quote(a)).body.quoted_amount).toBe('1500');
  });

  it('gives a suspended solver no more requests: its connections close and it cannot reconnect', async () => {
    const slow = solvers['slow-best'];
    const asked = slow.rfqs().length;
    expect((await ops(a, 'POST', `/ops/solvers/${ids['slow-best']}/suspend`)).body.status).toBe('suspended');
    expect(await slow.closed).toEqual({ code: 4403, reason: 'solver suspended' });
    expect((await slow.connect(b.url)).status).toBe(401);
    const res = await quote(a);
    expect(res.body.quoted_amount).toBe('1000');
    expect(slow.rfqs()).toHaveLength(asked);
  });

  it('says no solver can route the pair (-4) or has the liquidity (-5), in the solver API’s error shape', async () => {
    const decliner = await register(
      'decliner',
      (frame, solver) =>
        frame.type === 'rfq' && solver.send({ type: 'decline', rfq_id: frame.rfq_id, code: Number(frame.amount) > 5_000_000 ? -5 : -4 }),
    );
    await decliner.connect(b.url);
    await solvers.fast.close();
    const noRoute = await quote(a);
    expect([noRoute.status, noRoute.body]).toEqual([422, { detail: { code: -4, message: 'No solver can route this pair' } }]);
    const noLiquidity = await quote(a, { token_src: USDC, token_dst: WETH, amount: '9000000', quote_type: 'exact_input' });
    expect([noLiquidity.status, noLiquidity.body.detail.code]).toEqual([422, -5]);
    await decliner.close();
  });

  it('with no solver connected answers 503 (-16) at once, never a hang', async () => {
    const res = await quote(b);
    expect([res.status, res.body.detail.code]).toEqual([503, -16]);
    expect(res.ms).toBeLessThan(DEADLINE_MS);
  });

  it('refuses bad bodies naming the field, and unknown hub assets as no path', async () => {
    const bad = await quote(a, { token_src: USDC, token_dst: WETH, amount: '0', quote_type: 'exact_output' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toEqual({
      code: -999,
      message:
        'amount must be greater than zero, written without leading zeros; quote_type must be exact_input (the only supported quote type)',
    });
    const unknown = await quote(a, {
      token_src: '0x000000000000000000000000000000000000dEaD',
      token_dst: WETH,
      amount: '5',
      quote_type: 'exact_input',
    });
    expect([unknown.status, unknown.body.detail.code]).toEqual([422, -4]);
  });

  it('answers every error under /v1/intent in the solver API shape: unreadable bodies and unknown paths too', async () => {
    const raw = async (path: string, body: string) => {
      const res = await fetch(`${a.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return { status: res.status, body: await jsonOf(res), requestId: res.headers.get('x-request-id') };
    };
    expect(await raw('/v1/intent/quote', '{not json')).toMatchObject({
      status: 400,
      body: { detail: { code: -999, message: 'Request body is not valid JSON' } },
    });
    const unknown = await raw('/v1/intent/nowhere', '{}');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail.code).toBe(-999);
    expect(unknown.requestId).toBeTruthy();
    // Addresses in all capitals carry no checksum and are accepted; a wrong mixed-case one is refused.
    expect(
      (await quote(a, { token_src: USDC.toUpperCase().replace('0X', '0x'), token_dst: WETH, amount: '5', quote_type: 'exact_input' }))
        .status,
    ).not.toBe(400);
    const typo = await quote(a, { token_src: USDC.replace('29219dd', '29219Dd'), token_dst: WETH, amount: '5', quote_type: 'exact_input' });
    expect([typo.status, typo.body.detail.message]).toEqual([
      400,
      'token_src must be a 20-byte hex address (0x and 40 hex digits, EIP-55 checksummed if mixed case)',
    ]);
  });

  it('drops a solver that stops answering heartbeats', async () => {
    const silent = await register('silent', undefined, false);
    await silent.connect(a.url);
    const closed = await silent.closed;
    expect(closed.code).toBe(4408);
    await eventually(
      async () => (await ops(a, 'GET', '/ops/solvers')).body.find((s: { name: string }) => s.name === 'silent').connected === 0,
    );
  });

  it('offers an intent again while it stays open, its quote’s winner too: a hand-over lost on the bus strands nothing', async () => {
    const late = await register('late');
    await late.connect(b.url);
    await eventually(() => late.frames.some((f) => f.type === 'welcome'));
    // Won by `late`'s quote, opened to all a minute ago, every hand-over lost (no frame reached a solver); still open, deadline ahead.
    // Posted by an execute inside a trace: the offer made again carries that trace too.
    const intentHash = `0x${'ab'.repeat(32)}`;
    const traceparent = `00-${'1f'.repeat(16)}-${'2e'.repeat(8)}-01`;
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    try {
      await sql.query(
        `INSERT INTO quote_builder.executions
           (intent_hash, intent_tx_hash, intent, deadline, status, exclusive_solver, exclusive_until, opened_to_all_at, updated_at, trace_parent)
         VALUES ($1, $2, '{"intentId":"1"}', $3, 'posted', $4, now() - interval '61 seconds', now() - interval '1 minute', now(), $5)`,
        [intentHash, `0x${'cd'.repeat(32)}`, Math.floor(Date.now() / 1000) + 3600, ids.late, traceparent],
      );
      await eventually(() => late.frames.some((f) => f.type === 'execute' && f.intent_hash === intentHash), 10_000, 50);
      expect(late.frames.find((f) => f.type === 'execute' && f.intent_hash === intentHash)).toMatchObject({ traceparent });
      const { rows } = await sql.query(
        `SELECT now() - opened_to_all_at < interval '10 seconds' AS recent FROM quote_builder.executions WHERE intent_hash = $1`,
        [intentHash],
      );
      expect(rows).toEqual([{ recent: true }]);
    } finally {
      await sql.query(`DELETE FROM quote_builder.executions WHERE intent_hash = $1`, [intentHash]);
      await sql.end();
      await late.close();
    }
  });
});
