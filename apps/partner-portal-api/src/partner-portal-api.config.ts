import { ServiceConfig, WithBus } from '@swap/config';
import { DefaultPorts } from '@swap/contracts';

export class PartnerPortalApiConfig extends WithBus(ServiceConfig) {
  override PORT = DefaultPorts['partner-portal-api'];
}
