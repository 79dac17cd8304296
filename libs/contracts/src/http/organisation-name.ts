import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength, ValidateBy } from 'class-validator';

export const ORGANISATION_NAME_MAX_LENGTH = 64;
/** Line breaks, tabs and the other control characters (C0, DEL, C1), the Unicode line and paragraph separators, and the direction overrides and isolates that reorder what a reader sees. */
export const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const VISIBLE = /[^\s\p{Cf}]/u;

/** Text a person reads back (names, e-mail addresses, descriptions); a blank one is answered as blank. */
export function NoControlCharacters(field: string): PropertyDecorator {
  return ValidateBy(
    {
      name: 'noControlCharacters',
      validator: { validate: (v: unknown) => typeof v !== 'string' || !VISIBLE.test(v) || !CONTROL_CHARACTERS.test(v) },
    },
    { message: `${field} must not contain control characters (line breaks, tabs, direction overrides)` },
  );
}

/** The same messages on every path that names an organisation or a key (portal, operator route, bus). */
export function NameField(max: number, example: string, description?: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ example, maxLength: max, ...(description ? { description } : {}) }),
    // Checked in this order, the first failure answered: a non-string is named as such.
    IsString({ message: 'name is required (a string)' }),
    Matches(VISIBLE, { message: 'name must not be blank' }),
    NoControlCharacters('name'),
    MaxLength(max, { message: `name must be at most ${max} characters` }),
    MinLength(1, { message: `name must be 1 to ${max} characters` }),
  );
}

export const OrganisationNameField = (): PropertyDecorator => NameField(ORGANISATION_NAME_MAX_LENGTH, 'Acme Wallet');
