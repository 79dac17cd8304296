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
