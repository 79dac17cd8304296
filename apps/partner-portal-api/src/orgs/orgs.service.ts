import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode, Subjects } from '@swap/contracts';
import { hashKey } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import { randomBytes } from 'node:crypto';
import { PrismaClient, type Membership, type Prisma, type Role } from '../generated/prisma/client';
import { PartnerPortalApiConfig } from '../partner-portal-api.config';
import type { PortalUser } from '../auth/sessions.service';
import { callService } from '../service-calls';
import { PortalCounters } from '../auth/portal-counters';
import { InvitationMail } from './invitation-mail';

export const MANAGERS: Role[] = ['owner', 'admin'];

const notFound = () => new AppError(404, ErrorCode.NotFound, 'Organisation not found');

export function actorOf(user: PortalUser): string {
  return `user:${user.id}`;
}

/** Memberships and invitations (organisations live in key-registry); roles: docs/integrators/partner-portal.md#the-api. */
@Injectable()
export class OrgsService {
  constructor(
    private readonly db: PrismaClient,
    private readonly messaging: MessagingClient,
    private readonly config: PartnerPortalApiConfig,
    private readonly mail: InvitationMail,
    private readonly counters: PortalCounters,
  ) {}

  /** Any role when `roles` is omitted. */
  async member(user: PortalUser, orgId: string, roles?: Role[], doing = 'do this'): Promise<Membership> {
    const membership = await this.db.membership.findUnique({ where: { orgId_userId: { orgId, userId: user.id } } });
    if (!membership) throw notFound();
    if (roles && !roles.includes(membership.role)) {
      throw new AppError(
        403,
        ErrorCode.Forbidden,
        `Only ${roles.map((r) => `an ${r}`).join(' or ')} may ${doing}; you are a ${membership.role} of this organisation`,
      );
    }
    return membership;
  }

  async create(user: PortalUser, name: string) {
    const org = await callService('key service', () => this.messaging.request(Subjects.orgCreate, { name, actor: actorOf(user) }));
    await this.db.membership.create({ data: { orgId: org.id, orgName: org.name, userId: user.id, role: 'owner' } });
    return { id: org.id, name: org.name, role: 'owner' as const };
  }

  async members(user: PortalUser, orgId: string) {
    await this.member(user, orgId, MANAGERS, 'list the members');
    const rows = await this.db.membership.findMany({ where: { orgId }, include: { user: true }, orderBy: { createdAt: 'asc' } });
    return rows.map((m) => ({ userId: m.userId, email: m.user.email, role: m.role, joinedAt: m.createdAt.toISOString() }));
  }

  /** The rows are locked, so two changes at once cannot both remove "the other" owner. */
  async changeRole(user: PortalUser, orgId: string, userId: string, role: Role) {
    return this.db.$transaction(async (tx) => {
      const { rows, me } = await lockMembers(tx, orgId, user);
      if (!MANAGERS.includes(me.role))
        throw new AppError(
          403,
          ErrorCode.Forbidden,
          `Only an owner or an admin may change roles; you are a ${me.role} of this organisation`,
        );
      const target = rows.find((r) => r.user_id === userId);
      if (!target) throw new AppError(404, ErrorCode.NotFound, 'No such member of this organisation');
      if (me.role !== 'owner' && (role === 'owner' || target.role === 'owner'))
        throw new AppError(403, ErrorCode.Forbidden, 'Only an owner may make someone an owner or change an owner’s role');
      if (role !== 'owner' && isLastOwner(rows, target))
        throw new AppError(409, ErrorCode.Conflict, 'The last owner cannot give up the role; make another member an owner first');
      const updated = await tx.membership.update({ where: { orgId_userId: { orgId, userId } }, data: { role }, include: { user: true } });
      return { userId: updated.userId, email: updated.user.email, role: updated.role, joinedAt: updated.createdAt.toISOString() };
    });
  }

  async removeMember(user: PortalUser, orgId: string, userId: string): Promise<void> {
    await this.db.$transaction(async (tx) => {
      const { rows, me } = await lockMembers(tx, orgId, user);
      const target = rows.find((r) => r.user_id === userId);
      if (userId !== user.id) {
        if (!MANAGERS.includes(me.role))
          throw new AppError(
            403,
            ErrorCode.Forbidden,
            `Only an owner or an admin may remove members; you are a ${me.role} of this organisation`,
          );
        if (!target) throw new AppError(404, ErrorCode.NotFound, 'No such member of this organisation');
        if (target.role === 'owner' && me.role !== 'owner')
          throw new AppError(403, ErrorCode.Forbidden, 'Only an owner may remove an owner');
      }
      if (isLastOwner(rows, target!))
        throw new AppError(409, ErrorCode.Conflict, 'The last owner cannot leave; make another member an owner first');
      await tx.membership.delete({ where: { orgId_userId: { orgId, userId } } });
    });
  }

  async invite(user: PortalUser, orgId: string, email: string, role: Role) {
    const me = await this.member(user, orgId, MANAGERS, 'invite members');
    const already = await this.db.membership.findFirst({ where: { orgId, user: { email: email.trim().toLowerCase() } } });
    if (already)
      throw new AppError(
        409,
        ErrorCode.Conflict,
        `${email.trim().toLowerCase()} is already ${already.role === 'member' ? 'a' : 'an'} ${already.role} of this organisation`,
      );
    await this.countInvitation(user);
    return this.createInvitation(orgId, me.orgName, email, role, actorOf(user));
  }

