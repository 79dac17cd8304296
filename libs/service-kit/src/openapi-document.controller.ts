import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ServiceState } from './admin-server';

/** The gateway merges this into the public document. */
@ApiExcludeController()
@Controller()
export class OpenApiDocumentController {
  constructor(private readonly state: ServiceState) {}

  @Get('openapi.json')
  @Header('cache-control', 'no-cache')
  openapi() {
    return this.state.openApiDocument;
  }
}
