import { Module } from '@nestjs/common';
import { Events } from '@swap/contracts';
import { RegistryMirror, RegistryMirrorEvents } from '@swap/messaging';
import { KeyAuthModule, keySetEventsController, LocalKeySetSource, operatorTokenFrom } from '@swap/key-auth';
import { SponsoringKeysService } from './keys/sponsoring-keys.service';
import { OpsController } from './ops/ops.controller';
import { SponsorshipKeysConfig } from './sponsorship-keys.config';
import { SponsorshipsController } from './sponsorships/sponsorships.controller';

@Module({
  providers: [SponsoringKeysService],
  exports: [SponsoringKeysService],
})
class SponsoringKeysModule {}

@Module({
  imports: [
    SponsoringKeysModule,
    KeyAuthModule.register({
      imports: [SponsoringKeysModule],
      inject: [SponsoringKeysService, SponsorshipKeysConfig],
      useFactory: (keys: SponsoringKeysService, config: SponsorshipKeysConfig) => ({
        name: 'sponsoring',
        // Read from this service's own table: the bus carries only a version hint.
        source: new LocalKeySetSource(() => keys.snapshot()),
        refreshMs: config.KEYSET_REFRESH_MS,
        fixedModes: { sponsorships: 'enforce' },
      }),
    }),
  ],
  controllers: [SponsorshipsController, keySetEventsController(Events.sponsoringKeySetChanged), OpsController, RegistryMirrorEvents],
  providers: [operatorTokenFrom(SponsorshipKeysConfig), RegistryMirror],
})
export class SponsorshipKeysModule {}
