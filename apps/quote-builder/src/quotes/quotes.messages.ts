import { QuoteRequestDto } from '@swap/contracts';
import { IsBoolean } from 'class-validator';

export class QuoteMessage extends QuoteRequestDto {
  @IsBoolean()
  includeTxData!: boolean;
}
