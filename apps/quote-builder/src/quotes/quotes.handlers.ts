import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type ReplyOf } from '@swap/contracts';
import { QuoteService } from './quote.service';
import { QuoteMessage } from './quotes.messages';

@Controller()
export class QuotesHandlers {
  constructor(private readonly quotes: QuoteService) {}

  @MessagePattern(Subjects.quoteRequest)
  quote(@Payload() request: QuoteMessage): ReplyOf<'quoteRequest'> {
    return this.quotes.quote(request);
  }
}
