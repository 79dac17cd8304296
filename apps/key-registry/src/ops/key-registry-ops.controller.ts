import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  AppError,
  EnforcementModes,
  ErrorCode,
  MAX_KEY_SET_EPOCH,
  NameField,
  OrganisationNameField,
  RouteFamilies,
  Scopes,
  type EnforcementMode,
  type RouteFamily,
  type Scope,
} from '@swap/contracts';
import { mintKey, OperatorGuard, operatorOf } from '@swap/key-auth';
import { uuidParam as uuid } from '@swap/service-kit';
import { ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { KeySetPublisher } from '../keyset/key-set-publisher';
import { KeyRegistryService } from '../registry/key-registry.service';
import { UsageStore } from '../usage/usage-store';

class OrganisationBody {
  @OrganisationNameField()
  name!: string;
}

class KeyNameBody {
  @NameField(64, 'production')
  name!: string;
}

class ScopesBody {
  @IsIn(Scopes, { each: true, message: `each scope must be one of ${Scopes.join(', ')}` })
  @ArrayMinSize(1, { message: 'scopes must name at least one scope' })
  @IsArray()
  scopes!: Scope[];
}

class EpochBody {
  @Max(MAX_KEY_SET_EPOCH, { message: `epoch must be at most ${MAX_KEY_SET_EPOCH}` })
  @Min(1, { message: 'epoch must be at least 1' })
  @IsInt({ message: 'epoch must be an integer' })
  @IsOptional()
  epoch?: number;
}

class ModeBody {
  @IsIn(EnforcementModes, { message: `mode must be one of ${EnforcementModes.join(', ')}` })
  mode!: EnforcementMode;
}

class RouteModeBody extends ModeBody {
  @MaxLength(256)
  @IsString({ message: 'route must be a keyed route, e.g. POST /v1/swaps/quote' })
  route!: string;
}

class RouteQuery {
  @MaxLength(256)
  @IsString({ message: 'route must be a keyed route, e.g. POST /v1/swaps/quote' })
  route!: string;
}

/**
 * Operator routes on key-registry's own (internal) port, for `npm run ops`; never behind
 * the gateway. The same operations as the bus handlers, with the operator as the actor.
 */
@ApiExcludeController()
@UseGuards(OperatorGuard)
@Controller('ops')
export class KeyRegistryOpsController {
  constructor(
    private readonly registry: KeyRegistryService,
    private readonly publisher: KeySetPublisher,
    private readonly usage: UsageStore,
  ) {}

  @Get('organisations')
  organisations() {
    return this.registry.listOrganisations();
  }

  @Post('organisations')
  createOrganisation(@Body() body: OrganisationBody, @Req() req: FastifyRequest) {
    return this.registry.createOrganisation(body.name, operatorOf(req));
  }

  @Post('organisations/:orgId/suspend')
  @HttpCode(200)
  suspend(@Param('orgId', uuid) orgId: string, @Req() req: FastifyRequest) {
    return this.registry.setSuspended(orgId, true, operatorOf(req));
  }

  @Post('organisations/:orgId/lift')
  @HttpCode(200)
  lift(@Param('orgId', uuid) orgId: string, @Req() req: FastifyRequest) {
    return this.registry.setSuspended(orgId, false, operatorOf(req));
  }

  @Get('organisations/:orgId/keys')
  keys(@Param('orgId', uuid) orgId: string) {
    return this.registry.listKeys(orgId);
  }

  @Post('organisations/:orgId/keys')
  async createKey(@Param('orgId', uuid) orgId: string, @Body() body: KeyNameBody, @Req() req: FastifyRequest) {
    // Minted here, facing the operator: the key is in this answer once, and only its hash
    // and display prefix reach the registry (and the signed key set on the bus).
    const minted = mintKey('portal');
    return { key: minted.key, ...(await this.registry.createKey(orgId, body.name, operatorOf(req), minted)) };
  }

  @Delete('organisations/:orgId/keys/:keyId')
  revoke(@Param('orgId', uuid) orgId: string, @Param('keyId', uuid) keyId: string, @Req() req: FastifyRequest) {
    return this.registry.revokeKey(orgId, keyId, operatorOf(req));
  }

  @Put('keys/:keyId/scopes')
  narrow(@Param('keyId', uuid) keyId: string, @Body() body: ScopesBody, @Req() req: FastifyRequest) {
    return this.registry.narrowScopes(keyId, body.scopes, operatorOf(req));
  }

  @Get('enforcement-modes')
  modes() {
    return this.registry.listModes();
  }

  /** Every keyed route's effective mode: its own where set, else its family's. */
  @Get('route-modes')
  routeModes() {
    return this.registry.listRouteModes();
  }

  @Put('route-modes')
  setRouteMode(@Body() body: RouteModeBody, @Req() req: FastifyRequest) {
    return this.registry.setRouteMode(body.route, body.mode, operatorOf(req));
  }

  /** Back to the family's mode (a legal move from the route's only). */
  @Delete('route-modes')
  clearRouteMode(@Query() query: RouteQuery, @Req() req: FastifyRequest) {
    return this.registry.setRouteMode(query.route, undefined, operatorOf(req));
  }

  /** Both sides of enforcement readiness over the last 7 days: docs/operators/operator-access.md#enforcement-readiness. */
  @Get('enforcement-modes/readiness')
  async readiness() {
    const modes = new Map((await this.registry.listRouteModes()).map((r) => [r.route, r.mode]));
    const readiness = await this.usage.deploymentReadiness();
    return { ...readiness, routes: readiness.routes.map((r) => ({ ...r, mode: modes.get(r.route) })) };
  }

  @Put('enforcement-modes/:family')
  setMode(@Param('family') family: string, @Body() body: ModeBody, @Req() req: FastifyRequest) {
    if (!RouteFamilies.includes(family as never)) {
      throw new AppError(
        400,
        ErrorCode.ValidationFailed,
        `family must be one of ${RouteFamilies.join(', ')} (sponsorship routes are always enforced)`,
      );
    }
    return this.registry.setMode(family as RouteFamily, body.mode, operatorOf(req));
  }

  @Get('keyset')
  keySet() {
    return this.publisher.state();
  }

  /** After restoring key-registry's database: a new epoch, so the services take the restored set. */
  @Post('keyset/epoch')
  @HttpCode(200)
  startEpoch(@Body() body: EpochBody, @Req() req: FastifyRequest) {
    return this.publisher.startEpoch(operatorOf(req), body.epoch);
  }
}
