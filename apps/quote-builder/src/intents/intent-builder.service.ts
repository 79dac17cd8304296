import { Injectable, Optional } from '@nestjs/common';
import {
  ChainAccess,
  encodeApprove,
  encodeAssetManagerTransfer,
  encodeCancelIntent,
  encodeHubCalls,
  encodeSendMessage,
  encodeWithdrawTo,
  hubDecimalsOf,
  intentHash,
  partnerFeeData,
  partnerFeeOn,
  partnerFeeQuote,
  relayDataOf,
  spokeAddressOfBytes,
  spokeNetworkOf,
  toHubAmount,
  type ChainInfo,
  type HubCall,
  type TokenInfo,
} from '@swap/chains';
import {
  AppError,
  canonicalAddress,
  ErrorCode,
  isEvmAddressText,
  type AllowanceCheckResponse,
  type ApproveResponse,
  type BuildResponse,
  type CancelRequest,
  type CancelResponse,
  type EvmTx,
  type Intent,
  type NetworkTx,
  type IntentRequest,
  type LeverageOperation,
  type PartnerFee,
  type PartnerFeeResponse,
  checksummedAddress,
} from '@swap/contracts';
import { randomBytes } from 'node:crypto';
import { isAddress, type Address, type Hex } from 'viem';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import { HubIntentStates, type HubIntentState } from '../executions/hub-intent-states';
import { BuildAnnouncer } from './build-announcer';
import { HubWallets } from './hub-wallets';
import { INTENT_FIELDS, NATIVE, resolveSwap, type ResolvedSwap } from './swap-resolution';

/** Builds the transactions a user signs; see docs/architecture/chains.md#building-an-intent. */
@Injectable()
export class IntentBuilderService {
  constructor(
    private readonly catalog: ChainCatalog,
    private readonly chains: ChainAccess,
    private readonly hubIntents: HubIntentStates,
    private readonly hubWallets: HubWallets,
    @Optional() private readonly announcer?: BuildAnnouncer,
  ) {}

  /** Announced (a build record) once answered; `resolved`: sides the caller resolved (a vault deposit's output is no listed token). */
  async build(request: IntentRequest, resolved?: ResolvedSwap, operation?: LeverageOperation): Promise<BuildResponse> {
    const built = await this.assemble(request, resolved, operation);
    this.announcer?.announce(
      built,
      request,
      { src: this.catalog.chains.getChain(request.srcChainKey).key, dst: this.catalog.chains.getChain(request.dstChainKey).key },
      operation,
    );
    return built;
  }

