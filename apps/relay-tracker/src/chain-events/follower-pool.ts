import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { DATABASE_POOL } from '@swap/service-kit';
import pg from 'pg';
import { SettlementChains } from '../settlement/settlement-chains';
import { followedChains } from './log-decoding';

/**
 * The chain followers' own connections: lease renewals and range commits never wait behind
 * settlement's queries in the shared pool (SETTLEMENT_CONCURRENCY steps on DATABASE_POOL_MAX
 * connections), where a renewal late by a lease would hand the chain to a peer.
 */
@Injectable()
export class FollowerPool implements OnApplicationShutdown {
  readonly pool: pg.Pool;

  /** On the service pool's database (the embedded default gives its own): one connection per followed chain and one for the leases. */
  constructor(@Inject(DATABASE_POOL) service: pg.Pool, @Optional() chains?: SettlementChains) {
    const { connectionString, connectionTimeoutMillis, idleTimeoutMillis } = service.options;
    const max = chains ? followedChains(chains.directory).length + 1 : 4;
    this.pool = new pg.Pool({ connectionString, connectionTimeoutMillis, idleTimeoutMillis, max });
    // A connection dropped by the server must not crash the process; the pool reconnects.
    this.pool.on('error', () => undefined);
  }

  /** After every module's destroy hook: the followers have stopped and released their leases. */
  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
