import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/* What the portal's routes answer, as the OpenAPI document describes them. */

const ROLES = ['owner', 'admin', 'member'];

export class CsrfView {
  @ApiProperty({ description: 'Echo it in x-csrf-token on every mutation (also set as the portal_csrf cookie)' })
  csrfToken!: string;
}

class UserView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'dev@acme.example' })
  email!: string;
}

export class SessionUserView {
  @ApiProperty({ type: UserView })
  user!: UserView;
}

class MembershipView {
  @ApiProperty({ format: 'uuid' })
  orgId!: string;

  @ApiProperty({ example: 'Acme Wallet' })
  orgName!: string;

  @ApiProperty({ enum: ROLES })
  role!: string;
}

export class MeView {
  @ApiProperty({ type: UserView })
  user!: UserView;

  @ApiProperty({ type: [MembershipView] })
  memberships!: MembershipView[];
}

export class OrgView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Acme Wallet' })
  name!: string;

  @ApiProperty({ enum: ['owner'] })
  role!: string;
}

export class PortalKeyViewDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'production' })
  name!: string;

  @ApiProperty({ example: 'svc_Ab3dE6gH', description: 'svc_ and the first eight characters of the secret; not secret' })
  prefix!: string;

  @ApiProperty({ example: ['swaps:read', 'swaps:write'], type: [String] })
  permissions!: string[];

  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' })
  createdAt!: string;
}

export class CreatedKeyView extends PortalKeyViewDto {
  @ApiProperty({ example: 'svc_Ab3dE6gH…', description: 'The full key, shown in this answer only; keep it on a server' })
  key!: string;
}

export class MemberView {
  @ApiProperty({ format: 'uuid' })
  userId!: string;

  @ApiProperty()
  email!: string;

  @ApiProperty({ enum: ROLES })
  role!: string;

  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' })
  joinedAt!: string;
}

export class InvitationView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  email!: string;

  @ApiProperty({ enum: ['admin', 'member'] })
  role!: string;

  @ApiPropertyOptional({ example: '2026-11-23T10:00:00.000Z' })
  createdAt?: string;

  @ApiProperty({ example: '2026-11-30T10:00:00.000Z' })
  expiresAt!: string;
}

export class CreatedInvitationView extends InvitationView {
  @ApiProperty({ description: 'The secret of the invitation link' })
  token!: string;

  @ApiProperty({ example: 'https://portal.example.com/portal/invitations/…' })
  link!: string;

  @ApiProperty({ description: 'Whether the link was e-mailed to the invited address (false without SMTP_URL: copy the link)' })
  emailSent!: boolean;

  @ApiPropertyOptional({
    description: 'Why the e-mail was not sent after its attempts, in a partner’s words (the mail server’s own reply is logged)',
    example: 'the mail server refused it (SMTP 550)',
  })
  emailError?: string;
}

export class InvitationPreview {
  @ApiProperty({ example: 'Acme Wallet' })
  orgName!: string;

  @ApiProperty({ enum: ['admin', 'member'] })
  role!: string;

  @ApiProperty()
  email!: string;

  @ApiProperty()
  expiresAt!: string;
}

export class AcceptedInvitation {
  @ApiProperty({ format: 'uuid' })
  orgId!: string;

  @ApiProperty()
  orgName!: string;

  @ApiProperty({ enum: ['admin', 'member'] })
  role!: string;
}
