import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { ConfigError } from './load-config';
import { isLoopbackAddress } from './validators';

/** One operator's credential from OPS_TOKEN: the name recorded as the actor, and the bearer token. */
export interface OperatorCredential {
  name: string;
  token: string;
}

/** The operator name of a bare OPS_TOKEN (one token, no name). */
export const DEFAULT_OPERATOR_NAME = 'operator';

const OPERATOR_NAME = /^[\w.@-]{1,64}$/;
/** A token: 16 to 512 visible ASCII characters, none of them the list's separators `,` and `:`. */
const isOperatorToken = (token: string) => /^[\x21-\x7e]{16,512}$/.test(token) && !/[,:]/.test(token);

/**
 * OPS_TOKEN read: one token (its operator is `operator`), or `name:token` pairs separated by
 * commas, each name and token used once. Throws an Error saying what is wrong; its message
 * never quotes a token (entries are named by position).
 */
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

/**
 * OPS_TOKEN's format when set (operatorCredentials). Whether one is required depends on
 * where the service listens: requireOperatorTokenBeyondLoopback, at boot.
 */
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

/**
 * A service with operator routes that listens beyond loopback needs OPS_TOKEN: there a
 * peer's address proves nothing (a proxy or sidecar on the same host makes every caller
 * local). Checked when the service starts, before it connects to anything.
 */
export function requireOperatorTokenBeyondLoopback(config: { HOST: string; OPS_TOKEN?: string }): void {
  if (config.OPS_TOKEN || isLoopbackAddress(config.HOST)) return;
  throw new ConfigError([
    `OPS_TOKEN is required: OPS_TOKEN must be set when HOST (${config.HOST}) is not a loopback address, or the operator routes would answer whoever reaches the port (set HOST=127.0.0.1 to run without one)`,
  ]);
}
