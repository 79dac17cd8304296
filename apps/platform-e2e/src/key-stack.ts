import { randomBytes } from 'node:crypto';
import { migrateService, startServiceFromEnv, type AnyServiceDefinition, type RunningService, type SharedRuntime } from '@swap/service-kit';
import { PORTAL_KEY_SET_STORE_KEY } from '@swap/key-auth';
import { createTestDatabase, LogCapture, RUN_PREFIX, testInfra, testServiceEnv } from '@swap/testing';
import { Redis } from 'ioredis';
import { keyRegistry, PUBLISHED_MARK_KEY } from '../../key-registry/src/key-registry.definition';
import { partnerPortalApi } from '../../partner-portal-api/src/partner-portal-api.definition';
import { quoteBuilder } from '../../quote-builder/src/quote-builder.definition';
import { relayTracker } from '../../relay-tracker/src/relay-tracker.definition';
import { sponsorshipKeys } from '../../sponsorship-keys/src/sponsorship-keys.definition';
import { swapGateway } from '../../swap-gateway/src/swap-gateway.definition';

/** The stack's operator credential (OPS_TOKEN of its services): audit logs name its operator, `tester`. */
export const TESTER_TOKEN = `tester-${randomBytes(16).toString('hex')}`;
export const OPS_HEADERS = { authorization: `Bearer ${TESTER_TOKEN}` };

/** No relay here (nothing listens on the discard port): relay calls fail at once, as a relay outage would. */
export const UNREACHABLE_RELAY = 'http://127.0.0.1:9/';

/**
 * The services that take part in key checks, each on its own port, over the real NATS
 * (this file's subject prefix) and PostgreSQL (a fresh database), as in a cluster.
 */
export class KeyStack {
  readonly logs = new LogCapture();
  services: Record<string, RunningService> = {};
  private db?: { url: string; drop: () => Promise<void> };

  async start(): Promise<this> {
    this.db = await createTestDatabase();
    for (const d of [keyRegistry, quoteBuilder, relayTracker, sponsorshipKeys, partnerPortalApi]) await migrateService(this.db.url, d);
    for (const d of [keyRegistry, quoteBuilder, relayTracker, sponsorshipKeys, swapGateway])
      await this.add(d, d === relayTracker ? { RELAY_API_URL: UNREACHABLE_RELAY } : {});
    return this;
  }

  /** Starts (or adds another replica of) a service. */
  async add(
    definition: AnyServiceDefinition,
    env: Record<string, string> = {},
    shared?: SharedRuntime,
    as: string = definition.name,
  ): Promise<RunningService> {
    const service = await startServiceFromEnv(
      definition,
      testServiceEnv({
        DATABASE_URL: this.db!.url,
        LOG_LEVEL: 'info',
        WORK_QUEUE: 'postgres',
        OPS_TOKEN: `tester:${TESTER_TOKEN}`,
        ...env,
      }),
      { logDestination: this.logs, ...shared },
    );
    this.services[as] = service;
    return service;
  }

  /** The stack's database (one per stack, every service's schema in it). */
  get databaseUrl(): string {
    return this.db!.url;
  }

  url(name: string): string {
    return this.services[name].url;
  }

  /** An operator call; the answer's JSON body is typed by each spec as it expects. */
  async ops(
    service: 'key-registry' | 'sponsorship-keys',
    method: string,
    path: string,
    body?: unknown,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body each spec reads as it expects
  ): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.url(service)}${path}`, {
      method,
      headers: { ...OPS_HEADERS, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async stop(): Promise<void> {
    for (const service of Object.values(this.services).reverse()) await service.close().catch(() => undefined);
    await this.db?.drop();
    // The copy of the key set swap-gateway keeps in Redis (under this file's prefix) and key-registry's mark of what it announced go too.
    const redis = new Redis(testInfra.redisUrl, { lazyConnect: true });
    await redis
      .connect()
      .then(() => redis.del(`${RUN_PREFIX}:${PORTAL_KEY_SET_STORE_KEY}`, `${RUN_PREFIX}:${PUBLISHED_MARK_KEY}`))
      .catch(() => undefined);
    redis.disconnect();
  }
}
