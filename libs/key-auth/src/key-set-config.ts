import { buildMessage, ValidateBy, type ValidationOptions } from 'class-validator';
import { keySetKeyId, parsePublicKeys, parseSigningKey } from './key-set-signature';

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
          () => "$property must be key-registry's Ed25519 public key (32 bytes in base64 or hex, or SPKI PEM / DER in base64); two, comma-separated, while rotating",
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
        defaultMessage: buildMessage(() => '$property must be an Ed25519 private key: PKCS#8 PEM, PKCS#8 DER in base64, or a 32-byte seed in base64 or hex', options),
      },
    },
    options,
  );
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
        validate: (value: unknown, args) => value === undefined || matchesSigningKey(value, (args?.object as { KEYSET_SIGNING_KEY?: unknown }).KEYSET_SIGNING_KEY),
        defaultMessage: () => "KEYSET_PUBLIC_KEY must be Ed25519 public keys (32 bytes in base64 or hex, or SPKI PEM / DER in base64) that include the public half of KEYSET_SIGNING_KEY",
      },
    })
    KEYSET_PUBLIC_KEY?: string = undefined;
  }
  return KeySetSigningConfig;
}
