import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IntentExtraDataRequestDto, IntentPacketRequestDto, IntentSubmitRequestDto, Subjects, type RpcReply } from '@swap/contracts';
import { RelayLookups } from './relay-lookups';

@Controller()
export class RelayHandlers {
  constructor(private readonly relay: RelayLookups) {}

  @MessagePattern(Subjects.relayPacket)
  packet(@Payload() request: IntentPacketRequestDto): Promise<RpcReply<typeof Subjects.relayPacket>> {
    return this.relay.packet(request);
  }

  @MessagePattern(Subjects.relayExtraData)
  extraData(@Payload() request: IntentExtraDataRequestDto): Promise<RpcReply<typeof Subjects.relayExtraData>> {
    return this.relay.extraData(request);
  }

  @MessagePattern(Subjects.relaySubmit)
  submit(@Payload() request: IntentSubmitRequestDto): Promise<RpcReply<typeof Subjects.relaySubmit>> {
    return this.relay.submit(request);
  }
}