  private async assemble(request: IntentRequest, resolved?: ResolvedSwap, operation?: LeverageOperation): Promise<BuildResponse> {
    // Everything the body alone decides is checked before any chain is read.
    const { src, dst, input, output, amount, srcAddress, dstAddress } = this.resolveIntent(request, resolved);
    const fee = partnerFeeOn(amount, request.partnerFee);
    if (request.partnerFee && request.data !== '0x') {
      throw AppError.validation([
        { field: 'data', rule: 'emptyWithFee', message: 'data must be 0x when a partnerFee is given: the fee is encoded there' },
      ]);
    }
    if (!request.partnerFee && request.data.toLowerCase().startsWith('0x01')) {
      throw AppError.validation([
        {
          field: 'data',
          rule: 'feeReserved',
          message: 'data must not start with 0x01: that prefix marks a partner fee (send partnerFee instead)',
        },
      ]);
    }
    const hub = this.catalog.chains.hub;
    const intents = this.hubContract(hub, 'intents');
    const network = src.type === 'EVM' ? undefined : spokeNetworkOf(src.type);
    if (network && amount > network.maxAmount) {
      throw AppError.validation([
        {
          field: 'inputAmount',
          rule: network.maxAmount === (1n << 64n) - 1n ? 'u64' : 'maxAmount',
          message: `inputAmount must fit in ${network.maxAmountName} on ${src.key}`,
        },
      ]);
    }
    // The intent speaks in hub-asset units (the same as the token's where the decimals agree).
    const hubFee = toHubAmount(fee, input);
    const hubAmount = toHubAmount(amount, input);
    if (hubAmount - hubFee <= 0n) {
      // Fewer hub decimals round a tiny amount to 0: the hub refuses it, after a spoke deposit was made.
      throw AppError.validation([
        {
          field: 'inputAmount',
          rule: 'hubUnits',
          message: `inputAmount${fee > 0n ? ' less the partner fee' : ''} is less than one unit of ${input.symbol} on the hub (it keeps ${hubDecimalsOf(input)} decimals): nothing would be swapped`,
        },
      ]);
    }
    // What can throw at once is settled before the two reads start, so neither is left unawaited.
    const factory = src.hub ? undefined : this.hubContract(hub, 'hubWalletFactory');
    const [, creator] = await Promise.all([
      this.checkDeadline(request.deadline, operation ? 'leverage-yield' : 'swaps'),
      factory ? this.hubWallets.of(hub, factory, BigInt(src.relayChainId), srcAddress) : checksummedAddress(request.srcAddress),
    ]);
    const intent: Intent = {
      intentId: BigInt(`0x${randomBytes(32).toString('hex')}`).toString(),
      creator,
      inputToken: input.hubAsset,
      outputToken: output.hubAsset,
      inputAmount: (hubAmount - hubFee).toString(),
      minOutputAmount: toHubAmount(BigInt(request.minOutputAmount), output, 'up').toString(),
      deadline: request.deadline,
      allowPartialFill: request.allowPartialFill,
      srcChain: src.relayChainId,
      dstChain: dst.relayChainId,
      srcAddress,
      dstAddress,
      solver: checksummedAddress(request.solver),
      data: fee > 0n ? partnerFeeData(hubFee, request.partnerFee!.address as Address) : request.data,
    };
    const relayData = relayDataOf(intent, { relayChainId: hub.relayChainId, intents });
    if (src.hub)
      return { tx: evmTx(src, { from: request.srcAddress, to: intents, value: '0', data: relayData.payload }), intent, relayData };
    // From a spoke: the hub calls (approve the whole deposit, then createIntent) ride with the deposit.
    const hubCalls = relayData.payload;
    if (src.type !== 'EVM') {
      const tx = await this.chains.spoke(src, (a) =>
        a.buildDeposit({
          user: canonicalAddress(src.type, request.srcAddress),
          token: input.address,
          to: creator.toLowerCase() as Hex,
          amount,
          data: hubCalls,
        }),
      );
      return { tx, intent, relayData };
    }
    const tx = evmTx(src, {
      from: request.srcAddress,
      to: this.spokeContract(src, 'assetManager'),
      value: input.address === NATIVE ? amount.toString() : '0',
      data: encodeAssetManagerTransfer(input.address as Address, creator.toLowerCase() as Hex, amount, hubCalls),
    });
    return { tx, intent, relayData };
  }

  /** Deadline 0: open until a solver fills it or the user cancels. */
  buildLimitOrder(request: Omit<IntentRequest, 'deadline'>): Promise<BuildResponse> {
    return this.build({ ...request, deadline: '0' });
  }

  async allowanceCheck(request: IntentRequest, resolved?: ResolvedSwap): Promise<AllowanceCheckResponse> {
    const { src, input, amount } = this.resolveIntent(request, resolved);
    const spender = this.approvalSpender(src, input);
    if (!spender) return { valid: true, approvalRequired: false, amount: amount.toString() };
    const allowance = await this.chains.evm(src, (a) => a.allowance(input.address as Address, request.srcAddress as Address, spender));
    return { valid: allowance >= amount, approvalRequired: true, spender, allowance: allowance.toString(), amount: amount.toString() };
  }

