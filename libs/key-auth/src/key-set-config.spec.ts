import { loadConfig, ServiceConfig } from '@swap/config';
import { WithKeySetSigning, WithKeySetVerification } from './key-set-config';
import { generateSigningKeyPair } from '@swap/messaging';

class ConsumerConfig extends WithKeySetVerification(ServiceConfig) {}
class RegistryConfig extends WithKeySetSigning(ServiceConfig) {}

const problems = (load: () => unknown): string[] => {
  try {
    load();
    return [];
  } catch (error) {
    return (error as { problems?: string[] }).problems ?? [String(error)];
  }
};

describe('key-set configuration, checked at boot', () => {
  const pair = generateSigningKeyPair();

  it('requires the public key of a service holding the key set, and takes one or two', () => {
    expect(problems(() => loadConfig(ConsumerConfig, {}))).toEqual([
      expect.stringMatching(/^KEYSET_PUBLIC_KEY is required: KEYSET_PUBLIC_KEY must be key-registry's Ed25519 public key/),
    ]);
    expect(problems(() => loadConfig(ConsumerConfig, { KEYSET_PUBLIC_KEY: 'not-a-key' }))).toEqual([
      expect.stringContaining('KEYSET_PUBLIC_KEY'),
    ]);
    expect(loadConfig(ConsumerConfig, { KEYSET_PUBLIC_KEY: pair.publicKey }).KEYSET_PUBLIC_KEY).toBe(pair.publicKey);
    expect(
      problems(() => loadConfig(ConsumerConfig, { KEYSET_PUBLIC_KEY: `${pair.publicKey},${generateSigningKeyPair().publicKey}` })),
    ).toEqual([]);
  });

  it('bounds the age of the kept copy a restarted replica starts from: a day by default, 2 hours to 30 days', () => {
    expect(loadConfig(ConsumerConfig, { KEYSET_PUBLIC_KEY: pair.publicKey }).KEYSET_KEPT_MAX_AGE_MS).toBe(86_400_000);
    expect(
      loadConfig(ConsumerConfig, { KEYSET_PUBLIC_KEY: pair.publicKey, KEYSET_KEPT_MAX_AGE_MS: '7200000' }).KEYSET_KEPT_MAX_AGE_MS,
    ).toBe(7_200_000);
    expect(problems(() => loadConfig(ConsumerConfig, { KEYSET_PUBLIC_KEY: pair.publicKey, KEYSET_KEPT_MAX_AGE_MS: '60000' }))).toEqual([
      expect.stringContaining('KEYSET_KEPT_MAX_AGE_MS must be at least 7200000 (2 hours: the copy is rewritten hourly)'),
    ]);
    expect(problems(() => loadConfig(ConsumerConfig, { KEYSET_PUBLIC_KEY: pair.publicKey, KEYSET_KEPT_MAX_AGE_MS: '1e12' }))).toEqual([
      expect.stringContaining('KEYSET_KEPT_MAX_AGE_MS must be at most 2592000000 (30 days)'),
    ]);
    expect(problems(() => loadConfig(ConsumerConfig, { KEYSET_PUBLIC_KEY: pair.publicKey, KEYSET_KEPT_MAX_AGE_MS: 'a day' }))).toEqual([
      expect.stringContaining('KEYSET_KEPT_MAX_AGE_MS must be an integer'),
    ]);
  });

  it("requires key-registry's signing key, never repeating a malformed one", () => {
    expect(problems(() => loadConfig(RegistryConfig, {}))).toEqual([expect.stringMatching(/^KEYSET_SIGNING_KEY is required/)]);
    const bad = problems(() => loadConfig(RegistryConfig, { KEYSET_SIGNING_KEY: 'c2VjcmV0LWJ1dC13cm9uZw==' }));
    expect(bad).toEqual([
      expect.stringContaining('KEYSET_SIGNING_KEY (value not shown) is invalid: KEYSET_SIGNING_KEY must be an Ed25519 private key'),
    ]);
    expect(bad.join()).not.toContain('c2VjcmV0LWJ1dC13cm9uZw');
    expect(loadConfig(RegistryConfig, { KEYSET_SIGNING_KEY: pair.signingKey }).KEYSET_SIGNING_KEY).toBe(pair.signingKey);
  });

  it('refuses a public key beside the signing key that is not its public half', () => {
    expect(problems(() => loadConfig(RegistryConfig, { KEYSET_SIGNING_KEY: pair.signingKey, KEYSET_PUBLIC_KEY: pair.publicKey }))).toEqual(
      [],
    );
    expect(
      problems(() =>
        loadConfig(RegistryConfig, { KEYSET_SIGNING_KEY: pair.signingKey, KEYSET_PUBLIC_KEY: generateSigningKeyPair().publicKey }),
      ),
    ).toEqual([expect.stringContaining('include the public half of KEYSET_SIGNING_KEY')]);
  });
});
