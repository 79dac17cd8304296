import { ServiceConfig, WithCache, WithDatabase, IsServiceUrl } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

export const PRICE_SOURCES = ['simulated', 'hermes', 'none'] as const;
export type PriceSourceKind = (typeof PRICE_SOURCES)[number];

export class OracleCandlesConfig extends WithCache(WithDatabase(ServiceConfig)) {
  override PORT = DefaultPorts['oracle-candles'];
  override ADMIN_PORT = DefaultAdminPorts['oracle-candles'];

  /** Where ticks come from: Pyth's Hermes, the seeded simulated feed, or nothing (backfill only). */
  @IsIn(PRICE_SOURCES)
  PRICE_SOURCE: PriceSourceKind = 'simulated';

  @IsServiceUrl(['http', 'https'])
  HERMES_URL = 'https://hermes.pyth.network';

  /** A markets file (symbols, Pyth feed ids, aliases) replacing the built-in one. */
  @IsOptional()
  @IsString()
  MARKETS_FILE?: string = undefined;

  @Type(() => Number)
  @Min(0)
  @Max(2 ** 31 - 1)
  @IsInt()
  SIMULATION_SEED = 1;

  @Type(() => Number)
  @Min(10)
  @Max(60_000)
  @IsInt()
  SIMULATION_TICK_MS = 1_000;

  @Type(() => Number)
  @Min(50)
  @Max(60_000)
  @IsInt()
  FLUSH_INTERVAL_MS = 1_000;

  @Type(() => Number)
  @Min(0)
  @Max(300_000)
  @IsInt()
  CANDLE_CACHE_TTL_MS = 10_000;
}
