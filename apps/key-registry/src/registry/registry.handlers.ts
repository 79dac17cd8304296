import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type ReplyOf } from '@swap/contracts';
import { KeySetPublisher } from '../keyset/key-set-publisher';
import { KeyRegistryService } from './key-registry.service';
import {
  CreateKeyMessage,
  CreateOrganisationMessage,
  ListKeysMessage,
  NarrowScopesMessage,
  OrgIdField,
  RevokeKeyMessage,
  SetModeMessage,
} from './registry.messages';

/** The registry's operations over the bus (partner-portal-api, services' key caches). */
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

  @MessagePattern(Subjects.orgSuspend)
  orgSuspend(@Payload() m: OrgIdField): ReplyOf<'orgSuspend'> {
    return this.registry.setSuspended(m.orgId, true, m.actor);
  }

  @MessagePattern(Subjects.orgLift)
  orgLift(@Payload() m: OrgIdField): ReplyOf<'orgLift'> {
    return this.registry.setSuspended(m.orgId, false, m.actor);
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

  @MessagePattern(Subjects.keyNarrow)
  keyNarrow(@Payload() m: NarrowScopesMessage): ReplyOf<'keyNarrow'> {
    return this.registry.narrowScopes(m.keyId, m.scopes, m.actor);
  }

  @MessagePattern(Subjects.keySetSnapshot)
  snapshot(): ReplyOf<'keySetSnapshot'> {
    return this.keySet.snapshot();
  }

  @MessagePattern(Subjects.modeList)
  modeList(): ReplyOf<'modeList'> {
    return this.registry.listModes();
  }

  @MessagePattern(Subjects.modeSet)
  modeSet(@Payload() m: SetModeMessage): ReplyOf<'modeSet'> {
    return this.registry.setMode(m.family, m.mode, m.actor);
  }
}
