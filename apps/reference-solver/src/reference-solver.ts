import { INTENTS_ABI, intentValues } from '@swap/chains';
import { SolverErrorCode, type ExecuteFrame, type MarketplaceFrame, type RfqFrame } from '@swap/contracts';
import { inSpan, SpanKind, tracingEnabled, type Logger } from '@swap/observability';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  maxUint256,
  parseAbi,
  toFunctionSelector,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { MarketplaceClient } from './marketplace-client';
import { PriceBook } from './price-book';
import { outputFor, usdValue, type Side } from './pricing';
import type { ReferenceSolverConfig } from './reference-solver.config';

const ZERO = '0x0000000000000000000000000000000000000000';
const ERC4626_ABI = parseAbi([
  'function asset() view returns (address)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function previewDeposit(uint256 assets) view returns (uint256)',
  'function mint(uint256 shares, address receiver) returns (uint256)',
]);
const BALANCE_TTL_MS = 5_000;
/** Someone else got there first, or the intent is gone. */
const LOST_RACE = new Set(['IntentNotFound', 'IntentExpired', 'InvalidSolver']);

interface Asset {
  symbol: string;
  decimals: number;
  /** An ERC-4626 vault's underlying: its shares are priced through it and minted from it. */
  underlying?: { address: Address; asset: Asset };
}

type Priced = { out: bigint; input: Side; output: Side } | { code: number; message: string };

/** Uses only what an outside solver would; see docs/integrators/solvers.md#the-reference-solver. */
export class ReferenceSolver {
  readonly account: PrivateKeyAccount;
  private readonly client: PublicClient;
  private wallet?: WalletClient;
  private chain?: Chain;
  private readonly marketplace: MarketplaceClient;
  private readonly prices: PriceBook;
  private readonly aliases: Map<string, string>;
  private readonly assets = new Map<string, Promise<Asset | undefined>>();
  private readonly balances = new Map<string, { value: bigint; at: number }>();
  private readonly approved = new Set<string>();
  readonly open = new Map<string, ExecuteFrame>();
  private readonly filling = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private refresher?: NodeJS.Timeout;
  readonly filled: { intentHash: string; txHash: Hex }[] = [];

  constructor(
    private readonly config: ReferenceSolverConfig,
    private readonly logger: Logger,
  ) {
    this.account = privateKeyToAccount(config.SOLVER_PRIVATE_KEY as Hex);
    // Not viem's default 4 s, so a fill is seen as it lands.
    this.client = createPublicClient({ transport: http(config.HUB_RPC_URL, { timeout: 10_000 }), pollingInterval: config.RECEIPT_POLL_MS });
    this.prices = new PriceBook(config.ORACLE_URL, config.PRICE_MAX_AGE_SECONDS, logger);
    this.aliases = new Map(
      (config.PRICE_SYMBOL_ALIASES ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => pair.split('=') as [string, string]),
    );
    this.marketplace = new MarketplaceClient(config.MARKETPLACE_URL, config.SOLVER_CREDENTIAL, (frame) => this.onFrame(frame), logger);
  }

  get connected(): boolean {
    return this.marketplace.connected;
  }

