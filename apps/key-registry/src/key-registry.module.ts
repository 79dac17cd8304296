import { Module } from '@nestjs/common';

/** Root module of key-registry; capabilities are added as folders beside this file. */
@Module({})
export class KeyRegistryModule {}
