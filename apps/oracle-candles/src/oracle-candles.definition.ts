import { join } from 'node:path';
import type { ServiceDefinition } from '@swap/service-kit';
import { PrismaClient } from './generated/prisma/client';
import { OracleCandlesConfig } from './oracle-candles.config';
import { OracleCandlesModule } from './oracle-candles.module';

/** This service's migrations (the build copies them beside the compiled code). */
export const oracleCandlesMigrations = join(__dirname, '..', 'prisma', 'migrations');

export const oracleCandles: ServiceDefinition<OracleCandlesConfig> = {
  name: 'oracle-candles',
  title: 'oracle-candles',
  description: 'USD price ingestion, candle aggregation and roll-ups, and the public candles API (/v1/be/*).',
  configClass: OracleCandlesConfig,
  module: OracleCandlesModule,
  uses: { cache: true, database: { schema: 'oracle_candles', migrationsDir: oracleCandlesMigrations, clientClass: PrismaClient } },
};
