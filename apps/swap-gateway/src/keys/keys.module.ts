import { Module } from '@nestjs/common';
import { Events, Subjects } from '@swap/contracts';
import { KeyAuthModule, keySetEventsController, portalKeySetFeed } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { CACHE, LOGGER, type Cache } from '@swap/service-kit';
import { SwapGatewayConfig } from '../swap-gateway.config';

/** The last good key set is kept in the shared cache for a restart while key-registry is down; usage goes to key-registry in batches. */
@Module({
  imports: [
    KeyAuthModule.register({
      inject: [MessagingClient, SwapGatewayConfig, CACHE, LOGGER],
      useFactory: (messaging: MessagingClient, config: SwapGatewayConfig, cache: Cache, logger: Logger) => ({
        name: 'portal',
        source: portalKeySetFeed({
          messaging,
          publicKeys: config.KEYSET_PUBLIC_KEY,
          store: cache,
          keptMaxAgeMs: config.KEYSET_KEPT_MAX_AGE_MS,
          timeoutMs: config.RPC_TIMEOUT_MS,
          logger,
        }),
        refreshMs: config.KEYSET_REFRESH_MS,
      }),
      usage: (messaging: MessagingClient, config: SwapGatewayConfig) =>
        config.USAGE_COUNTING === 'true'
          ? {
              flushMs: config.USAGE_FLUSH_MS,
              maxPendingRows: config.USAGE_MAX_PENDING_ROWS,
              send: (batch) => messaging.request(Subjects.usageRecord, batch, { timeoutMs: config.RPC_TIMEOUT_MS }),
            }
          : undefined,
    }),
  ],
  controllers: [keySetEventsController(Events.keySetChanged)],
  exports: [KeyAuthModule],
})
export class KeysModule {}
