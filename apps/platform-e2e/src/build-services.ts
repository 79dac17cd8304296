import { migrateService, startServiceFromEnv, type RunningService } from '@swap/service-kit';
import { createTestDatabase, testServiceEnv } from '@swap/testing';
import { quoteBuilder } from '../../quote-builder/src/quote-builder.definition';
import { swapGateway } from '../../swap-gateway/src/swap-gateway.definition';

export interface BuildServices {
  /** swap-gateway's URL: the swaps routes, without the api-gateway in front. */
  gateway: string;
  /** Stops both services, then drops their database. */
  stop(): Promise<void>;
}

/** quote-builder and swap-gateway in this process, on a test database of their own, with these settings (a chain profile, RPC URLs). */
export async function startBuildServices(env: Record<string, string>): Promise<BuildServices> {
  const db = await createTestDatabase();
  const services: RunningService[] = [];
  const stop = async () => {
    for (const s of services.reverse()) await s.close();
    await db.drop();
  };
  try {
    await migrateService(db.url, quoteBuilder);
    const settings = testServiceEnv({ ...env, DATABASE_URL: db.url });
    services.push(await startServiceFromEnv(quoteBuilder, settings), await startServiceFromEnv(swapGateway, settings));
    return { gateway: services[1].url, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
