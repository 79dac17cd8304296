import { IsString, MaxLength } from 'class-validator';

/** A portal request about one organisation: partner-portal-api asks only for a member of the one it names. */
export class OrgIdMessage {
  @MaxLength(64)
  @IsString()
  orgId!: string;
}
