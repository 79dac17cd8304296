import { IsServiceUrl, ServiceConfig, WithBus, WithCache, WithDatabase, WithOperatorRoutes } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, MaxLength, Min } from 'class-validator';
import { SigningKeys, WithSigningKey } from '@swap/messaging';

export class PartnerPortalApiConfig extends WithSigningKey(
  WithOperatorRoutes(WithCache(WithDatabase(WithBus(ServiceConfig)))),
  SigningKeys.portal,
) {
  override PORT = DefaultPorts['partner-portal-api'];
  override ADMIN_PORT = DefaultAdminPorts['partner-portal-api'];

  /** `key-registry`: keys are managed through key-registry over the bus; `disabled`: key routes answer 503 (not configured). */
  @IsIn(['key-registry', 'disabled'], { message: 'PORTAL_KEY_SERVICE must be key-registry or disabled' })
  PORTAL_KEY_SERVICE: 'key-registry' | 'disabled' = 'key-registry';

  /** Invitation links are built on it. */
  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
    { message: 'PORTAL_PUBLIC_URL must be an http(s) URL' },
  )
  PORTAL_PUBLIC_URL = 'http://localhost:3000';

  /** Absolute; signing in again starts a new one. */
  @Type(() => Number)
  @Min(60_000)
  @Max(30 * 24 * 3_600_000)
  @IsInt()
  SESSION_TTL_MS = 12 * 3_600_000;

  /** Failed sign-ins allowed per email (and, ten times that, per client address) in SIGN_IN_WINDOW_MS before 429. */
  @Type(() => Number)
  @Min(1)
  @Max(1_000)
  @IsInt()
  SIGN_IN_FAILURE_LIMIT = 5;

  @Type(() => Number)
  @Min(1_000)
  @Max(24 * 3_600_000)
  @IsInt()
  SIGN_IN_WINDOW_MS = 15 * 60_000;

  @Type(() => Number)
  @Min(60_000)
  @Max(90 * 24 * 3_600_000)
  @IsInt()
  INVITATION_TTL_MS = 7 * 24 * 3_600_000;

  /** Invitations are e-mailed through it (`smtp://user:pass@host:587`, `smtps://…:465`); unset: the link is answered to copy. */
  @IsOptional()
  @IsServiceUrl(['smtp', 'smtps'])
  SMTP_URL?: string = undefined;

  @IsString()
  @MaxLength(200)
  MAIL_FROM = 'Partner portal <portal@localhost>';

  /** `false`: an smtp:// server that does not offer STARTTLS is used in the clear (its password and the invitation links readable on the way). */
  @IsIn(['true', 'false'], { message: 'SMTP_REQUIRE_TLS must be true or false' })
  SMTP_REQUIRE_TLS: 'true' | 'false' = 'true';

  /** All attempts of one invitation's e-mail together; under the 10 s the gateway and the UI wait for the answer. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(8_000)
  SMTP_TIMEOUT_MS = 5_000;

  /** Before the second attempt (twice that before the third). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(4_000)
  SMTP_RETRY_MS = 500;

  /** Invitations one person may send in 24 hours (e-mailed to any address: a bound on what the portal can be made to send). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  INVITATIONS_PER_DAY = 50;

  /** scrypt's cost (N = 2^SCRYPT_LOG_N; 15 uses 32 MiB per hash). Tests lower it. */
  @Type(() => Number)
  @Min(10)
  @Max(20)
  @IsInt()
  SCRYPT_LOG_N = 15;
}
