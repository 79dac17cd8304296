import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type ReplyOf } from '@swap/contracts';
import { VaultReadMessage } from './vaults.messages';
import { VaultReadsService } from './vault-reads.service';

@Controller()
export class VaultsHandlers {
  constructor(private readonly reads: VaultReadsService) {}

  @MessagePattern(Subjects.vaultRead)
  read(@Payload() request: VaultReadMessage): ReplyOf<'vaultRead'> {
    return this.reads.read(request);
  }
}
