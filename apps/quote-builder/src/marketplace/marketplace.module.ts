import { Module } from '@nestjs/common';
import { operatorTokenFrom } from '@swap/key-auth';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { QuotePurge } from './quote-purge';
import { QuoteRecords } from './quote-records';
import { MarketplaceEvents } from './marketplace.events';
import { MarketplaceOperatorController } from './operator.controller';
import { RfqService } from './rfq.service';
import { SolverConnections } from './solver-connections';
import { SolverAccountsService } from './solver-accounts.service';

@Module({
  controllers: [MarketplaceEvents, MarketplaceOperatorController],
  providers: [SolverAccountsService, SolverConnections, RfqService, QuoteRecords, QuotePurge, operatorTokenFrom(QuoteBuilderConfig)],
  exports: [SolverAccountsService, SolverConnections, RfqService, QuoteRecords],
})
export class MarketplaceModule {}
