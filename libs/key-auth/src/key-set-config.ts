import type { Constructor } from '@swap/config';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { SigningKeys, WithPublicKey, WithSigningKey } from '@swap/messaging';
import { KEPT_MAX_AGE_MS } from './signed-key-set-feed';

export function WithKeySetRefresh<B extends Constructor>(Base: B) {
  class KeySetRefreshConfig extends Base {
    @Type(() => Number)
    @Min(100)
    @Max(3_600_000)
    @IsInt()
    KEYSET_REFRESH_MS = 15_000;
  }
  return KeySetRefreshConfig;
}

/** Required: without key-registry's public key a service could trust nothing. Variables: docs/operators/configuration.md#variables. */
export function WithKeySetVerification<B extends Constructor>(Base: B) {
  class KeySetVerificationConfig extends WithPublicKey(Base, SigningKeys.keySet) {
    @Type(() => Number)
    @Max(30 * 24 * 3_600_000, { message: 'KEYSET_KEPT_MAX_AGE_MS must be at most 2592000000 (30 days)' })
    @Min(7_200_000, { message: 'KEYSET_KEPT_MAX_AGE_MS must be at least 7200000 (2 hours: the copy is rewritten hourly)' })
    @IsInt({ message: 'KEYSET_KEPT_MAX_AGE_MS must be an integer number of milliseconds' })
    KEYSET_KEPT_MAX_AGE_MS = KEPT_MAX_AGE_MS;
  }
  return KeySetVerificationConfig;
}

/** A mismatched KEYSET_PUBLIC_KEY fails at boot instead of signing sets that every service refuses. */
export function WithKeySetSigning<B extends Constructor>(Base: B) {
  return WithSigningKey(Base, SigningKeys.keySet);
}
