import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { AppError, NoControlCharacters } from '@swap/contracts';
import { IsEmail, IsString, MaxLength } from 'class-validator';

export function EmailField(example = 'dev@acme.example') {
  return applyDecorators(
    ApiProperty({ example, maxLength: 254 }),
    IsString({ message: 'email is required (a string)' }),
    IsEmail({}, { message: 'email must be an email address' }),
    NoControlCharacters('email'),
    MaxLength(254, { message: 'email must be at most 254 characters' }),
  );
}

export function fieldError(field: string, rule: 'format' | 'order' | 'range', message: string): AppError {
  return AppError.validation([{ field, rule, message }]);
}
