import { Controller, type Type } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { KeySetCache } from './key-set-cache';

/** Every replica hears each event; the source decides what it is worth. */
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
