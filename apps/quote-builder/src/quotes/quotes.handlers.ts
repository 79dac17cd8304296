import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type RpcReply } from '@swap/contracts';
import { QuoteService } from './quote.service';
import { QuoteMessageDto } from './quotes.messages';

@Controller()
export class QuotesHandlers {
  constructor(private readonly quotes: QuoteService) {}

  @MessagePattern(Subjects.quoteRequest)
  quote(@Payload() request: QuoteMessageDto): Promise<RpcReply<typeof Subjects.quoteRequest>> {
    return this.quotes.quote(request);
  }
}
