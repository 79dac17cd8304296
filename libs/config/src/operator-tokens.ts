import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { ConfigError } from './load-config';
import { isLoopbackAddress } from './validators';

export interface OperatorCredential {
  name: string;
  token: string;
}

export const DEFAULT_OPERATOR_NAME = 'operator';

const OPERATOR_NAME = /^[\w.@-]{1,64}$/;
const isOperatorToken = (token: string) => /^[\x21-\x7e]{16,512}$/.test(token) && !/[,:]/.test(token);

/** Its errors never quote a token: entries are named by position. */
export function operatorCredentials(value: string): OperatorCredential[] {
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && !entries[0].includes(':')) {
    if (!isOperatorToken(entries[0]))
      throw new Error('OPS_TOKEN must be at least 16 characters (at most 512), without spaces, commas or colons');
    return [{ name: DEFAULT_OPERATOR_NAME, token: entries[0] }];
  }
  const credentials = entries.map((entry, i) => {
    const at = entry.indexOf(':');
    if (at < 0) throw new Error(`OPS_TOKEN must be one token, or name:token pairs separated by commas (entry ${i + 1} has no name)`);
    const name = entry.slice(0, at);
    const token = entry.slice(at + 1);
    if (!OPERATOR_NAME.test(name))
      throw new Error(`OPS_TOKEN: the operator name of entry ${i + 1} must be 1 to 64 letters, digits or _.@-`);
    if (!isOperatorToken(token))
      throw new Error(`OPS_TOKEN: the token of ${name} must be at least 16 characters (at most 512), without spaces, commas or colons`);
    return { name, token };
  });
  const names = credentials.map((c) => c.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`OPS_TOKEN names the operator ${twice} more than once`);
  const tokens = credentials.map((c) => c.token);
  const shared = credentials.find((c, i) => tokens.indexOf(c.token) !== i);
  if (shared) throw new Error(`OPS_TOKEN gives ${shared.name} the token of another operator: each operator needs their own`);
  return credentials;
}

export function IsOperatorTokens(options?: ValidationOptions): PropertyDecorator {
  const problem = (value: unknown): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') return 'OPS_TOKEN must be a string';
    try {
      operatorCredentials(value);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
  return ValidateBy(
    {
      name: 'isOperatorTokens',
      validator: {
        validate: (value: unknown) => problem(value) === undefined,
        defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? 'OPS_TOKEN is invalid',
      },
    },
    options,
  );
}

/** Beyond loopback a peer's address proves nothing: a proxy or sidecar makes every caller local. */
export function requireOperatorTokenBeyondLoopback(config: { HOST: string; OPS_TOKEN?: string }): void {
  if (config.OPS_TOKEN || isLoopbackAddress(config.HOST)) return;
  throw new ConfigError([
    `OPS_TOKEN is required: OPS_TOKEN must be set when HOST (${config.HOST}) is not a loopback address, or the operator routes would answer whoever reaches the port (set HOST=127.0.0.1 to run without one)`,
  ]);
}
