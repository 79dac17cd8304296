import { ParseUUIDPipe, ValidationPipe, type ArgumentMetadata, type PipeTransform, type ValidationError } from '@nestjs/common';
import { AppError, chainBoundProblems, ErrorCode, hasChainBoundFields, type ChainRules, type FieldViolation } from '@swap/contracts';
import { printableName } from './input-text';
import { cacheValidationRules } from './validation-metadata';

export function toViolations(errors: ValidationError[], parent = ''): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const error of errors) {
    const property = printableName(error.property);
    const field = parent ? `${parent}.${property}` : property;
    const constraints = Object.entries(error.constraints ?? {});
    if (error.value === undefined && constraints.length && !error.constraints?.whitelistValidation) {
      // Missing, whatever rule its absence broke first.
      out.push({ field, rule: 'isDefined', message: `${field} is required` });
      continue;
    }
    for (const [rule, message] of constraints)
      out.push({ field, rule, message: withPath(message.split(error.property).join(property), parent, property) });
    if (error.children?.length) out.push(...toViolations(error.children, field));
  }
  return parent ? out : out.slice(0, MAX_VIOLATIONS);
}

/** A body of thousands of unknown fields gets the first ones. */
const MAX_VIOLATIONS = 20;

/** The whole path once: `percentage must …` is prefixed; `partnerFee.percentage must …` is kept. */
function withPath(message: string, parent: string, property: string): string {
  if (!parent || message.startsWith(`${parent}.`)) return message;
  if (message.startsWith(`property ${property} `)) return `property ${parent}.${message.slice('property '.length)}`;
  return `${parent}.${message}`;
}

/** Every DTO, HTTP and bus; see docs/architecture/runtime.md#validation-and-errors. */
export function createValidationPipe(given: { chainRules?: ChainRules } = {}): PipeTransform {
  cacheValidationRules();
  const options = {
    transform: true,
    whitelist: true,
    stopAtFirstError: true,
    // Kept so a missing field reads "required"; values are never answered.
    validationError: { target: false, value: true },
    exceptionFactory: (errors: ValidationError[]) => AppError.validation(toViolations(errors)),
  };
  const strict = new ValidationPipe({ ...options, forbidNonWhitelisted: true });
  const lenient = new ValidationPipe({ ...options, forbidNonWhitelisted: false });
  const rules = given.chainRules;
  return {
    transform: (value: unknown, metadata: ArgumentMetadata) => {
      if (metadata.type === 'query') return lenient.transform(value, metadata);
      if (metadata.type !== 'body' || !isDtoClass(metadata.metatype)) return strict.transform(value, metadata);
      const body = bodyAsFields(value);
      if (!rules || !hasChainBoundFields(metadata.metatype) || body === undefined) return strict.transform(body, metadata);
      return withChainRules(strict, body as Record<string, unknown>, metadata, metadata.metatype, rules);
    },
  };
}

async function withChainRules(
  strict: PipeTransform,
  body: Record<string, unknown>,
  metadata: ArgumentMetadata,
  target: new (...args: never[]) => unknown,
  rules: ChainRules,
): Promise<unknown> {
  let fieldProblems: FieldViolation[] = [];
  let validated: unknown;
  try {
    validated = await strict.transform(body, metadata);
  } catch (error) {
    if (!(error instanceof AppError && error.code === ErrorCode.ValidationFailed && Array.isArray(error.details))) throw error;
    fieldProblems = error.details;
  }
  // Chains unreadable (a 5xx): these rules are left to the builder, which answers for it.
  const chainProblems = await chainBoundProblems(target, body, rules, new Set(fieldProblems.map((p) => p.field))).catch(
    (error: unknown) => {
      if (error instanceof AppError && error.getStatus() >= 500) return [];
      throw error;
    },
  );
  const problems = [...fieldProblems, ...chainProblems];
  if (problems.length) throw AppError.validation(problems.slice(0, MAX_VIOLATIONS));
  return validated;
}

/** class-validator's whitelist does not see these as fields. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

function isDtoClass(metatype: ArgumentMetadata['metatype']): boolean {
  return typeof metatype === 'function' && ![String, Number, Boolean, Object, Array].includes(metatype as never);
}

/** A JSON `null` is a field left out: `{"txHash": null}` is `{}`. */
function bodyAsFields(value: unknown): unknown {
  if (value === undefined) return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw AppError.validation([{ field: 'body', rule: 'isObject', message: 'the request body must be a JSON object' }]);
  }
  const visit = (node: Record<string, unknown>, path: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      const field = path ? `${path}.${printableName(key)}` : printableName(key);
      if (INHERITED.has(key))
        throw AppError.validation([{ field, rule: 'whitelistValidation', message: `property ${field} should not exist` }]);
      if (child === null) continue;
      out[key] = child && typeof child === 'object' && !Array.isArray(child) ? visit(child as Record<string, unknown>, field) : child;
    }
    return out;
  };
  return visit(value as Record<string, unknown>, '');
}

/** Lower case once checked: ids are stored and compared as the database writes them. */
class LowerCaseUuidPipe extends ParseUUIDPipe {
  override async transform(value: string, metadata: ArgumentMetadata): Promise<string> {
    const checked = await super.transform(value, metadata).catch(() => undefined);
    if (checked !== undefined) return checked.toLowerCase();
    const field = metadata.data ?? 'id';
    throw AppError.validation([{ field, rule: 'isUuid', message: `${field} in the path must be a UUID` }]);
  }
}

export const uuidParam = new LowerCaseUuidPipe();
