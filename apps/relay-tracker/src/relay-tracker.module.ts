import { Module } from '@nestjs/common';

/** Root module of relay-tracker; capabilities are added as folders beside this file. */
@Module({})
export class RelayTrackerModule {}
