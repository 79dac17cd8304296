import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Events, type EventContract } from '@swap/contracts';
import { KeySetCache } from '@swap/key-auth';

/** key-registry announces every change of the key set; reload at once (every replica hears it). */
@Controller()
export class KeySetEvents {
  constructor(private readonly keys: KeySetCache) {}

  @EventPattern(Events.keySetChanged)
  changed(@Payload() event: EventContract[typeof Events.keySetChanged]): void {
    if (Number.isInteger(event?.version)) this.keys.onChanged(event.version);
  }
}
