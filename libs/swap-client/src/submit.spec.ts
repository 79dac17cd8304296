import { createSwapClient, isLostSubmitAnswer } from './client';
import { SwapApiError } from './errors';

const BODY = {
  txHash: `0x${'ab'.repeat(32)}`,
  srcChainKey: '0xa4b1.arbitrum',
  walletAddress: '0x4fc1A3B9c2F4A1B8D1e5e6F7a8B9C0d1E2F3A4B5',
  intent: {} as never,
  relayData: '0x',
};
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-request-id': `r-${status}` } });
const lost = (status: number) => json(status, { statusCode: status, code: 'DEPENDENCY_TIMEOUT', message: 'retry later', requestId: 'r' });

/** A fetch answering in turn: a Response, or an Error thrown as a failed connection is. */
function fetchInTurn(...answers: (Response | Error)[]) {
  const calls: string[] = [];
  const fetch = (async (request: Request) => {
    calls.push(`${request.method} ${new URL(request.url).pathname}`);
    const next = answers.shift();
    if (!next) throw new Error('no answer left');
    if (next instanceof Error) throw next;
    return next;
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

describe('submit: safe to retry, and retried where the answer was lost', () => {
  it('retries 502, 503, 504 and a failed connection, and answers the submit that got through (duplicate: the first was stored)', async () => {
    const { fetch, calls } = fetchInTurn(
      lost(504),
      lost(503),
      json(502, { statusCode: 502, code: 'UPSTREAM_UNAVAILABLE', message: 'x', requestId: 'r' }),
      new TypeError('fetch failed'),
      json(200, { success: true, data: { status: 'duplicate', message: 'Already submitted' } }),
    );
    const retries: number[] = [];
    const client = createSwapClient({ baseUrl: 'http://platform.test', fetch });
    const answer = await client.submit(BODY, {
      onRetry: ({ attempt, delayMs }) => retries.push(attempt) && expect(delayMs).toBeLessThanOrEqual(2_500),
    });
    expect(answer).toEqual({ success: true, data: { status: 'duplicate', message: 'Already submitted' } });
    expect(calls).toEqual(Array(5).fill('POST /v1/swaps/submit-tx'));
    expect(retries).toEqual([1, 2, 3, 4]);
  }, 15_000);

  it('does not retry an answer that says what is wrong (400, 429): it throws it at once', async () => {
    for (const status of [400, 429]) {
      const { fetch, calls } = fetchInTurn(json(status, { statusCode: status, code: 'X', message: 'no', requestId: 'r' }));
      const error = await createSwapClient({ baseUrl: 'http://platform.test', fetch })
        .submit(BODY)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SwapApiError);
      expect({ status: (error as SwapApiError).status, calls: calls.length }).toEqual({ status, calls: 1 });
    }
  });

  it('stops when the next wait would pass retryForMs, throwing the last lost answer', async () => {
    const { fetch, calls } = fetchInTurn(lost(503), lost(503), lost(503), lost(503), lost(503));
    const started = Date.now();
    const error = await createSwapClient({ baseUrl: 'http://platform.test', fetch })
      .submit(BODY, { retryForMs: 400 })
      .catch((e: unknown) => e);
    expect((error as SwapApiError).status).toBe(503);
    // 250 ms then 500 ms of backoff (±25%): the second wait would pass 400 ms.
    expect(calls.length).toBe(2);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('never retries with retryForMs 0', async () => {
    const { fetch, calls } = fetchInTurn(lost(504));
    await expect(createSwapClient({ baseUrl: 'http://platform.test', fetch }).submit(BODY, { retryForMs: 0 })).rejects.toBeInstanceOf(
      SwapApiError,
    );
    expect(calls.length).toBe(1);
  });

  it('names what is safe to send again', () => {
    expect([502, 503, 504, 500, 429].map((status) => isLostSubmitAnswer(new SwapApiError(status, {}, null)))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(isLostSubmitAnswer(new TypeError('fetch failed'))).toBe(true);
    expect(isLostSubmitAnswer(new TypeError('terminated'))).toBe(true);
    // The caller's own mistakes are thrown at once, not retried for a minute.
    expect(isLostSubmitAnswer(new TypeError('Invalid URL'))).toBe(false);
    expect(isLostSubmitAnswer(new TypeError('Do not know how to serialize a BigInt'))).toBe(false);
    expect(isLostSubmitAnswer(new Error('other'))).toBe(false);
  });
});
