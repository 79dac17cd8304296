import { NestedObject, PartnerFeeDto } from '@swap/contracts';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

export class DeadlineMessage {
  /** 0 asks for the hub's latest block time itself (swap-gateway keeps it a second). */
  @Min(0)
  @Max(604_800)
  @IsInt()
  offsetSeconds!: number;
}

export class PartnerFeeMessage {
  @Matches(/^[1-9]\d{0,77}$/, { message: 'amount must be a positive integer in a decimal string' })
  amount!: string;

  @IsOptional()
  @NestedObject(() => PartnerFeeDto)
  partnerFee?: PartnerFeeDto;
}

export class IntentLookupMessage {
  @Matches(/^0x[0-9a-fA-F]{64}$/, { message: 'txHash must be a hub transaction hash: 0x and 64 hex digits' })
  txHash!: string;
}
