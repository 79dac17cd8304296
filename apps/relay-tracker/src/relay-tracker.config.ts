import { IsServiceUrl, ServiceConfig, WithBus, WithChains, WithDatabase } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';

export const WORK_QUEUES = ['postgres', 'jetstream'] as const;

export class RelayTrackerConfig extends WithChains(WithDatabase(WithBus(ServiceConfig))) {
  override PORT = DefaultPorts['relay-tracker'];
  override ADMIN_PORT = DefaultAdminPorts['relay-tracker'];

  /** The relay network's API (`{ action, params }`): the public one, or the devnet relayer's. */
  @IsServiceUrl(['http', 'https'])
  RELAY_API_URL = 'https://xcall-relay.nw.iconblockchain.xyz';

  @Type(() => Number)
  @Min(100)
  @Max(60_000)
  @IsInt()
  RELAY_API_TIMEOUT_MS = 5_000;

  /**
   * How long a reachable RPC may keep saying a source transaction does not exist before the
   * swap fails ("source transaction not found"). RPC errors never count toward it.
   */
  @Type(() => Number)
  @Min(1_000)
  @Max(7 * 86_400_000)
  @IsInt()
  NOT_FOUND_WINDOW_MS = 600_000;

  /** How often a swap waiting on a chain or the relay is looked at again. */
  @Type(() => Number)
  @Min(50)
  @Max(60_000)
  @IsInt()
  STEP_POLL_MS = 500;

  /** Where settlement work waits: JetStream (cluster mode) or a PostgreSQL table (the embedded default sets it). */
  @IsIn(WORK_QUEUES)
  WORK_QUEUE: (typeof WORK_QUEUES)[number] = 'jetstream';

  /** Swaps one replica works on at once. */
  @Type(() => Number)
  @Min(1)
  @Max(1_000)
  @IsInt()
  SETTLEMENT_CONCURRENCY = 32;

  /** How long a replica holds a swap it took before another may take it (renewed while it works). */
  @Type(() => Number)
  @Min(1_000)
  @Max(600_000)
  @IsInt()
  WORK_LEASE_MS = 30_000;

  /** How long a failed swap's intent is watched for a cancel (then intentCancelled shows it). */
  @Type(() => Number)
  @Min(0)
  @Max(30 * 86_400_000)
  @IsInt()
  CANCEL_WATCH_MS = 86_400_000;
}
