import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType, PickType } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import type {
  DepositIntentRequest,
  DepositQuoteRequest,
  LeverageVault,
  LsdApr,
  LsdSource,
  VaultApr,
  VaultEffectiveApr,
  VaultPosition,
  WithdrawIntentRequest,
  WithdrawQuoteRequest,
} from '../domain/leverage-yield';
import { BuildResponseDto, IntentRequestDto } from './build.dto';
import { SubmitTxRequestDto } from './intent.dto';
import { QuoteRequestDto, QuoteResponseDto } from './quote.dto';
import { IsEvmAddress, IsUint256String, OnChain } from './validators';

const VAULT_MESSAGE = { message: 'vault must be an Ethereum address' };

export class VaultQueryDto {
  @ApiProperty({ description: "The vault's address on the hub (its share token)", example: '0xD09de2f5070699A909c0FD32fb5A909d3886701D' })
  @IsEvmAddress({ message: 'vault must be an Ethereum address' })
  @IsDefined({ message: 'vault is required' })
  vault!: string;
}

export class VaultAssetsQueryDto extends VaultQueryDto {
  @ApiProperty({ description: "An amount of the vault's asset (smallest unit)", example: '1000000000000000000' })
  @IsUint256String()
  @IsDefined({ message: 'assets is required' })
  assets!: string;
}

export class VaultSharesQueryDto extends VaultQueryDto {
  @ApiProperty({ description: 'An amount of shares (18 decimals)', example: '1000000000000000000' })
  @IsUint256String()
  @IsDefined({ message: 'shares is required' })
  shares!: string;
}

export class VaultOwnerQueryDto extends VaultQueryDto {
  @ApiProperty({ description: "A hub wallet (the relayData.address of the owner's builds)" })
  @IsEvmAddress({ message: 'owner must be an Ethereum address' })
  @IsDefined({ message: 'owner is required' })
  owner!: string;
}

export class LsdSourceDto implements LsdSource {
  @ApiProperty({ description: "The yield source's pool id (a DefiLlama pool UUID)" })
  poolId!: string;

  @ApiProperty({ description: 'Percent a year, answered when the source cannot be read' })
  fallbackAprPct!: number;

  @ApiProperty()
  label!: string;
}

export class LeverageVaultDto implements LeverageVault {
  @ApiProperty({ description: "The share token's symbol: the name /vaults/{name} takes", example: 'lsodaWEETH' })
  name!: string;

  @ApiProperty({ description: 'The vault on the hub, which is its ERC-4626 share token (18 decimals)' })
  vault!: string;

  @ApiProperty({ description: 'The hub asset it holds' })
  asset!: string;

  @ApiProperty({ description: 'The token it borrows against the asset to loop' })
  borrowToken!: string;

  @ApiPropertyOptional({ type: LsdSourceDto, description: 'Absent for a vault whose asset earns no staking yield' })
  lsdSource?: LsdSourceDto;
}

export class VaultAssetDto {
  @ApiProperty()
  asset!: string;
}

export class VaultPositionDto implements VaultPosition {
  @ApiProperty({ description: "Supplied to the pool, in the asset's units" })
  collateral!: string;

  @ApiProperty({ description: "Borrowed, converted to the asset's units at the pool's prices" })
  debt!: string;

  @ApiProperty({ description: 'Loan-to-value, basis points of 10 000' })
  ltv!: string;

  @ApiProperty({ description: 'WAD (1e18 = 1); below 1e18 the position can be liquidated; 2^256 − 1 without debt' })
  healthFactor!: string;

  @ApiProperty({ description: 'Held by the vault, not supplied' })
  idleAsset!: string;
}

export class VaultAprDto implements VaultApr {
  @ApiProperty({ description: "The pool's supply rate of the asset, RAY (1e27 = 100% a year)" })
  supplyAprRay!: string;

  @ApiProperty({ description: "The pool's borrow rate of the borrowed token, RAY" })
  borrowAprRay!: string;

  @ApiProperty()
  targetLtvBps!: string;

  @ApiProperty({ description: 'L / (1 − L) at the target loan-to-value L, WAD' })
  leverageMultiplierWad!: string;

  @ApiProperty({ description: 'supply + leverage × (supply − borrow), RAY, may be negative' })
  netAprRay!: string;
}

export class LsdAprDto implements LsdApr {
  @ApiProperty({ description: 'RAY; "0" for a vault without a staking-yield source' })
  aprRay!: string;

  @ApiProperty({ description: 'Ends in "(fallback)" when the configured fallback was answered' })
  label!: string;

  @ApiProperty({ description: 'True when the source could not be read and the fallback was answered' })
  stale!: boolean;
}

export class VaultEffectiveAprDto extends VaultAprDto implements VaultEffectiveApr {
  @ApiProperty({ type: LsdAprDto })
  lsdApr!: LsdAprDto;

  @ApiProperty({ description: 'supply + staking yield, RAY' })
  effectiveSupplyAprRay!: string;

