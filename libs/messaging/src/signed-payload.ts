import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { SignedPayload } from '@swap/contracts';

/** Keys sorted by UTF-16 code unit, no whitespace: the same bytes whatever order a serialiser wrote. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no form for a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const fields = Object.keys(object)
      .filter((key) => object[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`);
    return `{${fields.join(',')}}`;
  }
  throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
}

// DER headers of an Ed25519 key (RFC 8410): PKCS#8 around a 32-byte seed, SPKI around a 32-byte public key.
const PKCS8_SEED_HEADER = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_HEADER = Buffer.from('302a300506032b6570032100', 'hex');

function decodeBytes(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  // Refuse text that base64 decoding silently trimmed (a stray character, a cut key).
  return bytes.toString('base64').replace(/=+$/, '') === trimmed.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '')
    ? bytes
    : undefined;
}

function ed25519(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an Ed25519 key is needed, not ${key.asymmetricKeyType ?? 'a symmetric key'}`);
  return key;
}

/** Its errors never repeat the text: it is a secret. */
export function parseSigningKey(text: string): KeyObject {
  try {
    if (text.includes('-----BEGIN')) return ed25519(createPrivateKey(text));
    const bytes = decodeBytes(text);
    if (bytes?.length === 32)
      return ed25519(createPrivateKey({ key: Buffer.concat([PKCS8_SEED_HEADER, bytes]), format: 'der', type: 'pkcs8' }));
    if (bytes) return ed25519(createPrivateKey({ key: bytes, format: 'der', type: 'pkcs8' }));
  } catch (error) {
    throw new Error(
      `must be an Ed25519 private key (PKCS#8 PEM, PKCS#8 DER in base64, or a 32-byte seed in base64 or hex): ${(error as Error).message.split('\n')[0]}`,
      { cause: error },
    );
  }
  throw new Error('must be an Ed25519 private key (PKCS#8 PEM, PKCS#8 DER in base64, or a 32-byte seed in base64 or hex)');
}

export function parsePublicKey(text: string): KeyObject {
  if (text.includes('-----BEGIN')) return ed25519(createPublicKey(text));
  const bytes = decodeBytes(text);
  if (!bytes) throw new Error('is neither PEM, base64 nor hex');
  if (bytes.length === 32) return ed25519(createPublicKey({ key: Buffer.concat([SPKI_HEADER, bytes]), format: 'der', type: 'spki' }));
  return ed25519(createPublicKey({ key: bytes, format: 'der', type: 'spki' }));
}

export function parsePublicKeys(list: string): KeyObject[] {
  return list
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map(parsePublicKey);
}

function rawPublicKey(key: KeyObject): Buffer {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return publicKey.export({ format: 'der', type: 'spki' }).subarray(SPKI_HEADER.length);
}

export function signingKeyId(key: KeyObject): string {
  return createHash('sha256').update(rawPublicKey(key)).digest('hex').slice(0, 16);
}

export function generateSigningKeyPair(): { signingKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    signingKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKey: rawPublicKey(publicKey).toString('base64'),
  };
}

export class PayloadSigner {
  readonly keyId: string;
  readonly publicKey: string;

  constructor(private readonly privateKey: KeyObject) {
    this.keyId = signingKeyId(privateKey);
    this.publicKey = rawPublicKey(privateKey).toString('base64');
  }

  sign<P>(payload: P): SignedPayload<P> {
    const signature = sign(null, Buffer.from(canonicalJson(payload), 'utf8'), this.privateKey).toString('base64');
    return { payload, keyId: this.keyId, signature };
  }
}

export type SignatureRefusalReason = 'unsigned' | 'signature' | 'shape' | 'replay' | 'epoch' | 'expired';

export class SignatureRefused extends Error {
  constructor(
    readonly reason: SignatureRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'SignatureRefused';
  }
}

/** Only a payload that verifies comes out, its shape unchecked (the receiver's schema checks it). See docs/architecture/key-sets.md#key-sets-are-signed. */
export class SignatureCheck {
  private readonly keys: Map<string, KeyObject>;

  constructor(publicKeys: KeyObject[]) {
    this.keys = new Map(publicKeys.map((key) => [signingKeyId(key), key]));
  }

  open(message: unknown): unknown {
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      throw new SignatureRefused('unsigned', 'not a signed message: the message is not an object');
    const { payload, keyId, signature, ...extra } = message as Record<string, unknown>;
    if (signature === undefined || keyId === undefined || payload === undefined)
      throw new SignatureRefused('unsigned', 'not a signed message: payload, keyId or signature is missing');
    if (Object.keys(extra).length > 0)
      throw new SignatureRefused('shape', `unknown fields beside the signature: ${Object.keys(extra).slice(0, 5).join(', ')}`);
    if (typeof keyId !== 'string' || typeof signature !== 'string')
      throw new SignatureRefused('signature', 'keyId and signature must be strings');
    const key = this.keys.get(keyId);
    if (!key) throw new SignatureRefused('signature', `signed by an unknown key ${JSON.stringify(keyId.slice(0, 32))}`);
    const bytes = Buffer.from(signature, 'base64');
    if (bytes.length !== 64 || bytes.toString('base64') !== signature)
      throw new SignatureRefused('signature', 'the signature is not 64 bytes of base64');
    let canonical: string;
    try {
      canonical = canonicalJson(payload);
    } catch (error) {
      throw new SignatureRefused('shape', `the payload has no canonical form: ${(error as Error).message}`);
    }
    if (!verify(null, Buffer.from(canonical, 'utf8'), key, bytes))
      throw new SignatureRefused('signature', 'the signature does not match the payload');
    return payload;
  }
}
