import type { Tick } from '../aggregation/candle-aggregator';

/** A feed of USD prices. Ticks carry exact prices and the time the price was published. */
export interface PriceSource {
  readonly name: string;
  /** True for feeds that invent prices; logged and reported loudly. */
  readonly simulated: boolean;
  start(onTicks: (ticks: Tick[]) => void): Promise<void>;
  stop(): Promise<void>;
}
