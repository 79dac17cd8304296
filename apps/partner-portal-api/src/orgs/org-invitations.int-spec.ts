import type { Role } from '../generated/prisma/client';
import { portalHarnessPerSuite, sha256, TESTER_TOKEN, UUID, type Answer, type Person } from '../testing/portal-harness';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const WEEK_MS = 7 * 24 * 3_600_000;
const GONE = 'Invitation not found, already used or expired; ask for a new one';

describe('organisation invitations: who invites, single use, expiry, bound to the e-mail (partner-portal-api over PostgreSQL, NATS, Redis)', () => {
  const h = portalHarnessPerSuite();

  const team = () => h().team();
  const invite = (by: Person, orgId: string, email: string, role: Role = 'member') =>
    by.call('POST', `/portal/api/orgs/${orgId}/invitations`, { email, role });
  /** The invitation's token, from an answer that must have been 201. */
  const tokenOf = (res: { status: number; body: { token?: string } }) => {
    expect(res.status).toBe(201);
    return res.body.token!;
  };
  const invitationsIn = (orgId: string) => h().db.invitation.findMany({ where: { orgId }, orderBy: { createdAt: 'asc' } });

  describe('who may invite', () => {
    it.each<['owner' | 'admin', Role]>([
      ['owner', 'member'],
      ['owner', 'admin'],
      ['admin', 'member'],
      ['admin', 'admin'],
    ])('an %s invites someone as %s: 201 with the link; only the SHA-256 of its token is stored, open for a week', async (who, role) => {
      const t = await team();
      const sent = Date.now();

      const res = await invite(t[who], t.orgId, 'Dana@Example.COM', role);

      expect(res).toEqual({
        status: 201,
        body: {
          id: expect.stringMatching(UUID),
          email: 'dana@example.com',
          role,
          expiresAt: expect.stringMatching(ISO),
          token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
          link: `https://portal.example/portal/invitations/${res.body.token}`,
          emailSent: false,
        },
      });
      const [row] = await invitationsIn(t.orgId);
      expect(row).toMatchObject({
        id: res.body.id,
        tokenHash: sha256(res.body.token),
        email: 'dana@example.com',
        role,
        orgName: 'Acme Wallet',
        invitedBy: `user:${t[who].id}`,
        acceptedAt: null,
        acceptedBy: null,
      });
      expect(row.expiresAt.toISOString()).toBe(res.body.expiresAt);
      expect(row.expiresAt.getTime() - sent).toBeGreaterThanOrEqual(WEEK_MS - 1_000);
      expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(WEEK_MS);
    });

    it('refuses a member with 403; nothing is stored', async () => {
      const t = await team();

      expect(await invite(t.member, t.orgId, 'dana@example.com')).toEqual({
        status: 403,
        body: expect.objectContaining({
          code: 'FORBIDDEN',
          message: 'Only an owner or an admin may invite members; you are a member of this organisation',
        }),
      });
      expect(await invitationsIn(t.orgId)).toEqual([]);
    });

    it('answers 404 to someone who is not a member (the organisation is not disclosed); nothing is stored', async () => {
      const t = await team();
      const stranger = await h().person('stranger');

      expect(await invite(stranger, t.orgId, 'dana@example.com')).toEqual({
        status: 404,
        body: expect.objectContaining({ code: 'NOT_FOUND', message: 'Organisation not found' }),
      });
      expect(await invitationsIn(t.orgId)).toEqual([]);
    });

    it.each<['owner' | 'admin' | 'member', string]>([
      ['member', 'a member'],
      ['admin', 'an admin'],
      ['owner', 'an owner'],
    ])('refuses to invite someone who is already %s (409, in any letter case); nothing is stored', async (who, already) => {
      const t = await team();

      expect(await invite(t.owner, t.orgId, t[who].email.toUpperCase(), 'admin')).toEqual({
        status: 409,
        body: expect.objectContaining({ code: 'CONFLICT', message: `${t[who].email} is already ${already} of this organisation` }),
      });
      expect(await invitationsIn(t.orgId)).toEqual([]);
    });

    it.each<[string, unknown, { field: string; rule: string; message: string }]>([
      [
        'an owner role',
        { email: 'dana@example.com', role: 'owner' },
        { field: 'role', rule: 'isIn', message: 'role must be admin or member' },
      ],
      ['no role', { email: 'dana@example.com' }, { field: 'role', rule: 'isDefined', message: 'role is required' }],
      [
        'a malformed email',
        { email: 'dana.example.com', role: 'member' },
        { field: 'email', rule: 'isEmail', message: 'email must be an email address' },
      ],
      ['no email', { role: 'member' }, { field: 'email', rule: 'isDefined', message: 'email is required' }],
      [
        'an email with a direction override',
        { email: 'dana\u202e@example.com', role: 'member' },
        {
          field: 'email',
          rule: 'noControlCharacters',
          message: 'email must not contain control characters (line breaks, tabs, direction overrides)',
        },
      ],
      [
        'an unknown field',
        { email: 'dana@example.com', role: 'member', orgId: 'another' },
        { field: 'orgId', rule: 'whitelistValidation', message: 'property orgId should not exist' },
      ],
    ])('refuses %s with 400 naming the field; nothing is stored', async (_case, body, violation) => {
      const t = await team();

      expect(await t.owner.call('POST', `/portal/api/orgs/${t.orgId}/invitations`, body)).toEqual({
        status: 400,
        body: expect.objectContaining({ code: 'VALIDATION_FAILED', message: violation.message, details: [violation] }),
      });
      expect(await invitationsIn(t.orgId)).toEqual([]);
    });
  });

  describe('accepting', () => {
    it('shows what the link offers, then the invited person joins with its role; the invitation is marked used by them', async () => {
      const t = await team();
      const token = tokenOf(await invite(t.admin, t.orgId, 'Dana@Example.com', 'admin'));
      const dana = await h().person('dana', 'dana@example.com');

      expect(await dana.call('GET', `/portal/api/invitations/${token}`)).toEqual({
        status: 200,
        body: { orgName: 'Acme Wallet', role: 'admin', email: 'dana@example.com', expiresAt: expect.stringMatching(ISO) },
      });
      expect(await dana.call('POST', `/portal/api/invitations/${token}/accept`)).toEqual({
        status: 200,
        body: { orgId: t.orgId, orgName: 'Acme Wallet', role: 'admin' },
      });

      expect((await h().stateOf(t.orgId)).members).toEqual([
        [t.owner.email, 'owner'],
        [t.admin.email, 'admin'],
        [t.member.email, 'member'],
        ['dana@example.com', 'admin'],
      ]);
      const [row] = await invitationsIn(t.orgId);
      expect({ acceptedBy: row.acceptedBy, accepted: row.acceptedAt instanceof Date }).toEqual({ acceptedBy: dana.id, accepted: true });
      expect((await dana.call('GET', '/portal/api/me')).body.memberships).toEqual([
        { orgId: t.orgId, orgName: 'Acme Wallet', role: 'admin' },
      ]);
    });

    it('is single-use: a second accept and a later look answer 404; the membership is not touched', async () => {
      const t = await team();
      const token = tokenOf(await invite(t.owner, t.orgId, 'dana@example.com', 'member'));
      const dana = await h().person('dana', 'dana@example.com');
      expect((await dana.call('POST', `/portal/api/invitations/${token}/accept`)).status).toBe(200);
      // Promoted since: a second use must not put the invited role back.
      expect((await t.owner.call('PATCH', `/portal/api/orgs/${t.orgId}/members/${dana.id}`, { role: 'admin' })).status).toBe(200);
      const before = await h().stateOf(t.orgId);

      const again = await dana.call('POST', `/portal/api/invitations/${token}/accept`);
      const look = await dana.call('GET', `/portal/api/invitations/${token}`);

      expect([again, look]).toEqual([
        { status: 404, body: expect.objectContaining({ code: 'NOT_FOUND', message: GONE }) },
        { status: 404, body: expect.objectContaining({ code: 'NOT_FOUND', message: GONE }) },
      ]);
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });

    it('is single-use under two accepts at the same moment: one 200, one 404, one membership', async () => {
      const t = await team();
      const token = tokenOf(await invite(t.owner, t.orgId, 'dana@example.com', 'member'));
      const dana = await h().person('dana', 'dana@example.com');

      const answers = await Promise.all([1, 2, 3].map(() => dana.call('POST', `/portal/api/invitations/${token}/accept`)));

      expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404]);
      expect(await h().db.membership.count({ where: { orgId: t.orgId, userId: dana.id } })).toBe(1);
    });

    it('is bound to its email: someone else signed in gets 403, does not join, and the invitation stays open for the invited one', async () => {
      const t = await team();
      const token = tokenOf(await invite(t.owner, t.orgId, 'dana@example.com', 'admin'));
      const eve = await h().person('eve');
      const before = await h().stateOf(t.orgId);

      const res = await eve.call('POST', `/portal/api/invitations/${token}/accept`);

      expect(res).toEqual({
        status: 403,
        body: expect.objectContaining({
          code: 'FORBIDDEN',
          message: 'This invitation is for another email address; sign in with the invited one',
        }),
      });
      expect(await h().stateOf(t.orgId)).toEqual(before);
      expect(before.invitations).toEqual([{ email: 'dana@example.com', role: 'admin', accepted: false }]);
      const dana = await h().person('dana', 'dana@example.com');
      expect((await dana.call('POST', `/portal/api/invitations/${token}/accept`)).status).toBe(200);
    });

    it('needs a session: without one, accepting answers 401 and the invitation stays open', async () => {
      const t = await team();
      const token = tokenOf(await invite(t.owner, t.orgId, 'dana@example.com'));
      const anonymous = await h().anonymous();
      const before = await h().stateOf(t.orgId);

      expect(await anonymous.call('POST', `/portal/api/invitations/${token}/accept`)).toEqual({
        status: 401,
        body: expect.objectContaining({ code: 'UNAUTHORIZED', message: 'Sign in first (no session, or it expired)' }),
      });
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });

    it('expires: after its time, accepting and looking answer 404, it is no longer listed, and no one joins', async () => {
      const t = await team();
      const res = await invite(t.owner, t.orgId, 'dana@example.com');
      const token = tokenOf(res);
      await h().db.invitation.update({ where: { id: res.body.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
      const dana = await h().person('dana', 'dana@example.com');
      const before = await h().stateOf(t.orgId);

      const accepted = await dana.call('POST', `/portal/api/invitations/${token}/accept`);
      const looked = await dana.call('GET', `/portal/api/invitations/${token}`);
      const listed = await t.owner.call('GET', `/portal/api/orgs/${t.orgId}/invitations`);

      expect([accepted.status, accepted.body.message, looked.status, looked.body.message]).toEqual([404, GONE, 404, GONE]);
      expect(listed).toEqual({ status: 200, body: [] });
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });

    it('refuses someone who joined in the meantime with 409, and the invitation is not used up', async () => {
      const t = await team();
      const token = tokenOf(await invite(t.owner, t.orgId, 'dana@example.com', 'admin'));
      const dana = await h().person('dana', 'dana@example.com');
      await h().db.membership.create({ data: { orgId: t.orgId, orgName: 'Acme Wallet', userId: dana.id, role: 'member' } });
      const before = await h().stateOf(t.orgId);

      expect(await dana.call('POST', `/portal/api/invitations/${token}/accept`)).toEqual({
        status: 409,
        body: expect.objectContaining({ code: 'CONFLICT', message: 'You are already a member of Acme Wallet' }),
      });
      expect(await h().stateOf(t.orgId)).toEqual(before);
      expect(before.invitations).toEqual([{ email: 'dana@example.com', role: 'admin', accepted: false }]);
    });

    it('answers 404 for a token that was never issued', async () => {
      const dana = await h().person('dana');

      expect((await dana.call('POST', `/portal/api/invitations/${'A'.repeat(32)}/accept`)).status).toBe(404);
      expect((await dana.call('GET', `/portal/api/invitations/${'A'.repeat(32)}`)).status).toBe(404);
    });
  });

  describe('listing and withdrawing', () => {
    it.each<'owner' | 'admin'>(['owner', 'admin'])(
      'an %s sees the open invitations only (not used, not expired), in the order they were made',
      async (who) => {
        const t = await team();
        const used = await invite(t.owner, t.orgId, 'used@example.com');
        const expired = await invite(t.owner, t.orgId, 'expired@example.com');
        const open = await invite(t.owner, t.orgId, 'open@example.com', 'admin');
        const later = await invite(t.admin, t.orgId, 'later@example.com');
        const user = await h().person('used', 'used@example.com');
        expect((await user.call('POST', `/portal/api/invitations/${used.body.token}/accept`)).status).toBe(200);
        await h().db.invitation.update({ where: { id: expired.body.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });

        const res = await t[who].call('GET', `/portal/api/orgs/${t.orgId}/invitations`);

        expect(res.status).toBe(200);
        expect(res.body).toEqual(
          [open, later].map((i) => ({
            id: i.body.id,
            email: i.body.email,
            role: i.body.role,
            createdAt: expect.stringMatching(ISO),
            expiresAt: i.body.expiresAt,
          })),
        );
      },
    );

    it('refuses a member listing or withdrawing invitations with 403; the invitation stays', async () => {
      const t = await team();
      const res = await invite(t.owner, t.orgId, 'dana@example.com');
      const before = await h().stateOf(t.orgId);

      const listed = await t.member.call('GET', `/portal/api/orgs/${t.orgId}/invitations`);
      const withdrawn = await t.member.call('DELETE', `/portal/api/orgs/${t.orgId}/invitations/${res.body.id}`);

      expect([listed.status, listed.body.message, withdrawn.status, withdrawn.body.message]).toEqual([
        403,
        'Only an owner or an admin may list invitations; you are a member of this organisation',
        403,
        'Only an owner or an admin may revoke invitations; you are a member of this organisation',
      ]);
      expect(await h().stateOf(t.orgId)).toEqual(before);
    });

    it.each<'owner' | 'admin'>(['owner', 'admin'])(
      'an %s withdraws an open invitation (204): its link then answers 404; withdrawing again answers 404',
      async (who) => {
        const t = await team();
        const res = await invite(t.owner, t.orgId, 'dana@example.com');
        const dana = await h().person('dana', 'dana@example.com');

        expect((await t[who].call('DELETE', `/portal/api/orgs/${t.orgId}/invitations/${res.body.id}`)).status).toBe(204);

        expect(await invitationsIn(t.orgId)).toEqual([]);
        expect((await dana.call('POST', `/portal/api/invitations/${res.body.token}/accept`)).status).toBe(404);
        expect(await t[who].call('DELETE', `/portal/api/orgs/${t.orgId}/invitations/${res.body.id}`)).toEqual({
          status: 404,
          body: expect.objectContaining({ code: 'NOT_FOUND', message: 'Invitation not found; it may have been accepted or revoked' }),
        });
        expect((await h().stateOf(t.orgId)).members.map(([email]) => email)).not.toContain('dana@example.com');
      },
    );

    it('cannot withdraw an invitation already accepted (404); the membership and the record stay', async () => {
      const t = await team();
      const res = await invite(t.owner, t.orgId, 'dana@example.com');
      const dana = await h().person('dana', 'dana@example.com');
      expect((await dana.call('POST', `/portal/api/invitations/${res.body.token}/accept`)).status).toBe(200);
      const before = await h().stateOf(t.orgId);

      expect((await t.owner.call('DELETE', `/portal/api/orgs/${t.orgId}/invitations/${res.body.id}`)).status).toBe(404);

      expect(await h().stateOf(t.orgId)).toEqual(before);
    });
  });

  describe("an operator's invitation of the first owner", () => {
    const opsInvite = (orgId: string, body: unknown, token: string | null = TESTER_TOKEN): Promise<Answer> =>
      fetch(`${h().url}/ops/organisations/${orgId}/invitations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    it('invites an owner to an organisation key-registry knows and the portal does not; accepting makes them its owner', async () => {
      const legacy = h().registry.addOrganisation('Legacy Ltd');
      h().track(legacy.id);

      const res = await opsInvite(legacy.id, { email: 'First@Legacy.example' });

      expect(res).toEqual({
        status: 201,
        body: expect.objectContaining({ email: 'first@legacy.example', role: 'owner', token: expect.any(String) }),
      });
      const [row] = await invitationsIn(legacy.id);
      expect({ orgName: row.orgName, invitedBy: row.invitedBy }).toEqual({ orgName: 'Legacy Ltd', invitedBy: 'operator:tester' });
      const first = await h().person('first', 'first@legacy.example');
      expect((await first.call('POST', `/portal/api/invitations/${res.body.token}/accept`)).body).toEqual({
        orgId: legacy.id,
        orgName: 'Legacy Ltd',
        role: 'owner',
      });
      expect((await h().stateOf(legacy.id)).members).toEqual([['first@legacy.example', 'owner']]);
    });

    it('answers 404 for an organisation key-registry does not know, and 401 without the operator token; nothing is stored', async () => {
      const legacy = h().registry.addOrganisation('Legacy Ltd');
      h().track(legacy.id);
      const unknown = '00000000-0000-4000-8000-000000000000';

      const [missing, anonymous] = [
        await opsInvite(unknown, { email: 'a@example.com' }),
        await opsInvite(legacy.id, { email: 'a@example.com' }, null),
      ];

      expect([missing.status, missing.body.message, anonymous.status, anonymous.body.message]).toEqual([
        404,
        'Organisation not found',
        401,
        'Operator routes need Authorization: Bearer <OPS_TOKEN>',
      ]);
      expect(await h().db.invitation.count({ where: { orgId: { in: [unknown, legacy.id] } } })).toBe(0);
    });
  });
});
