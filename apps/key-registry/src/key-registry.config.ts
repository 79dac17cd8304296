import { ServiceConfig, WithBus, WithDatabase, WithOperatorRoutes } from '@swap/config';
import { DefaultPorts } from '@swap/contracts';

export class KeyRegistryConfig extends WithOperatorRoutes(WithDatabase(WithBus(ServiceConfig))) {
  override PORT = DefaultPorts['key-registry'];
}
