import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCode, type ErrorBody } from '@swap/contracts';
import { probeDependencies, RequestContext, ServiceMetrics, type DependencyCheck } from '@swap/observability';
import type { FastifyReply } from 'fastify';
import { SERVICE_NAME } from './tokens';

/** Dependency checks and shutdown state of the running service, shared with the ops routes. */
export class ServiceState {
  shuttingDown = false;
  openApiDocument: object = {};
  constructor(readonly checks: DependencyCheck[]) {}
}

/** `/healthz` (alive), `/readyz` (dependencies reachable), `/metrics`, `/openapi.json`. */
@ApiExcludeController()
@Controller()
export class OpsController {
  constructor(
    @Inject(SERVICE_NAME) private readonly service: string,
    private readonly state: ServiceState,
    private readonly metrics: ServiceMetrics,
  ) {}

  @Get('healthz')
  healthz() {
    return { status: 'ok', service: this.service };
  }

  @Get('readyz')
  async readyz(@Res() reply: FastifyReply) {
    if (this.state.shuttingDown) {
      const body: ErrorBody = { statusCode: 503, code: ErrorCode.ShuttingDown, message: `${this.service} is shutting down`, requestId: RequestContext.requestId() };
      return reply.status(503).send(body);
    }
    const report = await probeDependencies(this.state.checks);
    const degraded = Object.values(report.checks).some((c) => c.status === 'down');
    if (report.ready) return reply.status(200).send({ status: degraded ? 'degraded' : 'ready', service: this.service, checks: report.checks });
    const failing = Object.entries(report.checks)
      .filter(([, c]) => c.status === 'down' && !c.optional)
      .map(([name]) => name);
    const body: ErrorBody & { checks: typeof report.checks } = {
      statusCode: 503,
      code: ErrorCode.NotReady,
      message: `Not ready: ${failing.join(', ')} unreachable`,
      requestId: RequestContext.requestId(),
      checks: report.checks,
    };
    return reply.status(503).send(body);
  }

  @Get('metrics')
  async metricsText(@Res() reply: FastifyReply) {
    return reply.header('content-type', this.metrics.contentType()).send(await this.metrics.render());
  }

  @Get('openapi.json')
  @Header('cache-control', 'no-cache')
  openapi() {
    return this.state.openApiDocument;
  }
}
