import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type ReplyOf } from '@swap/contracts';
import { KeySetPublisher } from '../keyset/key-set-publisher';
import { KeyRegistryService } from './key-registry.service';
import { CreateKeyMessage, CreateOrganisationMessage, ListKeysMessage, RevokeKeyMessage } from './registry.messages';

/**
 * The registry's operations over the bus: partner-portal-api's (its changes signed, SignedRequests)
 * and the services' key caches'. Operators' changes come through the operator routes (ops/).
 */
@Controller()
export class RegistryHandlers {
  constructor(
    private readonly registry: KeyRegistryService,
    private readonly keySet: KeySetPublisher,
  ) {}

  @MessagePattern(Subjects.orgCreate)
  orgCreate(@Payload() m: CreateOrganisationMessage): ReplyOf<'orgCreate'> {
    return this.registry.createOrganisation(m.name, m.actor);
  }

  @MessagePattern(Subjects.orgList)
  orgList(): ReplyOf<'orgList'> {
    return this.registry.listOrganisations();
  }

  @MessagePattern(Subjects.keyCreate)
  keyCreate(@Payload() m: CreateKeyMessage): ReplyOf<'keyCreate'> {
    return this.registry.createKey(m.orgId, m.name, m.actor, { hash: m.keyHash, displayPrefix: m.prefix });
  }

  @MessagePattern(Subjects.keyList)
  keyList(@Payload() m: ListKeysMessage): ReplyOf<'keyList'> {
    return this.registry.listKeys(m.orgId);
  }

  @MessagePattern(Subjects.keyRevoke)
  keyRevoke(@Payload() m: RevokeKeyMessage): ReplyOf<'keyRevoke'> {
    return this.registry.revokeKey(m.orgId, m.keyId, m.actor);
  }

  @MessagePattern(Subjects.keySetSnapshot)
  snapshot(): ReplyOf<'keySetSnapshot'> {
    return this.keySet.snapshot();
  }

  /** Remove with keySetSnapshotV2, in the next release. */
  @MessagePattern(Subjects.keySetSnapshotV2)
  snapshotV2(): ReplyOf<'keySetSnapshotV2'> {
    return this.keySet.snapshotV2();
  }
}
