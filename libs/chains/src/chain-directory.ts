import { hubDecimalsOf } from './amounts';
import { getAddress } from 'viem';
import {
  AppError,
  ErrorCode,
  isEvmAddressText,
  type ChainKey,
  type HubAssetsByChain,
  type LeverageVault,
  type Token,
  type TokensByChain,
} from '@swap/contracts';

export type ChainType = 'EVM' | 'SOLANA' | 'SUI' | 'STELLAR' | 'ICON' | 'INJECTIVE' | 'NEAR';

export interface ChainInfo {
  key: ChainKey;
  name: string;
  type: ChainType;
  /** EVM chain id (number); other networks carry their own identifier. */
  chainId: number | string;
  /** What the on-chain intent carries in srcChain/dstChain. */
  relayChainId: string;
  hub: boolean;
  assetManager: string | null;
  connection: string | null;
  aliases: string[];
  /** JSON-RPC endpoints, first preferred. */
  rpcUrls?: string[];
  /** Hub contracts, where known; hubAssetManager is where spoke messages land (the devnet's HubEntry). */
  contracts?: { intents?: string; hubWalletFactory?: string; walletRouter?: string; protocolIntents?: string; hubAssetManager?: string };
}

export interface TokenInfo extends Token {
  /** The hub asset's decimals, where they differ from the token's (amounts are converted). */
  hubDecimals?: number;
}

export interface ChainProfile {
  name: string;
  source?: string;
  chains: ChainInfo[];
  tokens: TokenInfo[];
  leverageVaults?: LeverageVault[];
}

/** The spec's chain key: EVM `<hex_chain_id>.<network_name>`, other networks their plain name. */
export function chainKeyFor(type: string, chainId: number | string, publicKey: string): ChainKey {
  if (type !== 'EVM' || typeof chainId !== 'number') return publicKey;
  const hex = `0x${chainId.toString(16)}`;
  if (publicKey.startsWith(`${hex}.`)) return publicKey;
  return `${hex}.${publicKey}`;
}

/** Chains and tokens of a profile; lookups take a key or alias in any case and answer the canonical key. */
export class ChainDirectory {
  private readonly byName = new Map<string, ChainInfo>();
  private readonly tokensByKey = new Map<ChainKey, TokenInfo[]>();
  /** EVM addresses in EIP-55 form, as every answer shows them. */
  readonly profile: ChainProfile;

  constructor(given: ChainProfile) {
    const problems = validateProfile(given);
    if (problems.length) throw new Error(`Chain profile "${given.name}" is invalid:\n  - ${problems.join('\n  - ')}`);
    const profile = withChecksums(given);
    this.profile = profile;
    for (const chain of profile.chains) {
      this.byName.set(chain.key.toLowerCase(), chain);
      for (const alias of chain.aliases) this.byName.set(alias.toLowerCase(), chain);
      this.tokensByKey.set(chain.key, []);
    }
    for (const token of profile.tokens) this.tokensByKey.get(token.chainKey)!.push(token);
  }

  get chains(): readonly ChainInfo[] {
    return this.profile.chains;
  }

  get hub(): ChainInfo {
    return this.profile.chains.find((c) => c.hub)!;
  }

  findChain(keyOrAlias: string): ChainInfo | undefined {
    return this.byName.get(keyOrAlias.toLowerCase());
  }

  getChain(keyOrAlias: string): ChainInfo {
    const chain = this.findChain(keyOrAlias);
    if (!chain) throw AppError.notFound(`Unknown chain key: ${keyOrAlias}`, ErrorCode.ChainNotFound);
    return chain;
  }

  tokensOf(keyOrAlias: string): Token[] {
    const chain = this.getChain(keyOrAlias);
    return this.tokensByKey.get(chain.key)!.map(publicToken);
  }

  tokensByChain(): TokensByChain {
    const out: TokensByChain = {};
    for (const chain of this.profile.chains) out[chain.key] = this.tokensByKey.get(chain.key)!.map(publicToken);
    return out;
  }

  /** Each chain's tokens' hub assets, by token address (the public client's config shape). */
  hubAssetsByChain(): HubAssetsByChain {
    const out: HubAssetsByChain = {};
    for (const chain of this.profile.chains) {
      out[chain.key] = Object.fromEntries(
        this.tokensByKey
          .get(chain.key)!
          .map((t) => [t.address, { asset: t.hubAsset, decimal: hubDecimalsOf(t), vault: t.vault, symbol: t.symbol, name: t.name }]),
      );
    }
    return out;
  }

  get leverageVaults(): LeverageVault[] {
    return this.profile.leverageVaults ?? [];
  }

  /** A leveraged-yield vault by its address (its share token), in any letter case. */
  findLeverageVault(address: string): LeverageVault | undefined {
    return this.leverageVaults.find((v) => v.vault.toLowerCase() === address.toLowerCase());
  }

