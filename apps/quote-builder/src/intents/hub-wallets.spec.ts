import { ServiceMetrics } from '@swap/observability';
import { MemoryCache, type Cache } from '@swap/cache';
import { ChainAccess, type ChainInfo, type EvmAdapter } from '@swap/chains';
import { getAddress, type Address, type Hex } from 'viem';
import { HUB_WALLETS_IN_PROCESS, HubWallets } from './hub-wallets';

const HUB = { key: '0x92.sonic' } as ChainInfo;
const FACTORY: Address = '0x0000000000000000000000000000000000fac707';
const walletOf = (user: Hex) => getAddress(`0x${user.slice(-38).padStart(40, 'a')}`);

/** The hub's wallet factory as a counter of reads; each answer can be held back to make lookups overlap. */
class FactoryReads extends ChainAccess {
  reads: Hex[] = [];
  gate?: Promise<void>;
  constructor() {
    super({ timeoutMs: 1 });
  }
  override async evm<T>(_chain: ChainInfo, read: (adapter: EvmAdapter) => Promise<T>): Promise<T> {
    const adapter = {
      hubWalletOf: async (_factory: Address, _relayChainId: bigint, user: Hex) => {
        this.reads.push(user);
        await this.gate;
        return walletOf(user);
      },
    };
    return read(adapter as unknown as EvmAdapter);
  }
}

const user = (n: number): Hex => `0x${n.toString(16).padStart(40, '0')}`;

describe('HubWallets: a user’s hub wallet is read from the factory once, then kept', () => {
  it('concurrent builds for one new user share one read', async () => {
    const chains = new FactoryReads();
    let open!: () => void;
    chains.gate = new Promise((r) => (open = r));
    const wallets = new HubWallets(
      chains,
      new ServiceMetrics('quote-builder', { defaultMetrics: false }),
      new MemoryCache({ namespace: 't' }),
    );
    const lookups = Array.from({ length: 10 }, () => wallets.of(HUB, FACTORY, 23n, user(1)));
    open();
    expect(new Set(await Promise.all(lookups))).toEqual(new Set([walletOf(user(1))]));
    expect(chains.reads).toEqual([user(1)]);
    await wallets.of(HUB, FACTORY, 23n, user(1));
    expect(chains.reads).toHaveLength(1);
  });

  it('another replica finds it in the shared cache without reading the chain; another relay chain or factory is another wallet', async () => {
    const shared = new MemoryCache({ namespace: 't' });
    const first = new FactoryReads();
    await new HubWallets(first, new ServiceMetrics('quote-builder', { defaultMetrics: false }), shared).of(HUB, FACTORY, 23n, user(2));
    // The shared copy is written off the caller's path: give it its turn.
    await new Promise((r) => setImmediate(r));
    const second = new FactoryReads();
    const replica = new HubWallets(second, new ServiceMetrics('quote-builder', { defaultMetrics: false }), shared);
    await expect(replica.of(HUB, FACTORY, 23n, `0x${user(2).slice(2).toUpperCase()}`)).resolves.toBe(walletOf(user(2)));
    expect(second.reads).toEqual([]);
    await replica.of(HUB, FACTORY, 1n, user(2));
    await replica.of(HUB, '0x000000000000000000000000000000000000f00d', 23n, user(2));
    expect(second.reads).toHaveLength(2);
  });

  it('reads the chain when the shared cache fails, and a failed read is not kept', async () => {
    const broken: Cache = Object.assign(new MemoryCache({ namespace: 't' }), {
      get: () => Promise.reject(new Error('redis down')),
      set: () => Promise.reject(new Error('redis down')),
    });
    const chains = new FactoryReads();
    const wallets = new HubWallets(chains, new ServiceMetrics('quote-builder', { defaultMetrics: false }), broken);
    await expect(wallets.of(HUB, FACTORY, 23n, user(3))).resolves.toBe(walletOf(user(3)));
    chains.gate = Promise.reject(new Error('node down'));
    chains.gate.catch(() => undefined);
    await expect(wallets.of(HUB, FACTORY, 23n, user(4))).rejects.toThrow('node down');
    chains.gate = undefined;
    await expect(wallets.of(HUB, FACTORY, 23n, user(4))).resolves.toBe(walletOf(user(4)));
    expect(chains.reads).toEqual([user(3), user(4), user(4)]);
  });

  it('keeps the most recently used users in the process; one pushed out is found again in the shared cache', async () => {
    const shared = new MemoryCache({ namespace: 't' });
    const chains = new FactoryReads();
    const wallets = new HubWallets(chains, new ServiceMetrics('quote-builder', { defaultMetrics: false }), shared);
    expect(wallets.inProcessLimit).toBe(HUB_WALLETS_IN_PROCESS);
    wallets.inProcessLimit = 3;
    const users = Array.from({ length: 4 }, (_, n) => user(1_000_000 + n));
    for (const u of users) await wallets.of(HUB, FACTORY, 23n, u);
    await new Promise((r) => setImmediate(r));
    const reads = jest.spyOn(shared, 'get');
    await wallets.of(HUB, FACTORY, 23n, users[3]);
    expect(reads).not.toHaveBeenCalled();
    await expect(wallets.of(HUB, FACTORY, 23n, users[0])).resolves.toBe(walletOf(users[0]));
    expect(reads).toHaveBeenCalledTimes(1);
    expect(chains.reads).toEqual(users);
  });
});
