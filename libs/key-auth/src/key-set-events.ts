import { Controller, type Type } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { KeySetCache } from './key-set-cache';

/**
 * The controller that hears a registry's change events (every replica hears each one, as
 * bus events have no queue group) and hands them to the key set's source, which decides
 * what they are worth (a signed change is verified; a hint only brings a reload forward).
 */
export function keySetEventsController(subject: string): Type<unknown> {
  @Controller()
  class KeySetEvents {
    constructor(private readonly keys: KeySetCache) {}

    @EventPattern(subject)
    changed(@Payload() event: unknown): void {
      this.keys.onEvent(event);
    }
  }
  return KeySetEvents;
}
