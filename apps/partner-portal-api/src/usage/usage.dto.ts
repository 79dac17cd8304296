import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  EnforcementModes,
  READINESS_THRESHOLD,
  UsageIntervals,
  UsageOutcomes,
  type EnforcementMode,
  type OrgReadiness,
  type OrgRouteReadiness,
  type ReadinessStatus,
  type UsageCounts,
  type UsageInterval,
  type UsageOutcome,
  type UsageReport,
} from '@swap/contracts';
import { Transform } from 'class-transformer';
import { IsIn, IsISO8601, IsOptional, IsUUID } from 'class-validator';

export class OrgUsageQuery {
  @ApiPropertyOptional({
    example: '2026-11-27T00:00:00Z',
    description: 'ISO 8601, taken back to the start of its interval; default: an hour (minute), a day (hour) or 30 days (day) before to',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 time, e.g. 2026-11-27T00:00:00Z' })
  from?: string;

  @ApiPropertyOptional({ description: 'ISO 8601, excluded, taken on to the end of its interval; default now' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 time, e.g. 2026-11-28T00:00:00Z' })
  to?: string;

  @ApiPropertyOptional({
    enum: UsageIntervals,
    default: 'hour',
    description: 'minute: the last 2 days, at most 24 h at once; hour: at most 31 days; day: at most 90 days',
  })
  @IsOptional()
  @IsIn(UsageIntervals, { message: `interval must be one of ${UsageIntervals.join(', ')}` })
  interval?: UsageInterval;

  @ApiPropertyOptional({ description: 'One key’s requests only (a revoked key’s id still reads its history)' })
  @IsOptional()
  @IsUUID('all', { message: 'keyId must be a UUID' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  keyId?: string;
}

const outcomesExample = { valid: 118, missing: 0, invalid: 0, scope: 2, suspended: 0, unavailable: 0 };

class UsageCountsDto implements UsageCounts {
  @ApiProperty()
  requests!: number;

  @ApiProperty({ description: 'Answered 4xx, key refusals included' })
  clientErrors!: number;

  @ApiProperty({ description: 'Answered 5xx' })
  serverErrors!: number;

  @ApiProperty({
    example: outcomesExample,
    description: `Requests per key-check outcome: ${UsageOutcomes.join(', ')} (a revoked key reads invalid)`,
  })
  outcomes!: Record<UsageOutcome, number>;
}

class UsageTotalsDto extends UsageCountsDto {
  @ApiProperty({ example: 0.0169, description: 'Share of requests answered 4xx or 5xx (0 to 1)' })
  errorShare!: number;
}

class UsageRouteDto extends UsageCountsDto {
  @ApiProperty({ example: 'POST /v1/swaps/quote' })
  route!: string;
}

class UsagePointDto extends UsageCountsDto {
  @ApiProperty({ example: '2026-11-27T10:00:00.000Z', description: 'Start of the interval' })
  at!: string;
}

export class OrgUsageReport implements UsageReport {
  @ApiProperty()
  from!: string;

  @ApiProperty()
  to!: string;

  @ApiProperty({ enum: UsageIntervals })
  interval!: UsageInterval;

  @ApiPropertyOptional()
  keyId?: string;

  @ApiProperty({ type: UsageTotalsDto })
  totals!: UsageTotalsDto;

  @ApiProperty({ type: [UsageRouteDto], description: 'Per route, most requests first' })
  routes!: UsageRouteDto[];

  @ApiProperty({ type: [UsagePointDto], description: 'One point per interval from from up to to, zero where nothing was counted' })
  series!: UsagePointDto[];
}

class RouteReadinessDto implements OrgRouteReadiness {
  @ApiProperty({ example: 'POST /v1/swaps/quote' })
  route!: string;

  @ApiProperty({ description: 'Requests with one of the organisation’s keys in the window' })
  identified!: number;

  @ApiProperty({ description: 'Of those, with the route’s scope and not refused as suspended' })
  valid!: number;

  @ApiProperty({ example: 1 })
  share!: number;

  @ApiProperty({ description: 'The first such request kept (90 days)' })
  firstSeen!: string;

  @ApiProperty({
    enum: ['ready', 'too-early', 'not-ready'],
    description: `ready: share at least ${READINESS_THRESHOLD} and traffic for the whole window; too-early: the share is met, traffic began within it`,
  })
  status!: ReadinessStatus;
}

class RouteModeDto {
  @ApiProperty({ example: 'POST /v1/swaps/quote' })
  route!: string;

  @ApiProperty({ enum: EnforcementModes })
  mode!: EnforcementMode;
}

export class OrgReadinessReport implements OrgReadiness {
  @ApiProperty({ description: 'Seven days before to' })
  from!: string;

  @ApiProperty()
  to!: string;

  @ApiProperty({ example: READINESS_THRESHOLD })
  threshold!: number;

  @ApiProperty({ type: [RouteReadinessDto], description: 'Routes the organisation’s keys were presented on in the window' })
  routes!: RouteReadinessDto[];

  @ApiProperty({ type: [RouteModeDto], description: 'Every keyed route’s mode now: its own where an operator set one, else its family’s' })
  modes!: RouteModeDto[];
}
