import { randomUUID } from 'node:crypto';
import { portalHarnessPerSuite, sha256, UUID, type Answer } from '../testing/portal-harness';

const NOT_FOUND = { code: 'NOT_FOUND', message: 'Organisation not found' };

describe('organisation boundaries: keys by role, other organisations kept out, bad input named (partner-portal-api over PostgreSQL, NATS, Redis)', () => {
  const h = portalHarnessPerSuite();

  /** An organisation of an owner, an admin and a member, with one key. */
  async function team(name = 'Acme Wallet') {
    const { orgId, owner, admin, member } = await h().team(name);
    const key = await owner.call('POST', `/portal/api/orgs/${orgId}/keys`, { name: 'production' });
    expect(key.status).toBe(201);
    return { orgId, owner, admin, member, keyId: key.body.id as string };
  }
  /** What a refusal answered, in a shape a failed assertion prints whole. */
  const outcome = (res: Answer) => ({ status: res.status, code: res.body?.code, message: res.body?.message });

  describe('keys', () => {
    it.each<'owner' | 'admin'>(['owner', 'admin'])(
      'an %s creates a key: the full key once, key-registry sent only its SHA-256 and display prefix',
      async (who) => {
        const t = await team();
        h().registry.received.splice(0);

        const res = await t[who].call('POST', `/portal/api/orgs/${t.orgId}/keys`, { name: 'staging' });

        expect(res).toEqual({
          status: 201,
          body: {
            key: expect.stringMatching(/^svc_[\w-]{43}$/),
            id: expect.stringMatching(UUID),
            name: 'staging',
            prefix: res.body.key.slice(0, 12),
            permissions: ['swaps:read', 'swaps:write'],
            createdAt: expect.any(String),
          },
        });
        expect(h().registry.requestsOn('key-registry.keys.create.v1')).toEqual([
          { orgId: t.orgId, name: 'staging', keyHash: sha256(res.body.key), prefix: res.body.key.slice(0, 12), actor: `user:${t[who].id}` },
        ]);
        expect((await h().stateOf(t.orgId)).keys).toEqual(['production', 'staging']);
      },
    );

    it.each<'owner' | 'admin'>(['owner', 'admin'])('an %s revokes a key (204); revoking it again answers 404', async (who) => {
      const t = await team();

      expect((await t[who].call('DELETE', `/portal/api/orgs/${t.orgId}/keys/${t.keyId}`)).status).toBe(204);
      expect(outcome(await t[who].call('DELETE', `/portal/api/orgs/${t.orgId}/keys/${t.keyId}`))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'API key not found; it may already be revoked',
      });
      expect((await h().stateOf(t.orgId)).keys).toEqual([]);
    });

    it('a member reads the keys (names and prefixes, never the secret)', async () => {
      const t = await team();

      const res = await t.member.call('GET', `/portal/api/orgs/${t.orgId}/keys`);

      expect(res).toEqual({
        status: 200,
        body: [
          {
            id: t.keyId,
            name: 'production',
            prefix: expect.stringMatching(/^svc_[\w-]{8}$/),
            permissions: ['swaps:read', 'swaps:write'],
            createdAt: expect.any(String),
          },
        ],
      });
    });

    it('a member may neither create nor revoke a key (403): key-registry is not asked, the keys stay', async () => {
      const t = await team();
      const before = await h().stateOf(t.orgId);
      h().registry.received.splice(0);

      const created = await t.member.call('POST', `/portal/api/orgs/${t.orgId}/keys`, { name: 'mine' });
      const revoked = await t.member.call('DELETE', `/portal/api/orgs/${t.orgId}/keys/${t.keyId}`);

      expect([outcome(created), outcome(revoked)]).toEqual([
        { status: 403, code: 'FORBIDDEN', message: 'Only an owner or an admin may create keys; you are a member of this organisation' },
        { status: 403, code: 'FORBIDDEN', message: 'Only an owner or an admin may revoke keys; you are a member of this organisation' },
      ]);
      expect(h().registry.received).toEqual([]);
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });
  });

  describe('another organisation', () => {
    /** Every organisation route, aimed at organisation `orgId` and at its member, invitation and key. */
    const routes = (orgId: string, ids: { userId: string; invitationId: string; keyId: string }): [string, string, unknown?][] => [
      ['GET', `/portal/api/orgs/${orgId}/members`],
      ['PATCH', `/portal/api/orgs/${orgId}/members/${ids.userId}`, { role: 'member' }],
      ['DELETE', `/portal/api/orgs/${orgId}/members/${ids.userId}`],
      ['GET', `/portal/api/orgs/${orgId}/invitations`],
      ['POST', `/portal/api/orgs/${orgId}/invitations`, { email: 'spy@example.com', role: 'admin' }],
      ['DELETE', `/portal/api/orgs/${orgId}/invitations/${ids.invitationId}`],
      ['GET', `/portal/api/orgs/${orgId}/keys`],
      ['POST', `/portal/api/orgs/${orgId}/keys`, { name: 'spy' }],
      ['DELETE', `/portal/api/orgs/${orgId}/keys/${ids.keyId}`],
    ];

    /** Organisation B with a member, an open invitation and a key; and the owner of organisation A. */
    async function twoOrganisations() {
      const b = await team('Beta Pay');
      const invitation = await b.owner.call('POST', `/portal/api/orgs/${b.orgId}/invitations`, {
        email: 'new@example.com',
        role: 'member',
      });
      const a = await team('Acme Wallet');
      return { a, b, invitationId: invitation.body.id as string };
    }

    it("is not disclosed to the owner of another: every route on B's id answers 404, key-registry is not asked, B is unchanged", async () => {
      const { a, b, invitationId } = await twoOrganisations();
      const before = await h().stateOf(b.orgId);
      h().registry.received.splice(0);

      const answers = [];
      for (const [method, path, body] of routes(b.orgId, { userId: b.member.id, invitationId, keyId: b.keyId }))
        answers.push({ method, path, ...outcome(await a.owner.call(method, path, body)) });

      expect(answers).toEqual(
        routes(b.orgId, { userId: b.member.id, invitationId, keyId: b.keyId }).map(([method, path]) => ({
          method,
          path,
          status: 404,
          ...NOT_FOUND,
        })),
      );
      expect(h().registry.received).toEqual([]);
      expect(await h().stateOf(b.orgId)).toEqual(before);
    });

    it("cannot be reached through one's own organisation: B's member, invitation and key named under A answer 404, B is unchanged", async () => {
      const { a, b, invitationId } = await twoOrganisations();
      const before = await h().stateOf(b.orgId);
      const beforeA = await h().stateOf(a.orgId);

      const patched = await a.owner.call('PATCH', `/portal/api/orgs/${a.orgId}/members/${b.member.id}`, { role: 'admin' });
      const removed = await a.owner.call('DELETE', `/portal/api/orgs/${a.orgId}/members/${b.member.id}`);
      const withdrawn = await a.owner.call('DELETE', `/portal/api/orgs/${a.orgId}/invitations/${invitationId}`);
      const revoked = await a.owner.call('DELETE', `/portal/api/orgs/${a.orgId}/keys/${b.keyId}`);

      expect([patched, removed, withdrawn, revoked].map(outcome)).toEqual([
        { status: 404, code: 'NOT_FOUND', message: 'No such member of this organisation' },
        { status: 404, code: 'NOT_FOUND', message: 'No such member of this organisation' },
        { status: 404, code: 'NOT_FOUND', message: 'Invitation not found; it may have been accepted or revoked' },
        { status: 404, code: 'NOT_FOUND', message: 'API key not found; it may already be revoked' },
      ]);
      // The portal asked key-registry for A's key of that id, never B's.
      expect(h().registry.requestsOn('key-registry.keys.revoke.v1').at(-1)).toEqual({
        orgId: a.orgId,
        keyId: b.keyId,
        actor: `user:${a.owner.id}`,
      });
      expect([await h().stateOf(b.orgId), await h().stateOf(a.orgId)]).toEqual([before, beforeA]);
    });

    it('is not disclosed to someone removed from it: after removal every route answers 404', async () => {
      const b = await team('Beta Pay');
      expect((await b.owner.call('DELETE', `/portal/api/orgs/${b.orgId}/members/${b.admin.id}`)).status).toBe(204);
      const before = await h().stateOf(b.orgId);

      const answers = [];
      for (const [method, path, body] of routes(b.orgId, { userId: b.member.id, invitationId: randomUUID(), keyId: b.keyId }))
        answers.push(outcome(await b.admin.call(method, path, body)).status);

      expect(answers).toEqual(routes(b.orgId, { userId: '', invitationId: '', keyId: '' }).map(() => 404));
      expect(await h().stateOf(b.orgId)).toEqual(before);
    });
  });

  describe('sessions and CSRF', () => {
    it('refuses every organisation route without a session (401); nothing changes', async () => {
      const t = await team();
      const anonymous = await h().anonymous();
      const before = await h().stateOf(t.orgId);

      const answers = [];
      for (const [method, path, body] of [
        ['GET', `/portal/api/orgs/${t.orgId}/keys`],
        ['POST', `/portal/api/orgs/${t.orgId}/keys`, { name: 'x' }],
        ['PATCH', `/portal/api/orgs/${t.orgId}/members/${t.member.id}`, { role: 'admin' }],
        ['DELETE', `/portal/api/orgs/${t.orgId}/members/${t.member.id}`],
        ['POST', '/portal/api/orgs', { name: 'Mine' }],
      ] as [string, string, unknown?][])
        answers.push(outcome(await anonymous.call(method, path, body)));

      expect(answers).toEqual(
        answers.map(() => ({ status: 401, code: 'UNAUTHORIZED', message: 'Sign in first (no session, or it expired)' })),
      );
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });

    it("refuses an owner's change without the CSRF header (403 CSRF_REJECTED); nothing changes", async () => {
      const t = await team();
      const before = await h().stateOf(t.orgId);

      const changed = await t.owner.call('PATCH', `/portal/api/orgs/${t.orgId}/members/${t.member.id}`, { role: 'admin' }, { csrf: false });
      const removed = await t.owner.call('DELETE', `/portal/api/orgs/${t.orgId}/members/${t.member.id}`, undefined, { csrf: false });

      expect([changed, removed].map((r) => [r.status, r.body.code])).toEqual([
        [403, 'CSRF_REJECTED'],
        [403, 'CSRF_REJECTED'],
      ]);
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });

    it('ends with sign-out: the old session can no longer act on the organisation', async () => {
      const t = await team();
      const stale = new Map(t.owner.cookies);
      expect((await t.owner.call('POST', '/portal/api/auth/sign-out')).status).toBe(204);
      const replay = await h().anonymous();
      for (const [k, v] of stale) replay.cookies.set(k, v);
      const before = await h().stateOf(t.orgId);

      expect(outcome(await replay.call('DELETE', `/portal/api/orgs/${t.orgId}/members/${t.member.id}`)).status).toBe(401);
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });
  });

  describe('bad input', () => {
    type Violation = { field: string; rule: string; message: string };
    const refusedWith = (violation: Violation) => ({
      status: 400,
      body: expect.objectContaining({ code: 'VALIDATION_FAILED', message: violation.message, details: [violation] }),
    });
    const named = (field: string, rule: string, message: string): Violation => ({ field, rule, message });

    it.each<[string, unknown, Violation]>([
      ['no name', {}, named('name', 'isDefined', 'name is required')],
      ['a blank name', { name: '   ' }, named('name', 'matches', 'name must not be blank')],
      ['a name of 65 characters', { name: 'x'.repeat(65) }, named('name', 'maxLength', 'name must be at most 64 characters')],
      ['a name that is a number', { name: 42 }, named('name', 'isString', 'name is required (a string)')],
    ])('creating an organisation with %s answers 400 naming the field; no organisation is made', async (_case, body, violation) => {
      const ada = await h().person('ada');
      h().registry.received.splice(0);

      expect(await ada.call('POST', '/portal/api/orgs', body)).toEqual(refusedWith(violation));
      expect(h().registry.received).toEqual([]);
      expect((await ada.call('GET', '/portal/api/me')).body.memberships).toEqual([]);
    });

    it.each<[string, unknown, Violation]>([
      ['no role', {}, named('role', 'isDefined', 'role is required')],
      ['an unknown role', { role: 'boss' }, named('role', 'isIn', 'role must be owner, admin or member')],
      ['a role in capitals', { role: 'ADMIN' }, named('role', 'isIn', 'role must be owner, admin or member')],
      ['an unknown field', { role: 'admin', orgId: 'x' }, named('orgId', 'whitelistValidation', 'property orgId should not exist')],
    ])('changing a role with %s answers 400 naming the field; nothing changes', async (_case, body, violation) => {
      const t = await team();
      const before = await h().stateOf(t.orgId);

      expect(await t.owner.call('PATCH', `/portal/api/orgs/${t.orgId}/members/${t.member.id}`, body)).toEqual(refusedWith(violation));
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });

    it.each<[string, unknown, Violation]>([
      ['no name', {}, named('name', 'isDefined', 'name is required')],
      ['a blank name', { name: '\t' }, named('name', 'matches', 'name must not be blank')],
      ['an invisible name', { name: '\u200b' }, named('name', 'matches', 'name must not be blank')],
      [
        'a name with a control character',
        { name: 'prod\u0001\u202e' },
        named('name', 'noControlCharacters', 'name must not contain control characters (line breaks, tabs, direction overrides)'),
      ],
      ['a name of 65 characters', { name: 'k'.repeat(65) }, named('name', 'maxLength', 'name must be at most 64 characters')],
      ['a name that is a list', { name: ['k'] }, named('name', 'isString', 'name is required (a string)')],
    ])('creating a key with %s answers 400 naming the field; key-registry is not asked', async (_case, body, violation) => {
      const t = await team();
      const before = await h().stateOf(t.orgId);
      h().registry.received.splice(0);

      expect(await t.owner.call('POST', `/portal/api/orgs/${t.orgId}/keys`, body)).toEqual(refusedWith(violation));
      expect(h().registry.received).toEqual([]);
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });

    it('answers 400 for an id in the path that is not a UUID, for every organisation route; nothing changes', async () => {
      const t = await team();
      const before = await h().stateOf(t.orgId);

      const answers = [];
      for (const [method, path, field, body] of [
        ['GET', '/portal/api/orgs/not-a-uuid/members', 'orgId'],
        ['PATCH', `/portal/api/orgs/${t.orgId}/members/not-a-uuid`, 'userId', { role: 'admin' }],
        ['DELETE', `/portal/api/orgs/${t.orgId}/members/not-a-uuid`, 'userId'],
        ['DELETE', `/portal/api/orgs/${t.orgId}/invitations/not-a-uuid`, 'invitationId'],
        ['DELETE', `/portal/api/orgs/${t.orgId}/keys/not-a-uuid`, 'keyId'],
      ] as [string, string, string, unknown?][]) {
        const res = await t.owner.call(method, path, body);
        answers.push({ path, ...outcome(res), details: res.body.details, expected: field });
      }

      expect(answers).toEqual(
        answers.map(({ path, expected }) => ({
          path,
          status: 400,
          code: 'VALIDATION_FAILED',
          message: `${expected} in the path must be a UUID`,
          details: [{ field: expected, rule: 'isUuid', message: `${expected} in the path must be a UUID` }],
          expected,
        })),
      );
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });
  });
});