  async start(): Promise<void> {
    const chainId = await this.client.getChainId();
    this.chain = defineChain({
      id: chainId,
      name: 'hub',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [this.config.HUB_RPC_URL] } },
    });
    this.wallet = createWalletClient({
      account: this.account,
      chain: this.chain,
      transport: http(this.config.HUB_RPC_URL, { timeout: 10_000 }),
    });
    this.marketplace.start();
    this.refresher = setInterval(() => void this.prices.refresh().then(() => this.retryOpen()), this.config.PRICE_REFRESH_MS);
    this.logger.info(
      { wallet: this.account.address, spreadBps: this.config.SPREAD_BPS, maxTradeUsd: this.config.MAX_TRADE_USD },
      'reference solver started',
    );
  }

  /** Reads these hub assets and prefetches their prices, so the first request for quote of them meets the deadline. */
  async warm(hubAssets: string[]): Promise<void> {
    const assets = (await Promise.all(hubAssets.map((a) => this.asset(a)))).filter((a): a is Asset => a !== undefined);
    await this.prices.prefetch(assets.map((a) => this.symbolOf(a.underlying?.asset ?? a)));
  }

  async stop(): Promise<void> {
    clearInterval(this.refresher);
    await this.marketplace.stop();
    await this.queue.catch(() => undefined);
  }

  private onFrame(frame: MarketplaceFrame): void {
    switch (frame.type) {
      case 'rfq':
        return void this.answer(frame);
      case 'execute':
        if (!this.open.has(frame.intent_hash)) {
          this.open.set(frame.intent_hash, frame);
          void this.tryFill(frame.intent_hash);
        }
        return;
      case 'welcome':
        return this.logger.info({ solverId: frame.solver_id, name: frame.name }, 'accepted by the marketplace');
      case 'error':
        return this.logger.warn({ code: frame.code, message: frame.message }, 'the marketplace refused a frame');
    }
  }

  /** Inside the asking quote's trace when the frame carries one and this solver traces. */
  private answer(rfq: RfqFrame): Promise<void> {
    if (!tracingEnabled()) return this.priceAndAnswer(rfq);
    const attributes = { 'solver.name': this.config.SOLVER_NAME, 'rfq.id': rfq.rfq_id };
    return inSpan('rfq answer', { kind: SpanKind.SERVER, parentHeaders: { traceparent: rfq.traceparent }, attributes }, () =>
      this.priceAndAnswer(rfq),
    );
  }

  private async priceAndAnswer(rfq: RfqFrame): Promise<void> {
    let priced: Priced;
    try {
      priced = await this.price(rfq.token_src, rfq.token_dst, BigInt(rfq.amount));
    } catch (error) {
      this.logger.warn({ err: error, rfq: rfq.rfq_id }, 'could not price a request for quote');
      priced = { code: SolverErrorCode.NoPathFound, message: 'pricing failed' };
    }
    if ('out' in priced) this.marketplace.send({ type: 'quote', rfq_id: rfq.rfq_id, quoted_amount: priced.out.toString() });
    else this.marketplace.send({ type: 'decline', rfq_id: rfq.rfq_id, code: priced.code, message: priced.message });
  }

  private async price(src: string, dst: string, amountIn: bigint): Promise<Priced> {
    const [inAsset, outAsset] = await Promise.all([this.asset(src), this.asset(dst)]);
    if (!inAsset || !outAsset) return { code: SolverErrorCode.NoPathFound, message: 'unknown asset' };
    const [inPrice, outPrice] = await Promise.all([this.priceOf(src, inAsset), this.priceOf(dst, outAsset)]);
    if (inPrice === undefined || outPrice === undefined)
      return {
        code: SolverErrorCode.NoPathFound,
        message: `no recent price for ${inPrice === undefined ? inAsset.symbol : outAsset.symbol}`,
      };
    const input: Side = { decimals: inAsset.decimals, price: inPrice };
    const output: Side = { decimals: outAsset.decimals, price: outPrice };
    if (usdValue(amountIn, input) > BigInt(this.config.MAX_TRADE_USD))
      return {
        code: SolverErrorCode.NoPrivateLiquidity,
        message: `above this solver's limit of ${this.config.MAX_TRADE_USD} USD per trade`,
      };
    const out = outputFor(amountIn, input, output, this.config.SPREAD_BPS);
    if (out === 0n) return { code: SolverErrorCode.NoPathFound, message: 'amount too small to quote' };
    if (out > (await this.capacity(dst, outAsset)))
      return { code: SolverErrorCode.QuoteNotFound, message: `not enough ${outAsset.symbol} inventory` };
    return { out, input, output };
  }

  /** A vault share: its underlying's price times what one share redeems for. */
  private async priceOf(address: string, asset: Asset): Promise<bigint | undefined> {
    if (!asset.underlying) return this.prices.price(this.symbolOf(asset));
    const [underlyingPrice, perShare] = await Promise.all([
      this.prices.price(this.symbolOf(asset.underlying.asset)),
      this.client.readContract({
        address: address as Address,
        abi: ERC4626_ABI,
        functionName: 'convertToAssets',
        args: [10n ** BigInt(asset.decimals)],
      }),
    ]);
    if (underlyingPrice === undefined) return undefined;
    return (underlyingPrice * perShare) / 10n ** BigInt(asset.underlying.asset.decimals);
  }

  /** What this wallet can deliver: its balance, and for a vault also the shares its underlying mints. */
  private async capacity(address: string, asset: Asset): Promise<bigint> {
    const held = await this.balance(address);
    if (!asset.underlying) return held;
    const underlying = await this.balance(asset.underlying.address);
    const mintable = await this.client.readContract({
      address: address as Address,
      abi: ERC4626_ABI,
      functionName: 'previewDeposit',
      args: [underlying],
    });
    return held + mintable;
  }

  /** Shares short of `out` are minted from the underlying first. */
  private async ensureShares(vault: Address, asset: Asset, out: bigint): Promise<void> {
    if (!asset.underlying) return;
    const held = await this.balance(vault);
    if (held >= out) return;
    await this.ensureApproval(asset.underlying.address, vault);
    const hash = await this.wallet!.writeContract({
      address: vault,
      abi: ERC4626_ABI,
      functionName: 'mint',
      args: [out - held, this.account.address],
      account: this.account,
      chain: this.chain,
    });
    const receipt = await this.client.waitForTransactionReceipt({ hash });
    this.balances.delete(vault.toLowerCase());
    this.balances.delete(asset.underlying.address.toLowerCase());
    if (receipt.status !== 'success') throw new Error(`minting ${out - held} shares of ${vault} reverted`);
  }

  /** Otherwise it stays open for the next refresh. */
  private async tryFill(intentHash: string): Promise<void> {
    const frame = this.open.get(intentHash);
    if (!frame || this.filling.has(intentHash)) return;
    const intent = frame.intent;
    const deadline = BigInt(intent.deadline);
    if (
      (deadline !== 0n && deadline * 1000n < BigInt(Date.now())) ||
      (intent.solver !== ZERO && intent.solver.toLowerCase() !== this.account.address.toLowerCase())
    ) {
      this.open.delete(intentHash);
      return;
    }
    let priced: Priced;
    try {
      priced = await this.price(intent.inputToken, intent.outputToken, BigInt(intent.inputAmount));
    } catch (error) {
      this.logger.warn({ err: error, intentHash }, 'could not price an intent');
      return;
    }
    if (!('out' in priced) || priced.out < BigInt(intent.minOutputAmount)) return;
    const out = priced.out;
    this.filling.add(intentHash);
    this.queue = this.queue.then(() => this.tracedFill(frame, out).finally(() => this.filling.delete(intentHash)));
    await this.queue;
  }

  /** Inside the trace of the execute that posted the intent when the frame carries one and this solver traces. */
  private tracedFill(frame: ExecuteFrame, out: bigint): Promise<void> {
    if (!tracingEnabled()) return this.fill(frame, out);
    const attributes = { 'solver.name': this.config.SOLVER_NAME, 'intent.hash': frame.intent_hash };
    return inSpan('intent fill', { kind: SpanKind.CONSUMER, parentHeaders: { traceparent: frame.traceparent }, attributes }, () =>
      this.fill(frame, out),
    );
  }

  /** Runs one at a time: one wallet, one nonce sequence. */
  private async fill(frame: ExecuteFrame, out: bigint): Promise<void> {
    const intent = frame.intent;
    const intents = this.config.INTENTS_CONTRACT as Address;
    try {
      const output = await this.asset(intent.outputToken);
      if (output) await this.ensureShares(intent.outputToken as Address, output, out);
      await this.ensureApproval(intent.outputToken as Address, intents);
      const { request } = await this.client.simulateContract({
        account: this.account,
        address: intents,
        abi: INTENTS_ABI,
        functionName: 'fillIntent',
        args: [intentValues(intent), BigInt(intent.inputAmount), out, 0n],
      });
      const txHash = await this.wallet!.writeContract({ ...request, account: this.account, chain: this.chain });
      const receipt = await this.client.waitForTransactionReceipt({ hash: txHash });
      this.balances.delete(intent.outputToken.toLowerCase());
      if (receipt.status !== 'success') {
        // Simulated fine, reverted on chain: another fill (or a cancel) landed first.
        const [open] = await this.client.readContract({
          address: intents,
          abi: INTENTS_ABI,
          functionName: 'intentStates',
          args: [frame.intent_hash as Hex],
        });
        if (!open) {
          this.open.delete(frame.intent_hash);
          this.logger.debug({ intentHash: frame.intent_hash, txHash }, 'lost the race for an intent');
          return;
        }
        throw new Error(`fill ${txHash} reverted`);
      }
      this.open.delete(frame.intent_hash);
      this.filled.push({ intentHash: frame.intent_hash, txHash });
      this.marketplace.send({ type: 'filled', intent_hash: frame.intent_hash, fill_tx_hash: txHash });
      this.logger.info({ intentHash: frame.intent_hash, txHash, output: out.toString() }, 'intent filled');
    } catch (error) {
      const reason = revertName(error);
      if (reason && LOST_RACE.has(reason)) {
        this.open.delete(frame.intent_hash);
        this.logger.debug({ intentHash: frame.intent_hash, reason }, 'intent no longer fillable');
        return;
      }
      this.logger.warn({ err: error, intentHash: frame.intent_hash }, 'fill failed; will retry on the next price refresh');
    }
  }

  private retryOpen(): void {
    for (const intentHash of this.open.keys()) void this.tryFill(intentHash);
  }

  private async ensureApproval(token: Address, spender: Address): Promise<void> {
    const pair = `${token}:${spender}`.toLowerCase();
    if (this.approved.has(pair)) return;
    const allowance = await this.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [this.account.address, spender],
    });
    if (allowance < maxUint256 / 2n) {
      const hash = await this.wallet!.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [spender, maxUint256],
        account: this.account,
        chain: this.chain,
      });
      await this.client.waitForTransactionReceipt({ hash });
    }
    this.approved.add(pair);
  }

  private asset(address: string): Promise<Asset | undefined> {
    const key = address.toLowerCase();
    let known = this.assets.get(key);
    if (!known) {
      known = Promise.all([
        this.client.readContract({ address: address as Address, abi: erc20Abi, functionName: 'symbol' }),
        this.client.readContract({ address: address as Address, abi: erc20Abi, functionName: 'decimals' }),
        // Only an ERC-4626 vault answers asset().
        this.client.readContract({ address: address as Address, abi: ERC4626_ABI, functionName: 'asset' }).catch(() => undefined),
      ])
        .then(async ([symbol, decimals, underlying]) => {
          if (!underlying) return { symbol, decimals };
          const asset = await this.asset(underlying);
          if (!asset) throw new Error(`the underlying ${underlying} of ${address} is not a token`);
          return { symbol, decimals, underlying: { address: underlying, asset } };
        })
        .catch(() => {
          this.assets.delete(key);
          return undefined;
        });
      this.assets.set(key, known);
    }
    return known;
  }

  private async balance(token: string): Promise<bigint> {
    const key = token.toLowerCase();
    const known = this.balances.get(key);
    if (known && Date.now() - known.at < BALANCE_TTL_MS) return known.value;
    const value = await this.client.readContract({
      address: token as Address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [this.account.address],
    });
    this.balances.set(key, { value, at: Date.now() });
    return value;
  }

  private symbolOf(asset: Asset): string {
    return this.aliases.get(asset.symbol) ?? asset.symbol;
  }
}

/** By selector: a node may return a revert viem does not decode. */
const ERROR_NAMES = new Map(INTENTS_ABI.filter((e) => e.type === 'error').map((e) => [toFunctionSelector(`${e.name}()`), e.name]));

function revertName(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const revert = error.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  return revert?.data?.errorName ?? (revert?.signature ? ERROR_NAMES.get(revert.signature) : undefined);
}
