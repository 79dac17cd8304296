import { ServiceConfig, WithBus, WithDatabase } from '@swap/config';
import { DefaultPorts } from '@swap/contracts';
import { IsOptional, MinLength } from 'class-validator';

export class KeyRegistryConfig extends WithDatabase(WithBus(ServiceConfig)) {
  override PORT = DefaultPorts['key-registry'];

  /** Bearer token of the operator routes (/ops/*); unset, they answer loopback callers only. */
  @IsOptional()
  @MinLength(16)
  OPS_TOKEN?: string = undefined;
}
