import { ConfigError } from '@swap/config';
import { nkeys } from 'nats';
import { inboxPrefixOf, natsBusOptions } from './nats-settings';

const seed = new TextDecoder().decode(nkeys.createUser().getSeed());

describe('natsBusOptions', () => {
  it("gives a service its name, its own inbox prefix and the deployment's subject prefix", () => {
    expect(natsBusOptions({ NATS_URL: 'nats://nats:4222', NATS_SUBJECT_PREFIX: 'staging' }, 'swap-gateway')).toMatchObject({
      servers: 'nats://nats:4222',
      name: 'swap-gateway',
      subjectPrefix: 'staging',
      inboxPrefix: '_INBOX_swap-gateway',
      auth: undefined,
      tls: undefined,
    });
    expect(inboxPrefixOf('key-registry')).toBe('_INBOX_key-registry');
  });

  it('logs in with the one credential configured', () => {
    expect(natsBusOptions({ NATS_URL: 'nats://n:4222', NATS_USER: 'u', NATS_PASSWORD: 'p' }, 's').auth).toEqual({
      user: 'u',
      password: 'p',
    });
    expect(natsBusOptions({ NATS_URL: 'nats://n:4222', NATS_NKEY_SEED: ` ${seed}\n` }, 's').auth).toEqual({ nkeySeed: seed });
    expect(natsBusOptions({ NATS_URL: 'nats://n:4222', NATS_CREDS_FILE: '/run/secrets/nats.creds' }, 's').auth).toEqual({
      credsFile: '/run/secrets/nats.creds',
    });
  });

  it('refuses a seed that is not a user nkey seed, without showing it', () => {
    const account = new TextDecoder().decode(nkeys.createAccount().getSeed());
    for (const bad of ['SUnot-a-seed', account]) {
      let error: unknown;
      try {
        natsBusOptions({ NATS_URL: 'nats://n:4222', NATS_NKEY_SEED: bad }, 's');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('NATS_NKEY_SEED is invalid: it must be a NATS user nkey seed');
      expect((error as Error).message).not.toContain(bad);
    }
  });

  it('asks for TLS when a CA or a client certificate is configured', () => {
    expect(natsBusOptions({ NATS_URL: 'tls://n:4222', NATS_TLS_CA_FILE: '/ca.crt' }, 's').tls).toEqual({
      caFile: '/ca.crt',
      certFile: undefined,
      keyFile: undefined,
    });
    expect(natsBusOptions({ NATS_URL: 'nats://n:4222', NATS_TLS_CERT_FILE: '/c.crt', NATS_TLS_KEY_FILE: '/c.key' }, 's').tls).toEqual({
      caFile: undefined,
      certFile: '/c.crt',
      keyFile: '/c.key',
    });
  });
});
