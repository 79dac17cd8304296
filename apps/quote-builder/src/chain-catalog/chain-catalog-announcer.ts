import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Events } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import { ChainCatalog } from './chain-catalog';

/**
 * At start, tells the services that serve the public reads from memory (swap-gateway,
 * sponsorship-keys) what this replica's catalog holds, signed; they may also ask (`catalogSnapshot`).
 * Sent unsigned under v2 too (catalogChangedV2), for the previous release's replicas; remove it in the next.
 */
@Injectable()
export class ChainCatalogAnnouncer implements OnApplicationBootstrap {
  constructor(
    private readonly catalog: ChainCatalog,
    private readonly messaging: MessagingClient,
  ) {}

  onApplicationBootstrap(): void {
    this.messaging.emit(Events.catalogChanged, this.catalog.signedSnapshot);
    this.messaging.emit(Events.catalogChangedV2, this.catalog.snapshot);
  }
}
