import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChainDirectory, type ChainInfo, type ChainDirectory, type TokenInfo } from '@swap/chains';
import { unusedPort } from '@swap/testing';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  getAddress,
  http,
  keccak256,
  numberToHex,
  parseUnits,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TestClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { compileContracts, type Artifact, type Artifacts } from './compile';
import { contractWriter } from './contract-writes';
import { DEV_KEYS, startAnvil, stopAnvil, waitForRpc } from './devnet';

const NATIVE = '0x0000000000000000000000000000000000000000';

export interface MainnetStandInOptions {
  /** Besides the hub (always started); default `0xa4b1.arbitrum`. */
  spokes?: string[];
  /** Symbols by chain key; a chain not named gets every ERC-20 the profile lists for it. */
  tokens?: Record<string, string[]>;
  /** Default: anvil development accounts 1 to 4. */
  fund?: Address[];
  /** Whole tokens of every placed token (default 1 000 000). */
  fundUnits?: string;
  cacheDir?: string;
  log?: (line: string) => void;
}

export interface PlacedContract {
  chainKey: string;
  address: Address;
  contract: keyof Artifacts;
  /** `intents`, `assetManager`, `token USDC`, `hubAsset of USDC on 0xa4b1.arbitrum`… */
  role: string;
}

export interface MainnetStandIn {
  /** The `mainnet` profile with the stand-in RPC endpoints applied. */
  directory: ChainDirectory;
  rpcUrls: Record<string, string>;
  /** The value of CHAIN_RPC_URLS. */
  chainRpcUrlsSetting: string;
  /** 0 deploys; 1–4 funded by default. */
  accounts: { address: Address; privateKey: Hex }[];
  placed: PlacedContract[];
  /** At an ordinary address: the mainnet profile names no hub asset manager. */
  hubEntry: Address;
  close(): Promise<void>;
}

interface Node {
  chain: ChainInfo;
  rpcUrl: string;
  viemChain: Chain;
  client: PublicClient;
  wallet: WalletClient;
  test: TestClient;
}

