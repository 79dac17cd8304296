import { type Constructor, IsServiceUrl, ServiceConfig, WithBus, WithCache, WithChains, WithDatabase } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { SigningKeys, WithPublicKey } from '@swap/messaging';

export const WORK_QUEUES = ['postgres', 'jetstream'] as const;

/** The settlement queue's settings, which `npm run migrate` reads too (the consumer's ack wait is the lease). */
function WithWorkQueue<B extends Constructor>(Base: B) {
  class WorkQueueConfig extends Base {
    @IsIn(WORK_QUEUES)
    WORK_QUEUE: (typeof WORK_QUEUES)[number] = 'jetstream';

    @Type(() => Number)
    @Min(1_000)
    @Max(600_000)
    @IsInt()
    WORK_LEASE_MS = 30_000;
  }
  return WorkQueueConfig;
}

/** What `npm run migrate` reads of relay-tracker's settings to make its JetStream streams: the bus and the queue, nothing else it would have to be given. */
export class RelayTrackerJetStreamConfig extends WithWorkQueue(WithBus(ServiceConfig)) {}

/** Each variable is described in docs/operators/configuration.md#variables. */
export class RelayTrackerConfig extends WithPublicKey(
  WithWorkQueue(WithChains(WithCache(WithDatabase(WithBus(ServiceConfig))))),
  SigningKeys.portal,
) {
  override PORT = DefaultPorts['relay-tracker'];
  override ADMIN_PORT = DefaultAdminPorts['relay-tracker'];

  @IsServiceUrl(['http', 'https'])
  RELAY_API_URL = 'https://xcall-relay.nw.iconblockchain.xyz';

  @Type(() => Number)
  @Min(100)
  @Max(60_000)
  @IsInt()
  RELAY_API_TIMEOUT_MS = 5_000;

  @Type(() => Number)
  @Min(1_000)
  @Max(7 * 86_400_000)
  @IsInt()
  NOT_FOUND_WINDOW_MS = 600_000;

  @Type(() => Number)
  @Min(50)
  @Max(60_000)
  @IsInt()
  STEP_POLL_MS = 500;

  @Type(() => Number)
  @Min(1_000)
  @Max(3_600_000)
  @IsInt()
  FALLBACK_CHECK_MS = 30_000;

  @Type(() => Number)
  @Min(50)
  @Max(60_000)
  @IsInt()
  FOLLOWER_POLL_MS = 250;

  /** A reorganisation within this depth never reaches the index. */
  @IsOptional()
  @Matches(/^([^=,\s]+=\d{1,4})(,[^=,\s]+=\d{1,4})*$/, {
    message: 'FOLLOWER_CONFIRMATIONS must be <chain key>=<blocks> pairs separated by commas, e.g. 0x92.sonic=0,0xa4b1.arbitrum=2',
  })
  FOLLOWER_CONFIRMATIONS?: string = undefined;

  @Type(() => Number)
  @Min(0)
  @Max(1_000_000)
  @IsInt()
  FOLLOWER_BACKFILL_BLOCKS = 100;

  /** Public RPC endpoints refuse wide ranges. */
  @Type(() => Number)
  @Min(1)
  @Max(100_000)
  @IsInt()
  FOLLOWER_MAX_RANGE = 500;

  @Type(() => Number)
  @Min(1_000)
  @Max(120_000)
  @IsInt()
  FOLLOWER_LEASE_MS = 5_000;

  @Type(() => Number)
  @Min(1_000)
  @Max(86_400_000)
  @IsInt()
  ADOPT_AFTER_MS = 120_000;

  @Type(() => Number)
  @Min(1)
  @Max(1_000)
  @IsInt()
  SETTLEMENT_CONCURRENCY = 32;

  @Type(() => Number)
  @Min(0)
  @Max(30 * 86_400_000)
  @IsInt()
  CANCEL_WATCH_MS = 86_400_000;

  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, { message: 'WEBHOOK_ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64' })
  @IsOptional()
  WEBHOOK_ENCRYPTION_KEY?: string = undefined;

  @Matches(/^[0-9a-fA-F.:/, ]*$/, { message: 'WEBHOOK_ALLOWED_CIDRS must be comma-separated CIDR ranges like 127.0.0.0/8,::1/128' })
  WEBHOOK_ALLOWED_CIDRS = '';

  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_HTTP: 'true' | 'false' = 'false';

  @Type(() => Number)
  @Min(1)
  @Max(1_000)
  @IsInt()
  WEBHOOK_CONCURRENCY = 32;

  @Matches(/^\d+(,\d+)*$/, { message: 'WEBHOOK_RETRY_DELAYS_MS must be comma-separated milliseconds, like 5000,30000' })
  WEBHOOK_RETRY_DELAYS_MS = '5000,30000,120000,600000,3600000';

  @Type(() => Number)
  @Min(1_000)
  @Max(30 * 86_400_000)
  @IsInt()
  WEBHOOK_RETRY_FOR_MS = 86_400_000;

  @Type(() => Number)
  @Min(1_000)
  @Max(90 * 86_400_000)
  @IsInt()
  WEBHOOK_DISABLE_AFTER_MS = 3 * 86_400_000;
}
