import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { partnerFeeQuote, solverFeeQuote } from '@swap/chains';
import {
  ApiTag,
  AppError,
  DeadlineQueryDto,
  DeadlineResponseDto,
  PartnerFeeQueryDto,
  PartnerFeeResponseDto,
  SolverFeeQueryDto,
  SolverFeeResponseDto,
  type PartnerFee,
  type PartnerFeeResponse,
} from '@swap/contracts';
import { ChainCatalogMirror } from '@swap/chain-catalog';
import { HubClock } from './hub-clock';
import { SwapGatewayConfig } from '../swap-gateway.config';

/** The public reads beside building: a deadline and the partner fee, answered from memory. */
@Controller('v1/swaps')
export class ReadsController {
  constructor(
    private readonly catalog: ChainCatalogMirror,
    private readonly clock: HubClock,
    private readonly config: SwapGatewayConfig,
  ) {}

  @Get('deadline')
  @ApiTags(ApiTag.build)
  @ApiOperation({
    summary: "A ready-made deadline: the hub's latest block time plus offsetSeconds (300 when omitted, as the public client does)",
  })
  @ApiOkResponse({ type: DeadlineResponseDto })
  deadline(@Query() query: DeadlineQueryDto): Promise<{ deadline: string }> {
    return this.clock.deadline(Number(query.offsetSeconds));
  }

  @Get('fees/partner')
  @ApiTags(ApiTag.quote)
  @ApiOperation({
    summary: "The partner fee on an input amount: the query's fee (feeAddress with feeAmount or feePercentage), else the deployment's",
  })
  @ApiOkResponse({ type: PartnerFeeResponseDto })
  async partnerFee(@Query() query: PartnerFeeQueryDto): Promise<PartnerFeeResponse> {
    const given = givenPartnerFee(query);
    return partnerFeeQuote(query.amount, given, await this.catalog.partnerFee());
  }

  @Get('fees/solver')
  @ApiTags(ApiTag.quote)
  @ApiOperation({ summary: "The solvers' fee on an input amount: SOLVER_FEE_BPS (10, the public client's 0.1%), rounded down" })
  @ApiOkResponse({ type: SolverFeeResponseDto })
  solverFee(@Query() query: SolverFeeQueryDto): SolverFeeResponseDto {
    return solverFeeQuote(query.amount, this.config.SOLVER_FEE_BPS);
  }
}

/** The query's own fee (feeAddress with feeAmount or feePercentage), if it names one. */
export function givenPartnerFee(query: PartnerFeeQueryDto): PartnerFee | undefined {
  if (!query.feeAddress && (query.feeAmount !== undefined || query.feePercentage !== undefined)) {
    throw AppError.validation([
      { field: 'feeAddress', rule: 'requiredWithFee', message: 'feeAddress is required with feeAmount or feePercentage' },
    ]);
  }
  return query.feeAddress
    ? {
        address: query.feeAddress,
        amount: query.feeAmount,
        percentage: query.feePercentage === undefined ? undefined : Number(query.feePercentage),
      }
    : undefined;
}
