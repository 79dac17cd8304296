import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import type {
  GasEstimateRequest,
  GasEstimateResponse,
  IntentStatusResponse,
  QuoteRequest,
  QuoteResponse,
  QuoteType,
} from '../domain/quote';
import { QuoteTypes } from '../domain/quote';
import type {
  SolverExecuteRequest,
  SolverExecuteResponse,
  SolverQuoteRequest,
  SolverQuoteResponse,
  SolverStatusRequest,
  SolverStatusResponse,
} from '../domain/solver-api';
import { BuildResponseDto, IntentRequestDto, PartnerFeeDto } from './build.dto';
import { EVM_HASH_PATTERN } from './evm-checksum';
import { IsEvmAddress, IsPositiveAmount, IsUint256String, NestedObject, OnChain } from './validators';

/** The spec's Quote request. */
export class QuoteRequestDto implements QuoteRequest {
  @ApiProperty({ description: 'Source token address (0x000…000 for the native token)' })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('token', 'tokenSrcChainKey')
  tokenSrc!: string;

  @ApiProperty({ example: '0xa4b1.arbitrum' })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  @OnChain('chainKey')
  tokenSrcChainKey!: string;

  @ApiProperty({ description: 'Destination token address' })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('token', 'tokenDstChainKey')
  tokenDst!: string;

  @ApiProperty({ example: '0x92.sonic' })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  @OnChain('chainKey')
  tokenDstChainKey!: string;

  @ApiProperty({ example: '1000000', description: 'Source token smallest unit, the partner fee included' })
  @IsPositiveAmount({ message: 'amount must be greater than zero, written without leading zeros' })
  @IsUint256String()
  amount!: string;

  @ApiProperty({ enum: QuoteTypes, example: 'exact_input' })
  @IsIn(QuoteTypes, { message: 'quoteType must be exact_input (the only supported quote type)' })
  quoteType!: QuoteType;

  @ApiPropertyOptional({ type: PartnerFeeDto, description: 'Send the same value to /intents so the quote matches what the intent charges' })
  @IsOptional()
  @NestedObject(() => PartnerFeeDto)
  partnerFee?: PartnerFeeDto;

  @ApiPropertyOptional({ description: 'Sender on the source network; required with includeTxData=true' })
  @IsOptional()
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('address', 'tokenSrcChainKey')
  srcAddress?: string;

  @ApiPropertyOptional({ description: 'Receiver on the destination network; required with includeTxData=true' })
  @IsOptional()
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('address', 'tokenDstChainKey')
  dstAddress?: string;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 5000,
    description: 'Slippage of txData.intent.minOutputAmount in basis points (default 50: 0.5%)',
  })
  @IsOptional()
  @Min(0)
  @Max(5000)
  @IsInt({ message: 'slippageBps must be an integer number of basis points (0 to 5000)' })
  slippageBps?: number;
}

export class QuoteQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Also build the unsigned transaction for the quote' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'includeTxData must be true or false' })
  includeTxData?: 'true' | 'false';
}

export class QuoteResponseDto implements QuoteResponse {
  @ApiProperty({ example: '331245000000000', description: 'Destination token smallest unit' })
  quotedAmount!: string;

  @ApiProperty({ format: 'uuid', description: 'The recorded quote (quote_uuid for /v1/intent/execute)' })
  quoteId!: string;

  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' })
  expiresAt!: string;

  @ApiProperty({ example: '1000', description: 'Partner fee taken off amount before solvers were asked' })
  feeAmount!: string;

  @ApiPropertyOptional({ type: BuildResponseDto, description: 'With includeTxData=true: what /intents builds for this quote' })
  txData?: BuildResponseDto;
}

/** `POST /v1/swaps/limit-orders`: the intent body without a deadline (a limit order carries 0). */
export class LimitOrderRequestDto extends OmitType(IntentRequestDto, ['deadline'] as const) {}

export class GasTxDto {
  @ApiProperty()
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  from!: string;

  @ApiProperty()
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  to!: string;

  @ApiPropertyOptional({ example: '0' })
  @IsOptional()
  @IsUint256String()
  value?: string;

  @ApiProperty({ description: 'EVM calldata (0x-hex), or another network’s transaction as the builder answered it (see encoding)' })
  @MaxLength(262_144)
  @IsString()
  data!: string;

  @ApiPropertyOptional({
    enum: ['base64', 'xdr', 'json'],
    description: 'Networks other than EVM: how data is written (Solana and Sui base64, Stellar xdr, Injective and ICON json)',
  })
  @IsOptional()
  @IsIn(['base64', 'xdr', 'json'], { message: 'tx.encoding must be one of base64, xdr, json' })
  encoding?: 'base64' | 'xdr' | 'json';

  @ApiPropertyOptional({
    description: 'Stellar: the network passphrase the builder answered (accepted so a built tx can be sent as it is)',
  })
  @IsOptional()
  @MaxLength(128)
  @IsString()
  networkPassphrase?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @MaxLength(64)
  @IsString()
  recentBlockhash?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @MaxLength(32)
  @IsString()
  lastValidBlockHeight?: string;

