import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

/** Thrown when the environment does not satisfy a configuration class; lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type ConfigSource = Record<string, string | undefined>;

/**
 * Reads a typed configuration from environment-style variables, once, at boot.
 * Unset or empty variables take the class's defaults; anything that fails a rule is
 * reported by variable name and value, all problems at once.
 */
export function loadConfig<T extends object>(cls: new () => T, source: ConfigSource = process.env): T {
  const defaults = new cls() as Record<string, unknown>;
  const known = Object.keys(defaults);
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const instance = plainToInstance(cls, raw, { exposeDefaultValues: true });
  const errors = validateSync(instance, { forbidUnknownValues: false, stopAtFirstError: true });
  if (errors.length > 0) throw new ConfigError(errors.map((e) => describe(e, raw)));
  // Keep only declared variables: the config object is not a copy of the environment.
  const result = new cls() as Record<string, unknown>;
  for (const key of known) result[key] = (instance as Record<string, unknown>)[key];
  return result as T;
}

function describe(error: ValidationError, raw: Record<string, string>): string {
  const rules = Object.values(error.constraints ?? {}).join('; ');
  const given = raw[error.property];
  return given === undefined ? `${error.property} is required: ${rules}` : `${error.property}=${JSON.stringify(given)} is invalid: ${rules}`;
}
