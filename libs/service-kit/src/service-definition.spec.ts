import { Module } from '@nestjs/common';
import { ServiceConfig, WithBus, WithCache } from '@swap/config';
import type { ServiceDefinition } from './service-definition';

@Module({})
class EmptyModule {}

class CacheOnlyConfig extends WithCache(ServiceConfig) {}

/** `npm run typecheck` checks the @ts-expect-error lines: each use needs its settings in the configuration class. */
const definitions: ServiceDefinition<CacheOnlyConfig>[] = [
  { name: 'swap-gateway', title: 't', description: 'd', configClass: CacheOnlyConfig, module: EmptyModule, uses: { cache: true } },
  // @ts-expect-error no NATS settings (WithBus) in this configuration: the bus cannot be used
  { name: 'swap-gateway', title: 't', description: 'd', configClass: CacheOnlyConfig, module: EmptyModule, uses: { bus: true } },
];
const withoutCache: ServiceDefinition<InstanceType<ReturnType<typeof WithBus<typeof ServiceConfig>>>> = {
  name: 'swap-gateway',
  title: 't',
  description: 'd',
  configClass: WithBus(ServiceConfig),
  module: EmptyModule,
  // @ts-expect-error no Redis settings (WithCache) in this configuration: the cache cannot be used
  uses: { bus: true, cache: true },
};

describe("a service definition's uses, tied to its configuration class", () => {
  it('takes what the configuration has settings for (the rest is refused by the type checker)', () => {
    expect(definitions.map((d) => d.uses)).toEqual([{ cache: true }, { bus: true }]);
    expect(withoutCache.uses).toEqual({ bus: true, cache: true });
  });
});
