import { ownDatabase, type ServiceDefinition } from '@swap/service-kit';
import { PrismaClient } from './generated/prisma/client';
import { registerMarketplaceSocket } from './marketplace/marketplace.socket';
import { QuoteBuilderConfig } from './quote-builder.config';
import { QuoteBuilderModule } from './quote-builder.module';
import { installSolverApiErrorShape } from './solver-api/solver-api-errors';

export const quoteBuilder: ServiceDefinition<QuoteBuilderConfig> = {
  name: 'quote-builder',
  title: 'quote-builder',
  description:
    'The chain catalog (chains and tokens), quotes from the solver marketplace and unsigned transactions; the solver API (/v1/intent/*).',
  configClass: QuoteBuilderConfig,
  module: QuoteBuilderModule,
  uses: { bus: true, cache: true, database: ownDatabase('quote-builder', __dirname, PrismaClient) },
  configure: async (app) => {
    installSolverApiErrorShape(app.getHttpAdapter().getInstance());
    await registerMarketplaceSocket(app);
  },
};
