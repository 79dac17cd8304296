import { ServiceConfig, WithBus, WithDatabase } from '@swap/config';
import { DefaultPorts } from '@swap/contracts';

export class RelayTrackerConfig extends WithDatabase(WithBus(ServiceConfig)) {
  override PORT = DefaultPorts['relay-tracker'];
}
