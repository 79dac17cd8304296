import { ServiceConfig, WithBus } from '@swap/config';
import { DefaultPorts, IsEvmAddress, IsUint256String } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

export class QuoteBuilderConfig extends WithBus(ServiceConfig) {
  override PORT = DefaultPorts['quote-builder'];

  /** `mainnet` (built in) or the path of a chain profile JSON file (the devnet writes one). */
  @IsString()
  @MinLength(1)
  CHAIN_PROFILE = 'mainnet';

  /**
   * RPC endpoints by chain key, over the profile's: `0x92.sonic=https://…,solana=https://…`
   * (the mainnet profile names none: a deployment brings its providers).
   */
  @IsOptional()
  @Matches(/^[\w.-]+=https?:\/\/[^,\s]+(,[\w.-]+=https?:\/\/[^,\s]+)*$/, { message: 'CHAIN_RPC_URLS must be a list like 0x92.sonic=https://rpc.example,solana=https://rpc.example' })
  CHAIN_RPC_URLS?: string = undefined;

  /** How long a chain RPC call may take before the request fails with 503. */
  @Type(() => Number)
  @Min(100)
  @Max(60_000)
  @IsInt()
  CHAIN_RPC_TIMEOUT_MS = 5_000;

  /** The deployment's partner fee, applied by GET /fees/partner when the query names none. */
  @IsOptional()
  @IsEvmAddress()
  PARTNER_FEE_ADDRESS?: string = undefined;

  @IsOptional()
  @Type(() => Number)
  @Min(1)
  @Max(100)
  @IsInt()
  PARTNER_FEE_PERCENTAGE?: number = undefined;

  @IsOptional()
  @IsUint256String()
  PARTNER_FEE_AMOUNT?: string = undefined;
}
