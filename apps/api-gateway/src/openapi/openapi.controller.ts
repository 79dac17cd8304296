import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppError, ErrorCode } from '@swap/contracts';
import type { FastifyReply } from 'fastify';
import { DOCS_CSP, DOCS_HEADERS, DOCS_PAGE, docsAsset } from './docs-page';
import type { OpenApiDocument } from './merge-documents';
import { OpenApiService } from './openapi.service';

/** The merged public API description, and Swagger UI over it. */
@ApiExcludeController()
@Controller('v1')
export class OpenApiController {
  constructor(private readonly openapi: OpenApiService) {}

  @Get('openapi.json')
  @Header('cache-control', 'no-cache')
  document(): Promise<OpenApiDocument> {
    return this.openapi.document();
  }

  @Get('docs')
  docs(@Res() reply: FastifyReply): void {
    void reply
      .headers(DOCS_HEADERS)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', DOCS_CSP)
      .header('cache-control', 'no-cache')
      .send(DOCS_PAGE);
  }

  @Get('docs/assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = docsAsset(name);
    if (!asset) throw AppError.notFound('No such asset of the docs page', ErrorCode.NotFound);
    void reply.headers(DOCS_HEADERS).header('content-type', asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
  }
}