  async approve(request: IntentRequest, resolved?: ResolvedSwap): Promise<ApproveResponse> {
    const { src, input, amount } = this.resolveIntent(request, resolved);
    if (src.type !== 'EVM') {
      throw AppError.validation([
        {
          field: 'srcChainKey',
          rule: 'hasAllowances',
          message: `srcChainKey: ${src.key} has no token allowances; nothing needs approving there (build the swap directly)`,
        },
      ]);
    }
    const spender = this.approvalSpender(src, input);
    if (!spender) return { approvalRequired: false, tx: null, message: 'The native token needs no approval' };
    return {
      approvalRequired: true,
      tx: evmTx(src, { from: request.srcAddress, to: input.address, value: '0', data: encodeApprove(spender, amount) }),
    };
  }

  /** See docs/architecture/chains.md#cancelling-an-intent. */
  async cancel(request: CancelRequest): Promise<CancelResponse> {
    const src = this.chain(request.srcChainKey, 'srcChainKey');
    const { intent } = request;
    if (intent.srcChain !== src.relayChainId) {
      throw AppError.validation([
        {
          field: 'intent.srcChain',
          rule: 'matchesSrcChainKey',
          message: `intent.srcChain must be ${src.relayChainId}, the relay chain id of ${src.key}`,
        },
      ]);
    }
    const hub = this.catalog.chains.hub;
    const intents = this.hubContract(hub, 'intents');
    const cancel = encodeCancelIntent(intent);
    if (!src.hub) {
      // The refund goes back to the sender's address on its own network: one of that network's form.
      const problem =
        src.type === 'EVM'
          ? isEvmAddressText(intent.srcAddress)
            ? undefined
            : {
                field: 'intent.srcAddress',
                rule: 'evmAddress',
                message: `intent.srcAddress must be a 20-byte hex address on ${src.key} (EIP-55 checksummed if mixed case)`,
              }
          : this.spokeAddressProblem(src, intent.srcAddress);
      if (problem) throw AppError.validation([problem]);
    }
    await this.requireOpen(intent);
    if (src.hub) return { tx: evmTx(src, { from: intent.creator, to: intents, value: '0', data: cancel }) };
    const calls: HubCall[] = [{ target: intents, value: 0n, data: cancel }];
    const assetManager = hub.contracts?.hubAssetManager as Address | undefined;
    // A vault withdrawal's shares stay in the hub wallet they came from: no spoke holds them.
    if (assetManager && !this.catalog.chains.findLeverageVault(intent.inputToken)) {
      const refund = BigInt(intent.inputAmount);
      calls.push(
        { target: intent.inputToken as Address, value: 0n, data: encodeApprove(assetManager, refund) },
        {
          target: assetManager,
          value: 0n,
          data: encodeWithdrawTo(intent.inputToken as Address, BigInt(intent.srcChain), intent.srcAddress as Hex, refund),
        },
      );
    }
    const payload = encodeHubCalls(calls);
    const relayData = { address: checksummedAddress(intent.creator), payload };
    return { tx: await this.hubMessage(src, intent.srcAddress as Hex, intent.creator as Address, payload), relayData };
  }

  /** The spoke transaction whose message runs `payload`'s hub calls from the sender's hub wallet (a cancel, a vault withdrawal). */
  async hubMessage(src: ChainInfo, sender: Hex, hubWallet: Address, payload: Hex): Promise<EvmTx | NetworkTx> {
    const hub = this.catalog.chains.hub;
    const dstAddress = hubWallet.toLowerCase() as Hex;
    if (src.type !== 'EVM') {
      const user = this.spokeUserOf(src, sender);
      return this.chains.spoke(src, (a) => a.buildMessage({ user, dstChainId: BigInt(hub.relayChainId), dstAddress, payload }));
    }
    return evmTx(src, {
      from: sender,
      to: this.spokeContract(src, 'connection'),
      value: '0',
      data: encodeSendMessage(BigInt(hub.relayChainId), dstAddress, payload),
    });
  }

