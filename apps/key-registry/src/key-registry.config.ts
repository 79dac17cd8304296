import { ServiceConfig, WithBus } from '@swap/config';
import { DefaultPorts } from '@swap/contracts';

export class KeyRegistryConfig extends WithBus(ServiceConfig) {
  override PORT = DefaultPorts['key-registry'];
}
