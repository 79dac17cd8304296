import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  AllowanceCheckResponseDto,
  ApiTag,
  ApproveResponseDto,
  BuildResponseDto,
  DepositIntentRequestDto,
  DepositQuoteRequestDto,
  ErrorBodyDto,
  LEVERAGE_YIELD_POST_ROUTES,
  QuoteQueryDto,
  Subjects,
  VaultQuoteResponseDto,
  WithdrawIntentRequestDto,
  WithdrawQuoteRequestDto,
  type ReplyOf,
} from '@swap/contracts';
import { KeyedRoute } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';

const ROUTES = LEVERAGE_YIELD_POST_ROUTES;

/** Deposits into a vault: quote, allowance, approve and the unsigned deposit, built by quote-builder (docs/integrators/leverage-yield.md#deposits). */
@ApiTags(ApiTag.leverageYield)
@ApiBadRequestResponse({
  type: ErrorBodyDto,
  description: 'A field that breaks a rule, named with the rule (an unknown vault: knownVault)',
})
@Controller()
export class VaultIntentsController {
  constructor(private readonly messaging: MessagingClient) {}

  @Post(ROUTES.quoteDeposit.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.quoteDeposit.scope })
  @ApiOperation({
    summary:
      'Quote a deposit: { quotedAmount } in shares (18 decimals); with includeTxData=true also txData, as /intents/deposit builds it',
  })
  @ApiOkResponse({ type: VaultQuoteResponseDto })
  @ApiResponse({ status: 422, type: ErrorBodyDto, description: 'NO_ROUTE or NO_LIQUIDITY: no solver delivers the shares' })
  @ApiResponse({ status: 503, type: ErrorBodyDto, description: 'NO_SOLVER_AVAILABLE: no solver connected, or none answered in time' })
  quoteDeposit(@Body() body: DepositQuoteRequestDto, @Query() query: QuoteQueryDto): ReplyOf<'vaultQuote'> {
    return this.messaging.request(Subjects.vaultQuote, { ...body, includeTxData: query.includeTxData === 'true' });
  }

  @Post(ROUTES.quoteWithdraw.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.quoteWithdraw.scope })
  @ApiOperation({
    summary:
      'Quote a withdrawal: { quotedAmount } of the output token for an amount of shares; with includeTxData=true also txData, as /intents/withdraw builds it',
  })
  @ApiOkResponse({ type: VaultQuoteResponseDto })
  @ApiResponse({ status: 422, type: ErrorBodyDto, description: 'NO_ROUTE or NO_LIQUIDITY: no solver takes the shares' })
  @ApiResponse({ status: 503, type: ErrorBodyDto, description: 'NO_SOLVER_AVAILABLE: no solver connected, or none answered in time' })
  quoteWithdraw(@Body() body: WithdrawQuoteRequestDto, @Query() query: QuoteQueryDto): ReplyOf<'vaultWithdrawQuote'> {
    return this.messaging.request(Subjects.vaultWithdrawQuote, { ...body, includeTxData: query.includeTxData === 'true' });
  }

  @Post(ROUTES.allowanceCheck.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.allowanceCheck.scope })
  @ApiOperation({ summary: 'Whether the deposit may move the ERC-20 input now (read on chain)' })
  @ApiOkResponse({ type: AllowanceCheckResponseDto })
  allowance(@Body() body: DepositIntentRequestDto): ReplyOf<'vaultAllowanceCheck'> {
    return this.messaging.request(Subjects.vaultAllowanceCheck, body);
  }

  @Post(ROUTES.approve.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.approve.scope })
  @ApiOperation({ summary: "The unsigned approve transaction for the deposit's ERC-20 input, when one is needed" })
  @ApiOkResponse({ type: ApproveResponseDto })
  approve(@Body() body: DepositIntentRequestDto): ReplyOf<'vaultApprove'> {
    return this.messaging.request(Subjects.vaultApprove, body);
  }

  @Post(ROUTES.intentDeposit.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.intentDeposit.scope })
  @ApiOperation({
    summary:
      "Build the unsigned deposit: { tx, intent, relayData }; the intent's output is the vault's shares, delivered to the sender's hub wallet (relayData.address)",
  })
  @ApiOkResponse({ type: BuildResponseDto })
  @ApiResponse({ status: 503, type: ErrorBodyDto, description: 'CHAIN_UNAVAILABLE or NOT_CONFIGURED: a chain read the build needs failed' })
  deposit(@Body() body: DepositIntentRequestDto): ReplyOf<'vaultDeposit'> {
    return this.messaging.request(Subjects.vaultDeposit, body);
  }

  @Post(ROUTES.intentWithdraw.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.intentWithdraw.scope })
  @ApiOperation({
    summary:
      "Build the unsigned withdrawal: { tx, intent, relayData }; tx is a message from srcChainKey to the sender's hub wallet, which approves its shares and creates the intent (no allowance needed); more shares than it holds is a 400",
  })
  @ApiOkResponse({ type: BuildResponseDto })
  @ApiResponse({ status: 503, type: ErrorBodyDto, description: 'CHAIN_UNAVAILABLE or NOT_CONFIGURED: a chain read the build needs failed' })
  withdraw(@Body() body: WithdrawIntentRequestDto): ReplyOf<'vaultWithdraw'> {
    return this.messaging.request(Subjects.vaultWithdraw, body);
  }
}
