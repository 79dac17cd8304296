import { Injectable } from '@nestjs/common';
import { applyRpcUrls, loadChainDirectory, type ChainDirectory } from '@swap/chains';
import { type PartnerFee, type ChainCatalogSnapshot, type SignedPayload, type Token, type TokensByChain } from '@swap/contracts';
import { PayloadSigner, parseSigningKey } from '@swap/messaging';
import { createHash } from 'node:crypto';
import { QuoteBuilderConfig } from '../quote-builder.config';

/** The chain catalog quote-builder serves (chains, tokens, partner fee), loaded once from its profile at boot; published on the bus as the catalog snapshot. */
@Injectable()
export class ChainCatalog {
  readonly chains: ChainDirectory;
  readonly snapshot: ChainCatalogSnapshot;
  /** What the bus carries: the snapshot signed with CATALOG_SIGNING_KEY (docs/architecture/bus-signatures.md#the-chain-catalog). */
  readonly signedSnapshot: SignedPayload<ChainCatalogSnapshot>;

  constructor(private readonly config: QuoteBuilderConfig) {
    this.chains = applyRpcUrls(loadChainDirectory(config.CHAIN_PROFILE), config.CHAIN_RPC_URLS);
    const content = {
      chains: this.chains.chains.map(({ key, name, type, chainId, relayChainId, hub, aliases }) => ({
        key,
        name,
        type,
        chainId,
        relayChainId,
        hub,
        aliases,
      })),
      tokensByChain: this.chains.tokensByChain(),
      hubAssets: this.chains.hubAssetsByChain(),
      leverageVaults: this.chains.leverageVaults,
      partnerFee: this.configuredPartnerFee(),
      vaultPartnerFee: this.configuredVaultPartnerFee(),
    };
    this.snapshot = {
      version: createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 16),
      startedAt: Date.now(),
      ...content,
    };
    this.signedSnapshot = new PayloadSigner(parseSigningKey(config.CATALOG_SIGNING_KEY)).sign(this.snapshot);
  }

  tokensByChain(): TokensByChain {
    return this.snapshot.tokensByChain;
  }

  tokensOf(chainKey: string): Token[] {
    return this.chains.tokensOf(chainKey);
  }

  /** The deployment's partner fee (PARTNER_FEE_*), or null when none is set. */
  configuredPartnerFee(): PartnerFee | null {
    const c = this.config;
    return feeOf(c.PARTNER_FEE_ADDRESS, c.PARTNER_FEE_AMOUNT, c.PARTNER_FEE_PERCENTAGE);
  }

  /** The leveraged-yield deposits' default fee (VAULT_PARTNER_FEE_*), or null. */
  configuredVaultPartnerFee(): PartnerFee | null {
    const c = this.config;
    return feeOf(c.VAULT_PARTNER_FEE_ADDRESS, c.VAULT_PARTNER_FEE_AMOUNT, c.VAULT_PARTNER_FEE_PERCENTAGE);
  }
}

function feeOf(address: string | undefined, amount: string | undefined, percentage: number | undefined): PartnerFee | null {
  return address && (amount !== undefined || percentage !== undefined) ? { address, amount, percentage } : null;
}
