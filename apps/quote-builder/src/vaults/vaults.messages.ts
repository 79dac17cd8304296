import type { VaultRead, VaultReadRequest } from '@swap/contracts';
import { DepositQuoteRequestDto, IsEvmAddress, IsUint256String, WithdrawQuoteRequestDto } from '@swap/contracts';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';

const READS: VaultRead[] = [
  'asset',
  'position',
  'apr',
  'aprEffective',
  'aprLsd',
  'totalAssets',
  'previewDeposit',
  'previewWithdraw',
  'previewRedeem',
  'shareBalance',
  'maxWithdraw',
];

export class VaultReadMessage implements VaultReadRequest {
  @IsIn(READS)
  read!: VaultRead;

  @IsEvmAddress()
  vault!: string;

  @IsOptional()
  @IsUint256String()
  amount?: string;

  @IsOptional()
  @IsEvmAddress()
  owner?: string;
}

export class DepositQuoteMessage extends DepositQuoteRequestDto {
  @IsBoolean()
  includeTxData!: boolean;
}

export class WithdrawQuoteMessage extends WithdrawQuoteRequestDto {
  @IsBoolean()
  includeTxData!: boolean;
}
