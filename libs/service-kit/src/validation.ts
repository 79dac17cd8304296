import { ParseUUIDPipe, ValidationPipe, type ValidationError } from '@nestjs/common';
import { AppError, ErrorCode, type FieldViolation } from '@swap/contracts';
import { printableName } from './input-text';

/** Flattens class-validator's tree into one violation per field and rule (`partnerFee.percentage`). */
export function toViolations(errors: ValidationError[], parent = ''): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const error of errors) {
    const property = printableName(error.property);
    const field = parent ? `${parent}.${property}` : property;
    for (const [rule, message] of Object.entries(error.constraints ?? {})) out.push({ field, rule, message: withPath(message.split(error.property).join(property), parent, property) });
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
 * Validates every DTO (body, query, params, bus payloads). Unknown fields are refused,
 * and each failure names the field and the rule it broke.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    // One message per field: a missing value is "required", not also malformed.
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => AppError.validation(toViolations(errors)),
  });
}

/** A UUID path parameter; anything else is a 400 in the platform's error shape. */
export const uuidParam = new ParseUUIDPipe({ exceptionFactory: () => new AppError(400, ErrorCode.ValidationFailed, 'the id in the path must be a UUID') });
