import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { QuoteRequestDto, Subjects, type RpcReply } from '@swap/contracts';
import { IsBoolean } from 'class-validator';
import { QuoteService } from './quote.service';

class QuoteMessageDto extends QuoteRequestDto {
  @IsBoolean()
  includeTxData!: boolean;
}

@Controller()
export class QuotesHandlers {
  constructor(private readonly quotes: QuoteService) {}

  @MessagePattern(Subjects.quoteRequest)
  quote(@Payload() request: QuoteMessageDto): Promise<RpcReply<typeof Subjects.quoteRequest>> {
    return this.quotes.quote(request);
  }
}
