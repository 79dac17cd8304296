import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  AppError,
  ErrorCode,
  Events,
  isLaterKeySetHead,
  LEGAL_MODE_MOVES,
  MAX_KEY_SET_EPOCH,
  PORTAL_KEY_SCOPES,
  RouteFamilies,
  type ApiKeyView,
  type EnforcementMode,
  type KeySetEntry,
  type KeySetHead,
  type ModeSetting,
  type Organisation,
  type PortalKeySetChange,
  type PortalKeySetSnapshot,
  type PortalModes,
  type RouteFamily,
  type Scope,
  type SignedKeySet,
} from '@swap/contracts';
import { KeySetSigner, type MintedKey } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import { versionedChange } from '@swap/persistence';
import { RequestContext, type Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { PublishedMark } from '../keyset/published-mark';

/** An organisation holds at most two active keys (spec: rotation without downtime). */
export const MAX_ACTIVE_KEYS = 2;

/** The actor of an epoch key-registry starts itself, on finding its database behind what it announced. */
export const RESTORE_DETECTED_ACTOR = 'key-registry:restore-detected';

type Tx = Prisma.TransactionClient;

/** What a change touched, for its signed change event: organisations whose keys are sent again, keys gone. */
class Touched {
  readonly organisations = new Set<string>();
  readonly removedHashes: string[] = [];
}

/**
 * Organisations, portal keys (hashes only), scopes, suspension and enforcement modes.
 * Every change runs in one transaction with its audit record and a bump of the key set
 * version; after commit a signed change event (what changed, on top of which version)
 * reaches every service. Snapshots are signed too: services trust nothing else.
 *
 * A database restored to an earlier version is noticed (its version is behind the
 * PublishedMark), at start and whenever an announcement finds the mark ahead: a new
 * epoch is started at once, so the services take the restored set without an operator.
 */
@Injectable()
export class KeyRegistryService implements OnApplicationBootstrap {
  constructor(
    private readonly db: PrismaClient,
    private readonly messaging: MessagingClient,
    private readonly signer: KeySetSigner,
    private readonly mark: PublishedMark,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.startEpochIfRestored();
  }

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
    const org = await this.change(async (tx, touched) => {
      const found = await tx.organisation.findUnique({ where: { id: orgId } });
      if (!found) throw orgNotFound(orgId);
      touched.organisations.add(orgId);
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
  async createKey(
    orgId: string,
    name: string,
    actor: string,
    minted: Pick<MintedKey, 'hash' | 'displayPrefix'>,
  ): Promise<{ apiKey: ApiKeyView }> {
    const row = await this.change(async (tx, touched) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM key_registry.organisations WHERE id = ${orgId}::uuid FOR UPDATE`;
      if (locked.length === 0) throw orgNotFound(orgId);
      touched.organisations.add(orgId);
      const active = await tx.apiKey.count({ where: { organisationId: orgId } });
      if (active >= MAX_ACTIVE_KEYS) {
        throw new AppError(409, ErrorCode.KeyLimitReached, 'Two active API keys already exist; revoke one, then create another');
      }
      const created = await tx.apiKey.create({
        data: {
          organisationId: orgId,
          name,
          prefix: minted.displayPrefix,
          keyHash: minted.hash,
          scopes: [...PORTAL_KEY_SCOPES],
          createdBy: actor,
        },
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
    await this.change(async (tx, touched) => {
      const deleted = await tx.$queryRaw<
        { key_hash: string }[]
      >`DELETE FROM key_registry.api_keys WHERE id = ${keyId}::uuid AND organisation_id = ${orgId}::uuid RETURNING key_hash`;
      if (deleted.length === 0) throw new AppError(404, ErrorCode.NotFound, 'API key not found; it may already be revoked');
      touched.removedHashes.push(...deleted.map((d) => d.key_hash));
      await this.audit(tx, actor, 'key.revoke', orgId, keyId);
    });
    this.logger.info({ orgId, keyId }, 'api key revoked');
    return { revoked: keyId };
  }

  /** An operator narrows a key on request: the new scopes are a non-empty subset of the current ones. */
  async narrowScopes(keyId: string, scopes: Scope[], actor: string): Promise<ApiKeyView> {
    const row = await this.change(async (tx, touched) => {
      const key = await tx.apiKey.findUnique({ where: { id: keyId } });
      if (!key) throw new AppError(404, ErrorCode.NotFound, 'API key not found');
      touched.organisations.add(key.organisationId);
      const wanted = [...new Set(scopes)];
      const widening = wanted.filter((s) => !key.scopes.includes(s));
      if (widening.length) {
        throw AppError.validation([
          { field: 'scopes', rule: 'narrowOnly', message: `scopes can only be narrowed; the key does not have ${widening.join(', ')}` },
        ]);
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
      const [current] = await tx.$queryRaw<
        { mode: EnforcementMode }[]
      >`SELECT mode FROM key_registry.enforcement_modes WHERE family = ${family} FOR UPDATE`;
      if (!current) throw new AppError(404, ErrorCode.NotFound, `Unknown route family: ${family}`);
      if (!LEGAL_MODE_MOVES[current.mode].includes(mode)) {
        const legal = LEGAL_MODE_MOVES[current.mode].join(' or ');
        throw new AppError(
          409,
          ErrorCode.IllegalModeMove,
          `Cannot move ${family} from ${current.mode} to ${mode}; from ${current.mode} the only move is to ${legal}`,
        );
      }
      const updated = await tx.enforcementMode.update({ where: { family }, data: { mode, updatedBy: actor, updatedAt: new Date() } });
      await this.audit(tx, actor, 'mode.set', null, family, { from: current.mode, to: mode });
      return updated;
    });
    this.logger.info({ family, mode: row.mode, actor }, 'enforcement mode moved');
    return modeView(row);
  }

  /** The active key set with every family's mode, its epoch and version, read consistently in one transaction and signed. */
  async snapshot(): Promise<SignedKeySet<PortalKeySetSnapshot>> {
    const payload = await this.db.$transaction(
      async (tx): Promise<PortalKeySetSnapshot> => {
        const state = await tx.keySetState.findUniqueOrThrow({ where: { id: 1 } });
        return {
          kind: 'portal-keyset.snapshot',
          epoch: Number(state.epoch),
          version: Number(state.version),
          issuedAt: new Date().toISOString(),
          keys: await this.entries(tx),
          modes: await this.modes(tx),
        };
      },
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
    );
    return this.signer.sign(payload);
  }

  /**
   * Starts a new epoch of the key set (versions begin again at 1): what an operator does
   * after restoring key-registry's database, whose version went back. Services refuse a
   * set not newer than theirs, so without it they would keep the set from before the
   * restore. The new epoch is the one asked for, else the later of the next number and the
   * current UNIX time in seconds (above any epoch started before, even one the restore lost).
   */
  async startEpoch(actor: string, requested?: number, above?: KeySetHead): Promise<KeySetHead> {
    const event = await this.db.$transaction(async (tx): Promise<PortalKeySetChange> => {
      const [state] = await tx.$queryRaw<
        { epoch: bigint; version: bigint }[]
      >`SELECT epoch, version FROM key_registry.keyset_state WHERE id = 1 FOR UPDATE`;
      const current = Number(state.epoch);
      // Asked for because the database was behind `above`: checked again under the lock, so
      // that of two replicas finding it at once, the second finds the first's epoch.
      if (above && !isLaterKeySetHead(above, { epoch: current, version: Number(state.version) })) {
        throw new AppError(
          409,
          ErrorCode.Conflict,
          `The key set (${current}/${Number(state.version)}) is no longer behind ${above.epoch}/${above.version}: an epoch was started meanwhile`,
        );
      }
      const epoch = requested ?? Math.max(current + 1, (above?.epoch ?? 0) + 1, Math.floor(Date.now() / 1000));
      if (epoch <= current) throw new AppError(409, ErrorCode.Conflict, `The new epoch must be above the current one (${current})`);
      if (epoch > MAX_KEY_SET_EPOCH) throw new AppError(400, ErrorCode.BadRequest, `epoch must be at most ${MAX_KEY_SET_EPOCH}`);
      await tx.$executeRaw`UPDATE key_registry.keyset_state SET epoch = ${BigInt(epoch)}, version = 1 WHERE id = 1`;
      await this.audit(tx, actor, 'keyset.epoch', null, String(epoch), {
        from: { epoch: current, version: Number(state.version) },
        to: { epoch, version: 1 },
      });
      return {
        kind: 'portal-keyset.change',
        epoch,
        version: 1,
        extends: 0,
        issuedAt: new Date().toISOString(),
        upserts: [],
        removals: [],
        modes: await this.modes(tx),
      };
    });
    this.logger.info({ epoch: event.epoch, actor }, 'key set epoch started');
    this.announce(event);
    return { epoch: event.epoch, version: event.version };
  }

  /**
   * Starts a new epoch when the database is behind the mark of what was announced (it was
   * restored): the services hold a later version and would refuse the restored set. A cache
   * that cannot be read skips the check, saying so (the operator's epoch remains). Two
   * replicas finding it at once start one epoch: the second, checking again under the row
   * lock, finds the first's (a 409, taken as done).
   */
  async startEpochIfRestored(): Promise<void> {
    try {
      const announced = await this.mark.read();
      if (!announced) return;
      const held = await this.db.keySetState.findUniqueOrThrow({ where: { id: 1 } });
      const head = { epoch: Number(held.epoch), version: Number(held.version) };
      if (!isLaterKeySetHead(announced, head)) return;
      this.logger.warn(
        { held: head, announced },
        'the key set database is behind what key-registry announced (restored?): starting a new epoch',
      );
      await this.startEpoch(RESTORE_DETECTED_ACTOR, undefined, announced);
    } catch (error) {
      if (error instanceof AppError && error.getStatus() === 409) return;
      this.logger.error(
        { err: error },
        'could not check the key set database against what was announced; after a restore, start a new epoch (POST /ops/keyset/epoch)',
      );
    }
  }

  /** The key set's state and the public key of its signatures (for the operator). */
  async keySetState(): Promise<{ epoch: number; version: number; keyId: string; publicKey: string }> {
    const state = await this.db.keySetState.findUniqueOrThrow({ where: { id: 1 } });
    return { epoch: Number(state.epoch), version: Number(state.version), keyId: this.signer.keyId, publicKey: this.signer.publicKey };
  }

  private async entries(tx: Tx, where?: Prisma.ApiKeyWhereInput): Promise<KeySetEntry[]> {
    const keys = await tx.apiKey.findMany({
      where,
      select: { id: true, keyHash: true, organisationId: true, scopes: true, organisation: { select: { status: true } } },
    });
    return keys.map((k) => ({
      hash: k.keyHash,
      keyId: k.id,
      orgId: k.organisationId,
      scopes: k.scopes,
      suspended: k.organisation.status === 'suspended',
    }));
  }

  /** Every family's mode: a set that left one out would be refused by every service. */
  private async modes(tx: Tx): Promise<PortalModes> {
    const rows = new Map((await tx.enforcementMode.findMany()).map((m) => [m.family, m.mode as EnforcementMode]));
    return Object.fromEntries(
      RouteFamilies.map((family) => {
        const mode = rows.get(family);
        if (!mode) throw new Error(`No enforcement mode is stored for ${family}`);
        return [family, mode];
      }),
    ) as PortalModes;
  }

  /**
   * Runs a change with a version bump in one transaction, then announces it. What it
   * touched is read back after the bump (which serialises changes), so each event holds
   * the state of its version.
   */
  private change<T>(work: (tx: Tx, touched: Touched) => Promise<T>): Promise<T> {
    const touched = new Touched();
    return versionedChange({
      db: this.db,
      work: (tx) => work(tx, touched),
      bump: async (tx): Promise<PortalKeySetChange> => {
        const [state] = await tx.$queryRaw<
          { version: bigint; epoch: bigint }[]
        >`UPDATE key_registry.keyset_state SET version = version + 1 WHERE id = 1 RETURNING version, epoch`;
        const version = Number(state.version);
        const upserts = touched.organisations.size ? await this.entries(tx, { organisationId: { in: [...touched.organisations] } }) : [];
        return {
          kind: 'portal-keyset.change',
          epoch: Number(state.epoch),
          version,
          extends: version - 1,
          issuedAt: new Date().toISOString(),
          upserts,
          removals: touched.removedHashes,
          modes: await this.modes(tx),
        };
      },
      announce: (event) => this.announce(event),
      onAnnounceFailed: (error, event) => this.announceFailed(error, event),
    });
  }

  /**
   * Publishes a signed change, a failed publish logged (the services' periodic refresh picks
   * the change up anyway); then moves the mark of what was announced: the change is committed.
   */
  private announce(change: PortalKeySetChange): void {
    try {
      this.messaging.emit(Events.keySetChanged, this.signer.sign(change));
    } catch (error) {
      this.announceFailed(error, change);
    }
    void this.raiseMark({ epoch: change.epoch, version: change.version });
  }

  private announceFailed(error: unknown, change: PortalKeySetChange): void {
    this.logger.warn({ err: error, epoch: change.epoch, version: change.version }, 'key set change event not published');
  }

  /** Moves the mark up to an announced change; a mark already past it may mean the database was restored under this replica. */
  private async raiseMark(head: KeySetHead): Promise<void> {
    let found: KeySetHead | undefined;
    try {
      found = await this.mark.raise(head);
    } catch (error) {
      this.logger.warn({ err: error, ...head }, 'the mark of the announced key set was not moved (cache unreachable)');
      return;
    }
    if (found && isLaterKeySetHead(found, head)) await this.startEpochIfRestored();
  }

  private async audit(
    tx: Tx,
    actor: string,
    action: string,
    organisationId: string | null,
    target: string | null,
    details?: Prisma.InputJsonValue,
  ) {
    await tx.auditRecord.create({
      data: { actor, action, organisationId, target, requestId: RequestContext.requestId() ?? null, details },
    });
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
  return {
    family: row.family as RouteFamily,
    mode: row.mode as EnforcementMode,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}
