// For `prisma migrate deploy` where Prisma's schema engine can be downloaded:
//   DATABASE_URL='postgresql://…/swap_platform?schema=oracle_candles' npx prisma migrate deploy --config apps/oracle-candles/prisma.config.ts
// Offline machines use `npm run migrate`, which applies the same files (docs/operators/database-migrations.md).
import { defineConfig, env } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: env('DATABASE_URL') },
});
