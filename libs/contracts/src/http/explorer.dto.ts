import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import type {
  ExplorerEventName,
  ExplorerIntent,
  ExplorerIntentEvent,
  ExplorerIntentFields,
  ExplorerIntentState,
  OrderbookEntry,
  OrderbookPage,
  PartnerListItem,
  PartnerSummary,
  PartnersList,
  SwapLookup,
  UserIntentsPage,
  VolumePage,
  VolumeRecord,
  VolumeStats,
} from '../domain/explorer';
import { SubmissionStatusDataDto } from './submission.dto';

const HASH = '0x5c3b0e2b1f1d9f5d3a3e7e0f6c4b2a1908f7e6d5c4b3a291817161514131211a';
const ADDRESS = '0x6f2d8b8e7b0d9f1a4e5c3b2a19080706050403ab';
const AMOUNT = { example: '1000000', description: 'A decimal string (hub units)' };

export class ExplorerIntentFieldsDto implements ExplorerIntentFields {
  @ApiProperty({ example: '42', description: 'uint256 as a decimal string' })
  intentId!: string;
  @ApiProperty({ example: ADDRESS, description: 'The hub wallet that created the intent' })
  creator!: string;
  @ApiProperty({ example: ADDRESS, description: 'Hub asset' })
  inputToken!: string;
  @ApiProperty({ example: ADDRESS, description: 'Hub asset' })
  outputToken!: string;
  @ApiProperty(AMOUNT)
  inputAmount!: string;
  @ApiProperty(AMOUNT)
  minOutputAmount!: string;
  @ApiProperty({ example: '1764000000', description: 'UNIX seconds; 0 = none' })
  deadline!: string;
  @ApiProperty()
  allowPartialFill!: boolean;
  @ApiProperty({ example: 23, description: 'Relay chain id of the source chain' })
  srcChain!: number;
  @ApiProperty({ example: 146, description: 'Relay chain id of the destination chain' })
  dstChain!: number;
  @ApiProperty({ example: ADDRESS, description: 'The source-chain address it was built for, as hex bytes' })
  srcAddress!: string;
  @ApiProperty({ example: ADDRESS, description: 'The receiving address on the destination chain, as hex bytes' })
  dstAddress!: string;
  @ApiProperty({ example: '0x0000000000000000000000000000000000000000', description: 'A designated solver; zero = any' })
  solver!: string;
  @ApiProperty({ example: '0x', description: 'Extra data (a partner fee record: 0x01, fee, receiver)' })
  data!: string;
}

export class ExplorerIntentStateDto implements ExplorerIntentState {
  @ApiProperty()
  exists!: boolean;
  @ApiProperty(AMOUNT)
  remainingInput!: string;
  @ApiProperty(AMOUNT)
  receivedOutput!: string;
  @ApiProperty()
  pendingPayment!: boolean;
}

/** The state an IntentFilled event carries: the intent's state without `exists`. */
export class FillStateDto extends OmitType(ExplorerIntentStateDto, ['exists'] as const) {}

export class ExplorerIntentEventDto implements ExplorerIntentEvent {
  @ApiProperty({ enum: ['IntentCreated', 'IntentFilled', 'IntentCancelled'] })
  event!: ExplorerEventName;
  @ApiProperty({ example: HASH })
  txHash!: string;
  @ApiProperty({ example: 3 })
  logIndex!: number;
  @ApiProperty({ example: 1234567 })
  blockNumber!: number;
  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  timestamp!: string;
  @ApiPropertyOptional({ type: FillStateDto, description: 'IntentFilled: the state the fill left' })
  intentState?: FillStateDto;
  @ApiPropertyOptional({ example: ADDRESS, description: 'IntentFilled: the fill transaction’s sender' })
  solver?: string;
}

export class ExplorerIntentDto implements ExplorerIntent {
  @ApiProperty({ example: HASH })
  intentHash!: string;
  @ApiProperty({ example: HASH, description: 'The hub transaction that created it' })
  txHash!: string;
  @ApiProperty({ example: 0 })
  logIndex!: number;
  @ApiProperty({ example: 146, description: 'The hub’s EVM chain id' })
  chainId!: number;
  @ApiProperty({ example: '0x92.sonic', description: 'The hub’s chain key' })
  chainKey!: string;
  @ApiProperty({ example: 1234560 })
  blockNumber!: number;
  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  timestamp!: string;
  @ApiProperty({ description: 'Not cancelled and input remains' })
  open!: boolean;
  @ApiProperty()
  cancelled!: boolean;
  @ApiProperty({ type: ExplorerIntentFieldsDto })
  intent!: ExplorerIntentFieldsDto;
  @ApiProperty({ type: String, nullable: true, example: '0xa4b1.arbitrum' })
  srcChainKey!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '0x92.sonic' })
  dstChainKey!: string | null;
  @ApiProperty({ type: ExplorerIntentStateDto })
  intentState!: ExplorerIntentStateDto;
  @ApiProperty({ type: [ExplorerIntentEventDto], description: 'Oldest first' })
  events!: ExplorerIntentEventDto[];
}

export class UserIntentsPageDto implements UserIntentsPage {
  @ApiProperty({ example: 3 })
  total!: number;
  @ApiProperty({ example: 0 })
  offset!: number;
  @ApiProperty({ example: 50 })
  limit!: number;
  @ApiProperty({ type: [ExplorerIntentDto], description: 'Newest first' })
  items!: ExplorerIntentDto[];
}

