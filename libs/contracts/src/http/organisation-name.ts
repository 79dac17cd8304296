import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength, ValidateBy } from 'class-validator';

export const ORGANISATION_NAME_MAX_LENGTH = 64;
/** Line breaks, tabs and the other control characters (C0, DEL, C1) and the Unicode line and paragraph separators. */
export const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;

/** The same messages on every path that creates an organisation (portal, operator route, bus). */
export function OrganisationNameField(): PropertyDecorator {
  const max = ORGANISATION_NAME_MAX_LENGTH;
  return applyDecorators(
    ApiProperty({ example: 'Acme Wallet', maxLength: max }),
    // Checked in this order, the first failure answered: a non-string is named as such.
    IsString({ message: 'name is required (a string)' }),
    Matches(/\S/, { message: 'name must not be blank' }),
    ValidateBy(
      {
        name: 'noControlCharacters',
        // A blank one is answered as blank.
        validator: { validate: (v: unknown) => typeof v !== 'string' || !/\S/.test(v) || !CONTROL_CHARACTERS.test(v) },
      },
      { message: 'name must not contain control characters (line breaks, tabs)' },
    ),
    MaxLength(max, { message: `name must be at most ${max} characters` }),
    MinLength(1, { message: `name must be 1 to ${max} characters` }),
  );
}
