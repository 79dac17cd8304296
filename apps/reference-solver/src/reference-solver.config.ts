import { IsServiceUrl, LogLevels, type LogLevel } from '@swap/config';
import { IsEvmAddress } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

/** Only what an outside solver could have; each variable: docs/integrators/solvers.md#the-reference-solver. */
export class ReferenceSolverConfig {
  @Matches(/^[\w.@-]{1,64}$/, { message: 'SOLVER_NAME must be 1 to 64 letters, digits or _.@-' })
  SOLVER_NAME = 'reference-solver';

  @Matches(/^slv_[A-Za-z0-9_-]{43}$/, {
    message: 'SOLVER_CREDENTIAL must be the slv_… credential printed by `npm run ops -- solvers add <name>`',
  })
  SOLVER_CREDENTIAL = '';

  @IsServiceUrl(['ws', 'wss'])
  MARKETPLACE_URL = 'ws://127.0.0.1:3000/v1/intent/solvers/connect';

  @IsServiceUrl(['http', 'https'])
  ORACLE_URL = 'http://127.0.0.1:3000/v1/be/oracle';

  @IsServiceUrl(['http', 'https'])
  HUB_RPC_URL = 'http://127.0.0.1:8546';

  @IsEvmAddress({
    message: 'INTENTS_CONTRACT must be the hub intents contract address (0x and 40 hex digits, EIP-55 checksummed if mixed case)',
  })
  INTENTS_CONTRACT = '';

  @Matches(/^0x[0-9a-fA-F]{64}$/, { message: 'SOLVER_PRIVATE_KEY must be 0x and 64 hex digits' })
  SOLVER_PRIVATE_KEY = '';

  @Type(() => Number)
  @Min(0)
  @Max(5_000)
  @IsInt()
  SPREAD_BPS = 30;

  @Type(() => Number)
  @Min(1)
  @Max(1_000_000_000)
  @IsInt()
  MAX_TRADE_USD = 100_000;

  /** A local chain mines at once: polling slowly there costs a fill its interval (the devnet uses 25 ms). */
  @Type(() => Number)
  @Min(10)
  @Max(10_000)
  @IsInt()
  RECEIPT_POLL_MS = 250;

  @Type(() => Number)
  @Min(100)
  @Max(600_000)
  @IsInt()
  PRICE_REFRESH_MS = 2_000;

  @Type(() => Number)
  @Min(10)
  @Max(86_400)
  @IsInt()
  PRICE_MAX_AGE_SECONDS = 180;

  @IsOptional()
  @Matches(/^[\w.-]+=[\w.-]+(,[\w.-]+=[\w.-]+)*$/, { message: 'PRICE_SYMBOL_ALIASES must be a list like WETH=ETH,wS=S' })
  PRICE_SYMBOL_ALIASES?: string = 'WETH=ETH,wS=S,WBTC=BTC,cbBTC=BTC,USDC.e=USDC';

  @IsIn(LogLevels)
  LOG_LEVEL: LogLevel = 'info';
}
