import { Module } from '@nestjs/common';

/** Root module of oracle-candles; capabilities are added as folders beside this file. */
@Module({})
export class OracleCandlesModule {}
