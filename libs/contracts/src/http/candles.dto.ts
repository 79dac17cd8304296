import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Candle, CandlesResponse, MarketsResponse } from '../domain/candle';

export class CandleDto implements Candle {
  @ApiProperty({ example: 1763812800, description: 'Bucket start in UNIX seconds; covers [timestamp, timestamp + interval)' })
  timestamp!: number;

  @ApiProperty({ example: '3021.45', description: 'USD, exact decimal string' })
  open!: string;

  @ApiProperty({ example: '3030.1' })
  high!: string;

  @ApiProperty({ example: '3011.874' })
  low!: string;

  @ApiProperty({ example: '3024' })
  close!: string;

  @ApiPropertyOptional({ enum: [false], description: 'false on the candle still forming; closed candles omit it' })
  final?: false;
}

export class CandlesResponseDto implements CandlesResponse {
  @ApiProperty({ example: 'ETH' })
  symbol!: string;

  @ApiProperty({ enum: ['USD'] })
  quote!: 'USD';

  @ApiProperty({ example: '1h' })
  interval!: string;

  @ApiProperty({ type: [CandleDto], description: 'Oldest first; buckets without ticks are omitted' })
  candles!: CandleDto[];
}

export class IntervalDto {
  @ApiProperty({ example: '1m' })
  key!: string;

  @ApiProperty({ example: '1 minute' })
  label!: string;

  @ApiProperty({ example: 60 })
  seconds!: number;
}

export class MarketsResponseDto implements MarketsResponse {
  @ApiProperty({ enum: ['USD'] })
  quote!: 'USD';

  @ApiProperty({ type: [IntervalDto] })
  intervals!: IntervalDto[];

  @ApiProperty({ example: ['BTC', 'ETH', 'USDC'], description: 'Every symbol that has candle data; grows over time' })
  symbols!: string[];
}
