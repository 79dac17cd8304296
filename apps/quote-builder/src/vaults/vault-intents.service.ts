import { Injectable } from '@nestjs/common';
import type { TokenInfo } from '@swap/chains';
import {
  AppError,
  ErrorCode,
  checksummedAddress,
  type AllowanceCheckResponse,
  type ApproveResponse,
  type BuildResponse,
  type DepositIntentRequest,
  type DepositQuoteMessage,
  type FieldViolation,
  type IntentRequest,
  type LeverageVault,
  type QuoteResponse,
} from '@swap/contracts';
import type { Address } from 'viem';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import { HubWallets } from '../intents/hub-wallets';
import { IntentBuilderService } from '../intents/intent-builder.service';
import { INTENT_FIELDS, QUOTE_FIELDS, resolveSource, type ResolvedSwap } from '../intents/swap-resolution';
import { QUOTE_DEADLINE_OFFSET_SECONDS, QuoteService } from '../quotes/quote.service';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const SHARE_DECIMALS = 18;

/** A deposit is an intent from a spoke token to the vault's shares, delivered to the sender's hub wallet: docs/integrators/leverage-yield.md#deposits. */
@Injectable()
export class VaultIntentsService {
  constructor(
    private readonly catalog: ChainCatalog,
    private readonly builder: IntentBuilderService,
    private readonly quotes: QuoteService,
    private readonly hubWallets: HubWallets,
  ) {}

  async quoteDeposit(request: DepositQuoteMessage): Promise<QuoteResponse> {
    const problems: FieldViolation[] = [];
    if (request.includeTxData && request.srcAddress === undefined)
      problems.push({ field: 'srcAddress', rule: 'requiredWithTxData', message: 'srcAddress is required with includeTxData=true' });
    const resolved = this.resolve(
      request.vault,
      { srcChainKey: request.tokenSrcChainKey, inputToken: request.tokenSrc, srcAddress: request.srcAddress },
      QUOTE_FIELDS,
      problems,
    );
    const build = (minOutputAmount: string) =>
      this.deposit({
        vault: request.vault,
        srcChainKey: request.tokenSrcChainKey,
        srcAddress: request.srcAddress!,
        inputToken: request.tokenSrc,
        inputAmount: request.amount,
        minOutputAmount,
        ...(request.partnerFee ? { partnerFee: request.partnerFee } : {}),
      });
    return this.quotes.quoteFor(resolved, request, request.includeTxData ? build : undefined);
  }

  async deposit(request: DepositIntentRequest): Promise<BuildResponse> {
    const { intent, resolved } = await this.depositIntent(request);
    return this.builder.build(intent, resolved);
  }

  async allowanceCheck(request: DepositIntentRequest): Promise<AllowanceCheckResponse> {
    const { intent, resolved } = await this.depositIntent(request, false);
    return this.builder.allowanceCheck(intent, resolved);
  }

  async approve(request: DepositIntentRequest): Promise<ApproveResponse> {
    const { intent, resolved } = await this.depositIntent(request, false);
    return this.builder.approve(intent, resolved);
  }

  /** The swap a deposit is: to the hub, the vault as output, the sender's hub wallet as receiver. */
  private async depositIntent(request: DepositIntentRequest, complete = true): Promise<{ intent: IntentRequest; resolved: ResolvedSwap }> {
    const resolved = this.resolve(request.vault, request, INTENT_FIELDS, []);
    const { src, dst, srcAddress } = resolved;
    const receiver = complete ? await this.hubWalletOf(resolved) : ZERO_ADDRESS;
    const deadline = request.deadline ?? (complete ? (await this.builder.deadline(QUOTE_DEADLINE_OFFSET_SECONDS)).deadline : '0');
    return {
      resolved: { ...resolved, dstAddress: receiver.toLowerCase() as Address, srcAddress },
      intent: {
        srcChainKey: src.key,
        dstChainKey: dst.key,
        inputToken: request.inputToken,
        outputToken: resolved.output.address,
        inputAmount: request.inputAmount,
        minOutputAmount: request.minOutputAmount,
        deadline,
        allowPartialFill: false,
        srcAddress: request.srcAddress,
        dstAddress: receiver,
        solver: request.solver ?? ZERO_ADDRESS,
        data: '0x',
        ...(request.partnerFee ? { partnerFee: request.partnerFee } : {}),
      },
    };
  }

  private hubWalletOf({ src, srcAddress }: ResolvedSwap): Promise<Address> {
    const hub = this.catalog.chains.hub;
    if (src.hub) return Promise.resolve(checksummedAddress(srcAddress) as Address);
    const factory = hub.contracts?.hubWalletFactory as Address | undefined;
    if (!factory)
      throw new AppError(503, ErrorCode.NotConfigured, 'This deployment has no hubWalletFactory contract configured for the hub');
    return this.hubWallets.of(hub, factory, BigInt(src.relayChainId), srcAddress);
  }

  /** Every problem of the body at once, the vault's among them. */
  private resolve(
    vaultAddress: string,
    sides: { srcChainKey: string; inputToken: string; srcAddress?: string },
    fields: { srcChainKey: string; inputToken: string; srcAddress: string },
    problems: FieldViolation[],
  ): ResolvedSwap {
    const vault = this.vaultOf(vaultAddress);
    if (!vault)
      problems.push({
        field: 'vault',
        rule: 'knownVault',
        message: `vault: ${vaultAddress} is not a leveraged-yield vault of this deployment (GET /v1/leverage-yield/vaults)`,
      });
    const { src, input, srcAddress } = resolveSource(this.catalog.chains, sides, fields, problems);
    if (problems.length || !vault || !src || !input) throw AppError.validation(problems);
    const hub = this.catalog.chains.hub;
    return { src, dst: hub, input, output: sharesOf(vault, hub.key), srcAddress, dstAddress: '0x' };
  }

  private vaultOf(address: string): LeverageVault | undefined {
    return this.catalog.chains.leverageVaults.find((v) => v.vault.toLowerCase() === address.toLowerCase());
  }
}

/** The vault's shares as the builder and the quote see a hub token: the vault is its own hub asset. */
function sharesOf(vault: LeverageVault, hubKey: string): TokenInfo {
  return {
    symbol: vault.name,
    name: vault.name,
    decimals: SHARE_DECIMALS,
    address: vault.vault,
    chainKey: hubKey,
    hubAsset: vault.vault,
    hubDecimals: SHARE_DECIMALS,
    vault: vault.vault,
  };
}
