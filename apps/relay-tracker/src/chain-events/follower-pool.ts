import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DATABASE_POOL } from '@swap/service-kit';
import pg from 'pg';

/**
 * The chain followers' own connections: lease renewals and range commits never wait behind
 * settlement's queries in the shared pool (SETTLEMENT_CONCURRENCY steps on DATABASE_POOL_MAX
 * connections), where a renewal late by a lease would hand the chain to a peer.
 */
@Injectable()
export class FollowerPool implements OnApplicationShutdown {
  readonly pool: pg.Pool;

  /** On the service pool's database (the embedded default gives its own). */
  constructor(@Inject(DATABASE_POOL) service: pg.Pool) {
    const { connectionString, connectionTimeoutMillis, idleTimeoutMillis } = service.options;
    this.pool = new pg.Pool({ connectionString, connectionTimeoutMillis, idleTimeoutMillis, max: 4 });
    // A connection dropped by the server must not crash the process; the pool reconnects.
    this.pool.on('error', () => undefined);
  }

  /** After every module's destroy hook: the followers have stopped and released their leases. */
  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
