/* eslint-disable @typescript-eslint/no-explicit-any -- mixin constructors take any arguments */
import type { Constructor } from '@swap/config';
import { registerDecorator } from 'class-validator';
import { generateSigningKeyPair, parsePublicKeys, parseSigningKey, signingKeyId } from './signed-payload';

/** `<prefix>_SIGNING_KEY` of the signer, `<prefix>_PUBLIC_KEY` of those acting on what it signs: docs/architecture/bus-signatures.md#the-keys. */
export interface SigningKeyPurpose<P extends string> {
  prefix: P;
  signer: string;
}

export const SigningKeys = {
  keySet: { prefix: 'KEYSET', signer: 'key-registry' },
  catalog: { prefix: 'CATALOG', signer: 'quote-builder' },
  portal: { prefix: 'PORTAL', signer: 'partner-portal-api' },
  usage: { prefix: 'USAGE', signer: 'swap-gateway' },
} as const satisfies Record<string, SigningKeyPurpose<string>>;

export type SigningKeyVariable<P extends string> = `${P}_SIGNING_KEY`;
export type PublicKeyVariable<P extends string> = `${P}_PUBLIC_KEY`;

export const SIGNING_KEY_RULE = 'must be an Ed25519 private key: PKCS#8 PEM, PKCS#8 DER in base64, or a 32-byte seed in base64 or hex';
const PUBLIC_KEY_FORMS = '32 bytes in base64 or hex, or SPKI PEM / DER in base64';

function parses(parse: (text: string) => unknown, value: unknown): boolean {
  if (typeof value !== 'string' || value.trim() === '') return false;
  try {
    const parsed = parse(value);
    return !Array.isArray(parsed) || parsed.length > 0;
  } catch {
    return false;
  }
}

/** A signing key that does not parse is reported on its own. */
function includesPublicHalf(list: unknown, signingKey: unknown): boolean {
  if (!parses(parsePublicKeys, list)) return false;
  if (!parses(parseSigningKey, signingKey)) return true;
  const id = signingKeyId(parseSigningKey(signingKey as string));
  return parsePublicKeys(list as string).some((key) => signingKeyId(key) === id);
}

function rule(target: Constructor, property: string, name: string, validate: (value: unknown, object: any) => boolean, message: string) {
  registerDecorator({
    name,
    target,
    propertyName: property,
    validator: { validate: (value, args) => validate(value, args?.object), defaultMessage: () => message },
  });
}

/** Required: without the signer's public key the service could trust nothing it sent. */
export function WithPublicKey<B extends Constructor, P extends string>(Base: B, purpose: SigningKeyPurpose<P>) {
  const variable: PublicKeyVariable<P> = `${purpose.prefix}_PUBLIC_KEY`;
  class PublicKeyConfig extends Base {
    constructor(...args: any[]) {
      super(...args);
      // Declared without a default (loadConfig keeps declared fields only): unset, it is named as required.
      (this as Record<string, unknown>)[variable] = undefined;
    }
  }
  rule(
    PublicKeyConfig,
    variable,
    'isPublicKeys',
    (value) => parses(parsePublicKeys, value),
    `${variable} must be ${purpose.signer}'s Ed25519 public key (${PUBLIC_KEY_FORMS}); two, comma-separated, while rotating`,
  );
  return PublicKeyConfig as unknown as B & Constructor<Record<PublicKeyVariable<P>, string>>;
}

/** The signer's own key; a `<prefix>_PUBLIC_KEY` beside it that lacks its public half fails at boot instead of signing what every receiver refuses. */
export function WithSigningKey<B extends Constructor, P extends string>(Base: B, purpose: SigningKeyPurpose<P>) {
  const signing: SigningKeyVariable<P> = `${purpose.prefix}_SIGNING_KEY`;
  const publicKey: PublicKeyVariable<P> = `${purpose.prefix}_PUBLIC_KEY`;
  class SigningKeyConfig extends Base {
    constructor(...args: any[]) {
      super(...args);
      (this as Record<string, unknown>)[signing] = undefined;
      (this as Record<string, unknown>)[publicKey] ??= undefined;
    }
  }
  rule(SigningKeyConfig, signing, 'isSigningKey', (value) => parses(parseSigningKey, value), `${signing} ${SIGNING_KEY_RULE}`);
  rule(
    SigningKeyConfig,
    publicKey,
    'publicKeysOfSigningKey',
    (value, object) => value === undefined || includesPublicHalf(value, object?.[signing]),
    `${publicKey} must be Ed25519 public keys (${PUBLIC_KEY_FORMS}) that include the public half of ${signing}`,
  );
  return SigningKeyConfig as unknown as B &
    Constructor<Record<SigningKeyVariable<P>, string> & Partial<Record<PublicKeyVariable<P>, string>>>;
}

export function generateSigningKeyEnv<P extends string>(prefix: P): Record<SigningKeyVariable<P> | PublicKeyVariable<P>, string> {
  const { signingKey, publicKey } = generateSigningKeyPair();
  return { [`${prefix}_SIGNING_KEY`]: signingKey, [`${prefix}_PUBLIC_KEY`]: publicKey } as Record<
    SigningKeyVariable<P> | PublicKeyVariable<P>,
    string
  >;
}

/** A fresh pair of every SigningKeys entry, as one environment every service can share (each reads its own variables). */
export function generateSigningKeysEnv(): Record<string, string> {
  return Object.assign({}, ...Object.values(SigningKeys).map((purpose) => generateSigningKeyEnv(purpose.prefix)));
}