  /** A 409 before the user pays gas for a cancel that would revert on the hub. */
  private async requireOpen(intent: Intent): Promise<void> {
    const hash = intentHash(intent);
    const state = await this.hubIntents.of(hash);
    if (state === 'open') return;
    const why: Record<Exclude<HubIntentState, 'open'>, string> = {
      solved: 'was already solved: its output was paid, nothing is left to cancel',
      cancelled: 'was already cancelled: its input went back to the user',
      unknown:
        'is not on the hub: never created, already cancelled, or (from a spoke) its deposit is still being relayed; once the submission is relayed, ask again',
    };
    throw new AppError(409, ErrorCode.IntentNotOpen, `Intent ${hash} ${why[state]}`, { state, intentHash: hash });
  }

  /** As the public protocol computes deadlines. */
  async deadline(offsetSeconds: number): Promise<{ deadline: string }> {
    const hub = this.catalog.chains.hub;
    return { deadline: ((await this.chains.evm(hub, (a) => a.latestBlockTime())) + BigInt(offsetSeconds)).toString() };
  }

  partnerFee(amountText: string, given?: PartnerFee): PartnerFeeResponse {
    return partnerFeeQuote(amountText, given, this.catalog.configuredPartnerFee());
  }

  private resolveIntent(request: IntentRequest, resolved?: ResolvedSwap) {
    const swap = resolved ?? resolveSwap(this.catalog.chains, request, INTENT_FIELDS);
    return { ...swap, amount: BigInt(request.inputAmount) };
  }

  private approvalSpender(src: ChainInfo, input: TokenInfo): Address | undefined {
    if (src.type !== 'EVM' || input.address === NATIVE) return undefined;
    return src.hub ? this.hubContract(src, 'intents') : this.spokeContract(src, 'assetManager');
  }

  /** `family`: the API family whose `GET /deadline` the refusal points to. */
  async checkDeadline(deadline: string, family: 'swaps' | 'leverage-yield' = 'swaps'): Promise<void> {
    if (deadline === '0') return; // a limit order
    const hub = this.catalog.chains.hub;
    const now = await this.chains.evm(hub, (a) => a.latestBlockTime());
    if (BigInt(deadline) <= now) {
      throw AppError.validation([
        {
          field: 'deadline',
          rule: 'future',
          message: `deadline must be after the hub's latest block time (${now}); get one from GET /v1/${family}/deadline`,
        },
      ]);
    }
  }

  private chain(key: string, field: string): ChainInfo {
    const chain = this.catalog.chains.findChain(key);
    if (!chain) throw AppError.validation([{ field, rule: 'knownChain', message: `${field}: unknown chain key ${key}` }]);
    return chain;
  }

  private hubContract(hub: ChainInfo, name: 'intents' | 'hubWalletFactory'): Address {
    const address = hub.contracts?.[name];
    if (!address) throw new AppError(503, ErrorCode.NotConfigured, `This deployment has no ${name} contract configured for the hub`);
    return address as Address;
  }

  private spokeContract(chain: ChainInfo, name: 'assetManager' | 'connection'): Address {
    const address = chain[name];
    if (!address || !isAddress(address))
      throw new AppError(503, ErrorCode.NotConfigured, `This deployment has no ${name} configured for ${chain.key}`);
    return address as Address;
  }

  private spokeAddressProblem(src: ChainInfo, srcAddress: string) {
    return spokeAddressOfBytes(src.type, srcAddress)
      ? undefined
      : {
          field: 'intent.srcAddress',
          rule: 'senderBytes',
          message: `intent.srcAddress must be the bytes of an address on ${src.key}, as the build answered them`,
        };
  }

  private spokeUserOf(src: ChainInfo, srcAddress: Hex): string {
    return spokeNetworkOf(src.type)!.addressOfBytes(srcAddress)!;
  }
}

/** Addresses EIP-55, and the chain id to sign for. */
function evmTx(chain: ChainInfo, fields: Omit<EvmTx, 'chainId'>): EvmTx {
  return { ...fields, from: checksummedAddress(fields.from), to: checksummedAddress(fields.to), chainId: Number(chain.chainId) };
}
