import { Type } from 'class-transformer';
import { buildMessage, IsInt, Max, Min, ValidateBy, type ValidationOptions } from 'class-validator';
import { keySetKeyId, parsePublicKeys, parseSigningKey } from './key-set-signature';
import { KEPT_MAX_AGE_MS } from './signed-key-set-feed';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Constructor<T = object> = new (...args: any[]) => T;

/** No default: unset, the variable is named as required at boot (loadConfig keeps declared fields only, so it is declared with this). */
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

/** Whether a public key list is valid and names the signing key's public half (a signing key that does not parse is reported on its own). */
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

/** Services that hold a key set (portal or sponsoring): how often it is reloaded; a change event reloads it at once. */
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

/**
 * Services that hold the portal key set: key-registry's public key, required. Only key sets
 * and changes signed by it are applied; without it a service could trust nothing, so it
 * does not start.
 */
export function WithKeySetVerification<B extends Constructor>(Base: B) {
  class KeySetVerificationConfig extends Base {
    @IsKeySetPublicKeys()
    KEYSET_PUBLIC_KEY: string = REQUIRED;

    /**
     * The oldest copy of the key set kept in the cache that a restarted replica starts from
     * (ms, by its signature's time). Rewritten hourly while key-registry answers; older, it
     * is refused (an old copy written back could bring revoked keys back) and the replica
     * waits for key-registry, answering 503 on enforced routes. 2 hours to 30 days.
     */
    @Type(() => Number)
    @Max(30 * 24 * 3_600_000, { message: 'KEYSET_KEPT_MAX_AGE_MS must be at most 2592000000 (30 days)' })
    @Min(7_200_000, { message: 'KEYSET_KEPT_MAX_AGE_MS must be at least 7200000 (2 hours: the copy is rewritten hourly)' })
    @IsInt({ message: 'KEYSET_KEPT_MAX_AGE_MS must be an integer number of milliseconds' })
    KEYSET_KEPT_MAX_AGE_MS = KEPT_MAX_AGE_MS;
  }
  return KeySetVerificationConfig;
}

/**
 * key-registry: the private key that signs every key set and change it publishes (a
 * Secret in a cluster; generated per run in the embedded default). KEYSET_PUBLIC_KEY, when
 * set, must name its public half: a start with a mismatched pair fails at boot instead of
 * signing sets that every service refuses.
 */
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
