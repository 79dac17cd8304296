import { Controller, Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy, type Provider } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import {
  AppError,
  ErrorCode,
  Events,
  Subjects,
  type ChainMapEntry,
  type ChainRules,
  type ChainSummary,
  type PartnerFee,
  type ChainCatalogSnapshot,
  type HubAssetsByChain,
  type LeverageVault,
  type Token,
} from '@swap/contracts';
import { MessagingClient, parsePublicKeys, SignatureCheck } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';

/** The check of quote-builder's signature on every snapshot (CATALOG_PUBLIC_KEY): docs/architecture/bus-signatures.md#the-chain-catalog. */
export const CATALOG_SIGNATURES = Symbol('swap:catalog-signatures');

export function catalogSignaturesFrom(configClass: new () => { CATALOG_PUBLIC_KEY: string }): Provider {
  return {
    provide: CATALOG_SIGNATURES,
    inject: [configClass],
    useFactory: (config: { CATALOG_PUBLIC_KEY: string }) => new SignatureCheck(parsePublicKeys(config.CATALOG_PUBLIC_KEY)),
  };
}

/** A snapshot said to start later than this past the mirror's clock is refused: no clock is that far off. */
export const MAX_CATALOG_CLOCK_SKEW_MS = 60_000;

/** A safety net for a missed event: the snapshot is asked for again this often. */
const REFRESH_MS = 5 * 60_000;

interface Held {
  snapshot: ChainCatalogSnapshot;
  byName: Map<string, ChainSummary>;
  /** Each token list as JSON text, written once: the reads answer it as it is. */
  tokensJson: Map<string, string>;
  allTokensJson: string;
  /** Each chain's token addresses (EVM in lower case), for the body rules. */
  tokenAddresses: Map<string, Set<string>>;
  /** The data API's config reads (`/v1/be/config/*`) as JSON text. */
  config: { chainKeys: string; chainMap: string; hubAssets: string; hubAssetsByChain: Map<string, string>; relayChainIds: string };
}

/** Each token's hub asset, from the snapshot (or from its tokens, for a replica of an earlier release that sends none). */
function hubAssetsOf(snapshot: ChainCatalogSnapshot): HubAssetsByChain {
  if (snapshot.hubAssets) return snapshot.hubAssets;
  return Object.fromEntries(
    Object.entries(snapshot.tokensByChain).map(([key, tokens]) => [
      key,
      Object.fromEntries(
        tokens.map((t) => [t.address, { asset: t.hubAsset, decimal: t.decimals, vault: t.vault, symbol: t.symbol, name: t.name }]),
      ),
    ]),
  );
}

