import { Injectable } from '@nestjs/common';
import { Subjects } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';

/** How long the hub's latest block time is reused; quote-builder itself reads the chain at most this often. */
const MAX_AGE_MS = 1_000;

/**
 * The hub's latest block time, kept in memory for a second: a ready-made deadline (the
 * block time plus an offset, as the public client computes it) costs no bus round trip
 * while it is fresh, and concurrent reads of a stale one share a single request.
 * (Block time moves with every block: an event per block would cost chain reads whether
 * anyone asks or not, so this one is read through, not pushed.)
 */
@Injectable()
export class HubClock {
  private latest?: { time: bigint; at: number };
  private reading?: Promise<bigint>;

  constructor(private readonly messaging: MessagingClient) {}

  async deadline(offsetSeconds: number): Promise<{ deadline: string }> {
    return { deadline: ((await this.hubTime()) + BigInt(offsetSeconds)).toString() };
  }

  private hubTime(): bigint | Promise<bigint> {
    if (this.latest && Date.now() - this.latest.at < MAX_AGE_MS) return this.latest.time;
    this.reading ??= this.messaging
      .request(Subjects.deadline, { offsetSeconds: 0 })
      .then((reply) => {
        const time = BigInt(reply.deadline);
        this.latest = { time, at: Date.now() };
        return time;
      })
      .finally(() => (this.reading = undefined));
    return this.reading;
  }
}
