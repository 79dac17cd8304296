import { IsServiceUrl, LogLevels, type LogLevel } from '@swap/config';
import { IsEvmAddress } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

/**
 * What the reference solver needs, and nothing an outside solver could not have: its
 * credential and the marketplace's address, the public price candles, a hub RPC endpoint,
 * the hub intents contract (public protocol fact) and its own key.
 */
export class ReferenceSolverConfig {
  /** A name for its logs (the marketplace knows it by its credential). */
  @Matches(/^[\w.@-]{1,64}$/, { message: 'SOLVER_NAME must be 1 to 64 letters, digits or _.@-' })
  SOLVER_NAME = 'reference-solver';

  @Matches(/^slv_[A-Za-z0-9_-]{43}$/, {
    message: 'SOLVER_CREDENTIAL must be the slv_… credential printed by `npm run ops -- solvers add <name>`',
  })
  SOLVER_CREDENTIAL = '';

  /** The marketplace connection: the gateway's WebSocket route. */
  @IsServiceUrl(['ws', 'wss'])
  MARKETPLACE_URL = 'ws://127.0.0.1:3000/v1/intent/solvers/connect';

  /** The oracle's public candles API (no key needed). */
  @IsServiceUrl(['http', 'https'])
  ORACLE_URL = 'http://127.0.0.1:3000/v1/be/oracle';

  @IsServiceUrl(['http', 'https'])
  HUB_RPC_URL = 'http://127.0.0.1:8546';

  @IsEvmAddress({
    message: 'INTENTS_CONTRACT must be the hub intents contract address (0x and 40 hex digits, EIP-55 checksummed if mixed case)',
  })
  INTENTS_CONTRACT = '';

  /** The solver's own hub wallet key: it pays outputs and receives inputs. */
  @Matches(/^0x[0-9a-fA-F]{64}$/, { message: 'SOLVER_PRIVATE_KEY must be 0x and 64 hex digits' })
  SOLVER_PRIVATE_KEY = '';

  /** Taken off the oracle's mid price, in basis points. */
  @Type(() => Number)
  @Min(0)
  @Max(5_000)
  @IsInt()
  SPREAD_BPS = 30;

  /** The largest trade it quotes, in USD of the input. */
  @Type(() => Number)
  @Min(1)
  @Max(1_000_000_000)
  @IsInt()
  MAX_TRADE_USD = 100_000;

  /**
   * How often the hub is asked whether the solver's transaction is mined (its fills go one
   * after another). A local chain mines at once: polling slowly there costs a fill its
   * interval (the devnet and the tests use 25 ms).
   */
  @Type(() => Number)
  @Min(10)
  @Max(10_000)
  @IsInt()
  RECEIPT_POLL_MS = 250;

  /** How often prices (and open limit orders against them) are refreshed. */
  @Type(() => Number)
  @Min(100)
  @Max(600_000)
  @IsInt()
  PRICE_REFRESH_MS = 2_000;

  /** A price older than this is not quoted on. */
  @Type(() => Number)
  @Min(10)
  @Max(86_400)
  @IsInt()
  PRICE_MAX_AGE_SECONDS = 180;

  /** Token symbols that are another form of an oracle symbol: `WETH=ETH,wS=S`. */
  @IsOptional()
  @Matches(/^[\w.-]+=[\w.-]+(,[\w.-]+=[\w.-]+)*$/, { message: 'PRICE_SYMBOL_ALIASES must be a list like WETH=ETH,wS=S' })
  PRICE_SYMBOL_ALIASES?: string = 'WETH=ETH,wS=S,WBTC=BTC,cbBTC=BTC,USDC.e=USDC';

  @IsIn(LogLevels)
  LOG_LEVEL: LogLevel = 'info';
}
