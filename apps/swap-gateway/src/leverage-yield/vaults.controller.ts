import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ChainCatalogMirror } from '@swap/chain-catalog';
import {
  ApiTag,
  DeadlineQueryDto,
  DeadlineResponseDto,
  ErrorBodyDto,
  LeverageVaultDto,
  LsdAprDto,
  Subjects,
  VaultAprDto,
  VaultAssetDto,
  VaultAssetsDto,
  VaultAssetsQueryDto,
  VaultBalanceDto,
  VaultEffectiveAprDto,
  VaultMaxWithdrawDto,
  VaultOwnerQueryDto,
  VaultPositionDto,
  VaultQueryDto,
  VaultSharesDto,
  VaultSharesQueryDto,
  VaultTotalAssetsDto,
  type LeverageVault,
  type VaultRead,
  type VaultReadRequest,
  type VaultReads,
} from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import { HubClock } from '../reads/hub-clock';

const UNKNOWN_VAULT = { type: ErrorBodyDto, description: 'Not a leveraged-yield vault of this deployment (VAULT_NOT_FOUND)' };
const BAD_QUERY = { type: ErrorBodyDto, description: 'A parameter missing or malformed (e.g. `vault must be an Ethereum address`)' };

/** The vault registry from the catalog mirror; each read asks quote-builder, which reads the hub: docs/integrators/leverage-yield.md. */
@ApiTags(ApiTag.leverageYield)
@Controller('v1/leverage-yield')
export class VaultsController {
  constructor(
    private readonly catalog: ChainCatalogMirror,
    private readonly messaging: MessagingClient,
    private readonly clock: HubClock,
  ) {}

  @Get('vaults')
  @ApiOperation({ summary: 'Every leveraged-yield vault: name (its share symbol), vault, asset, borrowToken, lsdSource' })
  @ApiOkResponse({ type: [LeverageVaultDto] })
  vaults(): Promise<LeverageVault[]> {
    return this.catalog.leverageVaults();
  }

  @Get('vaults/:name')
  @ApiOperation({ summary: 'One vault by its name (the share symbol, any letter case)' })
  @ApiParam({ name: 'name', example: 'lsodaWEETH' })
  @ApiOkResponse({ type: LeverageVaultDto })
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  vault(@Param('name') name: string): Promise<LeverageVault> {
    return this.catalog.leverageVault({ name });
  }

  @Get('deadline')
  @ApiOperation({ summary: "The hub's latest block time plus offsetSeconds (300 when omitted)" })
  @ApiOkResponse({ type: DeadlineResponseDto })
  deadline(@Query() query: DeadlineQueryDto): Promise<{ deadline: string }> {
    return this.clock.deadline(Number(query.offsetSeconds));
  }

  @Get('asset')
  @ApiOperation({ summary: "The vault's asset (ERC-4626 asset())" })
  @ApiOkResponse({ type: VaultAssetDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  asset(@Query() q: VaultQueryDto): Promise<VaultReads['asset']> {
    return this.read('asset', q);
  }

  @Get('position')
  @ApiOperation({ summary: "The vault's position in its lending pool: collateral, debt, ltv, healthFactor, idleAsset" })
  @ApiOkResponse({ type: VaultPositionDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  position(@Query() q: VaultQueryDto): Promise<VaultReads['position']> {
    return this.read('position', q);
  }

  @Get('apr')
  @ApiOperation({ summary: "The pool's rates and the vault's leverage: supply, borrow, target loan-to-value, net" })
  @ApiOkResponse({ type: VaultAprDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  apr(@Query() q: VaultQueryDto): Promise<VaultReads['apr']> {
    return this.read('apr', q);
  }

  @Get('apr/effective')
  @ApiOperation({ summary: 'The headline rate: /apr with the staking yield added to the supply side' })
  @ApiOkResponse({ type: VaultEffectiveAprDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  aprEffective(@Query() q: VaultQueryDto): Promise<VaultReads['aprEffective']> {
    return this.read('aprEffective', q);
  }

  @Get('apr/lsd')
  @ApiOperation({ summary: "The asset's staking yield; the configured fallback, stale, when its source cannot be read" })
  @ApiOkResponse({ type: LsdAprDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  aprLsd(@Query() q: VaultQueryDto): Promise<VaultReads['aprLsd']> {
    return this.read('aprLsd', q);
  }

  @Get('total-assets')
  @ApiOperation({ summary: "What the shares are worth together, in the asset's units" })
  @ApiOkResponse({ type: VaultTotalAssetsDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  totalAssets(@Query() q: VaultQueryDto): Promise<VaultReads['totalAssets']> {
    return this.read('totalAssets', q);
  }

  @Get('preview/deposit')
  @ApiOperation({ summary: 'Shares a deposit of `assets` mints now (ERC-4626 previewDeposit)' })
  @ApiOkResponse({ type: VaultSharesDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  previewDeposit(@Query() q: VaultAssetsQueryDto): Promise<VaultReads['previewDeposit']> {
    return this.read('previewDeposit', q, q.assets);
  }

  @Get('preview/withdraw')
  @ApiOperation({ summary: 'Shares a withdrawal of `assets` burns now (ERC-4626 previewWithdraw)' })
  @ApiOkResponse({ type: VaultSharesDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  previewWithdraw(@Query() q: VaultAssetsQueryDto): Promise<VaultReads['previewWithdraw']> {
    return this.read('previewWithdraw', q, q.assets);
  }

  @Get('preview/redeem')
  @ApiOperation({ summary: 'Assets redeeming `shares` pays now (ERC-4626 previewRedeem)' })
  @ApiOkResponse({ type: VaultAssetsDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  previewRedeem(@Query() q: VaultSharesQueryDto): Promise<VaultReads['previewRedeem']> {
    return this.read('previewRedeem', q, q.shares);
  }

  @Get('share-balance')
  @ApiOperation({ summary: 'Shares a hub wallet holds' })
  @ApiOkResponse({ type: VaultBalanceDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  shareBalance(@Query() q: VaultOwnerQueryDto): Promise<VaultReads['shareBalance']> {
    return this.read('shareBalance', q, undefined, q.owner);
  }

  @Get('max-withdraw')
  @ApiOperation({ summary: "What a hub wallet's shares redeem for, in the asset's units (size withdrawals in shares)" })
  @ApiOkResponse({ type: VaultMaxWithdrawDto })
  @ApiBadRequestResponse(BAD_QUERY)
  @ApiNotFoundResponse(UNKNOWN_VAULT)
  maxWithdraw(@Query() q: VaultOwnerQueryDto): Promise<VaultReads['maxWithdraw']> {
    return this.read('maxWithdraw', q, undefined, q.owner);
  }

  private async read<R extends VaultRead>(read: R, q: VaultQueryDto, amount?: string, owner?: string): Promise<VaultReads[R]> {
    const { vault } = await this.catalog.leverageVault({ address: q.vault });
    const request: VaultReadRequest = { read, vault, ...(amount === undefined ? {} : { amount }), ...(owner ? { owner } : {}) };
    return (await this.messaging.request(Subjects.vaultRead, request)) as VaultReads[R];
  }
}
