import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { AppError } from '@swap/contracts';
import { IsEmail, IsString, Matches, MaxLength, MinLength } from 'class-validator';

/** An email address field (at most 254 characters), with messages that name it. */
export function EmailField(example = 'dev@acme.example') {
  return applyDecorators(
    ApiProperty({ example, maxLength: 254 }),
    // Checked in this order, the first failure answered: a non-string is named as such.
    IsString({ message: 'email is required (a string)' }),
    IsEmail({}, { message: 'email must be an email address' }),
    MaxLength(254, { message: 'email must be at most 254 characters' }),
  );
}

/** A `name`: 1 to `max` characters, not blank. */
export function NameField(max: number, example: string) {
  return applyDecorators(
    ApiProperty({ example, maxLength: max }),
    IsString({ message: 'name is required (a string)' }),
    Matches(/\S/, { message: 'name must not be blank' }),
    MaxLength(max, { message: `name must be at most ${max} characters` }),
    MinLength(1, { message: `name must be 1 to ${max} characters` }),
  );
}

export function fieldError(field: string, rule: 'format' | 'order' | 'range', message: string): AppError {
  return AppError.validation([{ field, rule, message }]);
}
