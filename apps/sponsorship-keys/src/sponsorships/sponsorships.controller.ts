import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ApiTag, addressProblemOn, AppError } from '@swap/contracts';
import { ChainCatalogMirror } from '@swap/chain-catalog';
import { RequestContext } from '@swap/observability';
import { KeyedRoute } from '@swap/key-auth';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PrismaClient } from '../generated/prisma/client';

class CreateSponsorshipRequest {
  @ApiProperty({ example: '0xa4b1.arbitrum', description: 'A chain key of a supported network (GET /v1/swaps/tokens lists them)' })
  @MaxLength(64)
  @MinLength(1)
  @IsString()
  chainKey!: string;

  @ApiProperty({ example: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5', description: 'The wallet whose network fee is to be sponsored' })
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  walletAddress!: string;

  @ApiPropertyOptional({ maxLength: 280 })
  @IsOptional()
  @MaxLength(280)
  @IsString()
  note?: string;
}

class SponsorshipRequestView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: '0xa4b1.arbitrum' })
  chainKey!: string;

  @ApiProperty({ example: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5' })
  walletAddress!: string;

  @ApiPropertyOptional()
  note?: string;

  @ApiProperty({ example: 'received' })
  status!: string;

  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' })
  createdAt!: string;
}

/** The sponsoring routes: always enforced, and only with a sponsoring key (`spk_…`). */
@ApiTags(ApiTag.sponsorships)
@Controller('v1/sponsorships/requests')
export class SponsorshipsController {
  constructor(
    private readonly db: PrismaClient,
    private readonly catalog: ChainCatalogMirror,
  ) {}

  @Post()
  @KeyedRoute({ family: 'sponsorships' })
  @ApiOperation({ summary: 'Record a request to sponsor the network fee of a wallet' })
  @ApiCreatedResponse({ type: SponsorshipRequestView })
  async create(@Body() body: CreateSponsorshipRequest) {
    const owner = RequestContext.current()!.orgId!;
    // A supported network (404 otherwise) and a wallet address of its kind.
    const chain = await this.catalog.chain(body.chainKey);
    const problem = addressProblemOn(chain.type, 'walletAddress', body.walletAddress);
    if (problem) throw AppError.validation([problem]);
    const row = await this.db.sponsorshipRequest.create({
      data: { owner, chainKey: chain.key, walletAddress: body.walletAddress, note: body.note },
    });
    return view(row);
  }

  @Get()
  @KeyedRoute({ family: 'sponsorships' })
  @ApiOperation({ summary: "The requests of the key's owner, newest first" })
  @ApiOkResponse({ type: [SponsorshipRequestView] })
  async list() {
    const owner = RequestContext.current()!.orgId!;
    return (await this.db.sponsorshipRequest.findMany({ where: { owner }, orderBy: { createdAt: 'desc' }, take: 100 })).map(view);
  }
}

function view(row: { id: string; chainKey: string; walletAddress: string; note: string | null; status: string; createdAt: Date }) {
  return {
    id: row.id,
    chainKey: row.chainKey,
    walletAddress: row.walletAddress,
    note: row.note ?? undefined,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}
