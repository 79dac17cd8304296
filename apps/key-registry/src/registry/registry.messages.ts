import { ApiProperty } from '@nestjs/swagger';
import {
  EnforcementModes,
  OrganisationNameField,
  RouteFamilies,
  Scopes,
  type EnforcementMode,
  type RouteFamily,
  type Scope,
} from '@swap/contracts';
import { ArrayMinSize, IsArray, IsIn, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';

/** Who asks: a portal user id, or `operator:<name>` from the ops tool. */
export class ActorField {
  @ApiProperty({ example: 'operator:alice' })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  actor!: string;
}

export class OrgIdField extends ActorField {
  @ApiProperty()
  @IsUUID('all', { message: 'orgId must be a UUID' })
  orgId!: string;
}

export class CreateOrganisationMessage extends ActorField {
  @OrganisationNameField()
  name!: string;
}

export class CreateKeyMessage extends OrgIdField {
  @ApiProperty({ example: 'production', description: '1 to 64 characters; a local label, not part of the key' })
  @Matches(/\S/, { message: 'name must not be blank' })
  @MaxLength(64, { message: 'name must be at most 64 characters' })
  @MinLength(1, { message: 'name must be 1 to 64 characters' })
  @IsString()
  name!: string;

  /** SHA-256 of the key, hex: the caller minted the key, so the secret never crosses the bus. */
  @ApiProperty({ example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' })
  @Matches(/^[0-9a-f]{64}$/, { message: 'keyHash must be the SHA-256 of the key: 64 lower-case hex digits' })
  @IsString()
  keyHash!: string;

  @ApiProperty({ example: 'svc_Ab3dE9xQ' })
  @Matches(/^svc_[A-Za-z0-9_-]{8}$/, { message: 'prefix must be svc_ and the first 8 characters of the secret' })
  @IsString()
  prefix!: string;
}

export class ListKeysMessage {
  @IsUUID('all', { message: 'orgId must be a UUID' })
  orgId!: string;
}

export class RevokeKeyMessage extends OrgIdField {
  @ApiProperty()
  @IsUUID('all', { message: 'keyId must be a UUID' })
  keyId!: string;
}

export class NarrowScopesMessage extends ActorField {
  @IsUUID('all', { message: 'keyId must be a UUID' })
  keyId!: string;

  @ApiProperty({ enum: Scopes, isArray: true, example: ['swaps:read'] })
  @IsIn(Scopes, { each: true, message: `each scope must be one of ${Scopes.join(', ')}` })
  @ArrayMinSize(1, { message: 'scopes must name at least one scope' })
  @IsArray()
  scopes!: Scope[];
}

export class SetModeMessage extends ActorField {
  @IsIn(RouteFamilies, { message: `family must be one of ${RouteFamilies.join(', ')} (sponsorship routes are always enforced)` })
  family!: RouteFamily;

  @ApiProperty({ enum: EnforcementModes })
  @IsIn(EnforcementModes, { message: `mode must be one of ${EnforcementModes.join(', ')}` })
  mode!: EnforcementMode;
}
