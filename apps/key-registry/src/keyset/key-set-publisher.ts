import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  AppError,
  ErrorCode,
  Events,
  isLaterKeySetHead,
  KEYED_ROUTES,
  MAX_KEY_SET_EPOCH,
  RouteFamilies,
  type EnforcementMode,
  type KeySetEntry,
  type KeySetHead,
  type PortalKeySetChange,
  type PortalKeySetSnapshot,
  type PortalModes,
  type RouteModes,
  type SignedKeySet,
  type V2,
} from '@swap/contracts';
import { MessagingClient, PayloadSigner } from '@swap/messaging';
import { versionedChange } from '@swap/persistence';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { audit } from '../audit';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { PublishedMark } from './published-mark';

/** The actor of an epoch key-registry starts itself, on finding its database behind what it announced. */
export const RESTORE_DETECTED_ACTOR = 'key-registry:restore-detected';

type Tx = Prisma.TransactionClient;

/** What a change touched, for its signed change event: organisations whose keys are sent again, keys gone. */
export class Touched {
  readonly organisations = new Set<string>();
  readonly removedHashes: string[] = [];
}

/**
 * The signed key set: versioned changes and their events, snapshots, epochs and the restore
 * check against the PublishedMark; see docs/architecture/key-sets.md.
 */
@Injectable()
export class KeySetPublisher implements OnApplicationBootstrap {
  constructor(
    private readonly db: PrismaClient,
    private readonly messaging: MessagingClient,
    private readonly signer: PayloadSigner,
    private readonly mark: PublishedMark,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.startEpochIfRestored();
  }

  /** A change and its version bump in one transaction, then announced; what it touched is read after the bump (which serialises changes). */
  change<T>(work: (tx: Tx, touched: Touched) => Promise<T>): Promise<T> {
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
          ...(await this.modes(tx)),
        };
      },
      announce: (event) => this.announce(event),
      onAnnounceFailed: (error, event) => this.announceFailed(error, event),
    });
  }

  /** The active key set with every family's and route's mode, its epoch and version, read consistently in one transaction and signed. */
  async snapshot(): Promise<SignedKeySet<PortalKeySetSnapshot>> {
    return this.signer.sign(await this.snapshotPayload());
  }

  /** For the previous release's replicas (key set v2, no routeModes), for one release. */
  async snapshotV2(): Promise<SignedKeySet<V2<PortalKeySetSnapshot>>> {
    return this.signer.sign(v2(await this.snapshotPayload()));
  }

  private snapshotPayload(): Promise<PortalKeySetSnapshot> {
    return this.db.$transaction(
      async (tx): Promise<PortalKeySetSnapshot> => {
        const state = await tx.keySetState.findUniqueOrThrow({ where: { id: 1 } });
        return {
          kind: 'portal-keyset.snapshot',
          epoch: Number(state.epoch),
          version: Number(state.version),
          issuedAt: new Date().toISOString(),
          keys: await this.entries(tx),
          ...(await this.modes(tx)),
        };
      },
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
    );
  }

  /** A new epoch (versions again from 1): the one asked for, else the later of the next number and the UNIX time in seconds. */
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
      await audit(tx, {
        actor,
        action: 'keyset.epoch',
        organisationId: null,
        target: String(epoch),
        details: { from: { epoch: current, version: Number(state.version) }, to: { epoch, version: 1 } },
      });
      return {
        kind: 'portal-keyset.change',
        epoch,
        version: 1,
        extends: 0,
        issuedAt: new Date().toISOString(),
        upserts: [],
        removals: [],
        ...(await this.modes(tx)),
      };
    });
    this.logger.info({ epoch: event.epoch, actor }, 'key set epoch started');
    this.announce(event);
    return { epoch: event.epoch, version: event.version };
  }

  /** A new epoch when the database is behind the published mark (restored); a second replica finding it gets a 409, taken as done. */
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
  async state(): Promise<{ epoch: number; version: number; keyId: string; publicKey: string }> {
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

  /** Every family's mode (a set that left one out would be refused by every service) and the routes' own. */
  private async modes(tx: Tx): Promise<{ modes: PortalModes; routeModes: RouteModes }> {
    const rows = new Map((await tx.enforcementMode.findMany()).map((m) => [m.family, m.mode as EnforcementMode]));
    const modes = Object.fromEntries(
      RouteFamilies.map((family) => {
        const mode = rows.get(family);
        if (!mode) throw new Error(`No enforcement mode is stored for ${family}`);
        return [family, mode];
      }),
    ) as PortalModes;
    // Only routes this release keys: a row left by an earlier one is not sent.
    const routeModes = Object.fromEntries(
      (await tx.routeMode.findMany()).filter((r) => Object.hasOwn(KEYED_ROUTES, r.route)).map((r) => [r.route, r.mode as EnforcementMode]),
    );
    return { modes, routeModes };
  }

  /** Publishes the signed change, v3 and v2 (a failure only logged: the services' refresh picks it up), then raises the mark. */
  private announce(change: PortalKeySetChange): void {
    try {
      this.messaging.emit(Events.keySetChanged, this.signer.sign(change));
      this.messaging.emit(Events.keySetChangedV2, this.signer.sign(v2(change)));
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
}

function v2<P extends { routeModes: RouteModes }>(payload: P): V2<P> {
  const { routeModes: _, ...rest } = payload;
  return rest;
}
