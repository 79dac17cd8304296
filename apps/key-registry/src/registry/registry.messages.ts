import { ApiProperty } from '@nestjs/swagger';
import { NameField, OrganisationNameField } from '@swap/contracts';
import { IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';

/** Who asks: the portal's user (`user:<id>`), signed by partner-portal-api (SignedRequests). */
export class ActorField {
  @ApiProperty({ example: 'user:0b6c2f0e-5a8e-4f57-9f1e-2f7c1f3d6a10' })
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
  @NameField(64, 'production', '1 to 64 characters; a local label, not part of the key')
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
