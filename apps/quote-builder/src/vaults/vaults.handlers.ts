import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DepositIntentRequestDto, Subjects, WithdrawIntentRequestDto, type ReplyOf } from '@swap/contracts';
import { DepositQuoteMessage, VaultReadMessage, WithdrawQuoteMessage } from './vaults.messages';
import { VaultIntentsService } from './vault-intents.service';
import { VaultReadsService } from './vault-reads.service';

@Controller()
export class VaultsHandlers {
  constructor(
    private readonly reads: VaultReadsService,
    private readonly intents: VaultIntentsService,
  ) {}

  @MessagePattern(Subjects.vaultRead)
  read(@Payload() request: VaultReadMessage): ReplyOf<'vaultRead'> {
    return this.reads.read(request);
  }

  @MessagePattern(Subjects.vaultQuote)
  quote(@Payload() request: DepositQuoteMessage): ReplyOf<'vaultQuote'> {
    return this.intents.quoteDeposit(request);
  }

  @MessagePattern(Subjects.vaultDeposit)
  deposit(@Payload() request: DepositIntentRequestDto): ReplyOf<'vaultDeposit'> {
    return this.intents.deposit(request);
  }

  @MessagePattern(Subjects.vaultAllowanceCheck)
  allowanceCheck(@Payload() request: DepositIntentRequestDto): ReplyOf<'vaultAllowanceCheck'> {
    return this.intents.allowanceCheck(request);
  }

  @MessagePattern(Subjects.vaultWithdrawQuote)
  quoteWithdraw(@Payload() request: WithdrawQuoteMessage): ReplyOf<'vaultWithdrawQuote'> {
    return this.intents.quoteWithdraw(request);
  }

  @MessagePattern(Subjects.vaultWithdraw)
  withdraw(@Payload() request: WithdrawIntentRequestDto): ReplyOf<'vaultWithdraw'> {
    return this.intents.withdraw(request);
  }

  @MessagePattern(Subjects.vaultApprove)
  approve(@Payload() request: DepositIntentRequestDto): ReplyOf<'vaultApprove'> {
    return this.intents.approve(request);
  }
}
