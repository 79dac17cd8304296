import { Controller, type Type } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { KeySetCache } from './key-set-cache';

/**
 * The controller that hears a registry's change events (every replica hears each one, as
 * bus events have no queue group) and reloads the key set at once when the version is newer.
 */
export function keySetEventsController(subject: string): Type<unknown> {
  @Controller()
  class KeySetEvents {
    constructor(private readonly keys: KeySetCache) {}

    @EventPattern(subject)
    changed(@Payload() event: { version?: unknown }): void {
      if (typeof event?.version === 'number' && Number.isInteger(event.version)) this.keys.onChanged(event.version);
    }
  }
  return KeySetEvents;
}
