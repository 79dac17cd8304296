import { ParseUUIDPipe, ValidationPipe, type ArgumentMetadata, type PipeTransform, type ValidationError } from '@nestjs/common';
import { AppError, ErrorCode, type FieldViolation } from '@swap/contracts';
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
 * tracking parameters on public reads are normal), on every route alike.
 */
export function createValidationPipe(): PipeTransform {
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
  return {
    transform: (value: unknown, metadata: ArgumentMetadata) => {
      if (metadata.type === 'query') return lenient.transform(value, metadata);
      return strict.transform(metadata.type === 'body' && isDtoClass(metadata.metatype) ? bodyAsFields(value) : value, metadata);
    },
  };
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
