import { ServiceConfig, WithBus, WithCache } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { WithKeySetRefresh, WithKeySetVerification, WithUsageCounting } from '@swap/key-auth';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { SigningKeys, WithPublicKey, WithSigningKey } from '@swap/messaging';

export class SwapGatewayConfig extends WithSigningKey(
  WithPublicKey(WithUsageCounting(WithKeySetRefresh(WithKeySetVerification(WithCache(WithBus(ServiceConfig))))), SigningKeys.catalog),
  SigningKeys.usage,
) {
  override PORT = DefaultPorts['swap-gateway'];
  override ADMIN_PORT = DefaultAdminPorts['swap-gateway'];

  /** The api-gateway in front (on this host in the embedded default) names the client. */
  override TRUSTED_PROXIES = 'loopback';

  /** submit-tx requests per client (validated API key, else IP) per window, duplicates included. */
  @Type(() => Number)
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  SUBMIT_LIMIT_PER_CLIENT = 120;

  /** New submissions per walletAddress per window (re-submitting a tracked swap is not counted). */
  @Type(() => Number)
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  SUBMIT_LIMIT_PER_WALLET = 20;

  /** Fixed, from a counter's first request. */
  @Type(() => Number)
  @Min(1_000)
  @Max(86_400_000)
  @IsInt()
  SUBMIT_LIMIT_WINDOW_MS = 60_000;

  /** GET /fees/solver: the solvers' fee in basis points (10, the public client's 0.1%). */
  @Type(() => Number)
  @Min(0)
  @Max(10_000)
  @IsInt()
  SOLVER_FEE_BPS = 10;
}
