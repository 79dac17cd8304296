import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChainDirectory, type ChainInfo, type ChainProfile, type TokenInfo } from '@swap/chains';
import { unusedPort } from '@swap/testing';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseUnits,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { contractWriter } from './contract-writes';
import { compileContracts, type Artifact } from './compile';
import { deployLeverageVaults } from './leverage-vaults';
import { DevnetRelayer } from './relayer';
import { IconRpcDouble } from './icon-rpc-double';
import { InjectiveRpcDouble } from './injective-rpc-double';
import { SolanaRpcDouble } from './solana-rpc-double';
import { StellarRpcDouble } from './stellar-rpc-double';
import { SuiRpcDouble } from './sui-rpc-double';

/** anvil's well-known development accounts: public test keys, never to hold real value. */
export const DEV_KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
];

/** Accounts 5 and 6, funded with hub inventory of every asset so a reference solver can fill what it quotes. */
export const SOLVER_KEYS: Hex[] = [
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
];

/** Idle chains keep mining, so the hub's clock follows the wall clock. */
export const DEVNET_BLOCK_SECONDS = 1;

interface ChainPlan {
  key: string;
  name: string;
  chainId: number;
  relayChainId: string;
  hub: boolean;
  alias?: string;
}

export const DEVNET_CHAINS: ChainPlan[] = [
  { key: '0x92.sonic', name: 'Sonic (devnet)', chainId: 146, relayChainId: '146', hub: true, alias: 'sonic' },
  { key: '0xa4b1.arbitrum', name: 'Arbitrum (devnet)', chainId: 42161, relayChainId: '23', hub: false },
  { key: '0x2105.base', name: 'Base (devnet)', chainId: 8453, relayChainId: '30', hub: false },
];

const NATIVE = '0x0000000000000000000000000000000000000000';
const TOKENS = [
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, mint: '1000000' },
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, mint: '100' },
];

const SOLVER_INVENTORY: Record<string, string> = { USDC: '10000000', WETH: '5000', ETH: '5000', SOL: '100000' };
/** So a delivery needs no earlier deposit. */
const SPOKE_FLOAT: Record<string, string> = { USDC: '10000000', WETH: '5000', ETH: '1000' };

