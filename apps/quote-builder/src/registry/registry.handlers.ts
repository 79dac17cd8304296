import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type RpcReply } from '@swap/contracts';
import { ChainKeyRequest } from './registry.messages';
import { RegistryService } from './registry.service';

/** Bus handlers: token lists for swap-gateway. */
@Controller()
export class RegistryHandlers {
  constructor(private readonly registry: RegistryService) {}

  @MessagePattern(Subjects.tokensList)
  tokensList(): RpcReply<typeof Subjects.tokensList> {
    return this.registry.tokensByChain();
  }

  @MessagePattern(Subjects.tokensByChain)
  tokensByChain(@Payload() request: ChainKeyRequest): RpcReply<typeof Subjects.tokensByChain> {
    return this.registry.tokensOf(request.chainKey);
  }
}
