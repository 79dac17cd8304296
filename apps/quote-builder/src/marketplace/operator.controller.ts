import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { OperatorGuard, operatorOf } from '@swap/key-auth';
import { uuidParam as uuid } from '@swap/service-kit';
import { IsOptional, IsString, Matches } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { QuoteRecords } from './quote-records';
import { SolverConnections } from './solver-connections';
import { SolverAccountsService } from './solver-accounts.service';

class SolverBody {
  @Matches(/^[\w.@-]{1,64}$/, { message: 'name must be 1 to 64 letters, digits or _.@-' })
  @IsString()
  name!: string;
}

class QuotesQuery {
  @IsOptional()
  @Matches(/^([1-9]\d{0,2}|1000)$/, { message: 'limit must be an integer from 1 to 1000' })
  limit?: string;
}

/** On quote-builder's own port for `npm run ops`, never behind the gateway. */
@ApiExcludeController()
@UseGuards(OperatorGuard)
@Controller('ops')
export class MarketplaceOperatorController {
  constructor(
    private readonly solvers: SolverAccountsService,
    private readonly connections: SolverConnections,
    private readonly quotes: QuoteRecords,
  ) {}

  @Get('solvers')
  async list() {
    const connected = new Map<string, number>();
    for (const solver of this.connections.connectedSolvers()) connected.set(solver.id, (connected.get(solver.id) ?? 0) + 1);
    return (await this.solvers.list()).map((s) => ({ ...s, connected: connected.get(s.id) ?? 0 }));
  }

  /** The credential is shown this once. */
  @Post('solvers')
  add(@Body() body: SolverBody, @Req() req: FastifyRequest) {
    return this.solvers.add(body.name, operatorOf(req));
  }

  @Post('solvers/:id/suspend')
  @HttpCode(200)
  suspend(@Param('id', uuid) id: string, @Req() req: FastifyRequest) {
    return this.solvers.setSuspended(id, true, operatorOf(req));
  }

  @Post('solvers/:id/lift')
  @HttpCode(200)
  lift(@Param('id', uuid) id: string, @Req() req: FastifyRequest) {
    return this.solvers.setSuspended(id, false, operatorOf(req));
  }

  @Delete('solvers/:id')
  remove(@Param('id', uuid) id: string, @Req() req: FastifyRequest) {
    return this.solvers.remove(id, operatorOf(req));
  }

  @Get('quotes')
  recent(@Query() query: QuotesQuery) {
    return this.quotes.recent(Number(query.limit ?? 20));
  }

  @Get('quotes/:id')
  quote(@Param('id', uuid) id: string) {
    return this.quotes.get(id);
  }
}
