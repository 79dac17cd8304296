import { Body, Controller, Delete, Get, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { OperatorGuard, operatorOf } from '@swap/key-auth';
import { uuidParam as uuid } from '@swap/service-kit';
import { IsString, Matches } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { SponsoringKeysService } from '../keys/sponsoring-keys.service';

class MintBody {
  @Matches(/^[\w.@-]{1,64}$/, { message: 'owner must be 1 to 64 letters, digits or _.@-' })
  @IsString()
  owner!: string;
}

/** Operator routes on the service's own (internal) port: sponsoring keys are not self-serve. */
@ApiExcludeController()
@UseGuards(OperatorGuard)
@Controller('ops/sponsoring-keys')
export class SponsorshipOpsController {
  constructor(private readonly keys: SponsoringKeysService) {}

  @Get()
  list() {
    return this.keys.list();
  }

  @Post()
  mint(@Body() body: MintBody, @Req() req: FastifyRequest) {
    return this.keys.mint(body.owner, operatorOf(req));
  }

  @Delete(':id')
  revoke(@Param('id', uuid) id: string, @Req() req: FastifyRequest) {
    return this.keys.revoke(id, operatorOf(req));
  }
}
