import { IsServiceUrl, ServiceConfig, WithBus, WithCache, WithChains, WithDatabase } from '@swap/config';
import { DefaultAdminPorts, DefaultPorts } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

export const WORK_QUEUES = ['postgres', 'jetstream'] as const;

export class RelayTrackerConfig extends WithChains(WithCache(WithDatabase(WithBus(ServiceConfig)))) {
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

  /**
   * How often a swap waiting on what no follower sees is looked at again: a Solana source
   * (the relay's packets), a delivery to a chain nobody follows.
   */
  @Type(() => Number)
  @Min(50)
  @Max(60_000)
  @IsInt()
  STEP_POLL_MS = 500;

  /** A swap waiting for an event is looked at anyway after this long (an event missed, a follower down). */
  @Type(() => Number)
  @Min(1_000)
  @Max(3_600_000)
  @IsInt()
  FALLBACK_CHECK_MS = 30_000;

  /** How often a chain follower asks its chain for a new head. */
  @Type(() => Number)
  @Min(50)
  @Max(60_000)
  @IsInt()
  FOLLOWER_POLL_MS = 250;

  /**
   * Blocks a follower stays behind the head, per chain (`0x92.sonic=0,0xa4b1.arbitrum=2`; a
   * chain not named: 0). A reorganisation within this depth never reaches the index.
   */
  @IsOptional()
  @Matches(/^([^=,\s]+=\d{1,4})(,[^=,\s]+=\d{1,4})*$/, {
    message: 'FOLLOWER_CONFIRMATIONS must be <chain key>=<blocks> pairs separated by commas, e.g. 0x92.sonic=0,0xa4b1.arbitrum=2',
  })
  FOLLOWER_CONFIRMATIONS?: string = undefined;

  /** On its very first start a follower begins this many blocks below the head (later starts resume from their cursor). */
  @Type(() => Number)
  @Min(0)
  @Max(1_000_000)
  @IsInt()
  FOLLOWER_BACKFILL_BLOCKS = 100;

  /** Most blocks one log read covers (public RPC endpoints refuse wide ranges). */
  @Type(() => Number)
  @Min(1)
  @Max(100_000)
  @IsInt()
  FOLLOWER_MAX_RANGE = 500;

  /** How long a replica's hold on a chain lasts without renewal: a dead holder's chain is taken over after this. */
  @Type(() => Number)
  @Min(1_000)
  @Max(120_000)
  @IsInt()
  FOLLOWER_LEASE_MS = 5_000;

  /** A swap this deployment built, broadcast and nobody submitted is adopted once its deposit is this old. */
  @Type(() => Number)
  @Min(1_000)
  @Max(86_400_000)
  @IsInt()
  ADOPT_AFTER_MS = 120_000;

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

  /**
   * The key endpoint secrets are encrypted with at rest (AES-256-GCM): 32 bytes, base64 or
   * hex, from a Secret. Without it the webhook routes answer 503 and nothing is sent.
   * `npm start` makes one under its data directory.
   */
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, { message: 'WEBHOOK_ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64' })
  @IsOptional()
  WEBHOOK_ENCRYPTION_KEY?: string = undefined;

  /**
   * Address ranges webhook deliveries may connect to although not public (comma-separated
   * CIDRs, like `127.0.0.0/8,::1/128`); empty: public addresses only. `npm start` allows loopback.
   */
  @Matches(/^[0-9a-fA-F.:/, ]*$/, { message: 'WEBHOOK_ALLOWED_CIDRS must be comma-separated CIDR ranges like 127.0.0.0/8,::1/128' })
  WEBHOOK_ALLOWED_CIDRS = '';

  /** Deliver to `http://` endpoints too (https only otherwise). `npm start` sets it for loopback receivers. */
  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_HTTP: 'true' | 'false' = 'false';

  /** Webhook deliveries a replica sends at once (apart from settlement's slots). */
  @Type(() => Number)
  @Min(1)
  @Max(1_000)
  @IsInt()
  WEBHOOK_CONCURRENCY = 32;

  /**
   * Waits before each retry of a failed delivery, comma-separated ms; the last repeats until
   * WEBHOOK_RETRY_FOR_MS after the event (5 s, 30 s, 2 min, 10 min, 1 h, then hourly).
   * Each wait varies by up to a tenth either way (jitter).
   */
  @Matches(/^\d+(,\d+)*$/, { message: 'WEBHOOK_RETRY_DELAYS_MS must be comma-separated milliseconds, like 5000,30000' })
  WEBHOOK_RETRY_DELAYS_MS = '5000,30000,120000,600000,3600000';

  /** How long a delivery is retried after its event before it is given up. */
  @Type(() => Number)
  @Min(1_000)
  @Max(30 * 86_400_000)
  @IsInt()
  WEBHOOK_RETRY_FOR_MS = 86_400_000;

  /** An endpoint whose every delivery failed this long is disabled (its owners see why in the portal). */
  @Type(() => Number)
  @Min(1_000)
  @Max(90 * 86_400_000)
  @IsInt()
  WEBHOOK_DISABLE_AFTER_MS = 3 * 86_400_000;
}
