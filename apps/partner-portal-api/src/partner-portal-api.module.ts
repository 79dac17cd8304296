import { Module } from '@nestjs/common';
import { operatorTokenFrom } from '@swap/key-auth';
import { AuthController } from './auth/auth.controller';
import { CsrfGuard, SessionGuard } from './auth/portal.guards';
import { SessionsService } from './auth/sessions.service';
import { PortalCounters } from './auth/portal-counters';
import { KeysService } from './keys/keys.service';
import { PortalOpsController } from './ops/portal-ops.controller';
import { InvitationMail } from './orgs/invitation-mail';
import { OrgsController } from './orgs/orgs.controller';
import { OrgsService } from './orgs/orgs.service';
import { PartnerPortalApiConfig } from './partner-portal-api.config';
import { SwapsController } from './swaps/swaps.controller';
import { UsageController } from './usage/usage.controller';
import { WebhooksController } from './webhooks/webhooks.controller';

/** partner-portal-api: accounts and sessions, organisations and roles, keys through key-registry, webhook endpoints through relay-tracker. */
@Module({
  controllers: [AuthController, OrgsController, WebhooksController, SwapsController, UsageController, PortalOpsController],
  providers: [
    SessionsService,
    PortalCounters,
    OrgsService,
    InvitationMail,
    KeysService,
    CsrfGuard,
    SessionGuard,
    operatorTokenFrom(PartnerPortalApiConfig),
  ],
})
export class PartnerPortalApiModule {}
