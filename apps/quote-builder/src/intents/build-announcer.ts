import { Inject, Injectable } from '@nestjs/common';
import { intentHash } from '@swap/chains';
import { Events, type BuildResponse, type IntentRequest, type LeverageOperation } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import { RequestContext, type Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';

/** So a swap whose client never submits it is still adopted and settled: docs/architecture/settlement.md#adoption. */
@Injectable()
export class BuildAnnouncer {
  constructor(
    private readonly messaging: MessagingClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  announce(
    built: BuildResponse,
    request: Pick<IntentRequest, 'srcChainKey' | 'dstChainKey'>,
    chains: { src: string; dst: string },
    operation?: LeverageOperation,
  ): void {
    const orgId = RequestContext.current()?.orgId;
    // Off the reply path: the hash and the publish run after the build's answer is sent.
    setImmediate(() => {
      try {
        this.messaging.emit(Events.intentBuilt, {
          intentHash: intentHash(built.intent),
          srcChainKey: chains.src,
          dstChainKey: chains.dst,
          deadline: built.intent.deadline,
          ...(orgId ? { orgId } : {}),
          ...(operation ? { operation } : {}),
        });
      } catch (error) {
        this.logger.warn(
          { err: error, srcChainKey: request.srcChainKey },
          'build not announced: a swap nobody submits will not be adopted',
        );
      }
    });
  }
}
