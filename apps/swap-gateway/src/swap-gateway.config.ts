import { ServiceConfig, WithBus } from '@swap/config';
import { DefaultPorts } from '@swap/contracts';

export class SwapGatewayConfig extends WithBus(ServiceConfig) {
  override PORT = DefaultPorts['swap-gateway'];
}
