import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsDefined, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import type {
  Intent,
  IntentExtraDataRequest,
  IntentPacketRequest,
  IntentSubmitRequest,
  RelayDataView,
  SubmitTxRequest,
} from '../domain/intent';
import { IsEvmAddress, IsHexBytes, IsUint256String, NestedObject, OnChain } from './validators';

/** The intent tuple as JSON: passed back verbatim from the build response. */
export class IntentDto implements Intent {
  @ApiProperty({ example: '63473285710247105638745283561238746592834765' })
  @IsUint256String()
  intentId!: string;

  @ApiProperty({ example: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5', description: "The user's wallet on the hub" })
  @IsEvmAddress()
  creator!: string;

  @ApiProperty({ description: 'Hub asset of the input token' })
  @IsEvmAddress()
  inputToken!: string;

  @ApiProperty({ description: 'Hub asset of the output token' })
  @IsEvmAddress()
  outputToken!: string;

  @ApiProperty({ example: '1000000' })
  @IsUint256String()
  inputAmount!: string;

  @ApiProperty({ example: '995000' })
  @IsUint256String()
  minOutputAmount!: string;

  @ApiProperty({ example: '1763816400', description: 'UNIX seconds; 0 marks a limit order' })
  @IsUint256String()
  deadline!: string;

  @ApiProperty()
  @IsBoolean()
  allowPartialFill!: boolean;

  @ApiProperty({ example: '23', description: 'Relay chain id of the source network' })
  @IsUint256String()
  srcChain!: string;

  @ApiProperty({ example: '146', description: 'Relay chain id of the destination network' })
  @IsUint256String()
  dstChain!: string;

  @ApiProperty({ description: 'Raw sender address bytes (EVM: 20 bytes; Solana: 32)' })
  @IsHexBytes({ maxBytes: 64 })
  srcAddress!: string;

  @ApiProperty({ description: 'Raw receiver address bytes' })
  @IsHexBytes({ maxBytes: 64 })
  dstAddress!: string;

  @ApiProperty({ example: '0x0000000000000000000000000000000000000000' })
  @IsEvmAddress()
  solver!: string;

  @ApiProperty({ example: '0x', description: '0x, or 0x01 ‖ abi.encode(uint256 fee, address receiver) when a partner fee applies' })
  @IsHexBytes()
  data!: string;
}

export class IntentHashRequestDto {
  @ApiProperty({ type: IntentDto })
  @NestedObject(() => IntentDto)
  @IsDefined({ message: 'intent is required' })
  intent!: IntentDto;
}

const TX_HASH_MESSAGE = (field: string) =>
  `${field} must be a transaction hash of its network: 0x and 64 hex digits (EVM, ICON), 64 hex digits (Stellar, Injective) or base58 (a Solana signature, a Sui digest)`;

/** Spec: Submit request. No partnerFee: the intent carries it. */
export class SubmitTxRequestDto implements SubmitTxRequest {
  @ApiProperty({ example: '0x3f1c…', description: 'Hash of the broadcast source-network transaction' })
  @MaxLength(128, { message: TX_HASH_MESSAGE('txHash') })
  @MinLength(16, { message: TX_HASH_MESSAGE('txHash') })
  @IsString()
  @OnChain('txHash', 'srcChainKey')
  txHash!: string;

  @ApiProperty({ example: '0xa4b1.arbitrum' })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  @OnChain('chainKey')
  srcChainKey!: string;

  @ApiProperty({ description: "Sender's address on the source network" })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('address', 'srcChainKey')
  walletAddress!: string;

  @ApiProperty({ type: IntentDto, description: 'Verbatim from the build response' })
  @NestedObject(() => IntentDto)
  @IsDefined({ message: 'intent is required' })
  @OnChain('intentFrom', 'srcChainKey')
  intent!: IntentDto;

  @ApiProperty({ example: '0x…', description: 'The payload of the build response relayData' })
  @Matches(/^0x([0-9a-fA-F]{2})*$/, { message: 'relayData must be the 0x-hex payload of the build response relayData' })
  @MaxLength(262_146)
  @IsString()
  relayData!: string;
}

export class SubmissionStatusQueryDto {
  @ApiProperty({ description: 'Hash of the submitted source-network transaction' })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  txHash!: string;

  @ApiProperty({ example: '0xa4b1.arbitrum' })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  srcChainKey!: string;
}

/** Its place in the submission's history (0: before the first). */
export const STREAM_EVENT_ID = /^\d{1,7}$/;

export class SubmissionEventsQueryDto extends SubmissionStatusQueryDto {
  @ApiPropertyOptional({
    example: '3',
    description:
      'Resume after this event id, for clients that cannot set the Last-Event-ID header on their first request (the header wins when both are given)',
  })
  @Matches(STREAM_EVENT_ID, { message: 'lastEventId must be the id of an event of this stream (a whole number from 0)' })
  @IsOptional()
  lastEventId?: string;
}

const TX_HASH_TEXT = /^(0x[0-9a-fA-F]{64}|[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{32,88})$/;
const CHAIN_ID_MESSAGE = 'chainId must be a relay chain id (like 146) or a chain key (like 0x92.sonic)';
/** The public client sends relay chain ids as numbers: taken as their text. */
function RelayChainIdField(example: string, description: string) {
  return applyDecorators(
    ApiProperty({ example, description: `${description} (a relay chain id may be a JSON number)` }),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value,
    ),
    MaxLength(64, { message: CHAIN_ID_MESSAGE }),
    MinLength(1, { message: CHAIN_ID_MESSAGE }),
    IsString({ message: CHAIN_ID_MESSAGE }),
  );
}

export class IntentPacketRequestDto implements IntentPacketRequest {
  @RelayChainIdField('146', 'The chain of the transaction: relay chain id or chain key')
  chainId!: string;

  @ApiPropertyOptional({ description: 'The fill transaction on the hub (its delivery packet), or any relayed transaction' })
  @IsOptional()
  @Matches(TX_HASH_TEXT, { message: TX_HASH_MESSAGE('fillTxHash') })
  @IsString()
  fillTxHash?: string;

  @ApiPropertyOptional({ description: 'Same as fillTxHash (one of the two)' })
  @IsOptional()
  @Matches(TX_HASH_TEXT, { message: TX_HASH_MESSAGE('txHash') })
  @IsString()
  txHash?: string;

  @ApiPropertyOptional({ example: 5000, description: 'Milliseconds to wait for the packet to be executed (0 to 8000)' })
  @IsOptional()
  @Max(8_000, { message: 'timeout must be at most 8000 milliseconds' })
  @Min(0, { message: 'timeout must not be negative' })
  @IsInt({ message: 'timeout must be an integer number of milliseconds' })
  timeout?: number;
}

export class IntentExtraDataRequestDto implements IntentExtraDataRequest {
  @ApiPropertyOptional({ description: 'A submitted source transaction (one of txHash and intent)' })
  @IsOptional()
  @Matches(TX_HASH_TEXT, { message: TX_HASH_MESSAGE('txHash') })
  @IsString()
  txHash?: string;

  @ApiPropertyOptional({ example: '0xa4b1.arbitrum', description: 'With txHash, when it was submitted on several chains' })
  @IsOptional()
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  srcChainKey?: string;

  @ApiPropertyOptional({ type: IntentDto, description: 'An intent as the build response gave it (one of txHash and intent)' })
  @IsOptional()
  @NestedObject(() => IntentDto)
  intent?: IntentDto;
}

class RelayDataInputDto implements RelayDataView {
  @ApiProperty({ description: 'relayData.address of the build response' })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  address!: string;

  @ApiProperty({ description: 'relayData.payload of the build response' })
  @Matches(/^0x([0-9a-fA-F]{2})*$/, { message: 'data.payload must be 0x-hex bytes' })
  @MaxLength(262_146)
  @IsString()
  payload!: string;
}

export class IntentSubmitRequestDto implements IntentSubmitRequest {
  @RelayChainIdField('23', 'The source chain: relay chain id or chain key')
  chainId!: string;

  @ApiProperty({ description: 'The broadcast source transaction' })
  @Matches(TX_HASH_TEXT, { message: TX_HASH_MESSAGE('txHash') })
  @IsString()
  txHash!: string;

  @ApiPropertyOptional({ type: RelayDataInputDto, description: 'The build response relayData (required for Solana sources)' })
  @IsOptional()
  @NestedObject(() => RelayDataInputDto)
  data?: RelayDataInputDto;
}
