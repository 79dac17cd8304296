import { ParseUUIDPipe, ValidationPipe, type ArgumentMetadata, type PipeTransform, type ValidationError } from '@nestjs/common';
import { AppError, chainBoundProblems, ErrorCode, hasChainBoundFields, type ChainRules, type FieldViolation } from '@swap/contracts';
import { printableName } from './input-text';

/** Flattens class-validator's tree into one violation per field and rule (`partnerFee.percentage`). */
export function toViolations(errors: ValidationError[], parent = ''): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const error of errors) {
    const property = printableName(error.property);
    const field = parent ? `${parent}.${property}` : property;
    const constraints = Object.entries(error.constraints ?? {});
    if (error.value === undefined && constraints.length && !error.constraints?.whitelistValidation) {
      // A field that is not there is missing, whatever rule its absence broke first.
      out.push({ field, rule: 'isDefined', message: `${field} is required` });
      continue;
    }
    for (const [rule, message] of constraints)
      out.push({ field, rule, message: withPath(message.split(error.property).join(property), parent, property) });
    if (error.children?.length) out.push(...toViolations(error.children, field));
  }
  return parent ? out : out.slice(0, MAX_VIOLATIONS);
}

/** At most this many violations are answered (a body of thousands of unknown fields gets the first ones). */
const MAX_VIOLATIONS = 20;

/**
 * A nested field's message names its whole path once: class-validator writes
 * `percentage must …` (prefixed here), a DTO's own message may already say
 * `partnerFee.percentage must …` (kept), and an unknown field reads
 * `property tx.extra should not exist`.
 */
function withPath(message: string, parent: string, property: string): string {
  if (!parent || message.startsWith(`${parent}.`)) return message;
  if (message.startsWith(`property ${property} `)) return `property ${parent}.${message.slice('property '.length)}`;
  return `${parent}.${message}`;
}

/**
 * Validates every DTO (body, query, params, bus payloads), and each failure names the
 * field and the rule it broke. Unknown body fields are refused (a misspelt optional field
 * must not pass silently); unknown query parameters are dropped (cache-busters and
 * tracking parameters on public reads are normal), on every route alike. Given the
 * service's chains (`chainRules`), a body's chain-bound fields (`@OnChain`: known chains
 * and tokens, addresses and hashes of the chain's kind) are checked in the same pass, and
 * every problem of the body is answered at once.
 */
export function createValidationPipe(given: { chainRules?: ChainRules } = {}): PipeTransform {
  const options = {
    transform: true,
    whitelist: true,
    // One message per field: a missing value is "required", not also malformed.
    stopAtFirstError: true,
    // The value is kept so a missing field reads "required" (values are never answered).
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

/** The field rules, then the chain-bound ones on the same body; every problem of both answered together. */
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
  // The chains not being readable (quote-builder unreachable: a 5xx) leaves these rules to the builder, which answers for it.
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

/** Names every plain object inherits (`toString`, `constructor`, …): class-validator's whitelist does not see them as fields. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

function isDtoClass(metatype: ArgumentMetadata['metatype']): boolean {
  return typeof metatype === 'function' && ![String, Number, Boolean, Object, Array].includes(metatype as never);
}

/**
 * A body a DTO class describes, as fields: a JSON object (not an array, a string or null),
 * a JSON `null` read as a field left out (`{"txHash": null}` is `{}`), and no field named
 * like an inherited member (`toString` would otherwise pass the whitelist unseen).
 */
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

/** A UUID path parameter; anything else is a 400 in the platform's error shape. */
export const uuidParam = new ParseUUIDPipe({
  exceptionFactory: () => new AppError(400, ErrorCode.ValidationFailed, 'the id in the path must be a UUID'),
});
