import { Module } from '@nestjs/common';
import { Events } from '@swap/contracts';
import { catalogSignaturesFrom, ChainCatalogMirror, ChainCatalogMirrorEvents } from '@swap/chain-catalog';
import { KeyAuthModule, keySetEventsController, LocalKeySetSource, operatorTokenFrom } from '@swap/key-auth';
import { SponsoringKeysService } from './keys/sponsoring-keys.service';
import { SponsorshipOpsController } from './ops/sponsorship-ops.controller';
import { SponsorshipKeysConfig } from './sponsorship-keys.config';
import { SponsorshipsController } from './sponsorships/sponsorships.controller';

/** The sponsoring-key store (this service's own table), for the key checks and the routes alike. */
@Module({
  providers: [SponsoringKeysService],
  exports: [SponsoringKeysService],
})
class SponsoringKeyStoreModule {}

@Module({
  imports: [
    SponsoringKeyStoreModule,
    KeyAuthModule.register({
      imports: [SponsoringKeyStoreModule],
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
  controllers: [
    SponsorshipsController,
    keySetEventsController(Events.sponsoringKeySetChanged),
    SponsorshipOpsController,
    ChainCatalogMirrorEvents,
  ],
  providers: [operatorTokenFrom(SponsorshipKeysConfig), ChainCatalogMirror, catalogSignaturesFrom(SponsorshipKeysConfig)],
})
export class SponsorshipKeysModule {}
