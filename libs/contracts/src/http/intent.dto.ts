import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import type { Intent, SubmitTxRequest } from '../domain/intent';
import { IsEvmAddress, IsHexBytes, IsUint256String } from './validators';

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

/** Body of `POST /v1/swaps/intents/hash`. */
export class IntentHashRequestDto {
  @ApiProperty({ type: IntentDto })
  @ValidateNested()
  @Type(() => IntentDto)
  @IsDefined({ message: 'intent is required' })
  intent!: IntentDto;
}

/** Body of `POST /v1/swaps/submit-tx` (spec: Submit request). No partnerFee: the intent carries it. */
export class SubmitTxRequestDto implements SubmitTxRequest {
  @ApiProperty({ example: '0x3f1c…', description: 'Hash of the broadcast source-network transaction' })
  @MaxLength(128)
  @MinLength(16)
  @IsString()
  txHash!: string;

  @ApiProperty({ example: '0xa4b1.arbitrum' })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  srcChainKey!: string;

  @ApiProperty({ description: "Sender's address on the source network" })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  walletAddress!: string;

  @ApiProperty({ type: IntentDto, description: 'Verbatim from the build response' })
  @ValidateNested()
  @Type(() => IntentDto)
  @IsDefined({ message: 'intent is required' })
  intent!: IntentDto;

  @ApiProperty({ example: '0x…', description: 'The payload of the build response relayData' })
  @Matches(/^0x([0-9a-fA-F]{2})*$/, { message: 'relayData must be the 0x-hex payload of the build response relayData' })
  @MaxLength(262_146)
  @IsString()
  relayData!: string;
}

/** Query of `GET /v1/swaps/submit-tx/status`. */
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
