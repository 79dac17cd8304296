import { ServiceConfig, WithBus, WithDatabase, WithOperatorRoutes } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';

export class KeyRegistryConfig extends WithOperatorRoutes(WithDatabase(WithBus(ServiceConfig))) {
  override PORT = DefaultPorts['key-registry'];
  override ADMIN_PORT = DefaultAdminPorts['key-registry'];
}
