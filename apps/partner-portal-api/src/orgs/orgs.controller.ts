import { ApiTag, NameField, OrganisationNameField } from '@swap/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { uuidParam as uuid } from '@swap/service-kit';
import { IsIn } from 'class-validator';
import { ApiSession, CsrfGuard, CurrentUser, SessionGuard } from '../auth/portal.guards';
import type { PortalUser } from '../auth/sessions.service';
import type { Role } from '../generated/prisma/client';
import { KeysService } from '../keys/keys.service';
import { EmailField } from '../portal-fields';
import { OrgsService } from './orgs.service';
import {
  AcceptedInvitation,
  CreatedInvitationView,
  CreatedKeyView,
  InvitationPreview,
  InvitationView,
  MemberView,
  OrgView,
  PortalKeyViewDto,
} from '../portal-views.dto';

class OrgBody {
  @OrganisationNameField()
  name!: string;
}

class KeyBody {
  @NameField(64, 'production')
  name!: string;
}

class InvitationBody {
  @EmailField('colleague@acme.example')
  email!: string;

  @ApiProperty({ enum: ['admin', 'member'] })
  @IsIn(['admin', 'member'], { message: 'role must be admin or member' })
  role!: Role;
}

class RoleBody {
  @ApiProperty({ enum: ['owner', 'admin', 'member'] })
  @IsIn(['owner', 'admin', 'member'], { message: 'role must be owner, admin or member' })
  role!: Role;
}

/** Organisations, members, invitations and keys (`/portal/api/orgs/*`, `/portal/api/invitations/*`). */
@ApiTags(ApiTag.portal)
@UseGuards(CsrfGuard, SessionGuard)
@ApiSession()
@Controller('portal/api')
export class OrgsController {
  constructor(
    private readonly orgs: OrgsService,
    private readonly keys: KeysService,
  ) {}

  @Post('orgs')
  @HttpCode(201)
  @ApiOperation({ summary: 'Creates an organisation; its creator is its owner' })
  @ApiCreatedResponse({ type: OrgView })
  create(@CurrentUser() user: PortalUser, @Body() body: OrgBody) {
    return this.orgs.create(user, body.name.trim());
  }

  @Get('orgs/:orgId/keys')
  @ApiOperation({ summary: 'The organisation’s keys (any member): name, prefix, permissions, creation time' })
  @ApiOkResponse({ type: [PortalKeyViewDto] })
  listKeys(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string) {
    return this.keys.list(user, orgId);
  }

  @Post('orgs/:orgId/keys')
  @HttpCode(201)
  @ApiOperation({ summary: 'Creates a key (owner, admin); the full key is in this answer only' })
  @ApiCreatedResponse({ type: CreatedKeyView })
  createKey(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string, @Body() body: KeyBody) {
    return this.keys.create(user, orgId, body.name);
  }

  @Delete('orgs/:orgId/keys/:keyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revokes (deletes) a key (owner, admin); 404 when already gone' })
  async revokeKey(
    @CurrentUser() user: PortalUser,
    @Param('orgId', uuid) orgId: string,
    @Param('keyId', uuid) keyId: string,
  ): Promise<void> {
    await this.keys.revoke(user, orgId, keyId);
  }

  @Get('orgs/:orgId/members')
  @ApiOperation({ summary: 'Members and their roles (owner, admin)' })
  @ApiOkResponse({ type: [MemberView] })
  members(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string) {
    return this.orgs.members(user, orgId);
  }

  @Patch('orgs/:orgId/members/:userId')
  @ApiOperation({ summary: 'Changes a member’s role (owners any; admins between admin and member); the last owner keeps the role' })
  @ApiOkResponse({ type: MemberView })
  changeRole(
    @CurrentUser() user: PortalUser,
    @Param('orgId', uuid) orgId: string,
    @Param('userId', uuid) userId: string,
    @Body() body: RoleBody,
  ) {
    return this.orgs.changeRole(user, orgId, userId, body.role);
  }

  @Delete('orgs/:orgId/members/:userId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Removes a member (owner, admin), or leaves (yourself); the last owner cannot leave' })
  async removeMember(
    @CurrentUser() user: PortalUser,
    @Param('orgId', uuid) orgId: string,
    @Param('userId', uuid) userId: string,
  ): Promise<void> {
    await this.orgs.removeMember(user, orgId, userId);
  }

  @Post('orgs/:orgId/invitations')
  @HttpCode(201)
  @ApiOperation({ summary: 'Invites someone by email as admin or member (owner, admin): a link to accept' })
  @ApiCreatedResponse({ type: CreatedInvitationView })
  invite(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string, @Body() body: InvitationBody) {
    return this.orgs.invite(user, orgId, body.email, body.role);
  }

  @Get('orgs/:orgId/invitations')
  @ApiOperation({ summary: 'Open invitations (owner, admin)' })
  @ApiOkResponse({ type: [InvitationView] })
  invitations(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string) {
    return this.orgs.invitations(user, orgId);
  }

  @Delete('orgs/:orgId/invitations/:invitationId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Withdraws an open invitation (owner, admin)' })
  async revokeInvitation(
    @CurrentUser() user: PortalUser,
    @Param('orgId', uuid) orgId: string,
    @Param('invitationId', uuid) invitationId: string,
  ): Promise<void> {
    await this.orgs.revokeInvitation(user, orgId, invitationId);
  }

  @Get('invitations/:token')
  @ApiOperation({ summary: 'What an invitation offers (organisation, role, invited email), before accepting it' })
  @ApiOkResponse({ type: InvitationPreview })
  preview(@Param('token') token: string) {
    return this.orgs.preview(token.slice(0, 128));
  }

  @Post('invitations/:token/accept')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accepts an invitation: the signed-in user must have the invited email' })
  @ApiOkResponse({ type: AcceptedInvitation })
  accept(@CurrentUser() user: PortalUser, @Param('token') token: string) {
    return this.orgs.accept(user, token.slice(0, 128));
  }
}
