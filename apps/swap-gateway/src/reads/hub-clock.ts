import { Injectable } from '@nestjs/common';
import { Subjects } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';

/** quote-builder itself reads the chain at most this often. */
const MAX_AGE_MS = 1_000;

/** Read through, not pushed: an event per block would cost chain reads whether anyone asks or not (docs/architecture/services.md#public-reads). */
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
