import { Module } from '@nestjs/common';
import { CandleStore } from '../aggregation/candle-store';
import { IngestionService } from '../ingestion/ingestion.service';
import { CandlesController } from './candles.controller';
import { CandlesService } from './candles.service';

@Module({ controllers: [CandlesController], providers: [CandleStore, IngestionService, CandlesService] })
export class CandlesModule {}