export class OrderbookIntentDataDto extends ExplorerIntentFieldsDto {
  @ApiProperty({ example: HASH })
  intentHash!: string;
  @ApiProperty({ example: HASH })
  txHash!: string;
  @ApiProperty({ example: 1234560 })
  blockNumber!: number;
}

export class OrderbookEntryDto implements OrderbookEntry {
  @ApiProperty({ type: ExplorerIntentStateDto })
  intentState!: ExplorerIntentStateDto;
  @ApiProperty({ type: OrderbookIntentDataDto })
  intentData!: OrderbookIntentDataDto;
}

export class OrderbookPageDto implements OrderbookPage {
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ type: [OrderbookEntryDto], description: 'Open intents, newest first' })
  data!: OrderbookEntryDto[];
}

export class VolumeRecordDto implements VolumeRecord {
  @ApiProperty({ example: HASH })
  intentHash!: string;
  @ApiProperty({ example: ADDRESS, description: 'The fill transaction’s sender' })
  solver!: string;
  @ApiProperty({ example: ADDRESS })
  inputToken!: string;
  @ApiProperty({ example: ADDRESS })
  outputToken!: string;
  @ApiProperty({ example: '500000', description: 'The input this fill took (hub units)' })
  amount!: string;
  @ApiProperty({ example: '499000', description: 'The output this fill gave (hub units)' })
  outputAmount!: string;
  @ApiProperty({ example: 146 })
  chainId!: number;
  @ApiProperty({ example: 1234570 })
  blockNumber!: number;
  @ApiProperty({ example: HASH })
  txHash!: string;
  @ApiProperty({ example: 1 })
  logIndex!: number;
  @ApiProperty({ example: '2026-11-25T12:00:05.000Z' })
  timestamp!: string;
  @ApiPropertyOptional({ type: ExplorerIntentFieldsDto, description: 'With includeData=true: the intent filled' })
  data?: ExplorerIntentFieldsDto;
}

export class VolumePageDto implements VolumePage {
  @ApiProperty({ type: [VolumeRecordDto], description: 'One record per fill event' })
  items!: VolumeRecordDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page; null on the last page' })
  nextCursor!: string | null;
  @ApiProperty()
  hasMore!: boolean;
}

export class VolumeStatsDto implements VolumeStats {
  @ApiProperty({ example: 1204, description: 'Fill events indexed (an estimate once the table is large); cached about 60 s' })
  filledCount!: number;
}

export class PartnerListItemDto implements PartnerListItem {
  @ApiProperty({ example: ADDRESS })
  receiver!: string;
  @ApiProperty({ example: 12 })
  intentCount!: number;
  @ApiProperty({ example: 10, description: 'Intents filled at least in part' })
  filledCount!: number;
  @ApiProperty({ example: '2026-11-25T12:00:00.000Z', description: 'The newest intent naming it' })
  lastSeenAt!: string;
}

export class PartnersListDto implements PartnersList {
  @ApiProperty({ type: [PartnerListItemDto] })
  partners!: PartnerListItemDto[];
}

export class PartnerSummaryDto implements PartnerSummary {
  @ApiProperty({ example: ADDRESS })
  receiver!: string;
  @ApiProperty({ type: String, nullable: true, example: '0xa4b1.arbitrum', description: 'The source chain the figures cover; null = all' })
  chainId!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { [ADDRESS]: '2500' },
    description: 'Fees collected per hub input token (each intent’s fee in proportion to the input filled)',
  })
  feeByInputToken!: Record<string, string>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { [ADDRESS]: '998000' },
    description: 'Output received per hub output token',
  })
  volumeByOutputToken!: Record<string, string>;
}

export class SwapSourceDto {
  @ApiProperty({ example: '0xa4b1.arbitrum', description: 'The chain the user sent it on' })
  chainKey!: string;
  @ApiProperty({ example: '0x2d9f1c0e8f0b4c5a6e7d8c9b0a1f2e3d4c5b6a7988776655443322110ffeeddc', description: 'In its network’s own form' })
  txHash!: string;
}

export class SwapAddressesDto {
  @ApiProperty({
    example: '0x6F2d8B8e7b0d9F1a4e5c3B2A19080706050403ab',
    description: 'The intent’s srcAddress as its network writes it (EIP-55 on EVM, base58 on Solana, …)',
  })
  from!: string;
  @ApiProperty({ example: '0x6F2d8B8e7b0d9F1a4e5c3B2A19080706050403ab', description: 'The intent’s dstAddress, likewise' })
  to!: string;
}

export class SwapLookupDto implements SwapLookup {
  @ApiProperty({
    type: SubmissionStatusDataDto,
    nullable: true,
    description: 'The status answer’s data, if the swap was submitted (or adopted) here',
  })
  submission!: SubmissionStatusDataDto | null;
  @ApiProperty({ type: ExplorerIntentDto, nullable: true, description: 'The intent from the hub index, if the hub holds it' })
  intent!: ExplorerIntentDto | null;
  @ApiProperty({
    type: SwapSourceDto,
    nullable: true,
    description:
      'The user’s transaction: the submission’s; for a swap not submitted here, the hub transaction of a hub intent or the spoke deposit whose message created it (once indexed)',
  })
  source!: SwapSourceDto | null;
  @ApiProperty({
    type: SwapAddressesDto,
    nullable: true,
    description: 'The intent’s addresses in their networks’ own forms; null without an intent',
  })
  addresses!: SwapAddressesDto | null;
}
