import { sampleIntent, eventually } from '@swap/testing';
import pg from 'pg';
import { partnerPortalApi } from '../../partner-portal-api/src/partner-portal-api.definition';
import { KeyStack, OPS_HEADERS } from './key-stack';
import { Browser } from './portal-browser';

jest.setTimeout(60_000);

const FAST_SCRYPT = { SCRYPT_LOG_N: '10' };

describe('partner portal API: accounts, sessions, CSRF, organisations, roles, invitations, keys', () => {
  const stack = new KeyStack();
  const portal = () => stack.url('partner-portal-api');
  const browser = () => new Browser(portal);

  beforeAll(async () => {
    await stack.start();
    await stack.add(partnerPortalApi, { ...FAST_SCRYPT, SIGN_IN_FAILURE_LIMIT: '3', PORTAL_PUBLIC_URL: 'https://portal.example' });
  });
  afterAll(() => stack.stop());

  it('refuses every mutation without the double-submit CSRF token, sign-up and sign-in included', async () => {
    const b = browser();
    const bare = await b.call('POST', '/portal/api/auth/sign-up', { email: 'csrf@example.com', password: 'long enough password' });
    expect(bare).toMatchObject({ status: 403, body: { code: 'CSRF_REJECTED', message: expect.stringContaining('x-csrf-token') } });
    const token = await b.call('GET', '/portal/api/auth/csrf');
    expect(token.body.csrfToken).toBe(b.cookies.get('portal_csrf'));
    expect(b.lastSetCookie[0]).toMatch(/^portal_csrf=[\w-]+; Path=\/portal; SameSite=Lax$/);
    const wrong = await b.call(
      'POST',
      '/portal/api/auth/sign-in',
      { email: 'csrf@example.com', password: 'x' },
      { csrf: 'not-the-cookie' },
    );
    expect(wrong.status).toBe(403);
    const again = await b.call('GET', '/portal/api/auth/csrf');
    expect(again.body.csrfToken).toBe(token.body.csrfToken);
  });

  it('signs up with a session cookie (HttpOnly, SameSite=Lax), validates, refuses a second account per email', async () => {
    const b = browser();
    await b.call('GET', '/portal/api/auth/csrf');
    expect((await b.call('GET', '/portal/api/me')).status).toBe(401);
    const short = await b.call('POST', '/portal/api/auth/sign-up', { email: 'ada@example.com', password: 'short' });
    expect(short).toMatchObject({ status: 400, body: { message: 'password must be at least 10 characters' } });
    const noEmail = await b.call('POST', '/portal/api/auth/sign-up', { password: 'long enough password' });
    expect(noEmail.status).toBe(400);
    const created = await b.call('POST', '/portal/api/auth/sign-up', { email: 'Ada@Example.com', password: 'long enough password' });
    expect(created).toMatchObject({ status: 201, body: { user: { id: expect.any(String), email: 'ada@example.com' } } });
    const session = b.lastSetCookie.find((c) => c.startsWith('portal_session='))!;
    expect(session).toMatch(/; Max-Age=43200; Path=\/portal; HttpOnly; SameSite=Lax$/);
    expect(JSON.stringify(created.body)).not.toContain('password');
    expect(await b.call('GET', '/portal/api/me')).toMatchObject({
      status: 200,
      body: { user: { email: 'ada@example.com' }, memberships: [] },
    });
    expect((await b.call('POST', '/portal/api/auth/sign-up', { email: 'ada@example.com', password: 'long enough password' })).status).toBe(
      409,
    );
  });

  it('signs in with one generic message for every failure, rotates the session, answers 429 after repeated failures', async () => {
    const owner = browser();
    await owner.signUp('grace@example.com');
    const before = owner.cookies.get('portal_session');
    const wrong = await owner.call('POST', '/portal/api/auth/sign-in', { email: 'grace@example.com', password: 'wrong password!' });
    const unknown = await owner.call('POST', '/portal/api/auth/sign-in', { email: 'nobody@example.com', password: 'wrong password!' });
    expect(wrong).toMatchObject({ status: 401, body: { message: 'Email or password is incorrect' } });
    expect(unknown).toMatchObject({ status: 401, body: { message: 'Email or password is incorrect' } });
    const ok = await owner.call('POST', '/portal/api/auth/sign-in', { email: 'GRACE@example.com', password: 'correct horse battery' });
    expect(ok.status).toBe(200);
    expect(owner.cookies.get('portal_session')).not.toBe(before);
    const stale = new Browser(portal);
    stale.cookies.set('portal_session', before!);
    expect((await stale.call('GET', '/portal/api/me')).status).toBe(401);

    for (let i = 0; i < 2; i++)
      expect((await owner.call('POST', '/portal/api/auth/sign-in', { email: 'grace@example.com', password: 'still wrong!' })).status).toBe(
        401,
      );
    const limited = await owner.call('POST', '/portal/api/auth/sign-in', { email: 'grace@example.com', password: 'correct horse battery' });
    expect(limited).toMatchObject({
      status: 429,
      body: { message: expect.stringMatching(/^Too many failed sign-ins; try again in \d+ seconds$/) },
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await owner.call('POST', '/portal/api/auth/sign-out')).status).toBe(204);
    expect((await owner.call('GET', '/portal/api/me')).status).toBe(401);
  });

  it('refuses NUL characters, broken Unicode, absurd nesting and huge unknown field names with a 400, storing nothing', async () => {
    const b = browser();
    await b.signUp('hostile@example.com');
    const cases: [unknown, string][] = [
      [{ name: 'Evil\u0000Org' }, 'name must not contain NUL characters (\\u0000)'],
      [{ name: '\ud800' }, 'name must not contain unpaired UTF-16 surrogates (it is not Unicode text)'],
    ];
    for (const [body, message] of cases)
      expect(await b.call('POST', '/portal/api/orgs', body)).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', message } });
    const deep = await fetch(`${portal()}/portal/api/orgs`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': b.cookies.get('portal_csrf')!,
        cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
    });
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { message: string }).message).toBe('the request body is nested more than 32 levels deep');
    const unknown = await b.call('POST', '/portal/api/orgs', { name: 'ok', ['x'.repeat(100_000)]: 1 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body).length).toBeLessThan(1_000);
    expect((await b.call('GET', '/portal/api/me')).body.memberships).toEqual([]);
  });

  it('marks the cookies Secure when the request came over HTTPS through a trusted proxy, and only then', async () => {
    await stack.add(partnerPortalApi, { ...FAST_SCRYPT, TRUSTED_PROXIES: 'loopback' }, undefined, 'portal-behind-tls');
    const csrf = (proto: string) =>
      fetch(`${stack.url('portal-behind-tls')}/portal/api/auth/csrf`, { headers: { 'x-forwarded-proto': proto } }).then(
        (r) => r.headers.getSetCookie()[0],
      );
    expect(await csrf('https')).toMatch(/; Secure/);
    expect(await csrf('http')).not.toMatch(/; Secure/);
    // Not behind a trusted proxy: a client's own X-Forwarded-Proto is not believed.
    const direct = await fetch(`${portal()}/portal/api/auth/csrf`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(direct.headers.getSetCookie()[0]).not.toMatch(/; Secure/);
  });

  it('expires sessions', async () => {
    const b = browser();
    const userId = await b.signUp('expiring@example.com');
    const sql = new pg.Client({ connectionString: stack.databaseUrl });
    await sql.connect();
    try {
      await sql.query(`UPDATE partner_portal_api.sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [userId]);
    } finally {
      await sql.end();
    }
    expect(await b.call('GET', '/portal/api/me')).toMatchObject({
      status: 401,
      body: { message: 'Sign in first (no session, or it expired)' },
    });
  });

  it('manages an organisation: keys shown once, the cap of two, roles, invitations, and other organisations kept out', async () => {
    const owner = browser();
    await owner.signUp('owner@example.com');
    const org = await owner.call('POST', '/portal/api/orgs', { name: 'Acme Wallet' });
    expect(org).toMatchObject({ status: 201, body: { id: expect.any(String), name: 'Acme Wallet', role: 'owner' } });
    const orgId = org.body.id;
    expect((await owner.call('GET', '/portal/api/me')).body.memberships).toEqual([{ orgId, orgName: 'Acme Wallet', role: 'owner' }]);

    // Keys: the full key once, the list with the prefix only; a third is refused.
    const first = await owner.call('POST', `/portal/api/orgs/${orgId}/keys`, { name: 'production' });
    expect(first).toMatchObject({
      status: 201,
      body: {
        key: expect.stringMatching(/^svc_[\w-]{43}$/),
        prefix: expect.stringMatching(/^svc_[\w-]{8}$/),
        name: 'production',
        permissions: ['swaps:read', 'swaps:write'],
      },
    });
    expect(first.body.key.slice(0, first.body.prefix.length)).toBe(first.body.prefix);
    expect((await owner.call('POST', `/portal/api/orgs/${orgId}/keys`, { name: 'x'.repeat(65) })).body.message).toBe(
      'name must be at most 64 characters',
    );
    const second = await owner.call('POST', `/portal/api/orgs/${orgId}/keys`, { name: 'staging' });
    const third = await owner.call('POST', `/portal/api/orgs/${orgId}/keys`, { name: 'third' });
    expect(third).toMatchObject({
      status: 409,
      body: { code: 'API_KEY_LIMIT_REACHED', message: 'Two active API keys already exist; revoke one, then create another' },
    });
    const list = await owner.call('GET', `/portal/api/orgs/${orgId}/keys`);
    expect(list.body).toEqual([
      {
        id: first.body.id,
        name: 'production',
        prefix: first.body.prefix,
        permissions: ['swaps:read', 'swaps:write'],
        createdAt: expect.any(String),
      },
      {
        id: second.body.id,
        name: 'staging',
        prefix: second.body.prefix,
        permissions: ['swaps:read', 'swaps:write'],
        createdAt: expect.any(String),
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(first.body.key);

    // The key works on a swaps route while it exists; revoked, it is refused.
    expect((await stack.ops('key-registry', 'PUT', '/ops/enforcement-modes/swaps', { mode: 'monitor' })).status).toBe(200);
    expect((await stack.ops('key-registry', 'PUT', '/ops/enforcement-modes/swaps', { mode: 'enforce' })).status).toBe(200);
    const hashWith = (key: string) =>
      fetch(`${stack.url('swap-gateway')}/v1/swaps/intents/hash`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ intent: sampleIntent() }),
      }).then((r) => r.status);
    await eventually(async () => (await hashWith(first.body.key)) === 200, 5_000, 50);
    expect((await owner.call('DELETE', `/portal/api/orgs/${orgId}/keys/${first.body.id}`)).status).toBe(204);
    expect((await owner.call('DELETE', `/portal/api/orgs/${orgId}/keys/${first.body.id}`)).status).toBe(404);
    await eventually(async () => (await hashWith(first.body.key)) === 401, 5_000, 50);
    expect((await stack.ops('key-registry', 'PUT', '/ops/enforcement-modes/swaps', { mode: 'monitor' })).status).toBe(200);

    // An invitation: only the invited email accepts it, once; a member reads keys and nothing more.
    const invited = await owner.call('POST', `/portal/api/orgs/${orgId}/invitations`, { email: 'Member@Example.com', role: 'member' });
    expect(invited).toMatchObject({
      status: 201,
      body: {
        token: expect.any(String),
        link: `https://portal.example/portal/invitations/${invited.body.token}`,
        email: 'member@example.com',
        role: 'member',
      },
    });
    expect(
      (await owner.call('POST', `/portal/api/orgs/${orgId}/invitations`, { email: 'boss@example.com', role: 'owner' })).body.message,
    ).toBe('role must be admin or member');
    expect(await owner.call('POST', `/portal/api/orgs/${orgId}/invitations`, { email: 'OWNER@example.com', role: 'member' })).toMatchObject(
      { status: 409, body: { message: 'owner@example.com is already an owner of this organisation' } },
    );
    expect(await owner.call('POST', '/portal/api/orgs', { name: 'x'.repeat(65) })).toMatchObject({
      status: 400,
      body: { message: 'name must be at most 64 characters' },
    });
    const stranger = browser();
    await stranger.signUp('stranger@example.com');
    expect((await stranger.call('POST', `/portal/api/invitations/${invited.body.token}/accept`)).status).toBe(403);
    const member = browser();
    const memberId = await member.signUp('member@example.com');
    expect(await member.call('GET', `/portal/api/invitations/${invited.body.token}`)).toMatchObject({
      status: 200,
      body: { orgName: 'Acme Wallet', role: 'member', email: 'member@example.com' },
    });
    expect(await member.call('POST', `/portal/api/invitations/${invited.body.token}/accept`)).toMatchObject({
      status: 200,
      body: { orgId, orgName: 'Acme Wallet', role: 'member' },
    });
    expect((await member.call('POST', `/portal/api/invitations/${invited.body.token}/accept`)).status).toBe(404);
    expect((await member.call('GET', `/portal/api/invitations/${invited.body.token}`)).status).toBe(404);
    expect((await member.call('GET', `/portal/api/orgs/${orgId}/keys`)).body).toHaveLength(1);
    const denied = await member.call('POST', `/portal/api/orgs/${orgId}/keys`, { name: 'mine' });
    expect(denied).toMatchObject({
      status: 403,
      body: { message: 'Only an owner or an admin may create keys; you are a member of this organisation' },
    });
    expect((await member.call('DELETE', `/portal/api/orgs/${orgId}/keys/${second.body.id}`)).status).toBe(403);
    expect((await member.call('GET', `/portal/api/orgs/${orgId}/members`)).status).toBe(403);

    // Not a member: the organisation does not exist for them.
    for (const [method, path, body] of [
      ['GET', `/portal/api/orgs/${orgId}/keys`],
      ['POST', `/portal/api/orgs/${orgId}/keys`, { name: 'x' }],
      ['DELETE', `/portal/api/orgs/${orgId}/keys/${second.body.id}`],
      ['GET', `/portal/api/orgs/${orgId}/members`],
      ['PATCH', `/portal/api/orgs/${orgId}/members/${memberId}`, { role: 'admin' }],
      ['POST', `/portal/api/orgs/${orgId}/invitations`, { email: 'x@example.com', role: 'member' }],
    ] as const) {
      const res = await stranger.call(method, path, body);
      expect({ method, path, status: res.status, message: res.body.message }).toEqual({
        method,
        path,
        status: 404,
        message: 'Organisation not found',
      });
    }
    expect((await stranger.call('GET', '/portal/api/orgs/not-a-uuid/keys')).status).toBe(400);

    // Roles: the last owner stays; an owner promotes, then may leave.
    const members = await owner.call('GET', `/portal/api/orgs/${orgId}/members`);
    const ownerId = members.body.find((m: { email: string }) => m.email === 'owner@example.com').userId;
    expect(members.body.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['owner@example.com', 'owner'],
      ['member@example.com', 'member'],
    ]);
    expect(await owner.call('DELETE', `/portal/api/orgs/${orgId}/members/${ownerId}`)).toMatchObject({
      status: 409,
      body: { message: 'The last owner cannot leave; make another member an owner first' },
    });
    expect((await owner.call('PATCH', `/portal/api/orgs/${orgId}/members/${ownerId}`, { role: 'admin' })).status).toBe(409);
    expect((await member.call('PATCH', `/portal/api/orgs/${orgId}/members/${memberId}`, { role: 'owner' })).status).toBe(403);
    expect(await owner.call('PATCH', `/portal/api/orgs/${orgId}/members/${memberId}`, { role: 'owner' })).toMatchObject({
      status: 200,
      body: { role: 'owner' },
    });
    expect((await owner.call('DELETE', `/portal/api/orgs/${orgId}/members/${ownerId}`)).status).toBe(204);
    expect((await owner.call('GET', `/portal/api/orgs/${orgId}/keys`)).status).toBe(404);
    expect((await member.call('GET', `/portal/api/orgs/${orgId}/members`)).body).toEqual([
      expect.objectContaining({ email: 'member@example.com', role: 'owner' }),
    ]);
  });

  it('lets an operator invite the first owner of an organisation made before the portal', async () => {
    const org = await stack.ops('key-registry', 'POST', '/ops/organisations', { name: 'Legacy Ltd' });
    const invitation = await fetch(`${portal()}/ops/organisations/${org.body.id}/invitations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...OPS_HEADERS },
      body: JSON.stringify({ email: 'first@legacy.example' }),
    });
    const body = (await invitation.json()) as { token: string };
    expect(invitation.status).toBe(201);
    expect(body).toMatchObject({ role: 'owner', link: expect.stringMatching(/^https:\/\/portal\.example\/portal\/invitations\//) });
    const b = browser();
    await b.signUp('first@legacy.example');
    expect(await b.call('POST', `/portal/api/invitations/${body.token}/accept`)).toMatchObject({
      status: 200,
      body: { orgId: org.body.id, orgName: 'Legacy Ltd', role: 'owner' },
    });
  });

  it('answers 503 not configured when key management or webhooks are off, and 503 retryable when key-registry or relay-tracker does not answer', async () => {
    await stack.add(partnerPortalApi, { ...FAST_SCRYPT, PORTAL_KEY_SERVICE: 'disabled' }, undefined, 'portal-disabled');
    await stack.add(
      partnerPortalApi,
      { ...FAST_SCRYPT, NATS_SUBJECT_PREFIX: 'nobody-here', RPC_TIMEOUT_MS: '500' },
      undefined,
      'portal-lonely',
    );
    // The same database: a user and membership made through one instance work on the others.
    const owner = browser();
    await owner.signUp('ops@example.com');
    const orgId = (await owner.call('POST', '/portal/api/orgs', { name: 'Ops' })).body.id;
    const disabled = new Browser(() => stack.url('portal-disabled'));
    const lonely = new Browser(() => stack.url('portal-lonely'));
    for (const b of [disabled, lonely]) for (const [k, v] of owner.cookies) b.cookies.set(k, v);
    expect(await disabled.call('GET', `/portal/api/orgs/${orgId}/keys`)).toMatchObject({
      status: 503,
      body: {
        code: 'NOT_CONFIGURED',
        message: 'Key management is not configured on this deployment; contact support (retrying will not help)',
        details: { retryable: false },
      },
    });
    expect(await lonely.call('POST', `/portal/api/orgs/${orgId}/keys`, { name: 'x' })).toMatchObject({
      status: 503,
      body: { code: 'DEPENDENCY_UNAVAILABLE', details: { retryable: true } },
    });
    // Webhooks: relay-tracker here has no WEBHOOK_ENCRYPTION_KEY; the lonely portal reaches no relay-tracker at all.
    expect(await owner.call('POST', `/portal/api/orgs/${orgId}/webhooks`, { url: 'https://hooks.example/' })).toMatchObject({
      status: 503,
      body: { code: 'NOT_CONFIGURED', message: 'Webhooks are not configured on this deployment (WEBHOOK_ENCRYPTION_KEY)' },
    });
    expect(await lonely.call('GET', `/portal/api/orgs/${orgId}/webhooks`)).toMatchObject({
      status: 503,
      body: { code: 'DEPENDENCY_UNAVAILABLE', details: { retryable: true } },
    });
  });
});
