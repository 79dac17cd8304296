import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { intentHash } from '@swap/chains';
import { IntentHashRequestDto, Subjects, type RpcReply } from '@swap/contracts';
import { ChainKeyRequest } from './chain-catalog.messages';
import { ChainCatalog } from './chain-catalog';

/** Bus handlers: the chain and token registry, and intent hashing, for swap-gateway. */
@Controller()
export class ChainCatalogHandlers {
  constructor(private readonly catalog: ChainCatalog) {}

  /* tokensList, tokensByChain and chainGet (and partnerFee in IntentsHandlers): swap-gateway
     now answers these reads from memory (catalogSnapshot); the handlers answer the previous
     release's replicas during a rollout. Remove them in the release after this one. */

  @MessagePattern(Subjects.tokensList)
  tokensList(): RpcReply<typeof Subjects.tokensList> {
    return this.catalog.tokensByChain();
  }

  @MessagePattern(Subjects.tokensByChain)
  tokensByChain(@Payload() request: ChainKeyRequest): RpcReply<typeof Subjects.tokensByChain> {
    return this.catalog.tokensOf(request.chainKey);
  }

  @MessagePattern(Subjects.chainGet)
  chain(@Payload() request: ChainKeyRequest): RpcReply<typeof Subjects.chainGet> {
    const { key, name, type, chainId, relayChainId, hub } = this.catalog.chains.getChain(request.chainKey);
    return { key, name, type, chainId, relayChainId, hub };
  }

  /** Under its v2 name and its v1 name (registrySnapshot, for the previous release's replicas; remove it in the next). */
  @MessagePattern([Subjects.catalogSnapshot, Subjects.registrySnapshot])
  snapshot(): RpcReply<typeof Subjects.catalogSnapshot> {
    return this.catalog.snapshot;
  }

  @MessagePattern(Subjects.intentHash)
  intentHash(@Payload() request: IntentHashRequestDto): RpcReply<typeof Subjects.intentHash> {
    return { hash: intentHash(request.intent) };
  }
}
