import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { AppError, ErrorCode, Events, type KeySetSnapshot } from '@swap/contracts';
import { mintKey } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import { versionedChange } from '@swap/persistence';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

export interface SponsoringKeyView {
  id: string;
  owner: string;
  prefix: string;
  createdAt: string;
}

/** Operator-minted `spk_` keys, looked up only by this service's routes (never the swaps routes). */
@Injectable()
export class SponsoringKeysService {
  constructor(
    private readonly db: PrismaClient,
    private readonly messaging: MessagingClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async mint(owner: string, actor: string): Promise<{ key: string; sponsoringKey: SponsoringKeyView }> {
    const minted = mintKey('sponsoring');
    const row = await this.change((tx) =>
      tx.sponsoringKey.create({ data: { owner, prefix: minted.displayPrefix, keyHash: minted.hash, createdBy: actor } }),
    );
    this.logger.info({ keyId: row.id, owner, prefix: row.prefix, actor }, 'sponsoring key minted');
    return { key: minted.key, sponsoringKey: view(row) };
  }

  async list(): Promise<SponsoringKeyView[]> {
    return (await this.db.sponsoringKey.findMany({ orderBy: { createdAt: 'asc' } })).map(view);
  }

  async revoke(id: string, actor: string): Promise<{ revoked: string }> {
    await this.change(async (tx) => {
      const { count } = await tx.sponsoringKey.deleteMany({ where: { id } });
      if (count === 0) throw new AppError(404, ErrorCode.NotFound, 'Sponsoring key not found; it may already be revoked');
    });
    this.logger.info({ keyId: id, actor }, 'sponsoring key revoked');
    return { revoked: id };
  }

  /** The active sponsoring keys as a key set; sponsorship routes are always enforced. */
  async snapshot(): Promise<KeySetSnapshot> {
    const [state, keys] = await this.db.$transaction([
      this.db.sponsoringKeySetState.findUniqueOrThrow({ where: { id: 1 } }),
      this.db.sponsoringKey.findMany(),
    ]);
    return {
      version: Number(state.version),
      keys: keys.map((k) => ({ hash: k.keyHash, keyId: k.id, orgId: k.owner, scopes: [], suspended: false })),
      modes: { sponsorships: 'enforce' },
    };
  }

  /** Announced after commit. */
  private change<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return versionedChange({
      db: this.db,
      work,
      bump: async (tx) => {
        const [state] = await tx.$queryRaw<
          { version: bigint }[]
        >`UPDATE sponsorship_keys.keyset_state SET version = version + 1 WHERE id = 1 RETURNING version`;
        return { version: Number(state.version) };
      },
      announce: (event) => this.messaging.emit(Events.sponsoringKeySetChanged, event),
      onAnnounceFailed: (error, event) =>
        this.logger.warn(
          { err: error, version: event.version },
          'sponsoring key set change event not published; replicas reload on their timer',
        ),
    });
  }
}

function view(row: { id: string; owner: string; prefix: string; createdAt: Date }): SponsoringKeyView {
  return { id: row.id, owner: row.owner, prefix: row.prefix, createdAt: row.createdAt.toISOString() };
}
