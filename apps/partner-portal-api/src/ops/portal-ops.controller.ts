import { Body, Controller, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { OperatorGuard, operatorOf } from '@swap/key-auth';
import { uuidParam as uuid } from '@swap/service-kit';
import type { FastifyRequest } from 'fastify';
import { OrgsService } from '../orgs/orgs.service';
import { EmailField } from '../portal-fields';

class EmailBody {
  @EmailField('owner@legacy.example')
  email!: string;
}

/** Operator routes on partner-portal-api's own port (`npm run ops -- orgs invite`), never behind the gateway. */
@ApiExcludeController()
@UseGuards(OperatorGuard)
@Controller('ops')
export class PortalOpsController {
  constructor(private readonly orgs: OrgsService) {}

  /** The first owner of an organisation created before the portal (or one whose owners all left). */
  @Post('organisations/:orgId/invitations')
  @HttpCode(201)
  invite(@Param('orgId', uuid) orgId: string, @Body() body: EmailBody, @Req() req: FastifyRequest) {
    return this.orgs.inviteOwner(orgId, body.email, operatorOf(req));
  }
}
