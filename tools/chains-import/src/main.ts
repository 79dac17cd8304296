/** `npm run chains:import -- [path/to/reference]`: mainnet.json re-keyed as the spec requires, plain names kept as aliases. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chainKeyFor, type ChainInfo, type ChainProfile, type TokenInfo } from '@swap/chains';
import type { LeverageVault } from '@swap/contracts';

interface PublicChain {
  chainKey: string;
  name: string;
  type: string;
  chainId: number | string;
  relayChainId: string;
  hub: boolean;
  assetManager: string | null;
  connection: string | null;
  hubContracts?: { intents: string; hubWalletFactory: string; walletRouter?: string; protocolIntents?: string };
}
interface PublicHubAsset {
  chainKey: string;
  token: string;
  hubAsset: string;
  hubDecimals: number;
}
type PublicTokens = Record<string, (Omit<TokenInfo, 'chainKey'> & { chainKey: string })[]>;

const referenceDir = resolve(process.argv[2] ?? '../shared/reference');
const chains = JSON.parse(readFileSync(join(referenceDir, 'sodax-chains.json'), 'utf8')) as PublicChain[];
const tokens = JSON.parse(readFileSync(join(referenceDir, 'sodax-swap-tokens.json'), 'utf8')) as PublicTokens;
const hubAssets = JSON.parse(readFileSync(join(referenceDir, 'sodax-hub-assets.json'), 'utf8')) as PublicHubAsset[];
const hubDecimalsOf = (chainKey: string, token: string): number | undefined =>
  hubAssets.find((a) => a.chainKey === chainKey && a.token.toLowerCase() === token.toLowerCase())?.hubDecimals;

const keyOf = new Map<string, string>();
const profileChains: ChainInfo[] = chains.map((c) => {
  const key = chainKeyFor(c.type, c.chainId, c.chainKey);
  keyOf.set(c.chainKey, key);
  return {
    key,
    name: c.name,
    type: c.type as ChainInfo['type'],
    chainId: c.chainId,
    relayChainId: c.relayChainId,
    hub: c.hub,
    assetManager: c.assetManager,
    connection: c.connection,
    aliases: key === c.chainKey ? [] : [c.chainKey],
    ...(c.hubContracts ? { contracts: { ...c.hubContracts } } : {}),
  };
});
profileChains.sort((a, b) => Number(b.hub) - Number(a.hub) || a.key.localeCompare(b.key));

const profileTokens: TokenInfo[] = [];
for (const chain of profileChains) {
  const publicKey = chain.aliases[0] ?? chain.key;
  for (const t of tokens[publicKey] ?? []) {
    const hubDecimals = hubDecimalsOf(publicKey, t.address);
    if (hubDecimals === undefined) throw new Error(`no hub asset decimals for ${t.symbol} on ${publicKey} in sodax-hub-assets.json`);
    profileTokens.push({
      symbol: t.symbol,
      name: t.name,
      decimals: t.decimals,
      address: t.address,
      chainKey: chain.key,
      hubAsset: t.hubAsset,
      hubDecimals,
      vault: t.vault,
    });
  }
}

// public-api-families.md §1.4's registry entry; @sodax/types 1.3.0-beta ships no leveraged-yield registry.
const leverageVaults: LeverageVault[] = [
  {
    name: 'lsodaWEETH',
    vault: '0xD09de2f5070699A909c0FD32fb5A909d3886701D',
    asset: '0xCb6B152D3a943f25157381aFcA7fEFCD2ef5a357',
    borrowToken: '0x4effB5813271699683C25c734F4daBc45B363709',
  },
];

const profile: ChainProfile = {
  name: 'mainnet',
  source: 'shared/reference (public client of the hub-and-spoke intent protocol)',
  chains: profileChains,
  tokens: profileTokens,
  leverageVaults,
};
const out = resolve(process.cwd(), 'libs/chains/src/profiles/mainnet.json');
writeFileSync(out, `${JSON.stringify(profile, null, 1)}\n`);
process.stdout.write(`wrote ${profileChains.length} chains and ${profileTokens.length} tokens (${out})\n`);
