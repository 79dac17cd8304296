import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import type { CancelRequest, IntentRequest, PartnerFee } from '../domain/build';
import { IntentDto } from './intent.dto';
import { IsEvmAddress, IsHexBytes, IsPositiveAmount, IsUint256String, NestedObject, OnChain } from './validators';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export class PartnerFeeDto implements PartnerFee {
  @ApiProperty({ description: 'EVM hub address that receives the fee' })
  @IsEvmAddress()
  address!: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, description: 'Basis points (10 is 0.1%)' })
  @IsOptional()
  @Min(1)
  @Max(100)
  @IsInt({ message: 'partnerFee.percentage must be an integer number of basis points (1 to 100)' })
  percentage?: number;

  @ApiPropertyOptional({ description: "Fixed fee in the input token's smallest unit; wins over percentage" })
  @IsOptional()
  @IsPositiveAmount({ message: 'partnerFee.amount must be greater than zero, written without leading zeros' })
  @IsUint256String()
  amount?: string;
}

/** The spec's Intent request; the same body serves `/allowance/check` and `/approve`. */
export class IntentRequestDto implements IntentRequest {
  @ApiProperty({ example: '0xa4b1.arbitrum' })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  @OnChain('chainKey')
  srcChainKey!: string;

  @ApiProperty({ example: '0x92.sonic' })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  @OnChain('chainKey')
  dstChainKey!: string;

  @ApiProperty({ description: 'Token address on the source network (0x000…000 for the native token)' })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('token', 'srcChainKey')
  inputToken!: string;

  @ApiProperty({ description: 'Token address on the destination network' })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('token', 'dstChainKey')
  outputToken!: string;

  @ApiProperty({ example: '1000000', description: 'Input token smallest unit; the user deposits all of it (fee included)' })
  @IsPositiveAmount({ message: 'inputAmount must be greater than zero, written without leading zeros' })
  @IsUint256String()
  inputAmount!: string;

  @ApiProperty({ example: '330000000000000' })
  @IsPositiveAmount({ message: 'minOutputAmount must be greater than zero, written without leading zeros' })
  @IsUint256String()
  minOutputAmount!: string;

  @ApiProperty({ example: '1763816400', description: 'UNIX seconds from GET /deadline; 0 only for a limit order' })
  @IsUint256String()
  deadline!: string;

  @ApiProperty()
  @IsBoolean()
  allowPartialFill!: boolean;

  @ApiProperty({ description: 'Sender on the source network' })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('address', 'srcChainKey')
  srcAddress!: string;

  @ApiProperty({ description: 'Receiver on the destination network' })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  @OnChain('address', 'dstChainKey')
  dstAddress!: string;

  @ApiPropertyOptional({
    example: ZERO_ADDRESS,
    default: ZERO_ADDRESS,
    description: 'A solver to reserve the intent for; omitted (the public client’s default) means any solver',
  })
  @IsEvmAddress()
  solver: string = ZERO_ADDRESS;

  @ApiPropertyOptional({
    example: '0x',
    default: '0x',
    description:
      '0x (the default) in the sample flow; with a partnerFee it must be 0x (the fee is encoded there), and 0x01… is reserved for fees',
  })
  @IsHexBytes({ maxBytes: 4096 })
  data: string = '0x';

  @ApiPropertyOptional({ type: PartnerFeeDto })
  @IsOptional()
  @NestedObject(() => PartnerFeeDto)
  partnerFee?: PartnerFeeDto;
}

export class CancelRequestDto implements CancelRequest {
  @ApiProperty({ example: '0xa4b1.arbitrum', description: "The intent's source network" })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  @OnChain('chainKey')
  srcChainKey!: string;

  @ApiProperty({ type: IntentDto })
  @NestedObject(() => IntentDto)
  @IsDefined({ message: 'intent is required' })
  @OnChain('intentFrom', 'srcChainKey')
  intent!: IntentDto;
}

/** The public client's deadline offset when it names none. */
export const DEFAULT_DEADLINE_OFFSET_SECONDS = 300;

export class DeadlineQueryDto {
  @ApiPropertyOptional({
    example: '300',
    default: String(DEFAULT_DEADLINE_OFFSET_SECONDS),
    description: 'Seconds after the hub’s latest block time, 1 to 604800',
  })
  @Matches(/^([1-9]\d{0,4}|[1-5]\d{5}|60[0-3]\d{3}|604[0-7]\d{2}|604800)$/, {
    message: 'offsetSeconds must be a positive integer of seconds (1 to 604800)',
  })
  offsetSeconds: string = String(DEFAULT_DEADLINE_OFFSET_SECONDS);
}

export class SolverFeeQueryDto {
  @ApiProperty({ example: '1000000', description: 'The input amount (smallest unit)' })
  @IsPositiveAmount({ message: 'amount must be greater than zero, written without leading zeros' })
  @IsUint256String()
  @IsDefined({ message: 'amount is required' })
  amount!: string;
}

export class PartnerFeeQueryDto extends SolverFeeQueryDto {
  @ApiPropertyOptional({ description: 'A partner fee to apply instead of the deployment’s: its receiver' })
  @IsOptional()
  @IsEvmAddress()
  feeAddress?: string;

  @ApiPropertyOptional({ description: 'Basis points, 1 to 100' })
  @IsOptional()
  @Matches(/^([1-9]\d?|100)$/, { message: 'feePercentage must be an integer number of basis points (1 to 100)' })
  feePercentage?: string;

