import { Webhook } from 'standardwebhooks';
import { SwapApiError } from './errors';
import { verifyWebhook, watchSubmission, WatchRefusedError } from './watch';

const STATUSES = ['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution', 'solved'];
const dataAt = (seq: number) => ({
  status: STATUSES[seq - 1],
  terminal: seq === 6,
  history: STATUSES.slice(0, seq).map((status) => ({ status, at: '2026-11-25T12:00:00.000Z', detail: status, durationMs: 0 })),
});
const frame = (seq: number) => `id:${seq}\nevent:${STATUSES[seq - 1]}\ndata:${JSON.stringify(dataAt(seq))}\n\n`;

/** An event stream answer of these frames, cut in the middle of the last one when `broken`. */
function stream(text: string, broken = false): Response {
  const bytes = new TextEncoder().encode(text);
  const parts = [bytes.slice(0, Math.floor(bytes.length / 2)), bytes.slice(Math.floor(bytes.length / 2))];
  return new Response(
    new ReadableStream({
      // Chunk by chunk as the reader asks, then the end (or a reset).
      pull(controller) {
        const next = parts.shift();
        if (next) controller.enqueue(next);
        else if (broken) controller.error(new Error('connection reset'));
        else controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
}

async function collect(gen: AsyncGenerator<{ seq: number; status: string }>) {
  const seen: string[] = [];
  for await (const e of gen) seen.push(`${e.seq}:${e.status}`);
  return seen;
}

describe('watchSubmission', () => {
  it('yields each transition once, in order, resuming with Last-Event-ID after a break', async () => {
    const asked: (string | null)[] = [];
    const answers = [stream(frame(1) + frame(2) + frame(3).slice(0, 20), true), stream(frame(3) + frame(4) + frame(5) + frame(6))];
    const fetch = (async (_url: string, init: RequestInit) => {
      asked.push(new Headers(init.headers).get('last-event-id'));
      return answers.shift()!;
    }) as typeof globalThis.fetch;
    const seen = await collect(watchSubmission('http://api', '0xabc', '0xa4b1.arbitrum', { fetch, reconnectMs: 1 }));
    expect(seen).toEqual(['1:pending', '2:relaying', '3:relayed', '4:posting_execution', '5:posted_execution', '6:solved']);
    expect(asked).toEqual([null, '2']);
  });

  it('polls the status route when the stream cannot be had, yielding only new history entries', async () => {
    let polls = 0;
    const fetch = (async (url: string) => {
      if (url.includes('/events')) return new Response('bad gateway', { status: 502 });
      polls++;
      return new Response(JSON.stringify({ success: true, data: dataAt(polls === 1 ? 2 : 6) }), { status: 200 });
    }) as typeof globalThis.fetch;
    const seen = await collect(
      watchSubmission('http://api', '0xabc', '0xa4b1.arbitrum', {
        fetch,
        reconnectMs: 1,
        pollIntervalMs: 1,
        failuresBeforePolling: 2,
        after: 1,
      }),
    );
    expect(seen).toEqual(['2:relaying', '3:relayed', '4:posting_execution', '5:posted_execution', '6:solved']);
    expect(polls).toBe(2);
  });

  it('throws on a refusal that watching again will not change (an unknown submission), and ends on 204', async () => {
    const unknown = (async () =>
      new Response(JSON.stringify({ statusCode: 404, code: 'SUBMISSION_NOT_FOUND', message: 'No submission' }), {
        status: 404,
        headers: { 'x-request-id': 'r-1' },
      })) as typeof fetch;
    const refused = await collect(watchSubmission('http://api', '0xabc', '0xa4b1.arbitrum', { fetch: unknown })).catch((e: unknown) => e);
    // A SwapApiError like every other refusal: one catch for the whole client.
    expect(refused).toBeInstanceOf(WatchRefusedError);
    expect(refused).toBeInstanceOf(SwapApiError);
    expect(refused).toMatchObject({ status: 404, code: 'SUBMISSION_NOT_FOUND', requestId: 'r-1' });
    const over = (async () => new Response(null, { status: 204 })) as typeof fetch;
    expect(await collect(watchSubmission('http://api', '0xabc', '0xa4b1.arbitrum', { fetch: over, after: 6 }))).toEqual([]);
  });
});

describe('verifyWebhook', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const body = JSON.stringify({ type: 'submission.status', timestamp: '2026-11-25T12:00:00.000Z', data: dataAt(2) });
  const signed = (payload: string, key = secret) => {
    const at = new Date();
    return {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(key).sign('msg_1', at, payload),
    };
  };

  it('answers a genuine delivery’s body, with either of two signatures (a rotation)', () => {
    expect(verifyWebhook(secret, body, signed(body))).toMatchObject({ type: 'submission.status', data: { status: 'relaying' } });
    const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const both = signed(body);
    both['webhook-signature'] = `${signed(body, other)['webhook-signature']} ${both['webhook-signature']}`;
    expect(verifyWebhook(secret, body, both).type).toBe('submission.status');
  });

  it('throws for a changed body, another secret, or a missing signature', () => {
    expect(() => verifyWebhook(secret, body.replace('relaying', 'solved'), signed(body))).toThrow();
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, body, signed(body))).toThrow();
    const { 'webhook-signature': _, ...unsigned } = signed(body);
    expect(() => verifyWebhook(secret, body, unsigned)).toThrow();
  });
});
