import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Events } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import { ChainCatalog } from './chain-catalog';

/**
 * At start, tells the services that serve the public reads from memory (swap-gateway)
 * what this replica's catalog holds; they may also ask (`catalogSnapshot`). Sent under the v1 name too
 * (registryChanged), for the previous release's replicas; remove it in the next.
 */
@Injectable()
export class ChainCatalogAnnouncer implements OnApplicationBootstrap {
  constructor(
    private readonly catalog: ChainCatalog,
    private readonly messaging: MessagingClient,
  ) {}

  onApplicationBootstrap(): void {
    this.messaging.emit(Events.catalogChanged, this.catalog.snapshot);
    this.messaging.emit(Events.registryChanged, this.catalog.snapshot);
  }
}
