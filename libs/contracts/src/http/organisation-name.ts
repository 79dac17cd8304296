import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

/** The longest organisation name, wherever one is given (portal, operator routes, the bus). */
export const ORGANISATION_NAME_MAX_LENGTH = 64;

/**
 * An organisation's `name`: 1 to 64 characters, not blank, with the same messages on every
 * path that creates one (partner-portal-api's `POST /portal/api/orgs`, key-registry's
 * operator route and its bus handler).
 */
export function OrganisationNameField(): PropertyDecorator {
  const max = ORGANISATION_NAME_MAX_LENGTH;
  return applyDecorators(
    ApiProperty({ example: 'Acme Wallet', maxLength: max }),
    // Checked in this order, the first failure answered: a non-string is named as such.
    IsString({ message: 'name is required (a string)' }),
    Matches(/\S/, { message: 'name must not be blank' }),
    MaxLength(max, { message: `name must be at most ${max} characters` }),
    MinLength(1, { message: `name must be 1 to ${max} characters` }),
  );
}
