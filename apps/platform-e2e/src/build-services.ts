import { migrateService, startServiceFromEnv, type RunningService } from '@swap/service-kit';
import { createTestDatabase, testServiceEnv } from '@swap/testing';
import { keyRegistry } from '../../key-registry/src/key-registry.definition';
import { quoteBuilder } from '../../quote-builder/src/quote-builder.definition';
import { swapGateway } from '../../swap-gateway/src/swap-gateway.definition';

export interface BuildServices {
  /** swap-gateway's URL: the swaps routes, without the api-gateway in front. */
  gateway: string;
  /** Stops both services, then drops their database. */
  stop(): Promise<void>;
}

/** quote-builder and swap-gateway (with the key-registry whose signed key set it needs) in this process, on a test database of their own, with these settings (a chain profile, RPC URLs). */
export async function startBuildServices(env: Record<string, string>): Promise<BuildServices> {
  const db = await createTestDatabase();
  const services: RunningService[] = [];
  const stop = async () => {
    for (const s of services.reverse()) await s.close();
    await db.drop();
  };
  try {
    await migrateService(db.url, quoteBuilder);
    await migrateService(db.url, keyRegistry);
    const settings = testServiceEnv({ ...env, DATABASE_URL: db.url });
    // key-registry signs the key set swap-gateway checks keys with (its families off, as on a public deployment).
    services.push(await startServiceFromEnv(keyRegistry, settings), await startServiceFromEnv(quoteBuilder, settings));
    const gateway = await startServiceFromEnv(swapGateway, settings);
    services.push(gateway);
    return { gateway: gateway.url, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
