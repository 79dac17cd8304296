import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { withoutUrlSecrets } from './url-secrets';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type ConfigSource = Record<string, string | undefined>;

/** Once, at boot; every problem at once. See docs/architecture/runtime.md#configuration. */
export function loadConfig<T extends object>(cls: new () => T, source: ConfigSource = process.env): T {
  const defaults = new cls() as Record<string, unknown>;
  const known = Object.keys(defaults);
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const instance = plainToInstance(cls, raw, { exposeDefaultValues: true });
  const errors = validateSync(instance, { forbidUnknownValues: false, stopAtFirstError: true });
  if (errors.length > 0) throw new ConfigError(errors.map((e) => describe(e, raw, defaults)));
  const result = new cls() as Record<string, unknown>;
  for (const key of known) result[key] = (instance as Record<string, unknown>)[key];
  return result as T;
}

/** Named, never quoted: the message reaches logs. */
const SECRET_VARIABLE = /(TOKEN|PASSWORD|SECRET|CREDENTIALS?|KEY|SEED)$/;

function describe(error: ValidationError, raw: Record<string, string>, defaults: Record<string, unknown>): string {
  const rules = Object.values(error.constraints ?? {}).join('; ');
  const given = raw[error.property];
  // A default that breaks a rule across variables (a limit below another that was set).
  if (given === undefined && defaults[error.property] !== undefined)
    return `${error.property} (default ${JSON.stringify(defaults[error.property])}) is invalid: ${rules}`;
  if (given === undefined) return `${error.property} is required: ${rules}`;
  if (SECRET_VARIABLE.test(error.property)) return `${error.property} (value not shown) is invalid: ${rules}`;
  const shown = URL_VARIABLE.test(error.property) ? withoutUrlSecrets(given) : given;
  return `${error.property}=${JSON.stringify(shown)} is invalid: ${rules}`;
}

/** A user, a password or an RPC provider's key may be in them. */
const URL_VARIABLE = /_URLS?$/;
