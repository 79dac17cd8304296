import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi/openapi.controller';
import { OpenApiService } from './openapi/openapi.service';

@Module({ controllers: [OpenApiController], providers: [OpenApiService] })
export class ApiGatewayModule {}