  @ApiPropertyOptional({ description: 'Fixed fee (smallest unit); wins over feePercentage' })
  @IsOptional()
  @IsPositiveAmount({ message: 'feeAmount must be greater than zero, written without leading zeros' })
  @IsUint256String()
  feeAmount?: string;
}

/* Response shapes (the spec leaves most open; these are what the routes answer). */

export class EvmTxDto {
  @ApiProperty({ description: 'The sender, who signs (EIP-55)' })
  from!: string;

  @ApiProperty({ description: 'EIP-55' })
  to!: string;

  @ApiProperty({ example: '0', description: 'Wei, decimal string (JSON-RPC wants it as hex); the amount for a native input' })
  value!: string;

  @ApiProperty({ description: 'Calldata, 0x-hex' })
  data!: string;

  @ApiProperty({ example: 42161, description: 'The EVM chain id to sign for (a JSON number); the signer adds nonce, gas and fees' })
  chainId!: number;
}

export class NetworkTxDto {
  @ApiProperty({ description: 'The sender, who signs, in its network’s address form' })
  from!: string;

  @ApiProperty({ description: 'The contract, package or program the transaction calls' })
  to!: string;

  @ApiProperty({
    enum: ['base64', 'xdr', 'json'],
    description: 'How data is written: Solana and Sui base64 bytes, Stellar the base64 XDR envelope, Injective and ICON JSON text',
  })
  encoding!: 'base64' | 'xdr' | 'json';

  @ApiProperty({ description: 'What the network’s wallets sign, as encoding says (signature slots empty)' })
  data!: string;

  @ApiPropertyOptional({ description: 'Solana: the blockhash the transaction embeds' })
  recentBlockhash?: string;

  @ApiPropertyOptional({ description: 'Solana: sign and send before this block height' })
  lastValidBlockHeight?: string;

  @ApiPropertyOptional({ description: 'Stellar: the network passphrase to sign for' })
  networkPassphrase?: string;
}

export class RelayDataDto {
  @ApiProperty({ description: 'Where the payload is delivered on the hub (the hub wallet, or the intents contract)' })
  address!: string;

  @ApiProperty({ description: 'The bytes the relayer delivers; pass it to submit-tx as relayData' })
  payload!: string;
}

@ApiExtraModels(EvmTxDto, NetworkTxDto)
export class BuildResponseDto {
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(EvmTxDto) }, { $ref: getSchemaPath(NetworkTxDto) }],
    description:
      'EVM: { from, to, value, data, chainId }. Other networks: { from, to, encoding, data, … } in the network’s own unsigned form (docs/integrators/networks/)',
  })
  tx!: EvmTxDto | NetworkTxDto;

  @ApiProperty({ type: IntentDto, description: 'Passed back verbatim at submit' })
  intent!: IntentDto;

  @ApiProperty({ type: RelayDataDto })
  relayData!: RelayDataDto;
}

export class AllowanceCheckResponseDto {
  @ApiProperty({ description: 'True when no approval stands in the way' })
  valid!: boolean;

  @ApiProperty({ description: 'False for a native input or a non-EVM source' })
  approvalRequired!: boolean;

  @ApiPropertyOptional({ description: 'The contract the transaction lets move the token' })
  spender?: string;

  @ApiPropertyOptional({ description: 'The current allowance, smallest unit' })
  allowance?: string;

  @ApiProperty({ description: 'What the transaction will move (the full input amount)' })
  amount!: string;
}

export class ApproveResponseDto {
  @ApiProperty()
  approvalRequired!: boolean;

  @ApiProperty({ type: EvmTxDto, nullable: true, description: 'The unsigned approve(spender, amount); null when none is needed' })
  tx!: EvmTxDto | null;

  @ApiPropertyOptional()
  message?: string;
}

@ApiExtraModels(EvmTxDto, NetworkTxDto)
export class CancelResponseDto {
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(EvmTxDto) }, { $ref: getSchemaPath(NetworkTxDto) }],
    description: 'The source network’s unsigned cancel: EVM as for builds; other networks in their own form',
  })
  tx!: EvmTxDto | NetworkTxDto;

  @ApiPropertyOptional({
    type: RelayDataDto,
    description:
      'From a spoke: the hub calls the relayer delivers to the hub wallet (pass it to submit; required for Solana, whose chain keeps only its hash)',
  })
  relayData?: RelayDataDto;
}

export class DeadlineResponseDto {
  @ApiProperty({ example: '1763816700', description: "The hub's latest block time plus offsetSeconds, UNIX seconds" })
  deadline!: string;
}

export class SolverFeeResponseDto {
  @ApiProperty({ example: '1000000' })
  amount!: string;

  @ApiProperty({ example: '1000', description: 'amount × feeBps / 10 000, rounded down' })
  fee!: string;

  @ApiProperty({ example: 10, description: 'The solver fee in basis points (SOLVER_FEE_BPS)' })
  feeBps!: number;
}

export class PartnerFeeResponseDto {
  @ApiProperty({ example: '1000000' })
  amount!: string;

  @ApiProperty({ example: '1000', description: 'The fee taken from the amount' })
  fee!: string;

  @ApiProperty({ example: '999000', description: "The intent's inputAmount: amount less fee" })
  inputAmount!: string;

  @ApiProperty({ type: PartnerFeeDto, nullable: true })
  partnerFee!: PartnerFeeDto | null;
}
