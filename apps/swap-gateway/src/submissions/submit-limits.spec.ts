import { MemoryCache } from '@swap/cache';
import { AppError, type KeySetEntry } from '@swap/contracts';
import { hashKey, KeySetCache } from '@swap/key-auth';
import { ServiceMetrics } from '@swap/observability';
import type { Cache } from '@swap/service-kit';
import pino from 'pino';
import { FakeReply, fakeRequest } from '../testing/gateway-doubles';
import type { SwapGatewayConfig } from '../swap-gateway.config';
import { SubmitLimits } from './submit-limits';

/*
 * The submit-tx limits on their own: fixed windows counted in a memory cache whose clock the
 * spec moves, the key set held in memory, metrics and logs read back. No HTTP, no Redis.
 */

const KEY = 'svc_limitsSpecKeyAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const READ_ONLY_KEY = 'svc_limitsSpecReadOnlyBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
const SUSPENDED_KEY = 'svc_limitsSpecSuspendedCCCCCCCCCCCCCCCCCCCCCCCCCCC';
const entry = (key: string, keyId: string, over: Partial<KeySetEntry> = {}): KeySetEntry => ({
  hash: hashKey(key),
  keyId,
  orgId: 'org-1',
  scopes: ['swaps:read', 'swaps:write'],
  suspended: false,
  ...over,
});

/** The limits the spec runs with: 3 requests per client, 2 new submissions per wallet, a minute. */
const LIMITS = { SUBMIT_LIMIT_PER_CLIENT: 3, SUBMIT_LIMIT_PER_WALLET: 2, SUBMIT_LIMIT_WINDOW_MS: 60_000 };
const POLICY = '"client";q=3;w=60, "wallet";q=2;w=60';

interface Setup {
  limits: SubmitLimits;
  metrics: ServiceMetrics;
  logs: Record<string, unknown>[];
  /** The cache's clock, in ms. */
  clock: { now: number };
}

function setup(options: { cache?: Cache; config?: Partial<typeof LIMITS> } = {}): Setup {
  const clock = { now: 1_000_000 };
  const logs: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const keys = new KeySetCache({
    name: 'portal',
    source: { ordering: 'newer-only', pull: async () => undefined },
    refreshMs: 15_000,
    logger,
  });
  keys.offer({
    epoch: 1,
    version: 1,
    keys: [
      entry(KEY, 'key-1'),
      entry(READ_ONLY_KEY, 'key-ro', { scopes: ['swaps:read'] }),
      entry(SUSPENDED_KEY, 'key-sus', { suspended: true }),
    ],
    modes: { swaps: 'enforce' },
  });
  logs.length = 0; // the 'key set loaded' line
  const metrics = new ServiceMetrics('swap-gateway', { defaultMetrics: false });
  const cache = options.cache ?? new MemoryCache({ namespace: 'swap-gateway', now: () => clock.now });
  const config = { ...LIMITS, ...options.config } as SwapGatewayConfig;
  return { limits: new SubmitLimits(cache, logger, keys, config, metrics), metrics, logs, clock };
}

async function counter(metrics: ServiceMetrics, name: string): Promise<{ labels: object; value: number }[]> {
  const metric = metrics.registry.getSingleMetric(name);
  return ((await metric!.get()).values as { labels: object; value: number }[]).map(({ labels, value }) => ({ labels, value }));
}

/** An isTracked that fails the test if it is called. */
function neverAsked(why: string): () => Promise<boolean> {
  return async () => {
    throw new Error(why);
  };
}

/** Runs `fn` and answers its AppError as its body with the reply's headers, or 'passed'. */
async function outcome(
  fn: () => Promise<unknown>,
  reply: FakeReply,
): Promise<{ error: unknown; headers: Record<string, string> } | 'passed'> {
  try {
    await fn();
    return 'passed';
  } catch (error) {
    return { error: error instanceof AppError ? error.toBody() : error, headers: reply.headers };
  }
}

