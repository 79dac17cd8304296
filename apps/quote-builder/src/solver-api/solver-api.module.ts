import { Module } from '@nestjs/common';
import { ExecutionsModule } from '../executions/executions.module';
import { QuotesModule } from '../quotes/quotes.module';
import { SolverApiController } from './solver-api.controller';
import { SolverApiLimits } from './solver-api-limits';

@Module({ imports: [QuotesModule, ExecutionsModule], controllers: [SolverApiController], providers: [SolverApiLimits] })
export class SolverApiModule {}
