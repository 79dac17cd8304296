import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { OpenApiService } from './openapi.service';
import { renderDocsPage } from './render-docs';
import type { OpenApiDocument } from './merge-documents';

/** The merged public API description and a readable page of it. */
@ApiExcludeController()
@Controller('v1')
export class OpenApiController {
  constructor(private readonly openapi: OpenApiService) {}

  @Get('openapi.json')
  document(): Promise<OpenApiDocument> {
    return this.openapi.document();
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  async docs(): Promise<string> {
    return renderDocsPage(await this.openapi.document());
  }
}
