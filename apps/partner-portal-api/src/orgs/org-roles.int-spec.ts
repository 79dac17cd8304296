import type { Role } from '../generated/prisma/client';
import { portalHarnessPerSuite, UUID, type OrgState, type Person } from '../testing/portal-harness';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const ONLY_MANAGERS_CHANGE = 'Only an owner or an admin may change roles; you are a member of this organisation';
const ONLY_OWNERS_TOUCH_OWNERS = 'Only an owner may make someone an owner or change an owner’s role';
const ONLY_MANAGERS_REMOVE = 'Only an owner or an admin may remove members; you are a member of this organisation';
const LAST_OWNER_STAYS = 'The last owner cannot give up the role; make another member an owner first';
const LAST_OWNER_CANNOT_LEAVE = 'The last owner cannot leave; make another member an owner first';

type Seat = 'owner' | 'second owner' | 'admin' | 'other admin' | 'member' | 'other member';
const ROLE_OF: Record<Seat, Role> = {
  owner: 'owner',
  'second owner': 'owner',
  admin: 'admin',
  'other admin': 'admin',
  member: 'member',
  'other member': 'member',
};

/** The state with one member's role changed, or one member gone (`role` undefined). */
function withMember(state: OrgState, email: string, role: Role | undefined): OrgState {
  const members = state.members.flatMap(([e, r]): [string, Role][] => (e !== email ? [[e, r]] : role ? [[e, role]] : []));
  return { ...state, members };
}

