import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ErrorCode,
  Events,
  LEGAL_MODE_MOVES,
  PORTAL_KEY_SCOPES,
  type ApiKeyView,
  type EnforcementMode,
  type KeySetSnapshot,
  type ModeSetting,
  type Organisation,
  type RouteFamily,
  type Scope,
} from '@swap/contracts';
import type { MintedKey } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import { RequestContext, type Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** An organisation holds at most two active keys (spec: rotation without downtime). */
export const MAX_ACTIVE_KEYS = 2;

type Tx = Prisma.TransactionClient;

/**
 * Organisations, portal keys (hashes only), scopes, suspension and enforcement modes.
 * Every change runs in one transaction with its audit record and a bump of the key set
 * version; after commit a change event carries the new version to every service.
 */
@Injectable()
export class KeyRegistryService {
  constructor(
    private readonly db: PrismaClient,
    private readonly messaging: MessagingClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async createOrganisation(name: string, actor: string): Promise<Organisation> {
    const org = await this.change(async (tx) => {
      const created = await tx.organisation.create({ data: { name } });
      await this.audit(tx, actor, 'organisation.create', created.id, created.id, { name });
      return created;
    });
    return view(org);
  }

  async listOrganisations(): Promise<Organisation[]> {
    return (await this.db.organisation.findMany({ orderBy: { createdAt: 'asc' } })).map(view);
  }

  async setSuspended(orgId: string, suspended: boolean, actor: string): Promise<Organisation> {
    const org = await this.change(async (tx) => {
      const found = await tx.organisation.findUnique({ where: { id: orgId } });
      if (!found) throw orgNotFound(orgId);
      const updated = await tx.organisation.update({ where: { id: orgId }, data: { status: suspended ? 'suspended' : 'active' } });
      await this.audit(tx, actor, suspended ? 'organisation.suspend' : 'organisation.lift', orgId, orgId, { from: found.status });
      return updated;
    });
    return view(org);
  }

  /**
   * Stores a key minted by the caller (its hash and display prefix; both portal scopes). The organisation row
   * is locked first, so concurrent creates count the keys one at a time: the cap of two
   * holds whatever the concurrency.
   */
  async createKey(orgId: string, name: string, actor: string, minted: Pick<MintedKey, 'hash' | 'displayPrefix'>): Promise<{ apiKey: ApiKeyView }> {
    const row = await this.change(async (tx) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM key_registry.organisations WHERE id = ${orgId}::uuid FOR UPDATE`;
      if (locked.length === 0) throw orgNotFound(orgId);
      const active = await tx.apiKey.count({ where: { organisationId: orgId } });
      if (active >= MAX_ACTIVE_KEYS) {
        throw new AppError(409, ErrorCode.KeyLimitReached, 'Two active API keys already exist; revoke one, then create another');
      }
      const created = await tx.apiKey.create({
        data: { organisationId: orgId, name, prefix: minted.displayPrefix, keyHash: minted.hash, scopes: [...PORTAL_KEY_SCOPES], createdBy: actor },
      });
      await this.audit(tx, actor, 'key.create', orgId, created.id, { name, prefix: minted.displayPrefix });
      return created;
    });
    this.logger.info({ orgId, keyId: row.id, prefix: row.prefix }, 'api key created');
    return { apiKey: keyView(row) };
  }

  async listKeys(orgId: string): Promise<ApiKeyView[]> {
    const org = await this.db.organisation.findUnique({ where: { id: orgId }, include: { keys: { orderBy: { createdAt: 'asc' } } } });
    if (!org) throw orgNotFound(orgId);
    return org.keys.map(keyView);
  }

  /** Revoking deletes the key; a key already gone (or another organisation's) is a 404. */
  async revokeKey(orgId: string, keyId: string, actor: string): Promise<{ revoked: string }> {
    await this.change(async (tx) => {
      const deleted = await tx.apiKey.deleteMany({ where: { id: keyId, organisationId: orgId } });
      if (deleted.count === 0) throw new AppError(404, ErrorCode.NotFound, 'API key not found; it may already be revoked');
      await this.audit(tx, actor, 'key.revoke', orgId, keyId);
    });
    this.logger.info({ orgId, keyId }, 'api key revoked');
    return { revoked: keyId };
  }

  /** An operator narrows a key on request: the new scopes are a non-empty subset of the current ones. */
  async narrowScopes(keyId: string, scopes: Scope[], actor: string): Promise<ApiKeyView> {
    const row = await this.change(async (tx) => {
      const key = await tx.apiKey.findUnique({ where: { id: keyId } });
      if (!key) throw new AppError(404, ErrorCode.NotFound, 'API key not found');
      const wanted = [...new Set(scopes)];
      const widening = wanted.filter((s) => !key.scopes.includes(s));
      if (widening.length) {
        throw AppError.validation([{ field: 'scopes', rule: 'narrowOnly', message: `scopes can only be narrowed; the key does not have ${widening.join(', ')}` }]);
      }
      const updated = await tx.apiKey.update({ where: { id: keyId }, data: { scopes: wanted } });
      await this.audit(tx, actor, 'key.narrow', key.organisationId, keyId, { from: key.scopes, to: wanted });
      return updated;
    });
    return keyView(row);
  }

  async listModes(): Promise<ModeSetting[]> {
    return (await this.db.enforcementMode.findMany({ orderBy: { family: 'asc' } })).map(modeView);
  }

  /** Moves a family's mode: off → monitor → enforce, or enforce → monitor; anything else is refused. */
  async setMode(family: RouteFamily, mode: EnforcementMode, actor: string): Promise<ModeSetting> {
    const row = await this.change(async (tx) => {
      const [current] = await tx.$queryRaw<{ mode: EnforcementMode }[]>`SELECT mode FROM key_registry.enforcement_modes WHERE family = ${family} FOR UPDATE`;
      if (!current) throw new AppError(404, ErrorCode.NotFound, `Unknown route family: ${family}`);
      if (!LEGAL_MODE_MOVES[current.mode].includes(mode)) {
        const legal = LEGAL_MODE_MOVES[current.mode].join(' or ');
        throw new AppError(409, ErrorCode.IllegalModeMove, `Cannot move ${family} from ${current.mode} to ${mode}; from ${current.mode} the only move is to ${legal}`);
      }
      const updated = await tx.enforcementMode.update({ where: { family }, data: { mode, updatedBy: actor, updatedAt: new Date() } });
      await this.audit(tx, actor, 'mode.set', null, family, { from: current.mode, to: mode });
      return updated;
    });
    this.logger.info({ family, mode: row.mode, actor }, 'enforcement mode moved');
    return modeView(row);
  }

  /** The active key set, its modes and version, read consistently in one transaction. */
  async snapshot(): Promise<KeySetSnapshot> {
    return this.db.$transaction(
      async (tx) => {
        const state = await tx.keySetState.findUniqueOrThrow({ where: { id: 1 } });
        const keys = await tx.apiKey.findMany({ select: { id: true, keyHash: true, organisationId: true, scopes: true, organisation: { select: { status: true } } } });
        const modes = await tx.enforcementMode.findMany();
        return {
          version: Number(state.version),
          keys: keys.map((k) => ({ hash: k.keyHash, keyId: k.id, orgId: k.organisationId, scopes: k.scopes, suspended: k.organisation.status === 'suspended' })),
          modes: Object.fromEntries(modes.map((m) => [m.family, m.mode as EnforcementMode])),
        };
      },
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
    );
  }

  /** Runs a change with a version bump in one transaction, then announces the new version. */
  private async change<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const { result, version } = await this.db.$transaction(async (tx) => {
      const result = await work(tx);
      const [state] = await tx.$queryRaw<{ version: bigint }[]>`UPDATE key_registry.keyset_state SET version = version + 1 WHERE id = 1 RETURNING version`;
      return { result, version: Number(state.version) };
    });
    try {
      this.messaging.emit(Events.keySetChanged, { version });
    } catch (error) {
      // The services' periodic refresh picks the change up anyway.
      this.logger.warn({ err: error, version }, 'key set change event not published');
    }
    return result;
  }

  private async audit(tx: Tx, actor: string, action: string, organisationId: string | null, target: string | null, details?: Prisma.InputJsonValue) {
    await tx.auditRecord.create({ data: { actor, action, organisationId, target, requestId: RequestContext.requestId() ?? null, details } });
  }
}

function orgNotFound(orgId: string): AppError {
  return new AppError(404, ErrorCode.NotFound, `Organisation not found: ${orgId}`);
}

function view(org: { id: string; name: string; status: 'active' | 'suspended'; createdAt: Date }): Organisation {
  return { id: org.id, name: org.name, status: org.status, createdAt: org.createdAt.toISOString() };
}

function keyView(key: { id: string; name: string; prefix: string; scopes: string[]; createdAt: Date }): ApiKeyView {
  return { id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes as Scope[], createdAt: key.createdAt.toISOString() };
}

function modeView(row: { family: string; mode: string; updatedAt: Date; updatedBy: string }): ModeSetting {
  return { family: row.family as RouteFamily, mode: row.mode as EnforcementMode, updatedAt: row.updatedAt.toISOString(), updatedBy: row.updatedBy };
}
