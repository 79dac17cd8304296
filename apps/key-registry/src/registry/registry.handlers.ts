import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type RpcReply } from '@swap/contracts';
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

type Reply<S extends keyof typeof Subjects> = Promise<RpcReply<(typeof Subjects)[S]>>;

/** The registry's operations over the bus (partner-portal-api, services' key caches). */
@Controller()
export class RegistryHandlers {
  constructor(private readonly registry: KeyRegistryService) {}

  @MessagePattern(Subjects.orgCreate)
  orgCreate(@Payload() m: CreateOrganisationMessage): Reply<'orgCreate'> {
    return this.registry.createOrganisation(m.name, m.actor);
  }

  @MessagePattern(Subjects.orgList)
  orgList(): Reply<'orgList'> {
    return this.registry.listOrganisations();
  }

  @MessagePattern(Subjects.orgSuspend)
  orgSuspend(@Payload() m: OrgIdField): Reply<'orgSuspend'> {
    return this.registry.setSuspended(m.orgId, true, m.actor);
  }

  @MessagePattern(Subjects.orgLift)
  orgLift(@Payload() m: OrgIdField): Reply<'orgLift'> {
    return this.registry.setSuspended(m.orgId, false, m.actor);
  }

  @MessagePattern(Subjects.keyCreate)
  keyCreate(@Payload() m: CreateKeyMessage): Reply<'keyCreate'> {
    return this.registry.createKey(m.orgId, m.name, m.actor, { hash: m.keyHash, displayPrefix: m.prefix });
  }

  @MessagePattern(Subjects.keyList)
  keyList(@Payload() m: ListKeysMessage): Reply<'keyList'> {
    return this.registry.listKeys(m.orgId);
  }

  @MessagePattern(Subjects.keyRevoke)
  keyRevoke(@Payload() m: RevokeKeyMessage): Reply<'keyRevoke'> {
    return this.registry.revokeKey(m.orgId, m.keyId, m.actor);
  }

  @MessagePattern(Subjects.keyNarrow)
  keyNarrow(@Payload() m: NarrowScopesMessage): Reply<'keyNarrow'> {
    return this.registry.narrowScopes(m.keyId, m.scopes, m.actor);
  }

  @MessagePattern(Subjects.keySetSnapshot)
  snapshot(): Reply<'keySetSnapshot'> {
    return this.registry.snapshot();
  }

  @MessagePattern(Subjects.modeList)
  modeList(): Reply<'modeList'> {
    return this.registry.listModes();
  }

  @MessagePattern(Subjects.modeSet)
  modeSet(@Payload() m: SetModeMessage): Reply<'modeSet'> {
    return this.registry.setMode(m.family, m.mode, m.actor);
  }
}
