import { Module } from '@nestjs/common';
import { RegistryMirror, RegistryMirrorEvents } from '@swap/messaging';
import { HubClock } from './hub-clock';
import { ReadsController } from './reads.controller';
import { TokensController } from './tokens.controller';

/** The public reads (tokens, deadline, partner fee), answered from memory. */
@Module({
  controllers: [TokensController, ReadsController, RegistryMirrorEvents],
  providers: [RegistryMirror, HubClock],
  exports: [RegistryMirror],
})
export class ReadsModule {}