/** quote-builder's chain catalog held in memory for the public reads; see docs/architecture/services.md#public-reads. */
@Injectable()
export class ChainCatalogMirror implements ChainRules, OnApplicationBootstrap, OnModuleDestroy {
  private held?: Held;
  private loading?: Promise<Held>;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly messaging: MessagingClient,
    @Inject(CATALOG_SIGNATURES) private readonly signatures: SignatureCheck,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.load().catch(() => undefined); // the first read retries
    this.timer = setInterval(() => this.refresh().catch(() => undefined), REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** A snapshot as the bus carries it: taken only when quote-builder's key signed it and it has a snapshot's shape. */
  receive(message: unknown): 'taken' | 'kept' | 'refused' {
    let snapshot: unknown;
    try {
      snapshot = this.signatures.open(message);
    } catch (error) {
      this.logger.warn(
        { reason: (error as Error).message },
        'chain catalog snapshot refused: not signed by quote-builder (CATALOG_PUBLIC_KEY)',
      );
      return 'refused';
    }
    if (!isSnapshot(snapshot)) {
      this.logger.warn('chain catalog snapshot refused: signed, but not a snapshot');
      return 'refused';
    }
    const outcome = this.apply(snapshot);
    if (outcome === 'refused')
      this.logger.warn({ startedAt: snapshot.startedAt }, 'chain catalog snapshot refused: dated ahead of this clock');
    return outcome;
  }

  /**
   * Takes a snapshot whose signature was checked (receive). The same version again changes nothing;
   * one from a replica that started before the one held came from is older (a replica of
   * the previous release answering during a rollout) and is ignored; one dated ahead of this
   * clock is refused (kept, it would outlive every genuine announcement after it).
   */
  apply(snapshot: ChainCatalogSnapshot): 'taken' | 'kept' | 'refused' {
    if (!(snapshot.startedAt <= Date.now() + MAX_CATALOG_CLOCK_SKEW_MS)) return 'refused';
    if (this.held && (this.held.snapshot.version === snapshot.version || snapshot.startedAt < this.held.snapshot.startedAt)) return 'kept';
    const byName = new Map<string, ChainSummary>();
    const tokensJson = new Map<string, string>();
    for (const { aliases, ...chain } of snapshot.chains) {
      for (const name of [chain.key, ...aliases]) byName.set(name.toLowerCase(), chain);
      tokensJson.set(chain.key, JSON.stringify(snapshot.tokensByChain[chain.key] ?? []));
    }
    const hubAssets = hubAssetsOf(snapshot);
    this.held = {
      snapshot,
      byName,
      tokensJson,
      allTokensJson: JSON.stringify(snapshot.tokensByChain),
      tokenAddresses: new Map(
        snapshot.chains.map((c) => [
          c.key,
          new Set((snapshot.tokensByChain[c.key] ?? []).map((t) => (c.type === 'EVM' ? t.address.toLowerCase() : t.address))),
        ]),
      ),
      config: {
        chainKeys: JSON.stringify(snapshot.chains.map((c) => c.key)),
        chainMap: JSON.stringify(snapshot.chains.map(chainMapEntry)),
        hubAssets: JSON.stringify(hubAssets),
        hubAssetsByChain: new Map(snapshot.chains.map((c) => [c.key, JSON.stringify(hubAssets[c.key] ?? {})])),
        // Relay chain ids as JSON numbers (the public client's IntentRelayChainIdMap): every one is below 2^53.
        relayChainIds: JSON.stringify(Object.fromEntries(snapshot.chains.map((c) => [c.key, Number(c.relayChainId)]))),
      },
    };
    return 'taken';
  }

  /** A chain by key or alias, in any letter case; an unknown one is the catalog's 404. */
  async chain(keyOrAlias: string): Promise<ChainSummary> {
    const chain = await this.findChain(keyOrAlias);
    if (!chain) throw AppError.notFound(`Unknown chain key: ${keyOrAlias}`, ErrorCode.ChainNotFound);
    return chain;
  }

  /** A chain by key or alias, in any letter case; undefined when unknown (the body rules' ChainRules). */
  async findChain(keyOrAlias: string): Promise<ChainSummary | undefined> {
    return (await this.current()).byName.get(keyOrAlias.toLowerCase());
  }

  /** Whether the address is one of the chain's tokens (EVM addresses in any letter case). */
  async hasToken(chainKey: string, address: string): Promise<boolean> {
    const chain = await this.chain(chainKey);
    return (await this.current()).tokenAddresses.get(chain.key)!.has(chain.type === 'EVM' ? address.toLowerCase() : address);
  }

  async tokensOf(keyOrAlias: string): Promise<Token[]> {
    const chain = await this.chain(keyOrAlias);
    return (await this.current()).snapshot.tokensByChain[chain.key] ?? [];
  }

  /** The token lists as JSON text (all, or one chain's), for routes that answer them as they are. */
  async tokensJson(keyOrAlias?: string): Promise<string> {
    const held = await this.current();
    if (keyOrAlias === undefined) return held.allTokensJson;
    return held.tokensJson.get((await this.chain(keyOrAlias)).key)!;
  }

  /** The data API's config reads as JSON text: the chain keys, the hub assets (all, or one chain's), the relay chain ids. */
  async configJson(read: 'chainKeys' | 'chainMap' | 'hubAssets' | 'relayChainIds', keyOrAlias?: string): Promise<string> {
    const held = await this.current();
    if (read === 'hubAssets' && keyOrAlias !== undefined) return held.config.hubAssetsByChain.get((await this.chain(keyOrAlias)).key)!;
    return held.config[read];
  }

  async leverageVaults(): Promise<LeverageVault[]> {
    return (await this.current()).snapshot.leverageVaults ?? [];
  }

  /** A leveraged-yield vault by its name or its address, in any letter case. */
  async findLeverageVault(by: { name: string } | { address: string }): Promise<LeverageVault | undefined> {
    return (await this.leverageVaults()).find((v) =>
      'name' in by ? v.name.toLowerCase() === by.name.toLowerCase() : v.vault.toLowerCase() === by.address.toLowerCase(),
    );
  }

  /** As findLeverageVault; the catalog's 404 when it has none such. */
  async leverageVault(by: { name: string } | { address: string }): Promise<LeverageVault> {
    const vault = await this.findLeverageVault(by);
    if (vault) return vault;
    throw AppError.notFound(
      'name' in by ? `Vault not found: ${by.name}` : `Vault not found: ${by.address} is not a leveraged-yield vault of this deployment`,
      ErrorCode.VaultNotFound,
    );
  }

  async partnerFee(): Promise<PartnerFee | null> {
    return (await this.current()).snapshot.partnerFee;
  }

  async vaultPartnerFee(): Promise<PartnerFee | null> {
    return (await this.current()).snapshot.vaultPartnerFee ?? null;
  }

  private current(): Promise<Held> | Held {
    return this.held ?? this.load();
  }

  private load(): Promise<Held> {
    this.loading ??= this.refresh().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** A quote-builder of the previous release answers only unsigned v2: nothing is taken from it (the reads answer 503 until one of this release answers). */
  private async refresh(): Promise<Held> {
    const outcome = this.receive(await this.messaging.request(Subjects.catalogSnapshot, {}));
    if (outcome === 'refused' && !this.held) {
      throw new AppError(
        503,
        ErrorCode.DependencyUnavailable,
        'The chain catalog answered a snapshot this service cannot trust; retry later',
      );
    }
    return this.held!;
  }
}

function isSnapshot(value: unknown): value is ChainCatalogSnapshot {
  const snapshot = value as Partial<ChainCatalogSnapshot> | null;
  return (
    typeof snapshot === 'object' &&
    snapshot !== null &&
    typeof snapshot.version === 'string' &&
    typeof snapshot.startedAt === 'number' &&
    Array.isArray(snapshot.chains) &&
    typeof snapshot.tokensByChain === 'object' &&
    snapshot.tokensByChain !== null
  );
}

function chainMapEntry(chain: ChainCatalogSnapshot['chains'][number]): ChainMapEntry {
  return {
    key: chain.key,
    name: chain.name,
    type: chain.type,
    evmChainId: chain.type === 'EVM' ? Number(chain.chainId) : null,
    relayChainId: Number(chain.relayChainId),
    hub: chain.hub,
    aliases: chain.aliases,
  };
}

/** Every replica takes every `catalogChanged` event; an event handler has no queue group. */
@Controller()
export class ChainCatalogMirrorEvents {
  constructor(private readonly mirror: ChainCatalogMirror) {}

  @EventPattern(Events.catalogChanged)
  changed(@Payload() message: unknown): void {
    this.mirror.receive(message);
  }
}
