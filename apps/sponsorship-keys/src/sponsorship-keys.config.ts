import { ServiceConfig, WithBus, WithDatabase, WithOperatorRoutes } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { WithKeySetRefresh } from '@swap/key-auth';

export class SponsorshipKeysConfig extends WithKeySetRefresh(WithOperatorRoutes(WithDatabase(WithBus(ServiceConfig)))) {
  override PORT = DefaultPorts['sponsorship-keys'];
  override ADMIN_PORT = DefaultAdminPorts['sponsorship-keys'];
}
