import { Module } from '@nestjs/common';
import { ChainCatalogModule } from '../chain-catalog/chain-catalog.module';
import { LsdAprSource } from './lsd-apr';
import { VaultReadsService } from './vault-reads.service';
import { VaultsHandlers } from './vaults.handlers';

@Module({
  imports: [ChainCatalogModule],
  controllers: [VaultsHandlers],
  providers: [VaultReadsService, LsdAprSource],
})
export class VaultsModule {}
