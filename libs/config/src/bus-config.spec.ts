import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './load-config';
import { ServiceConfig, WithBus } from './service-config';

class BusConfig extends WithBus(ServiceConfig) {}

const problemsOf = (source: Record<string, string>): string[] => {
  try {
    loadConfig(BusConfig, source);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('WithBus: NATS credentials and TLS', () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bus-config-'));
    file = join(dir, 'ca.crt');
    writeFileSync(file, 'not checked here');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('needs none (a NATS without authorization), and takes one of user and password, nkey seed or credentials file', () => {
    expect(problemsOf({})).toEqual([]);
    expect(loadConfig(BusConfig, { NATS_USER: 'swap-gateway', NATS_PASSWORD: 'p4ss' })).toMatchObject({
      NATS_USER: 'swap-gateway',
      NATS_PASSWORD: 'p4ss',
    });
    expect(loadConfig(BusConfig, { NATS_NKEY_SEED: 'SUxyz' }).NATS_NKEY_SEED).toBe('SUxyz');
    expect(loadConfig(BusConfig, { NATS_CREDS_FILE: file }).NATS_CREDS_FILE).toBe(file);
  });

  it('names the half of a user and password that is missing, without showing the password', () => {
    expect(problemsOf({ NATS_PASSWORD: 'hunter2-secret' })).toEqual([
      expect.stringMatching(/^NATS_USER is required: NATS_USER must be set with NATS_PASSWORD/),
    ]);
    expect(problemsOf({ NATS_PASSWORD: 'hunter2-secret' }).join()).not.toContain('hunter2');
    expect(problemsOf({ NATS_USER: 'swap-gateway' })).toEqual(['NATS_PASSWORD is required: NATS_PASSWORD must be set with NATS_USER']);
  });

  it('refuses two credentials at once, naming them but not the secret', () => {
    const problems = problemsOf({ NATS_USER: 'swap-gateway', NATS_PASSWORD: 'hunter2-secret', NATS_NKEY_SEED: 'SUsecretseed' });
    expect(problems).toEqual([
      expect.stringContaining('set one NATS credential: NATS_USER with NATS_PASSWORD, NATS_NKEY_SEED, or NATS_CREDS_FILE'),
    ]);
    expect(problems.join()).not.toMatch(/hunter2|SUsecretseed/);
    expect(problemsOf({ NATS_NKEY_SEED: 'SUsecretseed', NATS_CREDS_FILE: file })).toEqual([
      expect.stringMatching(/^NATS_CREDS_FILE=".*" is invalid: set one NATS credential/),
    ]);
  });

  it('takes TLS files that exist, a client certificate only with its key', () => {
    expect(loadConfig(BusConfig, { NATS_TLS_CA_FILE: file, NATS_TLS_CERT_FILE: file, NATS_TLS_KEY_FILE: file })).toMatchObject({
      NATS_TLS_CA_FILE: file,
      NATS_TLS_KEY_FILE: file,
    });
    expect(problemsOf({ NATS_TLS_CA_FILE: join(dir, 'missing.crt') })).toEqual([
      expect.stringContaining('NATS_TLS_CA_FILE must be the path of a readable file'),
    ]);
    expect(problemsOf({ NATS_TLS_CERT_FILE: file })).toEqual([
      'NATS_TLS_KEY_FILE is required: NATS_TLS_KEY_FILE must be set with NATS_TLS_CERT_FILE',
    ]);
    expect(problemsOf({ NATS_TLS_CA_FILE: dir })).toEqual([expect.stringContaining('must be the path of a readable file')]);
  });
});
