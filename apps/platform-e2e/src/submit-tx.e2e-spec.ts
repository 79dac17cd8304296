import { Events, Subjects } from '@swap/contracts';
import pg from 'pg';
import { MessagingClient, NatsBus, parseSigningKey, RequestSigner } from '@swap/messaging';
import { KeySetCache, mintKey } from '@swap/key-auth';
import {
  eventually,
  jsonOf,
  readEventStream,
  RUN_PREFIX,
  sampleIntent,
  testInfra,
  testSigningKeysEnv,
  uniqueId,
  unusedPort,
  postJson,
} from '@swap/testing';
import { swapGateway } from '../../swap-gateway/src/swap-gateway.definition';
import { KeyStack } from './key-stack';

jest.setTimeout(60_000);

const INTENT = sampleIntent();

describe('submit-tx, status and intent hashing (swaps routes, keys off)', () => {
  const stack = new KeyStack();
  const post = (path: string, body: unknown) => postJson(`${stack.url('swap-gateway')}${path}`, body);
  const body = (over: Record<string, unknown> = {}) => ({
    txHash: `0x${'1'.repeat(64)}`,
    srcChainKey: '0xa4b1.arbitrum',
    walletAddress: INTENT.srcAddress,
    intent: INTENT,
    relayData: '0xbeef',
    ...over,
  });

  beforeAll(() => stack.start());
  afterAll(() => stack.stop());

  it('inserts the first submission of a pair and answers duplicate afterwards, also when submitted concurrently', async () => {
    const first = await post('/v1/swaps/submit-tx', body());
    expect(first).toEqual({ status: 200, body: { success: true, data: { status: 'inserted', message: expect.any(String) } } });
    expect((await post('/v1/swaps/submit-tx', body())).body.data.status).toBe('duplicate');
    const racing = await Promise.all(
      Array.from({ length: 10 }, () => post('/v1/swaps/submit-tx', body({ txHash: `0x${'2'.repeat(64)}` }))),
    );
    expect(racing.filter((r) => r.body.data.status === 'inserted')).toHaveLength(1);
    expect(racing.filter((r) => r.body.data.status === 'duplicate')).toHaveLength(9);
  });

  it('puts a pending swap that lost its work item back on the queue when its submit is retried', async () => {
    const txHash = `0x${'3'.repeat(64)}`;
    expect((await post('/v1/swaps/submit-tx', body({ txHash }))).body.data.status).toBe('inserted');
    // What a replica killed between the insert and the hand-over leaves behind: the row, no work item.
    const sql = new pg.Client({ connectionString: stack.databaseUrl });
    await sql.connect();
    try {
      // Its item may already be worked and gone (a step that failed on an unreachable RPC parks the
      // swap without one): what counts is that a retried submit makes relay-tracker look at it again.
      const state = `SELECT s.status::text AS status, s.version::text AS version,
        (SELECT count(*)::int FROM relay_tracker.work_items w WHERE w.id = s.id::text) AS items
        FROM relay_tracker.submissions s WHERE s.tx_hash = $1`;
      await sql.query(
        `DELETE FROM relay_tracker.work_items w USING relay_tracker.submissions s WHERE s.id::text = w.id AND s.tx_hash = $1`,
        [txHash],
      );
      const lost = (await sql.query(state, [txHash])).rows[0];
      expect(lost).toMatchObject({ status: 'pending', items: 0 });
      expect((await post('/v1/swaps/submit-tx', body({ txHash: txHash.toUpperCase().replace('0X', '0x') }))).body.data.status).toBe(
        'duplicate',
      );
      // Handed back: its item is queued, or already worked (the step moved the row's version on).
      await eventually(
        async () => {
          const now = (await sql.query(state, [txHash])).rows[0];
          return now.items === 1 || BigInt(now.version) > BigInt(lost.version) ? true : undefined;
        },
        10_000,
        50,
      );
      // Its relay data is not answered from the submitter's claim: only once the chain has confirmed it.
      const extra = await post('/v1/swaps/intents/extra-data', { txHash });
      expect(extra).toEqual({
        status: 409,
        body: expect.objectContaining({
          code: 'CONFLICT',
          message: expect.stringContaining(`Transaction ${txHash} is not verified on 0xa4b1.arbitrum yet (status pending)`),
        }),
      });
    } finally {
      await sql.end();
    }
  });

  it('answers a NUL in a query parameter with a 400 naming it, never reaching the database', async () => {
    const res = await fetch(
      `${stack.url('swap-gateway')}/v1/swaps/submit-tx/status?txHash=0x${'1'.repeat(64)}%00&srcChainKey=0xa4b1.arbitrum`,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'txHash must not contain NUL characters (\\u0000)' });
  });

  it('treats the same hash on another chain as another submission', async () => {
    const base = await post('/v1/swaps/submit-tx', body({ srcChainKey: '0x2105.base', intent: { ...INTENT, srcChain: '30' } }));
    expect(base.body.data.status).toBe('inserted');
  });

  it('reports the status of a submission, and 404 for one never submitted', async () => {
    const res = await fetch(
      `${stack.url('swap-gateway')}/v1/swaps/submit-tx/status?txHash=0x${'1'.repeat(64)}&srcChainKey=0xa4b1.arbitrum`,
    );
    const status = await jsonOf(res);
    expect(status.data).toMatchObject({
      status: 'pending',
      txHash: `0x${'1'.repeat(64)}`,
      srcChainKey: '0xa4b1.arbitrum',
      intentHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(status.data.userMessage).toBeUndefined();
    const missing = await fetch(
      `${stack.url('swap-gateway')}/v1/swaps/submit-tx/status?txHash=0x${'9'.repeat(64)}&srcChainKey=0xa4b1.arbitrum`,
    );
    expect(missing.status).toBe(404);
    const unknownChain = await fetch(
      `${stack.url('swap-gateway')}/v1/swaps/submit-tx/status?txHash=0x${'9'.repeat(64)}&srcChainKey=nowhere`,
    );
    expect((await jsonOf(unknownChain)).message).toBe('Unknown chain key: nowhere');
  });

  it('refuses malformed submissions, naming the field and the rule', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ txHash: '0x1234567890abcdef' }, 'txHash must be 0x followed by 64 hex digits on an EVM network'],
      [
        { walletAddress: 'not-an-address' },
        'walletAddress must be a 20-byte hex address on an EVM network (EIP-55 checksummed if mixed case)',
      ],
      [{ intent: { ...INTENT, srcChain: '30' } }, 'intent.srcChain must be 23, the relay chain id of 0xa4b1.arbitrum'],
      [
        { intent: { ...INTENT, inputAmount: '1e6' } },
        'intent.inputAmount must be a non-negative integer in a decimal string, at most 2^256 - 1',
      ],
      [
        { intent: { ...INTENT, creator: '0x4fc1a3B9c2F4A1b8D1e5E6f7a8B9c0D1E2f3a4B5' } },
        'intent.creator must be a 20-byte hex address (0x and 40 hex digits, EIP-55 checksummed if mixed case)',
      ],
      [{ relayData: 'dead' }, 'relayData must be the 0x-hex payload of the build response relayData'],
      [{ partnerFee: { percentage: 10 } }, 'property partnerFee should not exist'],
    ];
    for (const [over, message] of cases) {
      const res = await post('/v1/swaps/submit-tx', body(over));
      expect({ over, status: res.status, message: res.body.message }).toEqual({ over, status: 400, message });
    }
    // An unknown chain is a problem of the body like the others, reported with them.
    const unknown = await post('/v1/swaps/submit-tx', body({ srcChainKey: '0x1.nowhere', relayData: 'dead' }));
    expect(unknown).toEqual({
      status: 400,
      body: expect.objectContaining({
        code: 'VALIDATION_FAILED',
        details: [
          expect.objectContaining({ field: 'relayData', rule: 'matches' }),
          expect.objectContaining({ field: 'srcChainKey', rule: 'knownChain' }),
        ],
      }),
    });
  });

  it('hashes an intent as keccak256(abi.encode(intent)), and refuses values beyond uint256', async () => {
    const hash = await post('/v1/swaps/intents/hash', { intent: INTENT });
    expect(hash.body.hash).toMatch(/^0x[0-9a-f]{64}$/);
    const status = await fetch(
      `${stack.url('swap-gateway')}/v1/swaps/submit-tx/status?txHash=0x${'1'.repeat(64)}&srcChainKey=0xa4b1.arbitrum`,
    ).then(jsonOf);
    expect(status.data.intentHash).toBe(hash.body.hash);
    const tooBig = await post('/v1/swaps/intents/hash', { intent: { ...INTENT, intentId: (2n ** 256n).toString() } });
    expect(tooBig.status).toBe(400);
  });

  it('limits submit-tx per wallet (new submissions) and per client (every request), shared by replicas, with Retry-After and RateLimit headers', async () => {
    const env = { SUBMIT_LIMIT_PER_CLIENT: '6', SUBMIT_LIMIT_PER_WALLET: '2', CACHE_KEY_PREFIX: uniqueId('limits') };
    const replicas = [await stack.add(swapGateway, env, undefined, 'limited-a'), await stack.add(swapGateway, env, undefined, 'limited-b')];
    let turn = 0;
    const hash = (n: number) => `0x${'c'.repeat(63)}${n}`;
    const send = async (over: Record<string, unknown>, headers: Record<string, string>) => {
      const res = await fetch(`${replicas[turn++ % 2].url}/v1/swaps/submit-tx`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body(over)),
      });
      return { status: res.status, headers: res.headers, body: await jsonOf(res) };
    };
    // The test runs on loopback, which swap-gateway trusts as its proxy: X-Forwarded-For names the client.
    const client1 = { 'x-forwarded-for': '198.51.100.1' };

    const first = await send({ txHash: hash(1) }, client1);
    expect(first.body.data.status).toBe('inserted');
    expect(first.headers.get('ratelimit-policy')).toBe('"client";q=6;w=60, "wallet";q=2;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"client";r=5;t=(59|60), "wallet";r=1;t=(59|60)$/);
    expect((await send({ txHash: hash(2) }, client1)).headers.get('ratelimit')).toMatch(/"wallet";r=0;/);

    const third = await send({ txHash: hash(3) }, client1);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: expect.stringMatching(/^Too many new submissions from this walletAddress: at most 2 every 60 s; retry after \d+ s$/),
    });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same wallet in lower case, from another client: the same wallet.
    expect(
      (await send({ txHash: hash(4), walletAddress: INTENT.srcAddress.toLowerCase() }, { 'x-forwarded-for': '198.51.100.2' })).status,
    ).toBe(429);
    // A swap already tracked is a duplicate, not a new submission: it passes the wallet limit.
    expect((await send({ txHash: hash(1) }, client1)).body.data.status).toBe('duplicate');

    // client1 has sent 4 requests: two more pass (duplicates count per client), the next is refused.
    for (let i = 0; i < 2; i++) expect((await send({ txHash: hash(1) }, client1)).status).toBe(200);
    const over = await send({ txHash: hash(1) }, client1);
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/^Too many submit-tx requests from this client: at most 6 every 60 s/);
    expect(over.headers.get('ratelimit')).toMatch(/^"client";r=0;t=\d+$/);
    expect((await send({ txHash: hash(1) }, { 'x-forwarded-for': '198.51.100.3' })).status).toBe(200);
    expect(stack.logs.where((l) => l.level === 'error')).toEqual([]);
  });

  it('counts a validated API key as one client whatever its address, and lets requests through uncounted without Redis', async () => {
    const env = { SUBMIT_LIMIT_PER_CLIENT: '3', SUBMIT_LIMIT_PER_WALLET: '100', CACHE_KEY_PREFIX: uniqueId('limits') };
    const keyed = await stack.add(swapGateway, env, undefined, 'limited-keyed');
    const orgId = (await stack.ops('key-registry', 'POST', '/ops/organisations', { name: 'Limited' })).body.id;
    const key: string = (await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/keys`, { name: 'limits' })).body.key;
    await eventually(() => keyed.app.get(KeySetCache).check(key, 'swaps:write').outcome === 'ok', 5_000);
    const send = (ip: string, headers: Record<string, string> = {}, url = keyed.url) =>
      fetch(`${url}/v1/swaps/submit-tx`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...headers },
        body: JSON.stringify(body()),
      });
    const statuses = [];
    for (let i = 1; i <= 4; i++) statuses.push((await send(`203.0.113.${i}`, { 'x-api-key': key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // An unknown key is no key: its requests count against the address.
    expect((await send('203.0.113.1', { 'x-api-key': 'sk_unknown' })).status).toBe(200);

    const noRedis = await stack.add(
      swapGateway,
      { ...env, REDIS_URL: `redis://127.0.0.1:${await unusedPort()}` },
      undefined,
      'limited-no-redis',
    );
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await send('203.0.113.9', {}, noRedis.url));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0].headers.get('ratelimit')).toBeNull();
    const ready = await fetch(`${noRedis.adminUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect((await jsonOf(ready)).checks.redis).toMatchObject({ status: 'down', optional: true });
    expect(await (await fetch(`${noRedis.adminUrl}/metrics`)).text()).toMatch(/submit_rate_limit_unavailable_total\{[^}]*\} 10/);
  });

  it('answers 502 RELAY_UNAVAILABLE when the relay API cannot be reached, and validates before asking it', async () => {
    const down = await post('/v1/swaps/intents/submit', { chainId: '0xa4b1.arbitrum', txHash: `0x${'1'.repeat(64)}` });
    expect(down).toEqual({
      status: 502,
      body: expect.objectContaining({ code: 'RELAY_UNAVAILABLE', message: 'The relay API is unavailable; try again shortly' }),
    });
    const packet = await post('/v1/swaps/intents/packet', { chainId: '23', fillTxHash: `0x${'1'.repeat(64)}` });
    expect(packet.status).toBe(502);
    const solana = await post('/v1/swaps/intents/submit', { chainId: 'solana', txHash: '5'.repeat(88) });
    expect(solana).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'data (the build response relayData) is required for a solana transaction' }),
    });
  });

  it('streams a submission from either of two swap-gateway replicas: each hears every transition, fills a gap from relay-tracker, resumes on the other', async () => {
    const second = await stack.add(swapGateway, {}, undefined, 'swap-gateway-2');
    const txHash = `0x${'5'.repeat(64)}`;
    expect((await post('/v1/swaps/submit-tx', body({ txHash }))).body.data.status).toBe('inserted');
    const path = `/v1/swaps/submit-tx/events?txHash=${txHash}&srcChainKey=0xa4b1.arbitrum`;
    // One stream on each replica; each has replayed the first entry before anything moves.
    const seen: Record<string, number> = { one: 0, two: 0 };
    const follow = (url: string, who: string) =>
      readEventStream(`${url}${path}`, { timeoutMs: 20_000, until: (r) => ((seen[who] = r.events.length), false) });
    const reads = [follow(stack.url('swap-gateway'), 'one'), follow(second.url, 'two')];
    await eventually(() => (seen.one === 1 && seen.two === 1 ? true : undefined), 10_000, 20);

    // What relay-tracker does for a transition, by hand: the history grows (the trigger keeps the
    // event), then it is announced. The second is never announced (lost on the bus); the third is.
    const sql = new pg.Client({ connectionString: stack.databaseUrl });
    const bus = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'relay-tracker-like', subjectPrefix: RUN_PREFIX });
    const announce = new MessagingClient(bus, { timeoutMs: 2_000 });
    await sql.connect();
    try {
      const move = async (status: string, detail: string, announced: boolean) => {
        const { rows } = await sql.query<{ history: { status: string; at: string; detail: string }[] }>(
          `UPDATE relay_tracker.submissions SET status = $2::relay_tracker."SubmissionStatus", history = history || $3::jsonb,
             user_message = CASE WHEN $2 = 'failed' THEN 'test failure' END, failed_at_step = CASE WHEN $2 = 'failed' THEN 'relayed' END
           WHERE tx_hash = $1 RETURNING history`,
          [txHash, status, JSON.stringify([{ status, at: new Date().toISOString(), detail }])],
        );
        const history = rows[0].history;
        if (!announced) return;
        const data = { txHash, srcChainKey: '0xa4b1.arbitrum', status, history, terminal: status === 'failed' } as never;
        announce.emit(Events.submissionTransitioned, {
          txHash,
          srcChainKey: '0xa4b1.arbitrum',
          intentHash: '',
          from: history.at(-2)!.status,
          terminal: status === 'failed',
          seq: history.length,
          status: status as never,
          data,
        });
      };
      await move('relaying', 'handed to the relay', true);
      await eventually(() => (seen.one === 2 && seen.two === 2 ? true : undefined), 10_000, 20);
      await move('relayed', 'delivered to the hub', false);
      await move('failed', 'refused', true);
      const [one, two] = await Promise.all(reads);
      for (const read of [one, two]) {
        expect(read.ended).toBe(true);
        expect(read.events.map((e) => `${e.id}:${e.event}`)).toEqual(['1:pending', '2:relaying', '3:relayed', '4:failed']);
      }
      // The missing third came from relay-tracker's store: the answer as it was then.
      expect(JSON.parse(one.events[2].data)).toMatchObject({ status: 'relayed', history: [{}, {}, {}], terminal: false });
      // A client of the first replica resumes on the second: only what it missed, then 204 once done.
      const resumed = await readEventStream(`${second.url}${path}`, { headers: { 'last-event-id': '2' }, timeoutMs: 10_000 });
      expect(resumed.events.map((e) => e.id)).toEqual(['3', '4']);
      expect((await fetch(`${stack.url('swap-gateway')}${path}`, { headers: { 'last-event-id': '4' } })).status).toBe(204);
    } finally {
      await sql.end();
      await bus.close();
    }
  });

  it('answers key-registry operations over NATS with typed replies and validation errors', async () => {
    const bus = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'portal-like-client', subjectPrefix: RUN_PREFIX });
    // Signed as partner-portal-api signs them (PORTAL_SIGNING_KEY): key-registry serves no other.
    const signer = new RequestSigner(parseSigningKey(testSigningKeysEnv.PORTAL_SIGNING_KEY));
    const client = new MessagingClient(bus, { timeoutMs: 2_000, signers: { portal: signer } });
    try {
      const org = await client.request(Subjects.orgCreate, { name: 'Over NATS', actor: 'user:1' });
      // The caller mints the key; only its hash and display prefix cross the bus.
      const minted = mintKey('portal');
      const created = await client.request(Subjects.keyCreate, {
        orgId: org.id,
        name: 'ci',
        keyHash: minted.hash,
        prefix: minted.displayPrefix,
        actor: 'user:1',
      });
      expect(created).toEqual({ apiKey: expect.objectContaining({ prefix: minted.displayPrefix, name: 'ci' }) });
      const { payload: snapshot } = await client.request(Subjects.keySetSnapshot, {});
      expect(snapshot.version).toBeGreaterThan(1);
      expect(snapshot.keys.find((k) => k.keyId === created.apiKey.id)).toEqual({
        hash: minted.hash,
        keyId: created.apiKey.id,
        orgId: org.id,
        scopes: ['swaps:read', 'swaps:write'],
        suspended: false,
      });
      const error = await client
        .request(Subjects.keyCreate, {
          orgId: org.id,
          name: 'y'.repeat(65),
          keyHash: minted.hash,
          prefix: minted.displayPrefix,
          actor: 'user:1',
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'name must be at most 64 characters' });
      // An organisation name follows the rule of the portal and the ops route (64 characters), not a looser one.
      const longOrg = await client.request(Subjects.orgCreate, { name: 'o'.repeat(65), actor: 'user:1' }).catch((e: unknown) => e);
      expect(longOrg).toMatchObject({ code: 'VALIDATION_FAILED', message: 'name must be at most 64 characters' });
      const plain = await client
        .request(Subjects.keyCreate, {
          orgId: org.id,
          name: 'x',
          keyHash: minted.key,
          prefix: minted.displayPrefix,
          actor: 'user:1',
        } as never)
        .catch((e: unknown) => e);
      expect(plain).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'keyHash must be the SHA-256 of the key: 64 lower-case hex digits',
      });
      const missing = await client
        .request(Subjects.keyRevoke, { orgId: org.id, keyId: '00000000-0000-0000-0000-000000000000', actor: 'user:1' })
        .catch((e: unknown) => e);
      expect(missing).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await bus.close();
    }
  });
});