describe('SubmitLimits: per client (every request)', () => {
  it('counts every request of an address in a fixed window, and refuses the one past the limit with 429, Retry-After and the RateLimit fields', async () => {
    const { limits, metrics, clock } = setup();
    const replies: FakeReply[] = [];
    for (let i = 0; i < 3; i++) {
      const reply = new FakeReply();
      await limits.admitClient(fakeRequest('198.51.100.7'), reply.asFastify);
      replies.push(reply);
      clock.now += 1_000;
    }
    expect(replies.map((r) => r.headers)).toEqual([
      { 'ratelimit-policy': POLICY, ratelimit: '"client";r=2;t=60' },
      { 'ratelimit-policy': POLICY, ratelimit: '"client";r=1;t=59' },
      { 'ratelimit-policy': POLICY, ratelimit: '"client";r=0;t=58' },
    ]);

    // 45.5 s into the window, 14.5 s are left: the answer says 15.
    clock.now = 1_000_000 + 45_500;
    const refused = new FakeReply();
    expect(await outcome(() => limits.admitClient(fakeRequest('198.51.100.7'), refused.asFastify), refused)).toEqual({
      error: {
        statusCode: 429,
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many submit-tx requests from this client: at most 3 every 60 s; retry after 15 s',
      },
      headers: { 'ratelimit-policy': POLICY, ratelimit: '"client";r=0;t=15', 'retry-after': '15' },
    });
    expect(await counter(metrics, 'submit_rate_limited_total')).toEqual([{ labels: { policy: 'client' }, value: 1 }]);

    // Another address has its own counter; the window ends and the address starts again.
    await expect(limits.admitClient(fakeRequest('198.51.100.8'), new FakeReply().asFastify)).resolves.toBeUndefined();
    clock.now = 1_000_000 + 60_000;
    const fresh = new FakeReply();
    await limits.admitClient(fakeRequest('198.51.100.7'), fresh.asFastify);
    expect(fresh.headers.ratelimit).toBe('"client";r=2;t=60');
  });

  it('says Retry-After 1 rather than 0 in the last second of a window', async () => {
    const { limits, clock } = setup({ config: { SUBMIT_LIMIT_PER_CLIENT: 1 } });
    await limits.admitClient(fakeRequest('198.51.100.7'), new FakeReply().asFastify);
    clock.now += 59_800;
    const reply = new FakeReply();
    expect(await outcome(() => limits.admitClient(fakeRequest('198.51.100.7'), reply.asFastify), reply)).toMatchObject({
      headers: { 'retry-after': '1', ratelimit: '"client";r=0;t=1' },
    });
  });

  it('rounds a window that is not whole seconds up in the policy and the messages', async () => {
    const { limits } = setup({ config: { SUBMIT_LIMIT_PER_CLIENT: 1, SUBMIT_LIMIT_WINDOW_MS: 1_500 } });
    const reply = new FakeReply();
    await limits.admitClient(fakeRequest('198.51.100.7'), reply.asFastify);
    expect(reply.headers).toEqual({ 'ratelimit-policy': '"client";q=1;w=2, "wallet";q=2;w=2', ratelimit: '"client";r=0;t=2' });
    const refused = new FakeReply();
    expect(await outcome(() => limits.admitClient(fakeRequest('198.51.100.7'), refused.asFastify), refused)).toMatchObject({
      error: { message: 'Too many submit-tx requests from this client: at most 1 every 2 s; retry after 2 s' },
    });
  });

  it('names the client by the API key when it validates with the submit-tx scope, by the address otherwise', () => {
    const { limits } = setup();
    const clientOf = (headers: Record<string, string | string[]>) => limits.clientOf(fakeRequest('203.0.113.5', headers));
    expect({
      valid: clientOf({ 'x-api-key': KEY }),
      none: clientOf({}),
      empty: clientOf({ 'x-api-key': '' }),
      unknown: clientOf({ 'x-api-key': 'svc_unknownDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD' }),
      withoutWriteScope: clientOf({ 'x-api-key': READ_ONLY_KEY }),
      suspended: clientOf({ 'x-api-key': SUSPENDED_KEY }),
      twoHeaders: clientOf({ 'x-api-key': [KEY, KEY] }),
    }).toEqual({
      valid: 'key:key-1',
      none: 'ip:203.0.113.5',
      empty: 'ip:203.0.113.5',
      unknown: 'ip:203.0.113.5',
      withoutWriteScope: 'ip:203.0.113.5',
      suspended: 'ip:203.0.113.5',
      twoHeaders: 'ip:203.0.113.5',
    });
  });

  it('counts a validated key as one client whatever address it comes from', async () => {
    const { limits } = setup();
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      await limits.admitClient(fakeRequest(ip, { 'x-api-key': KEY }), new FakeReply().asFastify);
    const reply = new FakeReply();
    expect(await outcome(() => limits.admitClient(fakeRequest('203.0.113.4', { 'x-api-key': KEY }), reply.asFastify), reply)).toMatchObject(
      { error: { statusCode: 429 } },
    );
    // The address itself has sent nothing on its own account.
    const byAddress = new FakeReply();
    await limits.admitClient(fakeRequest('203.0.113.4'), byAddress.asFastify);
    expect(byAddress.headers.ratelimit).toBe('"client";r=2;t=60');
  });
});

