import { Subjects, type QuoteRequestDto } from '@swap/contracts';
import { FakeReply, FakeServices } from '../testing/gateway-doubles';
import { QuotesController } from './quotes.controller';

/*
 * The quote route's one piece of shaping: the includeTxData query ('true' or 'false', or
 * absent) becomes a boolean in the body quote-builder is asked; its answer goes out as it
 * was written.
 */

const QUOTE_REQUEST: QuoteRequestDto = {
  tokenSrc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  tokenSrcChainKey: '0xa4b1.arbitrum',
  tokenDst: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
  tokenDstChainKey: '0x92.sonic',
  amount: '2500000',
  quoteType: 'exact_input',
};

/** A quote as quote-builder writes it, with a number no double holds: a re-serialisation would show. */
const QUOTE_JSON =
  '{"quotedAmount":"2487500","quoteId":"0b7d4c1e-2f5a-4c3b-9a8e-7d6c5b4a3f21","expiresAt":"2025-11-22T12:02:00.000Z","feeAmount":"0","marker":123456789012345678901234567890}';

describe('QuotesController', () => {
  let services: FakeServices;
  let controller: QuotesController;
  beforeEach(() => {
    services = new FakeServices().answerJsonText(Subjects.quoteRequest, QUOTE_JSON);
    controller = new QuotesController(services.messaging);
  });
  afterEach(() => services.close());

  it('asks for the transaction data only when includeTxData is the text true', async () => {
    for (const includeTxData of ['true', 'false', undefined] as const)
      await controller.quote(QUOTE_REQUEST, { includeTxData }, new FakeReply().asFastify);
    expect(services.payloadsOn(Subjects.quoteRequest)).toEqual([
      { ...QUOTE_REQUEST, includeTxData: true },
      { ...QUOTE_REQUEST, includeTxData: false },
      { ...QUOTE_REQUEST, includeTxData: false },
    ]);
  });

  it('sends quote-builder’s answer as it was written, as JSON', async () => {
    const reply = new FakeReply();
    await controller.quote(QUOTE_REQUEST, {}, reply.asFastify);
    expect({ body: reply.body, headers: reply.headers }).toEqual({
      body: QUOTE_JSON,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  });
});
