import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import {
  ApiTag,
  AppError,
  ErrorBodyDto,
  ErrorCode,
  LEVERAGE_YIELD_POST_ROUTES,
  SubmissionStatusQueryDto,
  SubmissionStatusResponseDto,
  SubmitTxResponseDto,
  VaultSubmitTxRequestDto,
  type SubmitTxResponse,
} from '@swap/contracts';
import { ChainCatalogMirror } from '@swap/chain-catalog';
import { KeyedRoute } from '@swap/key-auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SubmitTx } from '../submissions/submit-tx';

/** A deposit's or withdrawal's submit-tx: the swaps' record and settlement, tagged with its operation. */
@ApiTags(ApiTag.leverageYield)
@Controller('v1/leverage-yield/submit-tx')
export class VaultSubmissionsController {
  constructor(
    private readonly submitTx: SubmitTx,
    private readonly catalog: ChainCatalogMirror,
  ) {}

  @Post()
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: LEVERAGE_YIELD_POST_ROUTES.submitTx.scope })
  @ApiOperation({
    summary: 'Submit a broadcast deposit or withdrawal; idempotent on (txHash, srcChainKey) with swaps: inserted, then duplicate',
  })
  @ApiOkResponse({ type: SubmitTxResponseDto })
  @ApiTooManyRequestsResponse({ type: ErrorBodyDto, description: 'The swaps submit limits (per client and per walletAddress)' })
  async submit(
    @Body() body: VaultSubmitTxRequestDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SubmitTxResponse> {
    const { operation, ...rest } = body;
    // A deposit's output is a vault's shares, a withdrawal's input: the label must say what the intent does.
    const side = operation === 'deposit' ? 'outputToken' : 'inputToken';
    if (!(await this.catalog.findLeverageVault({ address: body.intent[side] }))) {
      throw AppError.validation([
        {
          field: 'operation',
          rule: 'matchesIntent',
          message: `operation is ${operation}, but intent.${side} is not one of this deployment's vaults (a deposit's outputToken is the vault, a withdrawal's inputToken)`,
        },
      ]);
    }
    return this.submitTx.submit({ ...rest, operation: operation === 'deposit' ? 'leverage_deposit' : 'leverage_withdraw' }, request, reply);
  }

  @Get('status')
  @ApiOperation({ summary: 'Status of a submission (the swaps record, with operation); poll about every 3 seconds until solved or failed' })
  @ApiOkResponse({ type: SubmissionStatusResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: "txHash is not a transaction hash of the source network's kind" })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Vault swap transaction not found (never submitted)' })
  async status(@Query() query: SubmissionStatusQueryDto, @Res() reply: FastifyReply): Promise<void> {
    const json = await this.submitTx.statusJson(query).catch((error: unknown) => {
      if (error instanceof AppError && error.getStatus() === 404 && error.code === ErrorCode.NotFound)
        throw AppError.notFound('Vault swap transaction not found');
      throw error;
    });
    void reply.header('content-type', 'application/json; charset=utf-8').send(json);
  }
}
