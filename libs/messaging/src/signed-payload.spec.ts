import { createHash, createPrivateKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import {
  canonicalJson,
  generateSigningKeyPair,
  signingKeyId,
  SignatureRefused,
  SignatureCheck,
  PayloadSigner,
  parsePublicKey,
  parsePublicKeys,
  parseSigningKey,
} from './signed-payload';

// RFC 8032, section 7.1, TEST 2: a one-byte message (0x72).
const RFC8032 = {
  seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
  publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
  signature:
    '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
};

describe('key set signatures', () => {
  it('reads a 32-byte seed (hex or base64) and a raw public key as RFC 8032 defines them', () => {
    for (const seed of [
      RFC8032.seed,
      Buffer.from(RFC8032.seed, 'hex').toString('base64'),
      Buffer.from(RFC8032.seed, 'hex').toString('base64url'),
    ]) {
      const key = parseSigningKey(seed);
      expect(sign(null, Buffer.from([0x72]), key).toString('hex')).toBe(RFC8032.signature);
    }
    const publicKey = parsePublicKey(Buffer.from(RFC8032.publicKey, 'hex').toString('base64'));
    expect(verify(null, Buffer.from([0x72]), publicKey, Buffer.from(RFC8032.signature, 'hex'))).toBe(true);
    expect(signingKeyId(publicKey)).toBe(createHash('sha256').update(Buffer.from(RFC8032.publicKey, 'hex')).digest('hex').slice(0, 16));
    expect(new PayloadSigner(parseSigningKey(RFC8032.seed)).publicKey).toBe(Buffer.from(RFC8032.publicKey, 'hex').toString('base64'));
  });

  it('reads PKCS#8 and SPKI in PEM and in base64 DER, and refuses other keys and text', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const id = signingKeyId(publicKey);
    expect(signingKeyId(parseSigningKey(privateKey.export({ format: 'pem', type: 'pkcs8' }) as string))).toBe(id);
    expect(signingKeyId(parseSigningKey(privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')))).toBe(id);
    expect(signingKeyId(parsePublicKey(publicKey.export({ format: 'pem', type: 'spki' }) as string))).toBe(id);
    expect(signingKeyId(parsePublicKey(publicKey.export({ format: 'der', type: 'spki' }).toString('base64')))).toBe(id);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() => parseSigningKey(rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string)).toThrow('Ed25519');
    expect(() => parseSigningKey('not a key!')).toThrow('must be an Ed25519 private key');
    expect(() => parseSigningKey(Buffer.alloc(31).toString('base64'))).toThrow('must be an Ed25519 private key');
    expect(() => parsePublicKey('zz')).toThrow();
    expect(parsePublicKeys(`${generateSigningKeyPair().publicKey}, ${generateSigningKeyPair().publicKey}`)).toHaveLength(2);
  });

  it('generates pairs in the forms the configuration takes', () => {
    const pair = generateSigningKeyPair();
    const signer = new PayloadSigner(parseSigningKey(pair.signingKey));
    expect(signer.publicKey).toBe(pair.publicKey);
    expect(createPrivateKey({ key: Buffer.from(pair.signingKey, 'base64'), format: 'der', type: 'pkcs8' }).asymmetricKeyType).toBe(
      'ed25519',
    );
  });

  it('serialises canonically: keys sorted at every depth, no spaces, arrays kept in order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: true, c: null }, 'x'], é: 'ü', A: -2.5 })).toBe(
      '{"A":-2.5,"a":[{"c":null,"d":true},"x"],"b":1,"é":"ü"}',
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
    expect(() => canonicalJson({ a: Number.NaN })).toThrow('non-finite');
  });

  describe('a signed payload', () => {
    const pair = generateSigningKeyPair();
    const signer = new PayloadSigner(parseSigningKey(pair.signingKey));
    const check = new SignatureCheck(parsePublicKeys(pair.publicKey));
    const payload = { kind: 'portal-keyset.snapshot', epoch: 1, version: 2, modes: { swaps: 'off' } };
    const refusal = (message: unknown) => {
      try {
        check.open(message);
        return 'opened';
      } catch (error) {
        return error instanceof SignatureRefused ? error.reason : String(error);
      }
    };

    it('opens whatever the order of its fields on the wire', () => {
      const signed = signer.sign(payload);
      const reordered = JSON.parse(
        JSON.stringify({
          signature: signed.signature,
          payload: { modes: { swaps: 'off' }, version: 2, epoch: 1, kind: payload.kind },
          keyId: signed.keyId,
        }),
      );
      expect(check.open(reordered)).toEqual(payload);
    });

    it('is refused when unsigned, signed by another key, altered, or carrying extra fields', () => {
      const signed = signer.sign(payload);
      const other = new PayloadSigner(parseSigningKey(generateSigningKeyPair().signingKey));
      expect(refusal({ version: 9, keys: [], modes: {} })).toBe('unsigned');
      expect(refusal(null)).toBe('unsigned');
      expect(refusal({ payload })).toBe('unsigned');
      expect(refusal(other.sign(payload))).toBe('signature');
      expect(refusal({ ...other.sign(payload), keyId: signed.keyId })).toBe('signature');
      expect(refusal({ ...signed, payload: { ...payload, version: 3 } })).toBe('signature');
      expect(refusal({ ...signed, payload: { ...payload, modes: { swaps: 'off', 'leverage-yield': 'off' } } })).toBe('signature');
      expect(refusal({ ...signed, signature: signed.signature.slice(0, -4) })).toBe('signature');
      expect(refusal({ ...signed, extra: 1 })).toBe('shape');
      expect(refusal(signed)).toBe('opened');
    });

    it('is opened with either key while a signing key is rotated', () => {
      const next = generateSigningKeyPair();
      const both = new SignatureCheck(parsePublicKeys(`${pair.publicKey},${next.publicKey}`));
      expect(both.open(signer.sign(payload))).toEqual(payload);
      expect(both.open(new PayloadSigner(parseSigningKey(next.signingKey)).sign(payload))).toEqual(payload);
    });
  });
});
