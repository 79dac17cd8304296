import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Events, type EventContract } from '@swap/contracts';
import { KeySetCache } from '@swap/key-auth';

/** A sponsoring key minted or revoked on any replica: reload at once. */
@Controller()
export class SponsoringKeySetEvents {
  constructor(private readonly keys: KeySetCache) {}

  @EventPattern(Events.sponsoringKeySetChanged)
  changed(@Payload() event: EventContract[typeof Events.sponsoringKeySetChanged]): void {
    if (Number.isInteger(event?.version)) this.keys.onChanged(event.version);
  }
}
