import { IsString, Matches } from 'class-validator';
import { ConfigError, loadConfig } from './load-config';
import { redactUrl, withoutUrlSecrets } from './url-secrets';
import { ServiceConfig, WithBus, WithDatabase } from './service-config';
import { trustedProxies } from './validators';

class TestConfig extends WithDatabase(WithBus(ServiceConfig)) {
  @IsString()
  REQUIRED_NAME!: string;
}

describe('loadConfig', () => {
  it('applies defaults for unset and empty variables and converts numbers', () => {
    const config = loadConfig(TestConfig, { REQUIRED_NAME: 'x', PORT: '8080', LOG_LEVEL: '' });
    expect(config.PORT).toBe(8080);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/swap_platform');
  });

  it('keeps only declared variables, not the whole environment', () => {
    const config = loadConfig(TestConfig, { REQUIRED_NAME: 'x', SECRET_OF_SOMEONE_ELSE: 'y' }) as unknown as Record<string, unknown>;
    expect(config.SECRET_OF_SOMEONE_ELSE).toBeUndefined();
  });

  it('names every malformed variable with its value and the rule it broke', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig(TestConfig, { REQUIRED_NAME: 'x', PORT: 'abc', NATS_URL: 'http://127.0.0.1:4222', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toHaveLength(3);
    expect(error!.message).toContain('PORT="abc" is invalid: PORT must be an integer number');
    expect(error!.message).toContain('NATS_URL="http://127.0.0.1:4222" is invalid: NATS_URL must be a URL with scheme nats:// or tls://');
    expect(error!.message).toContain('LOG_LEVEL="loud" is invalid');
  });

  it('reports a missing variable that has no default as required', () => {
    expect(() => loadConfig(TestConfig, {})).toThrow(/REQUIRED_NAME is required: REQUIRED_NAME must be a string/);
  });

  it('accepts a comma-separated list of NATS servers and rejects a list with one bad entry', () => {
    expect(loadConfig(TestConfig, { REQUIRED_NAME: 'x', NATS_URL: 'nats://a:4222, nats://b:4222' }).NATS_URL).toContain('nats://b:4222');
    expect(() => loadConfig(TestConfig, { REQUIRED_NAME: 'x', NATS_URL: 'nats://a:4222,not a url' })).toThrow(/NATS_URL/);
  });

  it('takes trusted proxies as addresses, CIDR ranges and named ranges, and names a bad entry', () => {
    expect(loadConfig(TestConfig, { REQUIRED_NAME: 'x' }).TRUSTED_PROXIES).toBe('');
    expect(
      trustedProxies(
        loadConfig(TestConfig, { REQUIRED_NAME: 'x', TRUSTED_PROXIES: 'loopback, 10.0.0.0/8,fd00::/8,192.0.2.7' }).TRUSTED_PROXIES,
      ),
    ).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
    for (const bad of ['10.0.0.0/33', 'everyone', '10.0.0.0/8/1', '1.2.3']) {
      expect(() => loadConfig(TestConfig, { REQUIRED_NAME: 'x', TRUSTED_PROXIES: bad })).toThrow(
        /TRUSTED_PROXIES must be a comma-separated list of IP addresses, CIDR ranges/,
      );
    }
  });

  it('bounds slow clients by default: headers 10 s, the whole request 30 s, an idle connection 5 s', () => {
    const config = loadConfig(TestConfig, { REQUIRED_NAME: 'x' });
    expect([config.HTTP_HEADERS_TIMEOUT_MS, config.HTTP_REQUEST_TIMEOUT_MS, config.HTTP_KEEP_ALIVE_TIMEOUT_MS]).toEqual([
      10_000, 30_000, 5_000,
    ]);
    expect(() => loadConfig(TestConfig, { REQUIRED_NAME: 'x', HTTP_REQUEST_TIMEOUT_MS: '0' })).toThrow(
      /HTTP_REQUEST_TIMEOUT_MS must not be less than 100/,
    );
    expect(() => loadConfig(TestConfig, { REQUIRED_NAME: 'x', HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      'HTTP_REQUEST_TIMEOUT_MS (default 30000) is invalid: HTTP_REQUEST_TIMEOUT_MS must not be below HTTP_HEADERS_TIMEOUT_MS (40000)',
    );
    expect(() => loadConfig(TestConfig, { REQUIRED_NAME: 'x', HTTP_REQUEST_TIMEOUT_MS: '5000' })).toThrow(
      'HTTP_REQUEST_TIMEOUT_MS="5000" is invalid',
    );
  });

  it('names a malformed secret without quoting its value', () => {
    class WithSecret extends ServiceConfig {
      @Matches(/^[a-f0-9]{64}$/)
      SIGNING_KEY = '0'.repeat(64);
    }
    let error: ConfigError | undefined;
    try {
      loadConfig(WithSecret, { SIGNING_KEY: 'hunter2' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error!.problems).toEqual([expect.stringMatching(/^SIGNING_KEY \(value not shown\) is invalid/)]);
    expect(error!.message).not.toContain('hunter2');
  });

  it('rejects out-of-range ports', () => {
    expect(() => loadConfig(TestConfig, { REQUIRED_NAME: 'x', PORT: '70000' })).toThrow(/PORT must not be greater than 65535/);
  });

  it('never quotes the password or the path of a URL variable it refuses (an RPC key may be in it)', () => {
    let problems: string[] = [];
    try {
      loadConfig(TestConfig, { REQUIRED_NAME: 'x', DATABASE_URL: 'mysql://admin:hunter2@db.internal:3306/prod?sslkey=abc' });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([expect.stringMatching(/^DATABASE_URL="mysql:\/\/db\.internal:3306\/…" is invalid: /)]);
    expect(problems.join()).not.toMatch(/hunter2|admin|prod|abc/);
  });

  it('shows a URL as scheme, host and port, whatever came after (lists included)', () => {
    expect(withoutUrlSecrets('https://mainnet.infura.io/v3/0123456789abcdef')).toBe('https://mainnet.infura.io/…');
    expect(withoutUrlSecrets('nats://user:pw@a:4222,tls://b:4222')).toBe('nats://a:4222,tls://b:4222');
    expect(withoutUrlSecrets('0x1.eth=https://k@rpc.example/key,0xa4b1.arb=http://10.0.0.1:8545')).toBe(
      '0x1.eth=https://rpc.example/…,0xa4b1.arb=http://10.0.0.1:8545',
    );
    expect(withoutUrlSecrets('not a url')).toBe('not a url');
    expect(withoutUrlSecrets('postgres://u:p@ss@db:5432/x')).toBe('postgres://db:5432/…');
    expect(withoutUrlSecrets(':secret@redis:6379')).toBe('***@redis:6379');
  });

  it('redacts the password, or a user name standing alone (a token), of a URL it logs', () => {
    expect(redactUrl('postgresql://u:secret@h/db')).toBe('postgresql://u:***@h/db');
    expect(redactUrl('postgres://u:p@ss@db/x')).toBe('postgres://u:***@db/x');
    expect(redactUrl('nats://s3cr3t-token@nats:4222')).toBe('nats://***@nats:4222');
    expect(redactUrl('tls://nats:4222')).toBe('tls://nats:4222');
    expect(redactUrl('127.0.0.1:4222')).toBe('127.0.0.1:4222');
  });
});