describe('organisation roles: who changes roles, who removes members, the last owner (partner-portal-api over PostgreSQL, NATS, Redis)', () => {
  const h = portalHarnessPerSuite();

  /** An organisation with a person in each of `seats` (the first owner creates it). */
  async function team(seats: Seat[]): Promise<{ orgId: string; seat: Record<Seat, Person> }> {
    const seat = {} as Record<Seat, Person>;
    for (const s of seats) seat[s] = await h().person(s.replace(' ', '-'));
    const orgId = await h().org(
      seat.owner,
      seats.filter((s) => s !== 'owner').map((s) => [seat[s], ROLE_OF[s]]),
    );
    return { orgId, seat };
  }
  const everyone: Seat[] = ['owner', 'second owner', 'admin', 'other admin', 'member', 'other member'];

  it('makes the creator of an organisation its only owner', async () => {
    const ada = await h().person('ada');

    const created = await ada.call('POST', '/portal/api/orgs', { name: '  Acme Wallet ' });
    h().track(created.body.id);

    expect(created).toEqual({ status: 201, body: { id: expect.stringMatching(UUID), name: 'Acme Wallet', role: 'owner' } });
    expect(await h().stateOf(created.body.id)).toEqual({ members: [[ada.email, 'owner']], invitations: [], keys: [] });
    expect(h().registry.requestsOn('key-registry.orgs.create.v1')).toEqual([{ name: 'Acme Wallet', actor: `user:${ada.id}` }]);
  });

  describe('listing members', () => {
    it.each<Seat>(['owner', 'admin'])('answers the members with their roles, in the order they joined, to an %s', async (who) => {
      const { orgId, seat } = await team(['owner', 'admin', 'member']);

      const res = await seat[who].call('GET', `/portal/api/orgs/${orgId}/members`);

      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        (['owner', 'admin', 'member'] as const).map((s) => ({
          userId: seat[s].id,
          email: seat[s].email,
          role: s,
          joinedAt: expect.stringMatching(ISO),
        })),
      );
    });

    it('refuses a member with 403 naming the roles that may', async () => {
      const { orgId, seat } = await team(['owner', 'member']);

      expect(await seat.member.call('GET', `/portal/api/orgs/${orgId}/members`)).toEqual({
        status: 403,
        body: expect.objectContaining({
          code: 'FORBIDDEN',
          message: 'Only an owner or an admin may list the members; you are a member of this organisation',
        }),
      });
    });
  });

  describe('changing roles', () => {
    it.each<[Seat, Seat, Role]>([
      ['owner', 'member', 'admin'],
      ['owner', 'member', 'owner'],
      ['owner', 'admin', 'member'],
      ['owner', 'second owner', 'member'],
      ['owner', 'second owner', 'admin'],
      ['admin', 'member', 'admin'],
      ['admin', 'other admin', 'member'],
      ['admin', 'admin', 'member'],
      ['second owner', 'owner', 'admin'],
    ])('lets the %s give the %s the role %s; only that role changes', async (actor, target, role) => {
      const { orgId, seat } = await team(everyone);
      const before = await h().stateOf(orgId);

      const res = await seat[actor].call('PATCH', `/portal/api/orgs/${orgId}/members/${seat[target].id}`, { role });

      expect(res).toEqual({
        status: 200,
        body: { userId: seat[target].id, email: seat[target].email, role, joinedAt: expect.stringMatching(ISO) },
      });
      expect(await h().stateOf(orgId)).toEqual(withMember(before, seat[target].email, role));
    });

    it.each<[Seat, Seat, Role, string]>([
      ['admin', 'member', 'owner', ONLY_OWNERS_TOUCH_OWNERS],
      ['admin', 'admin', 'owner', ONLY_OWNERS_TOUCH_OWNERS],
      ['admin', 'owner', 'admin', ONLY_OWNERS_TOUCH_OWNERS],
      ['admin', 'second owner', 'member', ONLY_OWNERS_TOUCH_OWNERS],
      ['member', 'other member', 'admin', ONLY_MANAGERS_CHANGE],
      ['member', 'member', 'admin', ONLY_MANAGERS_CHANGE],
      ['member', 'admin', 'member', ONLY_MANAGERS_CHANGE],
      ['member', 'owner', 'member', ONLY_MANAGERS_CHANGE],
    ])('refuses the %s giving the %s the role %s with 403; nothing changes', async (actor, target, role, message) => {
      const { orgId, seat } = await team(everyone);
      const before = await h().stateOf(orgId);

      const res = await seat[actor].call('PATCH', `/portal/api/orgs/${orgId}/members/${seat[target].id}`, { role });

      expect(res).toEqual({ status: 403, body: expect.objectContaining({ code: 'FORBIDDEN', message }) });
      expect(await h().stateOf(orgId)).toEqual(before);
    });

    it('answers 404 for someone who is not a member of this organisation (a member of another one); nothing changes', async () => {
      const { orgId, seat } = await team(['owner', 'member']);
      const outsider = await h().person('outsider');
      const elsewhere = await h().org(outsider);
      const [before, beforeElsewhere] = [await h().stateOf(orgId), await h().stateOf(elsewhere)];

      const res = await seat.owner.call('PATCH', `/portal/api/orgs/${orgId}/members/${outsider.id}`, { role: 'member' });

      expect(res).toEqual({
        status: 404,
        body: expect.objectContaining({ code: 'NOT_FOUND', message: 'No such member of this organisation' }),
      });
      expect([await h().stateOf(orgId), await h().stateOf(elsewhere)]).toEqual([before, beforeElsewhere]);
    });
  });

  describe('removing members and leaving', () => {
    it.each<[string, Seat, Seat]>([
      ['the owner removes a member', 'owner', 'member'],
      ['the owner removes an admin', 'owner', 'admin'],
      ['the owner removes another owner', 'owner', 'second owner'],
      ['an admin removes a member', 'admin', 'member'],
      ['an admin removes another admin', 'admin', 'other admin'],
      ['a member leaves', 'member', 'member'],
      ['an admin leaves', 'admin', 'admin'],
      ['an owner leaves while another owner stays', 'owner', 'owner'],
    ])('%s (204); only that membership goes, and the organisation is gone for them', async (_case, actor, target) => {
      const { orgId, seat } = await team(everyone);
      const before = await h().stateOf(orgId);

      expect(await seat[actor].call('DELETE', `/portal/api/orgs/${orgId}/members/${seat[target].id}`)).toEqual({
        status: 204,
        body: undefined,
      });

      expect(await h().stateOf(orgId)).toEqual(withMember(before, seat[target].email, undefined));
      expect(await seat[target].call('GET', `/portal/api/orgs/${orgId}/keys`)).toEqual({
        status: 404,
        body: expect.objectContaining({ message: 'Organisation not found' }),
      });
      expect((await seat[target].call('GET', '/portal/api/me')).body.memberships).toEqual([]);
    });

    it.each<[Seat, Seat, string]>([
      ['admin', 'owner', 'Only an owner may remove an owner'],
      ['admin', 'second owner', 'Only an owner may remove an owner'],
      ['member', 'other member', ONLY_MANAGERS_REMOVE],
      ['member', 'admin', ONLY_MANAGERS_REMOVE],
      ['member', 'owner', ONLY_MANAGERS_REMOVE],
    ])('refuses the %s removing the %s with 403; nothing changes', async (actor, target, message) => {
      const { orgId, seat } = await team(everyone);
      const before = await h().stateOf(orgId);

      const res = await seat[actor].call('DELETE', `/portal/api/orgs/${orgId}/members/${seat[target].id}`);

      expect(res).toEqual({ status: 403, body: expect.objectContaining({ code: 'FORBIDDEN', message }) });
      expect(await h().stateOf(orgId)).toEqual(before);
    });

    it('answers 404 when the person to remove is not a member; nothing changes', async () => {
      const { orgId, seat } = await team(['owner', 'member']);
      const outsider = await h().person('outsider');
      const before = await h().stateOf(orgId);

      const res = await seat.owner.call('DELETE', `/portal/api/orgs/${orgId}/members/${outsider.id}`);

      expect(res).toEqual({
        status: 404,
        body: expect.objectContaining({ code: 'NOT_FOUND', message: 'No such member of this organisation' }),
      });
      expect(await h().stateOf(orgId)).toEqual(before);
    });
  });

  describe('the last owner', () => {
    it('cannot leave (409); the membership stays', async () => {
      const { orgId, seat } = await team(['owner', 'admin', 'member']);
      const before = await h().stateOf(orgId);

      const res = await seat.owner.call('DELETE', `/portal/api/orgs/${orgId}/members/${seat.owner.id}`);

      expect(res).toEqual({ status: 409, body: expect.objectContaining({ code: 'CONFLICT', message: LAST_OWNER_CANNOT_LEAVE }) });
      expect(await h().stateOf(orgId)).toEqual(before);
    });

    it.each<Role>(['admin', 'member'])('cannot step down to %s (409); the role stays', async (role) => {
      const { orgId, seat } = await team(['owner', 'admin', 'member']);
      const before = await h().stateOf(orgId);

      const res = await seat.owner.call('PATCH', `/portal/api/orgs/${orgId}/members/${seat.owner.id}`, { role });

      expect(res).toEqual({ status: 409, body: expect.objectContaining({ code: 'CONFLICT', message: LAST_OWNER_STAYS }) });
      expect(await h().stateOf(orgId)).toEqual(before);
    });

    it('cannot be demoted or removed by an admin (403); nothing changes', async () => {
      const { orgId, seat } = await team(['owner', 'admin']);
      const before = await h().stateOf(orgId);

      const demoted = await seat.admin.call('PATCH', `/portal/api/orgs/${orgId}/members/${seat.owner.id}`, { role: 'member' });
      const removed = await seat.admin.call('DELETE', `/portal/api/orgs/${orgId}/members/${seat.owner.id}`);

      expect([demoted.status, demoted.body.message, removed.status, removed.body.message]).toEqual([
        403,
        ONLY_OWNERS_TOUCH_OWNERS,
        403,
        'Only an owner may remove an owner',
      ]);
      expect(await h().stateOf(orgId)).toEqual(before);
    });

    it('may leave once another member is an owner, who is then the last owner and cannot leave', async () => {
      const { orgId, seat } = await team(['owner', 'admin']);

      expect((await seat.owner.call('PATCH', `/portal/api/orgs/${orgId}/members/${seat.admin.id}`, { role: 'owner' })).status).toBe(200);
      expect((await seat.owner.call('DELETE', `/portal/api/orgs/${orgId}/members/${seat.owner.id}`)).status).toBe(204);
      const left = await seat.admin.call('DELETE', `/portal/api/orgs/${orgId}/members/${seat.admin.id}`);

      expect([left.status, left.body.message]).toEqual([409, LAST_OWNER_CANNOT_LEAVE]);
      expect((await h().stateOf(orgId)).members).toEqual([[seat.admin.email, 'owner']]);
    });

    it('stays with one of two owners who demote each other at the same moment (one 200, one 403)', async () => {
      const teams = await Promise.all(Array.from({ length: 4 }, () => team(['owner', 'second owner'])));

      const outcomes = await Promise.all(
        teams.map(async ({ orgId, seat }) => {
          const [a, b] = await Promise.all([
            seat.owner.call('PATCH', `/portal/api/orgs/${orgId}/members/${seat['second owner'].id}`, { role: 'admin' }),
            seat['second owner'].call('PATCH', `/portal/api/orgs/${orgId}/members/${seat.owner.id}`, { role: 'admin' }),
          ]);
          const owners = await h().db.membership.count({ where: { orgId, role: 'owner' } });
          return { statuses: [a.status, b.status].sort(), owners };
        }),
      );

      expect(outcomes).toEqual(teams.map(() => ({ statuses: [200, 403], owners: 1 })));
    });

    it('stays with one of two owners who leave at the same moment (one 204, one 409)', async () => {
      const teams = await Promise.all(Array.from({ length: 4 }, () => team(['owner', 'second owner'])));

      const outcomes = await Promise.all(
        teams.map(async ({ orgId, seat }) => {
          const [a, b] = await Promise.all([
            seat.owner.call('DELETE', `/portal/api/orgs/${orgId}/members/${seat.owner.id}`),
            seat['second owner'].call('DELETE', `/portal/api/orgs/${orgId}/members/${seat['second owner'].id}`),
          ]);
          const owners = await h().db.membership.count({ where: { orgId, role: 'owner' } });
          return { statuses: [a.status, b.status].sort(), owners };
        }),
      );

      expect(outcomes).toEqual(teams.map(() => ({ statuses: [204, 409], owners: 1 })));
    });

    it('stays with one of two owners who step down at the same moment (one 200, one 409)', async () => {
      const teams = await Promise.all(Array.from({ length: 4 }, () => team(['owner', 'second owner'])));

      const outcomes = await Promise.all(
        teams.map(async ({ orgId, seat }) => {
          const [a, b] = await Promise.all(
            (['owner', 'second owner'] as const).map((s) =>
              seat[s].call('PATCH', `/portal/api/orgs/${orgId}/members/${seat[s].id}`, { role: 'member' }),
            ),
          );
          const owners = await h().db.membership.count({ where: { orgId, role: 'owner' } });
          return { statuses: [a.status, b.status].sort(), owners };
        }),
      );

      expect(outcomes).toEqual(teams.map(() => ({ statuses: [200, 409], owners: 1 })));
    });

    it('stays with an owner when one owner demotes the other and leaves at the same moment', async () => {
      const { orgId, seat } = await team(['owner', 'second owner']);

      const [demoted, left] = await Promise.all([
        seat.owner.call('PATCH', `/portal/api/orgs/${orgId}/members/${seat['second owner'].id}`, { role: 'member' }),
        seat.owner.call('DELETE', `/portal/api/orgs/${orgId}/members/${seat.owner.id}`),
      ]);

      // Demoted first: the one who leaves is then the last owner (409). Left first: the demotion
      // comes from someone no longer a member (404).
      expect([
        { demoted: 200, left: 409, owner: seat.owner.email },
        { demoted: 404, left: 204, owner: seat['second owner'].email },
      ]).toContainEqual({
        demoted: demoted.status,
        left: left.status,
        owner: (await h().stateOf(orgId)).members
          .filter(([, role]) => role === 'owner')
          .map(([email]) => email)
          .join(),
      });
    });
  });
});