  findToken(keyOrAlias: string, address: string): TokenInfo | undefined {
    const chain = this.findChain(keyOrAlias);
    if (!chain) return undefined;
    const tokens = this.tokensByKey.get(chain.key)!;
    return chain.type === 'EVM'
      ? tokens.find((t) => t.address.toLowerCase() === address.toLowerCase())
      : tokens.find((t) => t.address === address);
  }
}

/** EVM addresses in EIP-55 form whatever case the file used: answers show one form, lookups ignore case. */
function withChecksums(profile: ChainProfile): ChainProfile {
  const evm = (address: string): string => (/^0x[0-9a-fA-F]{40}$/.test(address) ? getAddress(address) : address);
  const evmChains = new Set(profile.chains.filter((c) => c.type === 'EVM').map((c) => c.key));
  return {
    ...profile,
    chains: profile.chains.map((chain) => ({
      ...chain,
      ...(chain.type === 'EVM'
        ? { assetManager: chain.assetManager && evm(chain.assetManager), connection: chain.connection && evm(chain.connection) }
        : {}),
      ...(chain.contracts
        ? { contracts: Object.fromEntries(Object.entries(chain.contracts).map(([name, address]) => [name, address && evm(address)])) }
        : {}),
    })),
    tokens: profile.tokens.map((token) => ({
      ...token,
      address: evmChains.has(token.chainKey) ? evm(token.address) : token.address,
      hubAsset: token.hubAsset && evm(token.hubAsset),
      vault: token.vault && evm(token.vault),
    })),
    ...(profile.leverageVaults
      ? {
          leverageVaults: profile.leverageVaults.map((v) => ({
            ...v,
            vault: evm(v.vault),
            asset: evm(v.asset),
            borrowToken: evm(v.borrowToken),
          })),
        }
      : {}),
  };
}

function publicToken(t: TokenInfo): Token {
  return {
    symbol: t.symbol,
    name: t.name,
    decimals: t.decimals,
    address: t.address,
    chainKey: t.chainKey,
    hubAsset: t.hubAsset,
    vault: t.vault,
  };
}

const EVM_KEY = /^0x[0-9a-f]+\.[a-z0-9-]+$/;

/** Everything wrong with a profile, so a bad configuration file fails at boot with reasons. */
export function validateProfile(profile: ChainProfile): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  const hubs = profile.chains.filter((c) => c.hub);
  if (hubs.length !== 1) problems.push(`expected exactly one hub chain, found ${hubs.length}`);
  for (const chain of profile.chains) {
    for (const name of [chain.key, ...chain.aliases]) {
      if (names.has(name)) problems.push(`chain name ${name} is used twice`);
      names.add(name);
    }
    if (chain.type === 'EVM') {
      if (!EVM_KEY.test(chain.key)) problems.push(`EVM chain ${chain.key} must be keyed <hex_chain_id>.<network_name>`);
      else if (typeof chain.chainId !== 'number' || chain.key.split('.')[0] !== `0x${chain.chainId.toString(16)}`) {
        problems.push(`EVM chain ${chain.key} does not match its chain id ${chain.chainId}`);
      }
    }
  }
  const seen = new Set<string>();
  for (const token of profile.tokens) {
    const chain = profile.chains.find((c) => c.key === token.chainKey);
    if (!chain) {
      problems.push(`token ${token.symbol} names unknown chain ${token.chainKey}`);
      continue;
    }
    if (chain.type === 'EVM' && !isEvmAddressText(token.address))
      problems.push(`token ${token.symbol} on ${chain.key} has an invalid address ${token.address}`);
    if (!Number.isInteger(token.decimals) || token.decimals < 0 || token.decimals > 36)
      problems.push(`token ${token.symbol} on ${chain.key} has invalid decimals ${token.decimals}`);
    if (token.hubDecimals !== undefined && (!Number.isInteger(token.hubDecimals) || token.hubDecimals < 0 || token.hubDecimals > 36)) {
      problems.push(`token ${token.symbol} on ${chain.key} has invalid hubDecimals ${token.hubDecimals}`);
    }
    const id = `${chain.key}/${chain.type === 'EVM' ? token.address.toLowerCase() : token.address}`;
    if (seen.has(id)) problems.push(`token address ${token.address} appears twice on ${chain.key}`);
    seen.add(id);
  }
  const vaultNames = new Set<string>();
  for (const v of profile.leverageVaults ?? []) {
    if (!v.name || vaultNames.has(v.name.toLowerCase())) problems.push(`leveraged-yield vault name "${v.name}" is empty or used twice`);
    vaultNames.add(v.name.toLowerCase());
    for (const field of ['vault', 'asset', 'borrowToken'] as const) {
      if (!isEvmAddressText(v[field])) problems.push(`leveraged-yield vault ${v.name} has an invalid ${field} ${v[field]}`);
    }
    if (
      v.lsdSource &&
      !(typeof v.lsdSource.poolId === 'string' && Number.isFinite(v.lsdSource.fallbackAprPct) && typeof v.lsdSource.label === 'string')
    )
      problems.push(`leveraged-yield vault ${v.name} has an invalid lsdSource (poolId, fallbackAprPct, label)`);
  }
  return problems;
}
