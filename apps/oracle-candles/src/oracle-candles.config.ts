import { ServiceConfig, WithBus } from '@swap/config';
import { DefaultPorts } from '@swap/contracts';

export class OracleCandlesConfig extends WithBus(ServiceConfig) {
  override PORT = DefaultPorts['oracle-candles'];
}
