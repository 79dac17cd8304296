import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { KeyRegistryConfig } from '../key-registry.config';
import { UsageStore } from './usage-store';

/** Every USAGE_ROLLUP_MS (and at start): minutes past two days into hours, hours past retention out. */
@Injectable()
export class UsageRollup implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly store: UsageStore,
    private readonly config: KeyRegistryConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(), this.config.USAGE_ROLLUP_MS);
    this.timer.unref();
    void this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  run(): Promise<void> {
    this.running ??= this.store
      .rollUp()
      .then(
        (done) => {
          if (done.moved || done.expired) this.logger.info(done, 'usage rolled up');
        },
        (err: unknown) => this.logger.warn({ err }, 'usage roll-up failed; the next one retries'),
      )
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
