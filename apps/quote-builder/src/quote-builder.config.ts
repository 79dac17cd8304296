import { ServiceConfig, WithBus } from '@swap/config';
import { DefaultPorts } from '@swap/contracts';
import { IsString, MinLength } from 'class-validator';

export class QuoteBuilderConfig extends WithBus(ServiceConfig) {
  override PORT = DefaultPorts['quote-builder'];

  /** `mainnet` (built in) or the path of a chain profile JSON file (the devnet writes one). */
  @IsString()
  @MinLength(1)
  CHAIN_PROFILE = 'mainnet';
}
