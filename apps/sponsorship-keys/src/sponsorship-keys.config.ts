import { ServiceConfig, WithBus } from '@swap/config';
import { DefaultPorts } from '@swap/contracts';

export class SponsorshipKeysConfig extends WithBus(ServiceConfig) {
  override PORT = DefaultPorts['sponsorship-keys'];
}
