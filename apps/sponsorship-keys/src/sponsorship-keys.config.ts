import { ServiceConfig, WithBus, WithDatabase, WithOperatorRoutes } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { WithKeySetRefresh } from '@swap/key-auth';
import { SigningKeys, WithPublicKey } from '@swap/messaging';

export class SponsorshipKeysConfig extends WithPublicKey(
  WithKeySetRefresh(WithOperatorRoutes(WithDatabase(WithBus(ServiceConfig)))),
  SigningKeys.catalog,
) {
  override PORT = DefaultPorts['sponsorship-keys'];
  override ADMIN_PORT = DefaultAdminPorts['sponsorship-keys'];
}
