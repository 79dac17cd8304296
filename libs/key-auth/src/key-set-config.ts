import { Type } from 'class-transformer';
import { buildMessage, IsInt, Max, Min, ValidateBy, type ValidationOptions } from 'class-validator';
import { keySetKeyId, parsePublicKeys, parseSigningKey } from './key-set-signature';
import { KEPT_MAX_AGE_MS } from './signed-key-set-feed';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Constructor<T = object> = new (...args: any[]) => T;

/** Declared without a default (loadConfig keeps declared fields only): unset, it is named as required. */
const REQUIRED = undefined as unknown as string;

function validKey(parse: (text: string) => unknown, value: unknown): boolean {
  if (typeof value !== 'string' || value.trim() === '') return false;
  try {
    const parsed = parse(value);
    return !Array.isArray(parsed) || parsed.length > 0;
  } catch {
    return false;
  }
}

/** A signing key that does not parse is reported on its own. */
function matchesSigningKey(list: unknown, signingKey: unknown): boolean {
  if (!validKey(parsePublicKeys, list)) return false;
  if (!validKey(parseSigningKey, signingKey)) return true;
  const id = keySetKeyId(parseSigningKey(signingKey as string));
  return parsePublicKeys(list as string).some((key) => keySetKeyId(key) === id);
}

function IsKeySetPublicKeys(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isKeySetPublicKeys',
      validator: {
        validate: (value: unknown) => validKey(parsePublicKeys, value),
        defaultMessage: buildMessage(
          () =>
            "$property must be key-registry's Ed25519 public key (32 bytes in base64 or hex, or SPKI PEM / DER in base64); two, comma-separated, while rotating",
          options,
        ),
      },
    },
    options,
  );
}

function IsKeySetSigningKey(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isKeySetSigningKey',
      validator: {
        validate: (value: unknown) => validKey(parseSigningKey, value),
        defaultMessage: buildMessage(
          () => '$property must be an Ed25519 private key: PKCS#8 PEM, PKCS#8 DER in base64, or a 32-byte seed in base64 or hex',
          options,
        ),
      },
    },
    options,
  );
}

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
  class KeySetVerificationConfig extends Base {
    @IsKeySetPublicKeys()
    KEYSET_PUBLIC_KEY: string = REQUIRED;

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
  class KeySetSigningConfig extends Base {
    @IsKeySetSigningKey()
    KEYSET_SIGNING_KEY: string = REQUIRED;

    @ValidateBy({
      name: 'publicKeysOfSigningKey',
      validator: {
        validate: (value: unknown, args) =>
          value === undefined || matchesSigningKey(value, (args?.object as { KEYSET_SIGNING_KEY?: unknown }).KEYSET_SIGNING_KEY),
        defaultMessage: () =>
          'KEYSET_PUBLIC_KEY must be Ed25519 public keys (32 bytes in base64 or hex, or SPKI PEM / DER in base64) that include the public half of KEYSET_SIGNING_KEY',
      },
    })
    KEYSET_PUBLIC_KEY?: string = undefined;
  }
  return KeySetSigningConfig;
}
