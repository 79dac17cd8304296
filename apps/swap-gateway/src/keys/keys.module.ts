import { Module } from '@nestjs/common';
import { Events, Subjects } from '@swap/contracts';
import { KeyAuthModule, keySetEventsController } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import { parseModes, SwapGatewayConfig } from '../swap-gateway.config';

/** Portal keys: the key set from key-registry, and the guard on every keyed route. */
@Module({
  imports: [
    KeyAuthModule.register({
      inject: [MessagingClient, SwapGatewayConfig],
      useFactory: (messaging: MessagingClient, config: SwapGatewayConfig) => ({
        name: 'portal',
        load: () => messaging.request(Subjects.keySetSnapshot, {}),
        refreshMs: config.KEYSET_REFRESH_MS,
        modesUntilLoaded: parseModes(config.KEY_MODES_UNTIL_LOADED),
      }),
    }),
  ],
  // key-registry announces every change of the key set.
  controllers: [keySetEventsController(Events.keySetChanged)],
  exports: [KeyAuthModule],
})
export class KeysModule {}
