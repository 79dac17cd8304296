import { Module } from '@nestjs/common';

/** Root module of sponsorship-keys; capabilities are added as folders beside this file. */
@Module({})
export class SponsorshipKeysModule {}
