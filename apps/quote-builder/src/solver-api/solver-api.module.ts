import { Module } from '@nestjs/common';
import { ExecutionsModule } from '../executions/executions.module';
import { QuotesModule } from '../quotes/quotes.module';
import { SolverApiController } from './solver-api.controller';

@Module({ imports: [QuotesModule, ExecutionsModule], controllers: [SolverApiController] })
export class SolverApiModule {}
