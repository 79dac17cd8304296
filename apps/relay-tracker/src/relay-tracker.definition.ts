import { ownDatabase, type ServiceDefinition } from '@swap/service-kit';
import { PrismaClient } from './generated/prisma/client';
import { RelayTrackerConfig } from './relay-tracker.config';
import { RelayTrackerModule } from './relay-tracker.module';

export const relayTracker: ServiceDefinition<RelayTrackerConfig> = {
  name: 'relay-tracker',
  title: 'relay-tracker',
  description:
    'Swap submissions and their state machine: chain followers and the hub index, relaying to the hub, posting to solvers; the status read model; the data API’s explorer reads (/v1/be/intent/*, /solver/*, /partners*).',
  configClass: RelayTrackerConfig,
  module: RelayTrackerModule,
  uses: { bus: true, cache: true, readModels: true, database: ownDatabase('relay-tracker', __dirname, PrismaClient) },
};

/** Webhook endpoints and deliveries (end-to-end tests manage endpoints with it until the portal's routes land). */
export { WebhooksService } from './webhooks/webhooks.service';

/** Its JetStream streams and consumers, for `npm run migrate`. */
export { relayTrackerJetStream } from './jetstream';
export { RelayTrackerJetStreamConfig } from './relay-tracker.config';
