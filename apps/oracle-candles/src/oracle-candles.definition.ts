import { ownDatabase, type ServiceDefinition } from '@swap/service-kit';
import { PrismaClient } from './generated/prisma/client';
import { OracleCandlesConfig } from './oracle-candles.config';
import { OracleCandlesModule } from './oracle-candles.module';

export const oracleCandles: ServiceDefinition<OracleCandlesConfig> = {
  name: 'oracle-candles',
  title: 'oracle-candles',
  description: 'USD price ingestion, candle aggregation and roll-ups, and the public candles API (/v1/be/oracle/*).',
  configClass: OracleCandlesConfig,
  module: OracleCandlesModule,
  uses: { cache: true, database: ownDatabase('oracle-candles', __dirname, PrismaClient) },
};
