import { createLogger } from '@swap/observability';
import { eventually, HermesDouble } from '@swap/testing';
import type { Tick } from '../aggregation/candle-aggregator';
import { formatPrice } from '../prices/decimal-price';
import { HermesPriceSource } from './hermes-source';

const ETH = 'ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace';
const BTC = 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43';

describe('HermesPriceSource against a local Hermes double', () => {
  let hermes: HermesDouble;
  let source: HermesPriceSource;
  const ticks: Tick[] = [];
  const seen = () => ticks.map((t) => `${t.symbol}=${formatPrice(t.price)}@${t.timeMs}`);

  beforeAll(async () => {
    hermes = new HermesDouble();
    await hermes.start();
    hermes.latest.set(ETH, { id: ETH, price: '302145000000', expo: -8, publishTime: 1_700_000_000 });
    source = new HermesPriceSource({
      baseUrl: hermes.url,
      feeds: { ETH: `0x${ETH}`, BTC },
      logger: createLogger({ service: 'test', level: 'silent' }),
      backoffMs: 20,
      maxBackoffMs: 100,
    });
    await source.start((batch) => ticks.push(...batch));
  });

  afterAll(async () => {
    await source.stop();
    await hermes.stop();
  });

  it('asks for the configured feeds and starts from the latest prices', () => {
    expect(hermes.requests[0]).toBe(`/v2/updates/price/latest?ids[]=${ETH}&ids[]=${BTC}&parsed=true`);
    expect(seen()).toEqual(['ETH=3021.45@1700000000000']);
  });

  it('turns streamed updates into exact ticks', async () => {
    await eventually(() => hermes.openStreams === 1);
    hermes.push([
      { id: ETH, price: '302200000001', expo: -8, publishTime: 1_700_000_001 },
      { id: BTC, price: '9125050000000', expo: -8, publishTime: 1_700_000_001 },
      { id: 'unknownfeed', price: '1', expo: 0, publishTime: 1_700_000_001 },
    ]);
    await eventually(() => ticks.length === 3);
    expect(seen().slice(1)).toEqual(['ETH=3022.00000001@1700000001000', 'BTC=91250.5@1700000001000']);
  });

  it('skips malformed and out-of-range prices without dropping the stream', async () => {
    hermes.push([{ id: ETH, price: '-5', expo: -8, publishTime: 1_700_000_002 }]);
    hermes.push([{ id: ETH, price: '5', expo: 100_000_000, publishTime: 1_700_000_002 }]); // an exponent that would stall the loop
    hermes.push([{ id: ETH, price: '1', expo: 21, publishTime: 1_700_000_002 }]); // beyond what the table holds
    hermes.push([{ id: ETH, price: '5', expo: -8, publishTime: 9e15 }]);
    hermes.push([{ id: ETH, price: '302300000000', expo: -8, publishTime: 1_700_000_003 }]);
    await eventually(() => ticks.length === 4);
    expect(seen()[3]).toBe('ETH=3023@1700000003000');
  });

  it('reconnects when the stream drops, backing off while the server refuses', async () => {
    hermes.failStreamsWith = 503;
    hermes.dropStreams();
    await eventually(() => source.failures >= 3, 5_000);
    expect(source.connected).toBe(false);
    hermes.failStreamsWith = undefined;
    await eventually(() => hermes.openStreams === 1, 5_000);
    hermes.push([{ id: BTC, price: '9130000000000', expo: -8, publishTime: 1_700_000_010 }]);
    await eventually(() => ticks.length === 5);
    expect(seen()[4]).toBe('BTC=91300@1700000010000');
    expect(source.failures).toBe(0);
  });
});
