import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ErrorCode,
  KEYED_ROUTES,
  LEGAL_MODE_MOVES,
  PORTAL_KEY_SCOPES,
  type ApiKeyView,
  type EnforcementMode,
  type ModeSetting,
  type Organisation,
  type RouteFamily,
  type RouteModeSetting,
  type Scope,
} from '@swap/contracts';
import type { MintedKey } from '@swap/key-auth';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { audit } from '../audit';
import { PrismaClient } from '../generated/prisma/client';
import { KeySetPublisher } from '../keyset/key-set-publisher';

/** An organisation holds at most two active keys (spec: rotation without downtime). */
export const MAX_ACTIVE_KEYS = 2;

/**
 * Organisations, portal keys (hashes only), scopes, suspension and enforcement modes; every
 * change is a versioned, announced change of the key set (KeySetPublisher).
 */
@Injectable()
export class KeyRegistryService {
  constructor(
    private readonly db: PrismaClient,
    private readonly keySet: KeySetPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async createOrganisation(name: string, actor: string): Promise<Organisation> {
    const org = await this.keySet.change(async (tx) => {
      const created = await tx.organisation.create({ data: { name } });
      await audit(tx, { actor, action: 'organisation.create', organisationId: created.id, target: created.id, details: { name } });
      return created;
    });
    return view(org);
  }

  async listOrganisations(): Promise<Organisation[]> {
    return (await this.db.organisation.findMany({ orderBy: { createdAt: 'asc' } })).map(view);
  }

  async setSuspended(orgId: string, suspended: boolean, actor: string): Promise<Organisation> {
    const org = await this.keySet.change(async (tx, touched) => {
      const found = await tx.organisation.findUnique({ where: { id: orgId } });
      if (!found) throw orgNotFound(orgId);
      touched.organisations.add(orgId);
      const updated = await tx.organisation.update({ where: { id: orgId }, data: { status: suspended ? 'suspended' : 'active' } });
      await audit(tx, {
        actor,
        action: suspended ? 'organisation.suspend' : 'organisation.lift',
        organisationId: orgId,
        target: orgId,
        details: { from: found.status },
      });
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
    const row = await this.keySet.change(async (tx, touched) => {
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
      await audit(tx, {
        actor,
        action: 'key.create',
        organisationId: orgId,
        target: created.id,
        details: { name, prefix: minted.displayPrefix },
      });
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
    await this.keySet.change(async (tx, touched) => {
      const deleted = await tx.$queryRaw<
        { key_hash: string }[]
      >`DELETE FROM key_registry.api_keys WHERE id = ${keyId}::uuid AND organisation_id = ${orgId}::uuid RETURNING key_hash`;
      if (deleted.length === 0) throw new AppError(404, ErrorCode.NotFound, 'API key not found; it may already be revoked');
      touched.removedHashes.push(...deleted.map((d) => d.key_hash));
      await audit(tx, { actor, action: 'key.revoke', organisationId: orgId, target: keyId });
    });
    this.logger.info({ orgId, keyId }, 'api key revoked');
    return { revoked: keyId };
  }

  /** An operator narrows a key on request: the new scopes are a non-empty subset of the current ones. */
  async narrowScopes(keyId: string, scopes: Scope[], actor: string): Promise<ApiKeyView> {
    const row = await this.keySet.change(async (tx, touched) => {
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
      await audit(tx, {
        actor,
        action: 'key.narrow',
        organisationId: key.organisationId,
        target: keyId,
        details: { from: key.scopes, to: wanted },
      });
      return updated;
    });
    return keyView(row);
  }

  async listModes(): Promise<ModeSetting[]> {
    return (await this.db.enforcementMode.findMany({ orderBy: { family: 'asc' } })).map(modeView);
  }

  /** Moves a family's mode: off → monitor → enforce, or enforce → monitor; anything else is refused. */
  async setMode(family: RouteFamily, mode: EnforcementMode, actor: string): Promise<ModeSetting> {
    const row = await this.keySet.change(async (tx) => {
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
      await audit(tx, { actor, action: 'mode.set', organisationId: null, target: family, details: { from: current.mode, to: mode } });
      return updated;
    });
    this.logger.info({ family, mode: row.mode, actor }, 'enforcement mode moved');
    return modeView(row);
  }

  /** Every keyed route with its effective mode: its own where set, else its family's. */
  async listRouteModes(): Promise<RouteModeSetting[]> {
    const families = new Map((await this.db.enforcementMode.findMany()).map((m) => [m.family, m.mode as EnforcementMode]));
    const own = new Map((await this.db.routeMode.findMany()).map((r) => [r.route, r]));
    return Object.entries(KEYED_ROUTES).map(([route, { family }]) => {
      const familyMode = families.get(family) ?? 'off';
      const o = own.get(route);
      return {
        route,
        family,
        mode: (o?.mode as EnforcementMode | undefined) ?? familyMode,
        familyMode,
        ...(o ? { override: { mode: o.mode as EnforcementMode, updatedAt: o.updatedAt.toISOString(), updatedBy: o.updatedBy } } : {}),
      };
    });
  }

  /** A route's own mode, or undefined to clear it: docs/architecture/key-sets.md#the-key-set-cache-and-the-modes. */
  async setRouteMode(route: string, mode: EnforcementMode | undefined, actor: string): Promise<RouteModeSetting> {
    const keyed = KEYED_ROUTES[route];
    if (!Object.hasOwn(KEYED_ROUTES, route) || !keyed) {
      throw AppError.validation([
        { field: 'route', rule: 'keyedRoute', message: `route must be one of the keyed routes: ${Object.keys(KEYED_ROUTES).join(', ')}` },
      ]);
    }
    await this.keySet.change(async (tx) => {
      const [family] = await tx.$queryRaw<
        { mode: EnforcementMode }[]
      >`SELECT mode FROM key_registry.enforcement_modes WHERE family = ${keyed.family} FOR UPDATE`;
      const [own] = await tx.$queryRaw<
        { mode: EnforcementMode }[]
      >`SELECT mode FROM key_registry.route_modes WHERE route = ${route} FOR UPDATE`;
      if (!family) throw new AppError(404, ErrorCode.NotFound, `No enforcement mode is stored for the ${keyed.family} family`);
      if (mode === undefined && !own)
        throw new AppError(409, ErrorCode.IllegalModeMove, `${route} has no mode of its own; it follows ${keyed.family}`);
      const current = own?.mode ?? family.mode;
      const target = mode ?? family.mode;
      if (target !== current && !LEGAL_MODE_MOVES[current].includes(target)) {
        const legal = LEGAL_MODE_MOVES[current].join(' or ');
        const what = mode ? `to ${mode}` : `back to its family's ${family.mode}`;
        throw new AppError(
          409,
          ErrorCode.IllegalModeMove,
          `Cannot move ${route} from ${current} ${what}; from ${current} the only move is to ${legal}`,
        );
      }
      if (mode === undefined) await tx.routeMode.deleteMany({ where: { route } });
      else if (mode === current && own) throw new AppError(409, ErrorCode.IllegalModeMove, `${route} is already ${mode}`);
      else
        await tx.routeMode.upsert({
          where: { route },
          create: { route, mode, updatedBy: actor },
          update: { mode, updatedBy: actor, updatedAt: new Date() },
        });
      await audit(tx, {
        actor,
        action: mode ? 'mode.set-route' : 'mode.clear-route',
        organisationId: null,
        target: route,
        details: { from: current, to: target, own: mode !== undefined },
      });
    });
    this.logger.info({ route, mode: mode ?? 'family', actor }, 'route enforcement mode moved');
    return (await this.listRouteModes()).find((r) => r.route === route)!;
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
