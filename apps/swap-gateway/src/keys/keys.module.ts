import { Module } from '@nestjs/common';
import { Subjects } from '@swap/contracts';
import { KeyAuthModule } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import { parseModes, SwapGatewayConfig } from '../swap-gateway.config';
import { KeySetEvents } from './key-set.events';

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
  controllers: [KeySetEvents],
  exports: [KeyAuthModule],
})
export class KeysModule {}
