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
    for (const [rule, message] of constraints) out.push({ field, rule, message: withPath(message.split(error.property).join(property), parent, property) });
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
    transform: (value: unknown, metadata: ArgumentMetadata) => (metadata.type === 'query' ? lenient : strict).transform(value, metadata),
  };
}

/** A UUID path parameter; anything else is a 400 in the platform's error shape. */
export const uuidParam = new ParseUUIDPipe({ exceptionFactory: () => new AppError(400, ErrorCode.ValidationFailed, 'the id in the path must be a UUID') });