interface RpcDouble {
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const SIMULATED_NETWORKS: { key: string; double: (chain: ChainInfo) => RpcDouble; tokens: string[]; answers: string }[] = [
  { key: 'solana', double: () => new SolanaRpcDouble(), tokens: ['SOL', 'USDC'], answers: 'blockhashes, fees, seeded transactions' },
  {
    key: 'sui',
    double: (chain) => new SuiRpcDouble({ assetManager: chain.assetManager!, connection: chain.connection! }),
    tokens: ['SUI', 'USDC'],
    answers: 'JSON-RPC: coins, objects, dry runs',
  },
  { key: 'stellar', double: () => new StellarRpcDouble(), tokens: ['XLM', 'USDC'], answers: 'Soroban RPC: accounts, simulations' },
  {
    key: 'injective-1',
    double: () => new InjectiveRpcDouble(),
    tokens: ['SODA'],
    answers: 'Cosmos REST: accounts, blocks, simulations',
  },
  { key: '0x1.icon', double: () => new IconRpcDouble(), tokens: ['ICX'], answers: 'JSON-RPC v3: step estimates and prices' },
];

export interface DevnetOptions {
  dataDir: string;
  /** The others follow; 0: free ports. */
  basePort: number;
  relayPort?: number;
  log?: (line: string) => void;
}

export interface Devnet {
  profile: ChainProfile;
  profilePath: string;
  accounts: { address: Address; privateKey: Hex }[];
  solvers: { address: Address; privateKey: Hex }[];
  relayer: DevnetRelayer;
  relayApiUrl: string;
  stop(): Promise<void>;
}

/** See docs/integrators/devnet.md#what-runs. */
export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const log = options.log ?? (() => undefined);
  const dir = join(options.dataDir, 'devnet');
  mkdirSync(dir, { recursive: true });
  const artifacts = compileContracts(dir);
  const nodes: ChildProcess[] = [];
  const doubles: RpcDouble[] = [];
  let relayer: DevnetRelayer | undefined;
  const stop = async () => {
    await relayer?.close();
    await Promise.all(doubles.map((d) => d.stop()));
    await Promise.all(nodes.map(stopAnvil));
  };
  try {
    const chains: { plan: ChainPlan; rpcUrl: string; client: PublicClient; wallet: WalletClient }[] = [];
    for (const [i, plan] of DEVNET_CHAINS.entries()) {
      const port = options.basePort === 0 ? await unusedPort() : options.basePort + i;
      nodes.push(startAnvil(plan.chainId, port));
      const rpcUrl = `http://127.0.0.1:${port}`;
      const chain = defineChain({
        id: plan.chainId,
        name: plan.name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpcUrl] } },
      });
      const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 });
      const wallet = createWalletClient({ chain, transport: http(rpcUrl), account: privateKeyToAccount(DEV_KEYS[0]) });
      await waitForRpc(client, plan.chainId);
      chains.push({ plan, rpcUrl, client, wallet });
    }
    const writer = (c: (typeof chains)[number]) => contractWriter(c.client, c.wallet, c.wallet.account!, c.wallet.chain!);
    const deploy = (c: (typeof chains)[number], artifact: Artifact, args: unknown[]) => writer(c).deploy(artifact, args);
    const call = (c: (typeof chains)[number], artifact: Artifact, address: Address, functionName: string, args: unknown[]) =>
      writer(c).call(artifact, address, functionName, args);
    const mint = (c: (typeof chains)[number], token: Address, to: Address, amount: bigint) =>
      call(c, artifacts.TestToken, token, 'mint', [to, amount]);
    const demo = DEV_KEYS.slice(1).map((k) => privateKeyToAccount(k).address);
    const solverWallets = SOLVER_KEYS.map((k) => privateKeyToAccount(k).address);

    const hub = chains.find((c) => c.plan.hub)!;
    const relayerAddress = privateKeyToAccount(DEV_KEYS[0]).address;
    // The hub entry first: the wallet factory answers to it, the intents contract sends outputs through it.
    const hubEntry = await deploy(hub, artifacts.HubEntry, [relayerAddress, BigInt(hub.plan.relayChainId)]);
    const hubConnection = await deploy(hub, artifacts.Connection, [BigInt(hub.plan.relayChainId)]);
    const factory = await deploy(hub, artifacts.HubWalletFactory, [hubEntry]);
    await call(hub, artifacts.HubEntry, hubEntry, 'configure', [factory, hubConnection]);
    const intents = await deploy(hub, artifacts.Intents, [BigInt(hub.plan.relayChainId), hubEntry]);
    const hubAsset = async (name: string, symbol: string, decimals: number): Promise<Address> => {
      const address = await deploy(hub, artifacts.TestToken, [name, symbol, decimals]);
      for (const solver of solverWallets) await mint(hub, address, solver, parseUnits(SOLVER_INVENTORY[symbol] ?? '1000', decimals));
      return address;
    };
    const profileChains: ChainInfo[] = [];
    const profileTokens: TokenInfo[] = [];
    const hubTokens: Record<string, Address> = {};
    for (const t of TOKENS) {
      hubTokens[t.symbol] = await hubAsset(t.name, t.symbol, t.decimals);
      for (const to of demo) await mint(hub, hubTokens[t.symbol], to, parseUnits(t.mint, t.decimals));
      profileTokens.push({
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
        address: hubTokens[t.symbol],
        chainKey: hub.plan.key,
        hubAsset: hubTokens[t.symbol],
        hubDecimals: t.decimals,
        vault: hubTokens[t.symbol],
      });
    }
    const leverageVaults = await deployLeverageVaults(
      artifacts,
      {
        deployer: relayerAddress,
        deploy: (a, args) => deploy(hub, a, args),
        call: (a, address, fn, args) => call(hub, a, address, fn, args),
      },
      Object.fromEntries(TOKENS.map((t) => [t.symbol, { address: hubTokens[t.symbol], decimals: t.decimals }])),
    );
    profileChains.push(
      chainInfo(hub, {
        assetManager: null,
        connection: hubConnection,
        contracts: { intents, hubWalletFactory: factory, hubAssetManager: hubEntry },
      }),
    );

    for (const spoke of chains.filter((c) => !c.plan.hub)) {
      const relayChainId = BigInt(spoke.plan.relayChainId);
      const connection = await deploy(spoke, artifacts.Connection, [relayChainId]);
      const assetManager = await deploy(spoke, artifacts.AssetManager, [
        connection,
        BigInt(hub.plan.relayChainId),
        hubEntry,
        relayerAddress,
      ]);
      await call(hub, artifacts.HubEntry, hubEntry, 'addSpoke', [relayChainId, assetManager]);
      // The hub holds one asset per spoke token (what the hub entry credits to hub wallets).
      const hubEth = await hubAsset(`ETH (${spoke.plan.name})`, 'ETH', 18);
      await call(hub, artifacts.HubEntry, hubEntry, 'addAsset', [relayChainId, NATIVE, hubEth]);
      const float = await spoke.wallet.sendTransaction({
        to: assetManager,
        value: parseUnits(SPOKE_FLOAT.ETH, 18),
        account: spoke.wallet.account!,
        chain: spoke.wallet.chain,
      });
      await spoke.client.waitForTransactionReceipt({ hash: float });
      profileTokens.push({
        symbol: 'ETH',
        name: 'Ether',
        decimals: 18,
        address: NATIVE,
        chainKey: spoke.plan.key,
        hubAsset: hubEth,
        hubDecimals: 18,
        vault: hubEth,
      });
      for (const t of TOKENS) {
        const token = await deploy(spoke, artifacts.TestToken, [t.name, t.symbol, t.decimals]);
        for (const to of demo) await mint(spoke, token, to, parseUnits(t.mint, t.decimals));
        await mint(spoke, token, assetManager, parseUnits(SPOKE_FLOAT[t.symbol], t.decimals));
        const asset = await hubAsset(`${t.symbol} (${spoke.plan.name})`, t.symbol, t.decimals);
        await call(hub, artifacts.HubEntry, hubEntry, 'addAsset', [relayChainId, token, asset]);
        profileTokens.push({
          symbol: t.symbol,
          name: t.name,
          decimals: t.decimals,
          address: token,
          chainKey: spoke.plan.key,
          hubAsset: asset,
          hubDecimals: t.decimals,
          vault: asset,
        });
      }
      profileChains.push(chainInfo(spoke, { assetManager, connection }));
    }

    // Networks no local node exists for: docs/integrators/devnet.md#the-rpc-stand-ins.
    const mainnet = loadChainDirectory('mainnet');
    for (const network of SIMULATED_NETWORKS) {
      const chain = mainnet.getChain(network.key);
      const double = network.double(chain);
      await double.start();
      doubles.push(double);
      profileChains.push({ ...chain, name: `${chain.name} (devnet: simulated RPC)`, aliases: [], rpcUrls: [double.url] });
      for (const symbol of network.tokens) {
        const token = mainnet.tokensOf(chain.key).find((t) => t.symbol === symbol);
        if (!token) throw new Error(`The mainnet profile has no ${symbol} on ${chain.key}`);
        const asset = await hubAsset(`${symbol} (${chain.name} devnet)`, symbol, token.decimals);
        profileTokens.push({ ...token, hubAsset: asset, hubDecimals: token.decimals, vault: asset });
      }
      log(`devnet: ${chain.key} (simulated RPC: ${network.answers}) at ${double.url}`);
    }

    const profile: ChainProfile = {
      name: 'devnet',
      source: 'tools/devnet (local anvil chains)',
      chains: profileChains,
      tokens: profileTokens,
      leverageVaults,
    };
    const profilePath = join(dir, 'profile.json');
    writeFileSync(profilePath, `${JSON.stringify(profile, null, 2)}\n`);
    relayer = new DevnetRelayer(profile, DEV_KEYS[0], { log });
    const relayApiUrl = await relayer.listen(options.relayPort ?? 0);
    relayer.start();
    for (const c of chains) log(`devnet: ${c.plan.key} (chain id ${c.plan.chainId}) at ${c.rpcUrl}`);
    log(`devnet: relayer ${relayer.address}, relay API at ${relayApiUrl}`);
    const account = (k: Hex) => ({ address: privateKeyToAccount(k).address, privateKey: k });
    return { profile, profilePath, accounts: DEV_KEYS.map(account), solvers: SOLVER_KEYS.map(account), relayer, relayApiUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function chainInfo(
  c: { plan: ChainPlan; rpcUrl: string },
  extra: Pick<ChainInfo, 'assetManager' | 'connection'> & { contracts?: ChainInfo['contracts'] },
): ChainInfo {
  return {
    key: c.plan.key,
    name: c.plan.name,
    type: 'EVM',
    chainId: c.plan.chainId,
    relayChainId: c.plan.relayChainId,
    hub: c.plan.hub,
    aliases: c.plan.alias ? [c.plan.alias] : [],
    rpcUrls: [c.rpcUrl],
    ...extra,
  };
}

function anvilBinary(): string {
  return require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil');
}

export function startAnvil(chainId: number, port: number): ChildProcess {
  // Interval mining keeps an idle chain's clock moving; mixed mining still mines every transaction at once.
  const mining = ['--block-time', String(DEVNET_BLOCK_SECONDS), '--mixed-mining'];
  return spawn(
    anvilBinary(),
    [
      '--chain-id',
      String(chainId),
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--silent',
      '--accounts',
      '10',
      '--balance',
      '10000',
      ...mining,
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

export async function waitForRpc(client: PublicClient, chainId: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await client.getChainId()) === chainId) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`anvil for chain ${chainId} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function stopAnvil(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
