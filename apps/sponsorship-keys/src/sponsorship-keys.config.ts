import { ServiceConfig, WithBus, WithDatabase, WithOperatorRoutes } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

export class SponsorshipKeysConfig extends WithOperatorRoutes(WithDatabase(WithBus(ServiceConfig))) {
  override PORT = DefaultPorts['sponsorship-keys'];
  override ADMIN_PORT = DefaultAdminPorts['sponsorship-keys'];

  /** How often the sponsoring key set is reloaded from the table (a change event reloads at once). */
  @Type(() => Number)
  @Min(100)
  @Max(3_600_000)
  @IsInt()
  KEYSET_REFRESH_MS = 15_000;
}
