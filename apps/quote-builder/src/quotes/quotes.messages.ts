import { QuoteRequestDto } from '@swap/contracts';
import { IsBoolean } from 'class-validator';

export class QuoteMessageDto extends QuoteRequestDto {
  @IsBoolean()
  includeTxData!: boolean;
}