describe('SubmitLimits: per wallet (new submissions)', () => {
  const notAsked = neverAsked('isTracked must not be asked under the limit');

  it('reports the wallet beside the client, and gives a count back when asked', async () => {
    const { limits } = setup();
    const reply = new FakeReply();
    await limits.admitClient(fakeRequest('198.51.100.7'), reply.asFastify);
    const giveBack = await limits.reserveWallet('0xabc', reply.asFastify, notAsked);
    expect(reply.headers).toEqual({ 'ratelimit-policy': POLICY, ratelimit: '"client";r=2;t=60, "wallet";r=1;t=60' });

    await giveBack();
    const again = new FakeReply();
    await limits.reserveWallet('0xabc', again.asFastify, notAsked);
    expect(again.headers.ratelimit).toBe('"wallet";r=1;t=60');
  });

  it('past the limit, lets a swap already tracked through (a duplicate, not a new submission) and refuses an untracked one', async () => {
    const { limits, metrics } = setup();
    const placed: (() => Promise<void>)[] = [];
    for (let i = 0; i < 2; i++) placed.push(await limits.reserveWallet('0xabc', new FakeReply().asFastify, notAsked));

    const tracked = new FakeReply();
    let asked = 0;
    const noop = await limits.reserveWallet('0xabc', tracked.asFastify, async () => (asked++, true));
    expect(asked).toBe(1);
    expect(tracked.headers).toEqual({ 'ratelimit-policy': POLICY, ratelimit: '"wallet";r=0;t=60' });
    await noop(); // gives nothing back: the over-limit count was returned already

    const untracked = new FakeReply();
    expect(await outcome(() => limits.reserveWallet('0xabc', untracked.asFastify, async () => false), untracked)).toEqual({
      error: {
        statusCode: 429,
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many new submissions from this walletAddress: at most 2 every 60 s; retry after 60 s',
      },
      headers: { 'ratelimit-policy': POLICY, ratelimit: '"wallet";r=0;t=60', 'retry-after': '60' },
    });
    expect(await counter(metrics, 'submit_rate_limited_total')).toEqual([{ labels: { policy: 'wallet' }, value: 1 }]);

    // Neither the tracked swap nor the refusal kept a count: the wallet stands at 2, so
    // giving one place back lets exactly one new submission in.
    await placed[0]();
    const freed = new FakeReply();
    await limits.reserveWallet('0xabc', freed.asFastify, notAsked);
    expect(freed.headers.ratelimit).toBe('"wallet";r=0;t=60');
  });

  it('counts wallets by the text it is given (the controller decides the letter case)', async () => {
    const { limits } = setup({ config: { SUBMIT_LIMIT_PER_WALLET: 1 } });
    await limits.reserveWallet('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', new FakeReply().asFastify, notAsked);
    await expect(
      limits.reserveWallet('9wzdxwbbmkg8ztbnmquxvqrayrzzdsgydlvl9zytawwm', new FakeReply().asFastify, notAsked),
    ).resolves.toEqual(expect.any(Function));
  });
});

describe('SubmitLimits: a cache that fails', () => {
  it('lets requests through uncounted, says so in a metric and a warning, and sends the policy without a standing', async () => {
    const failing = new MemoryCache({ namespace: 'x' });
    failing.increment = async () => {
      throw new Error('redis down');
    };
    const { limits, metrics, logs } = setup({ cache: failing });
    const reply = new FakeReply();
    await limits.admitClient(fakeRequest('198.51.100.7'), reply.asFastify);
    const giveBack = await limits.reserveWallet(
      '0xabc',
      reply.asFastify,
      neverAsked('isTracked must not be asked when nothing was counted'),
    );
    await giveBack();
    expect(reply.headers).toEqual({ 'ratelimit-policy': POLICY });
    expect(await counter(metrics, 'submit_rate_limit_unavailable_total')).toEqual([{ labels: {}, value: 2 }]);
    expect(logs.map(({ level, policy, msg }) => ({ level, policy, msg }))).toEqual([
      { level: 40, policy: 'client', msg: 'submit-tx rate limit not counted: the cache failed' },
      { level: 40, policy: 'wallet', msg: 'submit-tx rate limit not counted: the cache failed' },
    ]);
  });
});