/** Local anvil nodes with the devnet's code at the mainnet profile's addresses; see docs/integrators/devnet.md#the-mainnet-stand-in. */
export async function startMainnetStandIn(options: MainnetStandInOptions = {}): Promise<MainnetStandIn> {
  const log = options.log ?? (() => undefined);
  const directory = loadChainDirectory('mainnet');
  const hubChain = directory.hub;
  const spokes = (options.spokes ?? ['0xa4b1.arbitrum']).map((key) => {
    const chain = directory.findChain(key);
    if (!chain) throw new Error(`startMainnetStandIn: the mainnet profile has no chain ${key}`);
    if (chain.type !== 'EVM' || chain.hub) throw new Error(`startMainnetStandIn: ${key} is not an EVM spoke`);
    if (!chain.assetManager || !chain.connection)
      throw new Error(`startMainnetStandIn: ${key} has no assetManager/connection in the profile`);
    return chain;
  });
  const intentsAddress = hubChain.contracts?.intents as Address | undefined;
  const factoryAddress = hubChain.contracts?.hubWalletFactory as Address | undefined;
  if (!intentsAddress || !factoryAddress) throw new Error('startMainnetStandIn: the mainnet profile names no hub intents/hubWalletFactory');

  const artifacts = compileContracts(options.cacheDir ?? join(tmpdir(), 'swap-devnet-contracts'));
  const processes: ChildProcess[] = [];
  const close = async () => {
    await Promise.all(processes.map(stopAnvil));
  };
  try {
    // Every start settles before a failure is reported, so close() stops every node begun.
    const started = await Promise.allSettled([hubChain, ...spokes].map((chain) => startNode(chain, processes)));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const nodes = started.map((s) => (s as PromiseFulfilledResult<Node>).value);
    const [hub, ...spokeNodes] = nodes;
    const deployer = privateKeyToAccount(DEV_KEYS[0]);
    const placed: PlacedContract[] = [];
    const fund = options.fund ?? DEV_KEYS.slice(1).map((k) => privateKeyToAccount(k).address);
    const fundUnits = options.fundUnits ?? '1000000';

    const writer = (node: Node) => contractWriter(node.client, node.wallet, deployer, node.viemChain);
    const deploy = (node: Node, artifact: Artifact, args: unknown[]) => writer(node).deploy(artifact, args);
    const call = (node: Node, artifact: Artifact, address: Address, functionName: string, args: unknown[]) =>
      writer(node).call(artifact, address, functionName, args);
    const place = async (node: Node, name: keyof Artifacts, args: unknown[], at: string, role: string) => {
      const template = await deploy(node, artifacts[name], args);
      const code = await node.client.getCode({ address: template });
      if (!code || code === '0x') throw new Error(`${name} deployed no code on ${node.chain.key}`);
      const address = getAddress(at);
      await node.test.setCode({ address, bytecode: code });
      placed.push({ chainKey: node.chain.key, address, contract: name, role });
      return address;
    };

    // One template per decimals: they are an immutable of the code.
    const templates = new Map<string, Promise<Hex>>();
    const tokenCode = (node: Node, decimals: number) => {
      const key = `${node.chain.key}/${decimals}`;
      if (!templates.has(key)) {
        templates.set(
          key,
          deploy(node, artifacts.TestToken, ['', '', decimals]).then(async (a) => (await node.client.getCode({ address: a }))!),
        );
      }
      return templates.get(key)!;
    };
    const placedTokens = new Map<string, Address>();
    const placeToken = async (node: Node, at: string, name: string, symbol: string, decimals: number, role: string) => {
      const address = getAddress(at);
      const id = `${node.chain.key}/${address}`;
      if (placedTokens.has(id)) return address;
      placedTokens.set(id, address);
      await node.test.setCode({ address, bytecode: await tokenCode(node, decimals) });
      for (const [slot, value] of [...stringStorage(0n, name), ...stringStorage(1n, symbol)])
        await node.test.setStorageAt({ address, index: slot, value });
      const [readSymbol, readDecimals] = await Promise.all([
        node.client.readContract({ address, abi: artifacts.TestToken.abi, functionName: 'symbol' }),
        node.client.readContract({ address, abi: artifacts.TestToken.abi, functionName: 'decimals' }),
      ]);
      if (readSymbol !== symbol || Number(readDecimals) !== decimals)
        throw new Error(
          `token at ${address} on ${node.chain.key} reads ${String(readSymbol)}/${String(readDecimals)}, not ${symbol}/${decimals}`,
        );
      for (const to of fund) await call(node, artifacts.TestToken, address, 'mint', [to, parseUnits(fundUnits, decimals)]);
      placed.push({ chainKey: node.chain.key, address, contract: 'TestToken', role });
      return address;
    };
    const wanted = (chain: ChainInfo): TokenInfo[] => {
      const symbols = options.tokens?.[chain.key];
      const all = directory.profile.tokens.filter((t) => t.chainKey === chain.key);
      if (!symbols) return all;
      const missing = symbols.filter((s) => !all.some((t) => t.symbol === s));
      if (missing.length) throw new Error(`startMainnetStandIn: no token ${missing.join(', ')} on ${chain.key} in the mainnet profile`);
      return all.filter((t) => symbols.includes(t.symbol));
    };

    const hubRelay = BigInt(hubChain.relayChainId);
    const hubEntry = await deploy(hub, artifacts.HubEntry, [deployer.address, hubRelay]);
    const hubConnection = await deploy(hub, artifacts.Connection, [hubRelay]);
    await place(hub, 'HubWalletFactory', [hubEntry], factoryAddress, 'hubWalletFactory');
    await place(hub, 'Intents', [hubRelay, hubEntry], intentsAddress, 'intents');
    await call(hub, artifacts.HubEntry, hubEntry, 'configure', [getAddress(factoryAddress), hubConnection]);
    for (const t of wanted(hubChain)) {
      if (t.address === NATIVE) continue; // the hub's native coin is anvil's own
      await placeToken(hub, t.address, t.name, t.symbol, t.decimals, `token ${t.symbol}`);
      if (t.hubAsset.toLowerCase() !== t.address.toLowerCase())
        await placeToken(hub, t.hubAsset, `${t.name} (hub)`, t.symbol, t.hubDecimals ?? t.decimals, `hubAsset of ${t.symbol}`);
    }

    for (const node of spokeNodes) {
      const spoke = node.chain;
      const relay = BigInt(spoke.relayChainId);
      const connection = await place(node, 'Connection', [relay], spoke.connection!, 'connection');
      const assetManager = await place(
        node,
        'AssetManager',
        [connection, hubRelay, hubEntry, deployer.address],
        spoke.assetManager!,
        'assetManager',
      );
      await call(hub, artifacts.HubEntry, hubEntry, 'addSpoke', [relay, assetManager]);
      for (const t of wanted(spoke)) {
        if (t.address !== NATIVE) await placeToken(node, t.address, t.name, t.symbol, t.decimals, `token ${t.symbol}`);
        const hubAsset = await placeToken(
          hub,
          t.hubAsset,
          `${t.name} (${spoke.name} on the hub)`,
          t.symbol,
          t.hubDecimals ?? t.decimals,
          `hubAsset of ${t.symbol} on ${spoke.key}`,
        );
        await call(hub, artifacts.HubEntry, hubEntry, 'addAsset', [relay, getAddress(t.address), hubAsset]);
      }
    }

    const rpcUrls = Object.fromEntries(nodes.map((n) => [n.chain.key, n.rpcUrl]));
    const chainRpcUrlsSetting = nodes.map((n) => `${n.chain.key}=${n.rpcUrl}`).join(',');
    for (const n of nodes) {
      n.chain.rpcUrls = [n.rpcUrl];
      log(
        `mainnet stand-in: ${n.chain.key} (chain id ${String(n.chain.chainId)}) at ${n.rpcUrl}, ${placed.filter((p) => p.chainKey === n.chain.key).length} contracts placed`,
      );
    }
    const account = (k: Hex) => ({ address: privateKeyToAccount(k).address, privateKey: k });
    return { directory, rpcUrls, chainRpcUrlsSetting, accounts: DEV_KEYS.map(account), placed, hubEntry, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Solidity's layout: up to 31 bytes in the slot with length × 2 last; longer, length × 2 + 1 there and the bytes from keccak256(slot). */
export function stringStorage(slot: bigint, value: string): [Hex, Hex][] {
  const bytes = Buffer.from(value, 'utf8');
  const slotHex = numberToHex(slot, { size: 32 });
  if (bytes.length <= 31) {
    const word = Buffer.alloc(32);
    bytes.copy(word);
    word[31] = bytes.length * 2;
    return [[slotHex, `0x${word.toString('hex')}`]];
  }
  const out: [Hex, Hex][] = [[slotHex, numberToHex(BigInt(bytes.length * 2 + 1), { size: 32 })]];
  const base = BigInt(keccak256(encodeAbiParameters([{ type: 'uint256' }], [slot])));
  for (let i = 0; i * 32 < bytes.length; i++) {
    const word = Buffer.alloc(32);
    bytes.copy(word, 0, i * 32, i * 32 + 32);
    out.push([numberToHex(base + BigInt(i), { size: 32 }), `0x${word.toString('hex')}`]);
  }
  return out;
}

/** A node that dies before answering is replaced (three tries). */
async function startNode(chain: ChainInfo, processes: ChildProcess[]): Promise<Node> {
  const chainId = chain.chainId as number;
  for (let attempt = 1; ; attempt++) {
    const port = await unusedPort();
    const child = startAnvil(chainId, port);
    processes.push(child);
    const rpcUrl = `http://127.0.0.1:${port}`;
    const viemChain = defineChain({
      id: chainId,
      name: `${chain.name} (mainnet stand-in)`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    const client = createPublicClient({ chain: viemChain, transport: http(rpcUrl), pollingInterval: 50 });
    let onExit!: () => void;
    const exited = new Promise<'exited'>((resolve) => {
      onExit = () => resolve('exited');
      child.once('exit', onExit);
    });
    // waitForRpc gives up after 20 s: the bound of one start.
    const outcome = await Promise.race([
      waitForRpc(client, chainId).then(
        () => 'up' as const,
        (e: Error) => e,
      ),
      exited,
    ]);
    child.off('exit', onExit);
    if (outcome === 'up') {
      const wallet = createWalletClient({ chain: viemChain, transport: http(rpcUrl) });
      const test = createTestClient({ mode: 'anvil', chain: viemChain, transport: http(rpcUrl) });
      return { chain, rpcUrl, viemChain, client, wallet, test };
    }
    if (outcome instanceof Error) throw outcome;
    if (attempt >= 3) throw new Error(`anvil for ${chain.key} (chain id ${chainId}) exited before answering, ${attempt} times`);
  }
}
