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
  ErrorBodyDto,
  SubmissionStatusQueryDto,
  SubmissionStatusResponseDto,
  SubmitTxRequestDto,
  type SubmitTxResponse,
  SubmitTxResponseDto,
  SWAPS_POST_ROUTES,
} from '@swap/contracts';
import { KeyedRoute } from '@swap/key-auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SubmitTx } from './submit-tx';

/** Step 4 and 5 of a swap: submit the broadcast transaction, then poll its status. */
@Controller('v1/swaps/submit-tx')
export class SubmissionsController {
  constructor(private readonly submitTx: SubmitTx) {}

  @Post()
  @ApiTags(ApiTag.submit)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.submitTx.scope })
  @ApiOperation({ summary: 'Submit a broadcast source transaction; idempotent on (txHash, srcChainKey): inserted, then duplicate' })
  @ApiOkResponse({ type: SubmitTxResponseDto })
  @ApiTooManyRequestsResponse({
    type: ErrorBodyDto,
    description: 'A limit per client (API key or IP) or per walletAddress was reached; wait Retry-After seconds',
  })
  submit(
    @Body() body: SubmitTxRequestDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SubmitTxResponse> {
    return this.submitTx.submit(body, request, reply);
  }

  @Get('status')
  @ApiTags(ApiTag.track)
  @ApiOperation({ summary: 'Status of a submission; poll about every 3 seconds until terminal (solved or failed)' })
  @ApiOkResponse({ type: SubmissionStatusResponseDto })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: "txHash is not a transaction hash of the source network's kind, or a parameter is missing",
  })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async status(@Query() query: SubmissionStatusQueryDto, @Res() reply: FastifyReply): Promise<void> {
    void reply.header('content-type', 'application/json; charset=utf-8').send(await this.submitTx.statusJson(query));
  }
}
