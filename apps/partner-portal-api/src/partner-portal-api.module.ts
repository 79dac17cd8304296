import { Module } from '@nestjs/common';

/** Root module of partner-portal-api; capabilities are added as folders beside this file. */
@Module({})
export class PartnerPortalApiModule {}
