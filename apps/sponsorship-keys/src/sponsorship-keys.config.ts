import { ServiceConfig, WithBus, WithDatabase } from '@swap/config';
import { DefaultPorts } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, MinLength } from 'class-validator';

export class SponsorshipKeysConfig extends WithDatabase(WithBus(ServiceConfig)) {
  override PORT = DefaultPorts['sponsorship-keys'];

  /** How often the sponsoring key set is reloaded from the table (a change event reloads at once). */
  @Type(() => Number)
  @Min(100)
  @Max(3_600_000)
  @IsInt()
  KEYSET_REFRESH_MS = 15_000;

  /** Bearer token of the operator routes (/ops/*); unset, they answer loopback callers only. */
  @IsOptional()
  @MinLength(16)
  OPS_TOKEN?: string = undefined;
}
