import type { ServiceDefinition } from '@swap/service-kit';
import { QuoteBuilderConfig } from './quote-builder.config';
import { QuoteBuilderModule } from './quote-builder.module';

export const quoteBuilder: ServiceDefinition<QuoteBuilderConfig> = {
  name: 'quote-builder',
  title: 'quote-builder',
  description: 'Chain and token registry, quotes and unsigned transactions; the solver API (/v1/intent/*).',
  configClass: QuoteBuilderConfig,
  module: QuoteBuilderModule,
  uses: { bus: true },
};
