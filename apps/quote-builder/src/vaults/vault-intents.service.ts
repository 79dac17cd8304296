import { Injectable, Optional } from '@nestjs/common';
import { ChainAccess, LEVERAGE_VAULT_ABI, relayDataOf, toHubAmount, type TokenInfo } from '@swap/chains';
import {
  AppError,
  checksummedAddress,
  ErrorCode,
  type AllowanceCheckResponse,
  type ApproveResponse,
  type BuildResponse,
  type DepositIntentRequest,
  type DepositQuoteMessage,
  type FieldViolation,
  type Intent,
  type IntentRequest,
  type LeverageVault,
  type PartnerFee,
  type QuoteResponse,
  type WithdrawIntentRequest,
  type WithdrawQuoteMessage,
} from '@swap/contracts';
import { randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import { BuildAnnouncer } from '../intents/build-announcer';
import { HubWallets } from '../intents/hub-wallets';
import { IntentBuilderService } from '../intents/intent-builder.service';
import { resolveSide, type ResolvedSwap } from '../intents/swap-resolution';
import { QUOTE_DEADLINE_OFFSET_SECONDS, QuoteService } from '../quotes/quote.service';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const SHARE_DECIMALS = 18;

/** The body fields each side is read from, for messages naming them. */
const DEPOSIT_FIELDS = { chainKey: 'srcChainKey', token: 'inputToken', address: 'srcAddress' };
const DEPOSIT_QUOTE_FIELDS = { chainKey: 'tokenSrcChainKey', token: 'tokenSrc', address: 'srcAddress' };
const WITHDRAW_FIELDS = {
  src: 'srcChainKey',
  srcAddress: 'srcAddress',
  dst: 'dstChainKey',
  token: 'outputToken',
  recipient: 'recipient',
  amount: 'inputAmount',
};
const WITHDRAW_QUOTE_FIELDS = {
  src: 'srcChainKey',
  srcAddress: 'srcAddress',
  dst: 'tokenDstChainKey',
  token: 'tokenDst',
  recipient: 'dstAddress',
  amount: 'amount',
};

/**
 * A deposit is an intent from a spoke token to the vault's shares, delivered to the sender's hub wallet; a withdrawal one from those
 * shares to a token on any network, created by that hub wallet: docs/integrators/leverage-yield.md#deposits.
 */
@Injectable()
export class VaultIntentsService {
  constructor(
    private readonly catalog: ChainCatalog,
    private readonly builder: IntentBuilderService,
    private readonly quotes: QuoteService,
    private readonly hubWallets: HubWallets,
    private readonly chains: ChainAccess,
    @Optional() private readonly announcer?: BuildAnnouncer,
  ) {}

  async quoteDeposit(request: DepositQuoteMessage): Promise<QuoteResponse> {
    const problems: FieldViolation[] = [];
    if (request.includeTxData && request.srcAddress === undefined)
      problems.push({ field: 'srcAddress', rule: 'requiredWithTxData', message: 'srcAddress is required with includeTxData=true' });
    const resolved = this.resolveDeposit(
      request.vault,
      { chainKey: request.tokenSrcChainKey, token: request.tokenSrc, address: request.srcAddress },
      DEPOSIT_QUOTE_FIELDS,
      problems,
    );
    const partnerFee = this.feeOf(request);
    const build = (minOutputAmount: string) =>
      this.deposit({
        vault: request.vault,
        srcChainKey: request.tokenSrcChainKey,
        srcAddress: request.srcAddress!,
        inputToken: request.tokenSrc,
        inputAmount: request.amount,
        minOutputAmount,
        ...(partnerFee ? { partnerFee } : {}),
      });
    return this.quotes.quoteFor(resolved, { ...request, ...(partnerFee ? { partnerFee } : {}) }, request.includeTxData ? build : undefined);
  }

  async deposit(request: DepositIntentRequest): Promise<BuildResponse> {
    const { intent, resolved } = await this.depositIntent(request);
    return this.builder.build(intent, resolved, 'leverage_deposit');
  }

  async allowanceCheck(request: DepositIntentRequest): Promise<AllowanceCheckResponse> {
    const { intent, resolved } = await this.depositIntent(request, false);
    return this.builder.allowanceCheck(intent, resolved);
  }

  async approve(request: DepositIntentRequest): Promise<ApproveResponse> {
    const { intent, resolved } = await this.depositIntent(request, false);
    return this.builder.approve(intent, resolved);
  }

  async quoteWithdraw(request: WithdrawQuoteMessage): Promise<QuoteResponse> {
    const problems: FieldViolation[] = [];
    if (request.includeTxData) {
      for (const field of ['srcAddress', 'dstAddress'] as const)
        if (request[field] === undefined)
          problems.push({ field, rule: 'requiredWithTxData', message: `${field} is required with includeTxData=true` });
    }
    const resolved = this.resolveWithdrawal(
      {
        vault: request.vault,
        srcChainKey: request.srcChainKey,
        srcAddress: request.srcAddress,
        dstChainKey: request.tokenDstChainKey,
        outputToken: request.tokenDst,
        recipient: request.dstAddress,
      },
      WITHDRAW_QUOTE_FIELDS,
      problems,
    );
    const build = (minOutputAmount: string) =>
      this.withdraw(
        {
          vault: request.vault,
          srcChainKey: request.srcChainKey,
          srcAddress: request.srcAddress!,
          dstChainKey: request.tokenDstChainKey,
          outputToken: request.tokenDst,
          inputAmount: request.amount,
          minOutputAmount,
          recipient: request.dstAddress!,
        },
        WITHDRAW_QUOTE_FIELDS,
      );
    return this.quotes.quoteFor(resolved, request, request.includeTxData ? build : undefined);
  }

  /**
   * Created on the hub by the sender's hub wallet when the sender's message from its spoke arrives (approve the shares, then
   * createIntent): the road a spoke cancel takes. More shares than the wallet holds is refused before anything is signed.
   */
  async withdraw(request: WithdrawIntentRequest, fields: typeof WITHDRAW_FIELDS = WITHDRAW_FIELDS): Promise<BuildResponse> {
    const resolved = this.resolveWithdrawal(request, fields, []);
    const { src, dst, input, output, srcAddress, dstAddress } = resolved;
    const hub = this.catalog.chains.hub;
    const intents = hub.contracts?.intents as Address | undefined;
    if (!intents) throw new AppError(503, ErrorCode.NotConfigured, 'This deployment has no intents contract configured for the hub');
    const deadline = request.deadline ?? (await this.builder.deadline(QUOTE_DEADLINE_OFFSET_SECONDS)).deadline;
    const [creator] = await Promise.all([this.hubWalletOf(resolved), this.builder.checkDeadline(deadline, 'leverage-yield')]);
    const shares = BigInt(request.inputAmount);
    const held = await this.chains.evm(hub, (a) =>
      a.view({ address: input.address as Address, abi: LEVERAGE_VAULT_ABI, functionName: 'balanceOf', args: [creator] }),
    );
    if (held < shares) {
      throw AppError.validation([
        {
          field: fields.amount,
          rule: 'sharesHeld',
          message: `${fields.amount} is ${shares} shares, but the hub wallet ${creator} of ${request.srcAddress} on ${src.key} holds ${held}`,
        },
      ]);
    }
    const intent: Intent = {
      intentId: BigInt(`0x${randomBytes(32).toString('hex')}`).toString(),
      creator,
      inputToken: input.address,
      outputToken: output.hubAsset,
      inputAmount: shares.toString(),
      minOutputAmount: toHubAmount(BigInt(request.minOutputAmount), output, 'up').toString(),
      deadline,
      allowPartialFill: false,
      srcChain: src.relayChainId,
      dstChain: dst.relayChainId,
      srcAddress,
      dstAddress,
      solver: checksummedAddress(request.solver ?? ZERO_ADDRESS),
      data: '0x',
    };
    const relayData = relayDataOf(intent, { relayChainId: hub.relayChainId, intents });
    const built = { tx: await this.builder.hubMessage(src, srcAddress, creator, relayData.payload), intent, relayData };
    this.announcer?.announce(built, request, { src: src.key, dst: dst.key }, 'leverage_withdraw');
    return built;
  }

  /** The swap a deposit is: to the hub, the vault as output, the sender's hub wallet as receiver. */
  private async depositIntent(request: DepositIntentRequest, complete = true): Promise<{ intent: IntentRequest; resolved: ResolvedSwap }> {
    const resolved = this.resolveDeposit(
      request.vault,
      { chainKey: request.srcChainKey, token: request.inputToken, address: request.srcAddress },
      DEPOSIT_FIELDS,
      [],
    );
    const receiver = complete ? await this.hubWalletOf(resolved) : ZERO_ADDRESS;
    const deadline = request.deadline ?? (complete ? (await this.builder.deadline(QUOTE_DEADLINE_OFFSET_SECONDS)).deadline : '0');
    const partnerFee = this.feeOf(request);
    return {
      resolved: { ...resolved, dstAddress: receiver.toLowerCase() as Address },
      intent: {
        srcChainKey: resolved.src.key,
        dstChainKey: resolved.dst.key,
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
        ...(partnerFee ? { partnerFee } : {}),
      },
    };
  }

  /** The request's own fee, else the family's (VAULT_PARTNER_FEE_*), as the public network defaults it. */
  private feeOf(request: { partnerFee?: PartnerFee }): PartnerFee | undefined {
    return request.partnerFee ?? this.catalog.configuredVaultPartnerFee() ?? undefined;
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
  private resolveDeposit(
    vaultAddress: string,
    side: { chainKey: string; token: string; address?: string },
    fields: typeof DEPOSIT_FIELDS,
    problems: FieldViolation[],
  ): ResolvedSwap {
    const vault = this.knownVault(vaultAddress, problems);
    const { chain: src, token: input, address: srcAddress } = resolveSide(this.catalog.chains, { ...side, paying: true }, fields, problems);
    if (problems.length || !vault || !src || !input) throw AppError.validation(problems);
    const hub = this.catalog.chains.hub;
    return { src, dst: hub, input, output: sharesOf(vault, hub.key), srcAddress, dstAddress: '0x' };
  }

  /** The vault's shares in, a listed token out; signed on a spoke (on the hub itself the vault's own redeem does it). */
  private resolveWithdrawal(
    request: Pick<WithdrawIntentRequest, 'vault' | 'srcChainKey' | 'dstChainKey' | 'outputToken' | 'recipient'> & { srcAddress?: string },
    fields: typeof WITHDRAW_FIELDS,
    problems: FieldViolation[],
  ): ResolvedSwap {
    const directory = this.catalog.chains;
    const vault = this.knownVault(request.vault, problems);
    const source = resolveSide(
      directory,
      { chainKey: request.srcChainKey, address: request.srcAddress, paying: true },
      { chainKey: fields.src, token: fields.src, address: fields.srcAddress },
      problems,
    );
    if (source.chain?.hub)
      problems.push({
        field: fields.src,
        rule: 'spoke',
        message: `${fields.src}: withdraw from the spoke the shares were deposited from; shares held on the hub itself are redeemed with the vault's own redeem`,
      });
    const receiver = request.recipient ?? request.srcAddress;
    const out = resolveSide(
      directory,
      { chainKey: request.dstChainKey, token: request.outputToken, address: receiver, paying: false },
      { chainKey: fields.dst, token: fields.token, address: fields.recipient },
      problems,
    );
    if (problems.length || !vault || !source.chain || !out.chain || !out.token) throw AppError.validation(problems);
    return {
      src: source.chain,
      dst: out.chain,
      input: sharesOf(vault, directory.hub.key),
      output: out.token,
      srcAddress: source.address,
      dstAddress: out.address,
    };
  }

  private knownVault(address: string, problems: FieldViolation[]): LeverageVault | undefined {
    const vault = this.catalog.chains.findLeverageVault(address);
    if (!vault)
      problems.push({
        field: 'vault',
        rule: 'knownVault',
        message: `vault: ${address} is not a leveraged-yield vault of this deployment (GET /v1/leverage-yield/vaults)`,
      });
    return vault;
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
