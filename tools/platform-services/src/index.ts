/** The one list the embedded default starts and the migrate tool migrates. */
import type { AnyServiceDefinition } from '@swap/service-kit';
import { apiGateway } from '../../../apps/api-gateway/src/api-gateway.definition';
import { keyRegistry } from '../../../apps/key-registry/src/key-registry.definition';
import { oracleCandles } from '../../../apps/oracle-candles/src/oracle-candles.definition';
import { partnerPortalApi } from '../../../apps/partner-portal-api/src/partner-portal-api.definition';
import { quoteBuilder } from '../../../apps/quote-builder/src/quote-builder.definition';
import { relayTracker } from '../../../apps/relay-tracker/src/relay-tracker.definition';
import { sponsorshipKeys } from '../../../apps/sponsorship-keys/src/sponsorship-keys.definition';
import { swapGateway } from '../../../apps/swap-gateway/src/swap-gateway.definition';

/** In start order: providers of bus replies first. */
export const BACKEND_SERVICES: readonly AnyServiceDefinition[] = [
  quoteBuilder,
  keyRegistry,
  relayTracker,
  oracleCandles,
  sponsorshipKeys,
  partnerPortalApi,
  swapGateway,
];

export const GATEWAY: AnyServiceDefinition = apiGateway;

export const DATABASE_SERVICES = [...BACKEND_SERVICES, GATEWAY].filter((d) => d.uses.database);