  @ApiPropertyOptional({ example: 42161, description: 'EVM: the chain id the builder wrote (accepted so a built tx can be sent as it is)' })
  @IsOptional()
  @Min(1)
  @IsInt({ message: 'tx.chainId must be an EVM chain id (a positive whole JSON number)' })
  chainId?: number;
}

export class GasEstimateRequestDto implements GasEstimateRequest {
  @ApiProperty({ example: '0xa4b1.arbitrum', description: 'The network the transaction is for' })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  @OnChain('chainKey')
  chainKey!: string;

  @ApiProperty({ type: GasTxDto })
  @NestedObject(() => GasTxDto)
  @IsDefined({ message: 'tx is required' })
  tx!: GasTxDto;
}

export class GasEstimateResponseDto implements GasEstimateResponse {
  @ApiProperty()
  chainKey!: string;
  @ApiProperty({
    example: '182345',
    description: 'Gas units (EVM, Sui, Injective, ICON steps); signatures (Solana); resource fee (Stellar)',
  })
  gas!: string;
  @ApiProperty({ example: '1000000000', description: 'Per unit of gas (per signature on Solana), at current prices' })
  price!: string;
  @ApiProperty({ example: '182345000000000', description: 'gas × price in the native smallest unit' })
  fee!: string;
  @ApiProperty({ enum: ['wei', 'lamports', 'mist', 'stroops', 'inj', 'loop'], description: 'The native smallest unit the fee is in' })
  unit!: string;
}

export class IntentStatusRequestDto {
  @ApiProperty({ description: 'The hub transaction that created the intent (for a spoke source: the relay’s hub transaction)' })
  @Matches(EVM_HASH_PATTERN, { message: 'intentTxHash must be 0x followed by 64 hex digits' })
  @IsString()
  intentTxHash!: string;
}

export class IntentStatusResponseDto implements IntentStatusResponse {
  @ApiProperty({
    enum: [-1, 1, 2, 3, 4],
    description: '-1 not found, 1 not started, 2 in progress, 3 solved, 4 failed (expired, or cancelled: then cancelled is true)',
  })
  status!: number;
  @ApiPropertyOptional()
  intentHash?: string;
  @ApiPropertyOptional({ description: 'The hub transaction of the fill, once solved' })
  fillTxHash?: string;
  @ApiPropertyOptional({ example: true, description: 'With status 4: the intent was cancelled on the hub and its input went back' })
  cancelled?: boolean;
}

/* The solver API (`/v1/intent/*`), snake_case as the public network has it. */

export class SolverQuoteRequestDto implements SolverQuoteRequest {
  @ApiProperty({ description: 'Hub asset of the input' })
  @IsEvmAddress()
  token_src!: string;

  @ApiProperty({ description: 'Hub asset of the output' })
  @IsEvmAddress()
  token_dst!: string;

  @ApiProperty({ description: 'Input in hub-asset units, after the partner fee' })
  @IsPositiveAmount({ message: 'amount must be greater than zero, written without leading zeros' })
  @IsUint256String()
  amount!: string;

  @ApiProperty({ enum: QuoteTypes })
  @IsIn(QuoteTypes, { message: 'quote_type must be exact_input (the only supported quote type)' })
  quote_type!: 'exact_input';
}

export class SolverQuoteResponseDto implements SolverQuoteResponse {
  @ApiProperty()
  quoted_amount!: string;
  @ApiProperty({ format: 'uuid' })
  quote_uuid!: string;
  @ApiProperty()
  expires_at!: string;
}

export class SolverExecuteRequestDto implements SolverExecuteRequest {
  @ApiProperty({ description: 'The hub transaction that created the intent' })
  @Matches(EVM_HASH_PATTERN, { message: 'intent_tx_hash must be 0x followed by 64 hex digits' })
  @IsString()
  intent_tx_hash!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The quote the intent was built from: its winner gets the intent first' })
  @IsOptional()
  @IsUUID('all', { message: 'quote_uuid must be a UUID' })
  quote_uuid?: string;
}

export class SolverExecuteResponseDto implements SolverExecuteResponse {
  @ApiProperty({ enum: ['OK'] })
  answer!: 'OK';
  @ApiProperty()
  intent_hash!: string;
}

export class SolverStatusRequestDto implements SolverStatusRequest {
  @ApiProperty()
  @Matches(EVM_HASH_PATTERN, { message: 'intent_tx_hash must be 0x followed by 64 hex digits' })
  @IsString()
  intent_tx_hash!: string;
}

export class SolverStatusResponseDto implements SolverStatusResponse {
  @ApiProperty({ enum: [-1, 1, 2, 3, 4] })
  status!: -1 | 1 | 2 | 3 | 4;
  @ApiPropertyOptional()
  fill_tx_hash?: string;
}

export class SolverErrorDetailDto {
  @ApiProperty({
    example: -4,
    description:
      '-4 no path, -5 no liquidity, -8 quote not found, -10 intent does not match the quote, -12 intent not found, -13 quote expired, -16 no solver available, -999 other',
  })
  code!: number;
  @ApiProperty()
  message!: string;
}

export class SolverErrorBodyDto {
  @ApiProperty({ type: SolverErrorDetailDto })
  detail!: SolverErrorDetailDto;
}
