import { ServiceConfig, WithBus, WithCache, WithDatabase, WithOperatorRoutes } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { WithKeySetSigning } from '@swap/key-auth';
import { SigningKeys, WithPublicKey } from '@swap/messaging';

export class KeyRegistryConfig extends WithPublicKey(
  WithKeySetSigning(WithOperatorRoutes(WithDatabase(WithCache(WithBus(ServiceConfig))))),
  SigningKeys.portal,
) {
  override PORT = DefaultPorts['key-registry'];
  override ADMIN_PORT = DefaultAdminPorts['key-registry'];
}
