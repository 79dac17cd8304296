import { loadChainRegistry } from '@swap/chains';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, erc20Abi, http } from 'viem';
import { startDevnet, type Devnet } from './devnet';

describe('the devnet', () => {
  let devnet: Devnet;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'devnet-'));
    devnet = await startDevnet({ dataDir, basePort: 0 });
  }, 60_000);

  afterAll(async () => {
    await devnet?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs the hub and two spokes with their real chain ids, and writes a valid profile', async () => {
    const registry = loadChainRegistry(devnet.profilePath);
    expect(registry.chains.map((c) => [c.key, c.chainId, c.relayChainId, c.hub])).toEqual([
      ['0x92.sonic', 146, '146', true],
      ['0xa4b1.arbitrum', 42161, '23', false],
      ['0x2105.base', 8453, '30', false],
      ['solana', 'solana', '1', false],
    ]);
    for (const chain of registry.chains.filter((c) => c.type === 'EVM')) {
      const client = createPublicClient({ transport: http(chain.rpcUrls![0]) });
      expect(await client.getChainId()).toBe(chain.chainId);
    }
    expect(registry.hub.contracts?.intents).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(registry.findChain('0xa4b1.arbitrum')?.assetManager).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('serves recent Solana blockhashes from its RPC stand-in, through the real RPC client', async () => {
    const { createSolanaRpc } = await import('@solana/kit');
    const solana = loadChainRegistry(devnet.profilePath).findChain('solana')!;
    const { value } = await createSolanaRpc(solana.rpcUrls![0]).getLatestBlockhash().send();
    expect(value.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(value.lastValidBlockHeight).toBeGreaterThan(0n);
  });

  it('funds the demo wallets with test tokens on every chain', async () => {
    const registry = loadChainRegistry(devnet.profilePath);
    const demo = devnet.accounts[1].address;
    for (const chain of registry.chains.filter((c) => c.type === 'EVM')) {
      const client = createPublicClient({ transport: http(chain.rpcUrls![0]) });
      const usdc = registry.tokensOf(chain.key).find((t) => t.symbol === 'USDC')!;
      expect(await client.readContract({ address: usdc.address as `0x${string}`, abi: erc20Abi, functionName: 'balanceOf', args: [demo] })).toBe(1_000_000n * 10n ** 6n);
      expect(await client.getBalance({ address: demo })).toBeGreaterThan(0n);
    }
  });
});