  @ApiProperty({ description: 'The headline rate: effective supply + leverage × (effective supply − borrow), RAY' })
  effectiveNetAprRay!: string;
}

export class VaultTotalAssetsDto {
  @ApiProperty({ description: "Collateral less debt plus idle, in the asset's units" })
  totalAssets!: string;
}

export class VaultSharesDto {
  @ApiProperty()
  shares!: string;
}

export class VaultAssetsDto {
  @ApiProperty()
  assets!: string;
}

export class VaultBalanceDto {
  @ApiProperty({ description: 'Shares held (18 decimals)' })
  balance!: string;
}

export class VaultMaxWithdrawDto {
  @ApiProperty({ description: "In the asset's units" })
  maxWithdraw!: string;
}

export class DepositQuoteRequestDto
  extends PickType(QuoteRequestDto, [
    'tokenSrc',
    'tokenSrcChainKey',
    'amount',
    'quoteType',
    'partnerFee',
    'srcAddress',
    'slippageBps',
  ] as const)
  implements DepositQuoteRequest
{
  @ApiProperty({ description: 'The vault (its address on the hub)' })
  @IsEvmAddress(VAULT_MESSAGE)
  @IsDefined({ message: 'vault is required' })
  vault!: string;
}

/** The swaps' quote answer; quotedAmount is shares for a deposit, the output token for a withdrawal. */
export class VaultQuoteResponseDto extends OmitType(QuoteResponseDto, ['txData'] as const) {
  @ApiPropertyOptional({
    type: BuildResponseDto,
    description: 'With includeTxData=true: what /intents/deposit or /intents/withdraw builds for this quote',
  })
  txData?: BuildResponseDto;
}

/** What a deposit and a withdrawal may both leave out. */
class VaultIntentOptionsDto {
  @ApiPropertyOptional({ description: 'UNIX seconds; "0" never expires; omitted: the hub\'s time + 300 s' })
  @IsOptional()
  @IsUint256String()
  deadline?: string;

  @ApiPropertyOptional({ description: 'A solver to reserve the intent for; omitted: any solver' })
  @IsOptional()
  @IsEvmAddress()
  solver?: string;
}

export class DepositIntentRequestDto
  extends IntersectionType(
    PickType(IntentRequestDto, ['srcChainKey', 'srcAddress', 'inputToken', 'inputAmount', 'minOutputAmount', 'partnerFee'] as const),
    VaultIntentOptionsDto,
  )
  implements DepositIntentRequest
{
  @ApiProperty({ description: "The vault (its address on the hub, its share token); the shares go to srcAddress's hub wallet" })
  @IsEvmAddress(VAULT_MESSAGE)
  @IsDefined({ message: 'vault is required' })
  vault!: string;
}

/** `POST /v1/leverage-yield/submit-tx`: the swaps body and what the broadcast transaction does. */
export class VaultSubmitTxRequestDto extends SubmitTxRequestDto {
  @ApiProperty({ enum: ['deposit', 'withdraw'], description: 'Stored as leverage_deposit or leverage_withdraw' })
  @IsIn(['deposit', 'withdraw'], { message: 'operation must be deposit or withdraw' })
  operation!: 'deposit' | 'withdraw';
}

export class WithdrawQuoteRequestDto
  extends PickType(QuoteRequestDto, ['tokenDst', 'tokenDstChainKey', 'amount', 'quoteType', 'dstAddress', 'slippageBps'] as const)
  implements WithdrawQuoteRequest
{
  @ApiProperty({ description: 'The vault (its address on the hub); amount is in its shares (18 decimals)' })
  @IsEvmAddress(VAULT_MESSAGE)
  @IsDefined({ message: 'vault is required' })
  vault!: string;

  @ApiProperty({ example: '0xa4b1.arbitrum', description: 'The network the user signs on: its hub wallet holds the shares' })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  @OnChain('chainKey')
  srcChainKey!: string;

  @ApiPropertyOptional({ description: 'The signer on srcChainKey; required with includeTxData=true' })
  @IsOptional()
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('address', 'srcChainKey')
  srcAddress?: string;
}

export class WithdrawIntentRequestDto
  extends IntersectionType(
    PickType(IntentRequestDto, ['srcChainKey', 'srcAddress', 'dstChainKey', 'outputToken', 'inputAmount', 'minOutputAmount'] as const),
    VaultIntentOptionsDto,
  )
  implements WithdrawIntentRequest
{
  @ApiProperty({ description: 'The vault (its address on the hub); inputAmount is in its shares (18 decimals)' })
  @IsEvmAddress(VAULT_MESSAGE)
  @IsDefined({ message: 'vault is required' })
  vault!: string;

  @ApiPropertyOptional({ description: 'The receiver on dstChainKey; omitted: srcAddress' })
  @IsOptional()
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('address', 'dstChainKey')
  recipient?: string;
}
