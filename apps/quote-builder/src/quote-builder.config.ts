import { IsServiceUrl, ServiceConfig, WithBus, WithCache, WithChains, WithDatabase, WithOperatorRoutes } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts, IsEvmAddress, IsUint256String } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { SigningKeys, WithSigningKey } from '@swap/messaging';

export class QuoteBuilderConfig extends WithSigningKey(
  WithChains(WithOperatorRoutes(WithCache(WithDatabase(WithBus(ServiceConfig))))),
  SigningKeys.catalog,
) {
  override PORT = DefaultPorts['quote-builder'];
  override ADMIN_PORT = DefaultAdminPorts['quote-builder'];

  /** The api-gateway in front (on this host in the embedded default and cluster mode) names the client: the solver API's limits count it. */
  override TRUSTED_PROXIES = 'loopback';

  /** The deployment's partner fee, applied by GET /fees/partner when the query names none. */
  @IsOptional()
  @IsEvmAddress()
  PARTNER_FEE_ADDRESS?: string = undefined;

  @IsOptional()
  @Type(() => Number)
  @Min(1)
  @Max(100)
  @IsInt()
  PARTNER_FEE_PERCENTAGE?: number = undefined;

  @IsOptional()
  @IsUint256String()
  PARTNER_FEE_AMOUNT?: string = undefined;

  /** The leveraged-yield family's fee: a deposit that names no partnerFee pays it, and its GET /fees/partner answers it. */
  @IsOptional()
  @IsEvmAddress()
  VAULT_PARTNER_FEE_ADDRESS?: string = undefined;

  @IsOptional()
  @Type(() => Number)
  @Min(1)
  @Max(100)
  @IsInt()
  VAULT_PARTNER_FEE_PERCENTAGE?: number = undefined;

  @IsOptional()
  @IsUint256String()
  VAULT_PARTNER_FEE_AMOUNT?: string = undefined;

  /** A yields API in DefiLlama's shape for the vaults' staking yields; unset, each vault's configured fallback is answered (stale). */
  @IsOptional()
  @IsServiceUrl(['http', 'https'])
  LSD_APR_URL?: string = undefined;

  /** How long a request for quote waits for solvers; answers after it are ignored. */
  @Type(() => Number)
  @Min(20)
  @Max(10_000)
  @IsInt()
  RFQ_DEADLINE_MS = 300;

  /** How long a request for quote waits for replicas it has not heard from lately. */
  @Type(() => Number)
  @Min(1)
  @Max(1_000)
  @IsInt()
  RFQ_ACK_WINDOW_MS = 25;

  /** How long a quote is honoured at /v1/intent/execute after it was given. */
  @Type(() => Number)
  @Min(1_000)
  @Max(3_600_000)
  @IsInt()
  QUOTE_TTL_MS = 120_000;

  /** Keyless solver API, per client address a minute: quotes (each is an RFQ to every solver and a stored row) and executes. */
  @Type(() => Number)
  @Min(1)
  @Max(1_000_000_000)
  @IsInt()
  SOLVER_API_QUOTES_PER_MINUTE = 120;

  @Type(() => Number)
  @Min(1)
  @Max(1_000_000_000)
  @IsInt()
  SOLVER_API_EXECUTES_PER_MINUTE = 60;

  /** How long a stored quote is kept after it expires, for audit; older rows are purged. */
  @Type(() => Number)
  @Min(0)
  @Max(3_650 * 86_400_000)
  @IsInt()
  QUOTE_RETENTION_AFTER_EXPIRY_MS = 86_400_000;

  /** Basis points, for /quote?includeTxData=true. */
  @Type(() => Number)
  @Min(0)
  @Max(5_000)
  @IsInt()
  DEFAULT_SLIPPAGE_BPS = 50;

  /** Silence is allowed for 2.5 times this. */
  @Type(() => Number)
  @Min(200)
  @Max(120_000)
  @IsInt()
  SOLVER_HEARTBEAT_MS = 15_000;

  /** How long the winner of a quote has an intent to itself before every solver may fill it. */
  @Type(() => Number)
  @Min(0)
  @Max(600_000)
  @IsInt()
  EXCLUSIVITY_MS = 3_000;

  /** An intent still open this long after it was last offered to every solver is offered again (a hand-over lost with the bus down). */
  @Type(() => Number)
  @Min(1_000)
  @Max(3_600_000)
  @IsInt()
  REOFFER_MS = 10_000;
}