  /** INVITATIONS_PER_DAY per person (withdrawn ones count: their e-mail went out); one count in a fixed window, so a refused one extends nothing. */
  private async countInvitation(user: PortalUser): Promise<void> {
    const { count, resetMs } = await this.counters.count(`portal:invitations:${user.id}`, 1, 24 * 3_600_000);
    if (count > this.config.INVITATIONS_PER_DAY)
      throw new AppError(
        429,
        ErrorCode.TooManyRequests,
        `You have sent ${this.config.INVITATIONS_PER_DAY} invitations in 24 hours, the most allowed; try again in ${Math.ceil(resetMs / 60_000)} minutes`,
      );
  }

  /** The first owner of an organisation made before the portal. */
  async inviteOwner(orgId: string, email: string, operator: string) {
    const org = (await this.messaging.request(Subjects.orgList, {})).find((o) => o.id === orgId);
    if (!org) throw notFound();
    return this.createInvitation(orgId, org.name, email, 'owner', operator);
  }

  async invitations(user: PortalUser, orgId: string) {
    await this.member(user, orgId, MANAGERS, 'list invitations');
    const rows = await this.db.invitation.findMany({
      where: { orgId, acceptedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      createdAt: i.createdAt.toISOString(),
      expiresAt: i.expiresAt.toISOString(),
    }));
  }

  async revokeInvitation(user: PortalUser, orgId: string, invitationId: string): Promise<void> {
    await this.member(user, orgId, MANAGERS, 'revoke invitations');
    const { count } = await this.db.invitation.deleteMany({ where: { id: invitationId, orgId, acceptedAt: null } });
    if (count === 0) throw new AppError(404, ErrorCode.NotFound, 'Invitation not found; it may have been accepted or revoked');
  }

  async preview(token: string) {
    const found = await openInvitation(this.db, token);
    return { orgName: found.orgName, role: found.role, email: found.email, expiresAt: found.expiresAt.toISOString() };
  }

  /** Claimed by one conditional UPDATE, so two accepts at once cannot both join. */
  async accept(user: PortalUser, token: string) {
    return this.db.$transaction(async (tx) => {
      const found = await openInvitation(tx, token);
      if (found.email !== user.email)
        throw new AppError(403, ErrorCode.Forbidden, 'This invitation is for another email address; sign in with the invited one');
      const { count } = await tx.invitation.updateMany({
        where: { id: found.id, acceptedAt: null },
        data: { acceptedAt: new Date(), acceptedBy: user.id },
      });
      if (count === 0) throw invitationGone();
      const existing = await tx.membership.findUnique({ where: { orgId_userId: { orgId: found.orgId, userId: user.id } } });
      if (existing) throw new AppError(409, ErrorCode.Conflict, `You are already a ${existing.role} of ${found.orgName}`);
      await tx.membership.create({ data: { orgId: found.orgId, orgName: found.orgName, userId: user.id, role: found.role } });
      return { orgId: found.orgId, orgName: found.orgName, role: found.role };
    });
  }

  private async createInvitation(orgId: string, orgName: string, email: string, role: Role, invitedBy: string) {
    const token = randomBytes(24).toString('base64url');
    const row = await this.db.invitation.create({
      data: {
        tokenHash: hashKey(token),
        orgId,
        orgName,
        email: email.trim().toLowerCase(),
        role,
        invitedBy,
        expiresAt: new Date(Date.now() + this.config.INVITATION_TTL_MS),
      },
    });
    const link = `${this.config.PORTAL_PUBLIC_URL.replace(/\/+$/, '')}/portal/invitations/${token}`;
    const expiresAt = row.expiresAt.toISOString();
    const mailed = await this.mail.send({ email: row.email, orgName, role, link, expiresAt });
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      expiresAt,
      token,
      link,
      emailSent: mailed?.sent === true,
      ...(mailed && !mailed.sent ? { emailError: mailed.error } : {}),
    };
  }
}

type Tx = Prisma.TransactionClient;
type MemberRow = { user_id: string; role: Role };

/** 404 if the caller is not a member. */
async function lockMembers(tx: Tx, orgId: string, user: PortalUser): Promise<{ rows: MemberRow[]; me: MemberRow }> {
  const rows = await tx.$queryRaw<
    MemberRow[]
  >`SELECT user_id::text, role::text AS role FROM partner_portal_api.memberships WHERE org_id = ${orgId}::uuid FOR UPDATE`;
  const me = rows.find((r) => r.user_id === user.id);
  if (!me) throw notFound();
  return { rows, me };
}

function isLastOwner(rows: MemberRow[], member: MemberRow): boolean {
  return member.role === 'owner' && rows.filter((r) => r.role === 'owner').length === 1;
}

const invitationGone = () => new AppError(404, ErrorCode.NotFound, 'Invitation not found, already used or expired; ask for a new one');

async function openInvitation(db: Pick<Tx, 'invitation'>, token: string) {
  const found = await db.invitation.findUnique({ where: { tokenHash: hashKey(token) } });
  if (!found || found.acceptedAt || found.expiresAt.getTime() <= Date.now()) throw invitationGone();
  return found;
}
