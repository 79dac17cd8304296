import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IntentExtraDataRequestDto, IntentPacketRequestDto, IntentSubmitRequestDto, Subjects, type ReplyOf } from '@swap/contracts';
import { RelayLookups } from './relay-lookups';

@Controller()
export class RelayHandlers {
  constructor(private readonly relay: RelayLookups) {}

  @MessagePattern(Subjects.relayPacket)
  packet(@Payload() request: IntentPacketRequestDto): ReplyOf<'relayPacket'> {
    return this.relay.packet(request);
  }

  @MessagePattern(Subjects.relayExtraData)
  extraData(@Payload() request: IntentExtraDataRequestDto): ReplyOf<'relayExtraData'> {
    return this.relay.extraData(request);
  }

  @MessagePattern(Subjects.relaySubmit)
  submit(@Payload() request: IntentSubmitRequestDto): ReplyOf<'relaySubmit'> {
    return this.relay.submit(request);
  }
}
