import { ServiceConfig, WithBus, WithCache, WithDatabase, WithOperatorRoutes } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { WithKeySetSigning } from '@swap/key-auth';

export class KeyRegistryConfig extends WithKeySetSigning(WithOperatorRoutes(WithDatabase(WithCache(WithBus(ServiceConfig))))) {
  override PORT = DefaultPorts['key-registry'];
  override ADMIN_PORT = DefaultAdminPorts['key-registry'];
}
