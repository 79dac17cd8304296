import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { intentHash } from '@swap/chains';
import { IntentHashRequestDto, Subjects, type ReplyOf } from '@swap/contracts';
import { ChainKeyMessage } from './chain-catalog.messages';
import { ChainCatalog } from './chain-catalog';

/** Bus handlers: the chain catalog, and intent hashing, for swap-gateway. */
@Controller()
export class ChainCatalogHandlers {
  constructor(private readonly catalog: ChainCatalog) {}

  /* tokensList, tokensByChain and chainGet (and partnerFee in IntentsHandlers): swap-gateway
     now answers these reads from memory (catalogSnapshot); the handlers answer the previous
     release's replicas during a rollout. Remove them in the release after this one. */

  @MessagePattern(Subjects.tokensList)
  async tokensList(): ReplyOf<'tokensList'> {
    return this.catalog.tokensByChain();
  }

  @MessagePattern(Subjects.tokensByChain)
  async tokensByChain(@Payload() request: ChainKeyMessage): ReplyOf<'tokensByChain'> {
    return this.catalog.tokensOf(request.chainKey);
  }

  @MessagePattern(Subjects.chainGet)
  async chain(@Payload() request: ChainKeyMessage): ReplyOf<'chainGet'> {
    const { key, name, type, chainId, relayChainId, hub } = this.catalog.chains.getChain(request.chainKey);
    return { key, name, type, chainId, relayChainId, hub };
  }

  /** Signed (docs/architecture/bus-signatures.md#the-chain-catalog). */
  @MessagePattern(Subjects.catalogSnapshot)
  async snapshot(): ReplyOf<'catalogSnapshot'> {
    return this.catalog.signedSnapshot;
  }

  /** Unsigned, for the previous release's replicas; remove it in the next. */
  @MessagePattern(Subjects.catalogSnapshotV2)
  async snapshotV2(): ReplyOf<'catalogSnapshotV2'> {
    return this.catalog.snapshot;
  }

  @MessagePattern(Subjects.intentHash)
  async intentHash(@Payload() request: IntentHashRequestDto): ReplyOf<'intentHash'> {
    return { hash: intentHash(request.intent) };
  }
}
