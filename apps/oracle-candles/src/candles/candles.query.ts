import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, Matches, MaxLength } from 'class-validator';
import { INTERVAL_KEYS, type IntervalKey } from '../prices/intervals';

const UNIX_SECONDS = /^(0|[1-9]\d{0,11})$/;

/** All four parameters are required. */
export class CandlesQuery {
  @ApiProperty({ example: 'ETH', description: 'A symbol from the markets list, exact case' })
  @Matches(/^\S+$/, { message: 'symbol must be a symbol without spaces' })
  @MaxLength(64)
  @IsDefined({ message: 'symbol is required' })
  symbol!: string;

  @ApiProperty({ enum: INTERVAL_KEYS, example: '1h' })
  @IsIn(INTERVAL_KEYS, { message: `interval must be one of ${INTERVAL_KEYS.join(', ')}` })
  @IsDefined({ message: 'interval is required' })
  interval!: IntervalKey;

  @ApiProperty({ example: '1763769600', description: 'UNIX seconds, inclusive' })
  @Matches(UNIX_SECONDS, { message: 'from must be UNIX seconds: a non-negative integer of at most 12 digits' })
  @IsDefined({ message: 'from is required' })
  from!: string;

  @ApiProperty({ example: '1763856000', description: 'UNIX seconds, exclusive' })
  @Matches(UNIX_SECONDS, { message: 'to must be UNIX seconds: a non-negative integer of at most 12 digits' })
  @IsDefined({ message: 'to is required' })
  to!: string;
}
