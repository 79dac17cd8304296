import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode, Subjects, type ApiKeyView } from '@swap/contracts';
import { mintKey } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import type { PortalUser } from '../auth/sessions.service';
import { PartnerPortalApiConfig } from '../partner-portal-api.config';
import { actorOf, MANAGERS, OrgsService } from '../orgs/orgs.service';
import { callService } from '../service-calls';

export interface PortalKeyView {
  id: string;
  name: string;
  prefix: string;
  permissions: string[];
  createdAt: string;
}

function view(key: ApiKeyView): PortalKeyView {
  return { id: key.id, name: key.name, prefix: key.prefix, permissions: key.scopes, createdAt: key.createdAt };
}

/** The portal mints keys and sends key-registry only hashes: docs/integrators/partner-portal.md#keys-never-cross-the-bus. */
@Injectable()
export class KeysService {
  constructor(
    private readonly orgs: OrgsService,
    private readonly messaging: MessagingClient,
    private readonly config: PartnerPortalApiConfig,
  ) {}

  async list(user: PortalUser, orgId: string): Promise<PortalKeyView[]> {
    await this.orgs.member(user, orgId);
    this.configured();
    return (await this.keyService(() => this.messaging.request(Subjects.keyList, { orgId }))).map(view);
  }

  async create(user: PortalUser, orgId: string, name: string): Promise<PortalKeyView & { key: string }> {
    await this.orgs.member(user, orgId, MANAGERS, 'create keys');
    this.configured();
    const minted = mintKey('portal');
    const { apiKey } = await this.keyService(() =>
      this.messaging.request(Subjects.keyCreate, { orgId, name, keyHash: minted.hash, prefix: minted.displayPrefix, actor: actorOf(user) }),
    );
    return { key: minted.key, ...view(apiKey) };
  }

  async revoke(user: PortalUser, orgId: string, keyId: string): Promise<void> {
    await this.orgs.member(user, orgId, MANAGERS, 'revoke keys');
    this.configured();
    await this.keyService(() => this.messaging.request(Subjects.keyRevoke, { orgId, keyId, actor: actorOf(user) }));
  }

  /** Retrying will not help. */
  private configured(): void {
    if (this.config.PORTAL_KEY_SERVICE === 'disabled') {
      throw new AppError(
        503,
        ErrorCode.NotConfigured,
        'Key management is not configured on this deployment; contact support (retrying will not help)',
        { retryable: false },
      );
    }
  }

  private keyService<T>(call: () => Promise<T>): Promise<T> {
    return callService('key service', call);
  }
}
