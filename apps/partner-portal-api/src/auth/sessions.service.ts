import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { hashKey } from '@swap/key-auth';
import { randomBytes } from 'node:crypto';
import { PrismaClient } from '../generated/prisma/client';
import { PartnerPortalApiConfig } from '../partner-portal-api.config';

export interface PortalUser {
  id: string;
  email: string;
}

const SWEEP_EVERY_MS = 10 * 60_000;

/** The table holds only each token's SHA-256, so a leaked table opens no session. */
@Injectable()
export class SessionsService implements OnModuleInit, OnModuleDestroy {
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly db: PrismaClient,
    private readonly config: PartnerPortalApiConfig,
  ) {}

  onModuleInit(): void {
    this.sweeper = setInterval(
      () => void this.db.session.deleteMany({ where: { expiresAt: { lt: new Date() } } }).catch(() => undefined),
      SWEEP_EVERY_MS,
    ).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  /** The browser's previous session ends (rotation). */
  async open(userId: string, previousToken?: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.db.$transaction([
      ...(previousToken ? [this.db.session.deleteMany({ where: { tokenHash: hashKey(previousToken) } })] : []),
      this.db.session.create({ data: { tokenHash: hashKey(token), userId, expiresAt: new Date(Date.now() + this.config.SESSION_TTL_MS) } }),
    ]);
    return token;
  }

  /** An expired session is removed. */
  async userOf(token: string | undefined): Promise<PortalUser | undefined> {
    if (!token || token.length > 128) return undefined;
    const session = await this.db.session.findUnique({ where: { tokenHash: hashKey(token) }, include: { user: true } });
    if (!session) return undefined;
    if (session.expiresAt.getTime() <= Date.now()) {
      await this.db.session.deleteMany({ where: { tokenHash: session.tokenHash } });
      return undefined;
    }
    return { id: session.user.id, email: session.user.email };
  }

  async close(token: string | undefined): Promise<void> {
    if (token) await this.db.session.deleteMany({ where: { tokenHash: hashKey(token) } });
  }
}
