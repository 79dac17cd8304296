import { ServiceConfig, WithBus, WithCache, WithDatabase, WithOperatorRoutes } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { WithKeySetSigning } from '@swap/key-auth';
import { SigningKeys, WithPublicKey } from '@swap/messaging';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

export class KeyRegistryConfig extends WithPublicKey(
  WithPublicKey(WithKeySetSigning(WithOperatorRoutes(WithDatabase(WithCache(WithBus(ServiceConfig))))), SigningKeys.portal),
  SigningKeys.usage,
) {
  override PORT = DefaultPorts['key-registry'];
  override ADMIN_PORT = DefaultAdminPorts['key-registry'];

  /** How often usage minutes past two days are rolled up to hours and hours past 90 days deleted. */
  @Type(() => Number)
  @Min(1_000)
  @Max(86_400_000)
  @IsInt()
  USAGE_ROLLUP_MS = 600_000;
}
