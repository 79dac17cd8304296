import { ConfigError, loadConfig } from './load-config';
import { operatorCredentials, requireOperatorTokenBeyondLoopback } from './operator-tokens';
import { ServiceConfig, WithOperatorRoutes } from './service-config';
import { isLoopbackAddress } from './validators';

class OpsConfig extends WithOperatorRoutes(ServiceConfig) {}

const TOKEN = 'f3a9c1e07b5d42868a1e9c3b7d0f5a21';

/** The configuration's complaint about OPS_TOKEN, or undefined when it takes the value. */
function problemWith(value: string): string | undefined {
  try {
    loadConfig(OpsConfig, { OPS_TOKEN: value });
    return undefined;
  } catch (error) {
    return (error as ConfigError).problems.join('\n');
  }
}

describe('OPS_TOKEN', () => {
  it('takes one token, whose operator is named operator', () => {
    expect(operatorCredentials(TOKEN)).toEqual([{ name: 'operator', token: TOKEN }]);
    expect(loadConfig(OpsConfig, { OPS_TOKEN: TOKEN }).OPS_TOKEN).toBe(TOKEN);
  });

  it('takes name:token pairs, comma-separated, each operator named after its pair', () => {
    expect(operatorCredentials(`alice:${TOKEN}, ops.bot@ci-1:${TOKEN.toUpperCase()}`)).toEqual([
      { name: 'alice', token: TOKEN },
      { name: 'ops.bot@ci-1', token: TOKEN.toUpperCase() },
    ]);
  });

  it('refuses short tokens, bad names, duplicates and unnamed lists, naming the entry but never quoting a token', () => {
    const cases: [string, RegExp][] = [
      ['short-token', /OPS_TOKEN must be at least 16 characters/],
      [`alice:short`, /the token of alice must be at least 16 characters/],
      [`al ice:${TOKEN}`, /the operator name of entry 1 must be 1 to 64 letters, digits or _\.@-/],
      [`${'a'.repeat(65)}:${TOKEN}`, /the operator name of entry 1/],
      [`alice:${TOKEN},${TOKEN.toUpperCase()}`, /entry 2 has no name/],
      [`${TOKEN},${TOKEN.toUpperCase()}`, /entry 1 has no name/],
      [`alice:${TOKEN},alice:${TOKEN.toUpperCase()}`, /names the operator alice more than once/],
      [`alice:${TOKEN},bob:${TOKEN}`, /gives bob the token of another operator/],
      [`alice:${TOKEN},`, /entry 2 has no name/],
    ];
    for (const [value, expected] of cases) {
      const problem = problemWith(value);
      expect({ value, problem }).toEqual({ value, problem: expect.stringMatching(expected) });
      expect({ value, problem: problem!.includes(TOKEN) || problem!.includes('short') }).toEqual({ value, problem: false });
    }
  });

  it('is required to listen beyond loopback, with a message naming OPS_TOKEN and HOST', () => {
    expect(() => requireOperatorTokenBeyondLoopback({ HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => requireOperatorTokenBeyondLoopback({ HOST: '10.1.2.3' })).toThrow(
      /OPS_TOKEN must be set when HOST \(10\.1\.2\.3\) is not a loopback address/,
    );
    for (const HOST of ['127.0.0.1', '::1', 'localhost', '127.0.1.1'])
      expect(() => requireOperatorTokenBeyondLoopback({ HOST })).not.toThrow();
    expect(() => requireOperatorTokenBeyondLoopback({ HOST: '0.0.0.0', OPS_TOKEN: TOKEN })).not.toThrow();
  });
});

describe('isLoopbackAddress', () => {
  it('knows 127.0.0.0/8, ::1 (also mapped) and localhost, and nothing else', () => {
    expect(
      ['127.0.0.1', '127.9.9.9', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST'].filter((a) => !isLoopbackAddress(a)),
    ).toEqual([]);
    expect(
      ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', 'example.com', '127.0.0.1.example.com', ''].filter(isLoopbackAddress),
    ).toEqual([]);
  });
});
