/**
 * A complete cross-network swap through the public HTTP API, as an integrator writes it:
 *
 *   1. quote     POST /v1/swaps/quote                 what the solvers would pay
 *   2. build     POST /v1/swaps/intents               the unsigned transaction (after an approve, if needed)
 *   3. sign      locally, with the user's key         the platform never sees a private key
 *   4. broadcast to the source chain's RPC
 *   5. submit    POST /v1/swaps/submit-tx             then follow GET /v1/swaps/submit-tx/events (server-sent
 *                                                     events) to solved or failed (polling the status if it cannot)
 *
 * It uses the typed client (libs/swap-client, generated from the OpenAPI document) and viem
 * for the wallet. Against `npm start` it needs no settings (the devnet's demo wallet, the
 * RPCs from the devnet's profile).
 *
 *   API_URL        the platform (default http://127.0.0.1:3000)
 *   PRIVATE_KEY    the wallet (default: anvil development key #1, funded on the devnet; test money only)
 *   API_KEY        sent as x-api-key when set
 *   FROM, TO       source and destination chain keys (default 0xa4b1.arbitrum → 0x2105.base)
 *   TOKEN_IN, TOKEN_OUT   token symbols (default USDC → USDC); AMOUNT in token units (default 10)
 *   RPC_URLS       key=url,… for the two chains; otherwise read from CHAIN_PROFILE
 *                  (default $DATA_DIR/devnet/profile.json, DATA_DIR as `npm start` was given it or .data)
 *   SLIPPAGE_BPS   accepted shortfall from the quote (default 100 = 1 %); POLL_MS (default 3000, the polling fallback's)
 */
import { readFileSync } from 'node:fs';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  formatUnits,
  http,
  parseUnits,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createSwapClient, isEvmTx, type SubmissionStatus, type SwapClient, type Token } from '@swap/client';

const DEMO_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const NATIVE = '0x0000000000000000000000000000000000000000';

type Status = SubmissionStatus;
export interface SwapOptions {
  apiUrl: string;
  privateKey: Hex;
  apiKey?: string;
  from: string;
  to: string;
  tokenIn: string;
  tokenOut: string;
  amount: string;
  rpcUrls: Record<string, string>;
  slippageBps: number;
  pollMs: number;
  /** Give up polling after this long (the status route keeps the answer; you can poll again later). */
  timeoutMs: number;
}

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): SwapOptions {
  return { ...commonOptionsFromEnv(env, '10'), pollMs: Number(env.POLL_MS ?? 3000) };
}

/** The settings example:swap and example:vault share; `amount` in token units when AMOUNT is not set. */
export function commonOptionsFromEnv(env: NodeJS.ProcessEnv, amount: string): Omit<SwapOptions, 'pollMs'> {
  return {
    apiUrl: (env.API_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, ''),
    privateKey: (env.PRIVATE_KEY ?? DEMO_KEY) as Hex,
    apiKey: env.API_KEY || undefined,
    from: env.FROM ?? '0xa4b1.arbitrum',
    to: env.TO ?? '0x2105.base',
    tokenIn: env.TOKEN_IN ?? 'USDC',
    tokenOut: env.TOKEN_OUT ?? 'USDC',
    amount: env.AMOUNT ?? amount,
    rpcUrls: env.RPC_URLS
      ? parseRpcUrls(env.RPC_URLS)
      : rpcUrlsFromProfile(env.CHAIN_PROFILE ?? `${env.DATA_DIR ?? '.data'}/devnet/profile.json`),
    slippageBps: Number(env.SLIPPAGE_BPS ?? 100),
    timeoutMs: Number(env.TIMEOUT_MS ?? 600_000),
  };
}

function parseRpcUrls(list: string): Record<string, string> {
  return Object.fromEntries(list.split(',').map((pair) => pair.split('=').map((s) => s.trim()) as [string, string]));
}

function rpcUrlsFromProfile(path: string): Record<string, string> {
  let profile: { chains: { key: string; rpcUrls?: string[] }[] };
  try {
    profile = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new Error(
      `No RPC URLs: set RPC_URLS=key=url,… or CHAIN_PROFILE to a chain profile (${path} is not readable; \`npm start\` writes it under its DATA_DIR: give this example the same DATA_DIR)`,
    );
  }
  return Object.fromEntries(profile.chains.filter((c) => c.rpcUrls?.length).map((c) => [c.key, c.rpcUrls![0]]));
}

/** The five steps; `log` receives every line the example prints. Resolves with the final status. */
export async function runSwap(options: SwapOptions, log: (line: string) => void = console.log): Promise<Status> {
  const api = createSwapClient({ baseUrl: options.apiUrl, apiKey: options.apiKey });

  const account = privateKeyToAccount(options.privateKey);
  const chains = { src: await connect(options.from, options.rpcUrls), dst: await connect(options.to, options.rpcUrls) };
  const wallet = createWalletClient({ account, chain: chains.src.chain, transport: http(chains.src.url) });
  const tokenIn = await findToken(api, options.from, options.tokenIn);
  const tokenOut = await findToken(api, options.to, options.tokenOut);
  const amount = parseUnits(options.amount, tokenIn.decimals);
  const balances = async () => ({
    in: await balanceOf(chains.src.client, tokenIn, account.address),
    out: await balanceOf(chains.dst.client, tokenOut, account.address),
  });
  const before = await balances();
  log(`wallet ${account.address}`);
  log(
    `  before: ${formatUnits(before.in, tokenIn.decimals)} ${tokenIn.symbol} on ${options.from}, ${formatUnits(before.out, tokenOut.decimals)} ${tokenOut.symbol} on ${options.to}`,
  );

  // 1. Quote: the best price the solvers offer now.
  const quote = await api.quote({
    tokenSrc: tokenIn.address,
    tokenSrcChainKey: options.from,
    tokenDst: tokenOut.address,
    tokenDstChainKey: options.to,
    amount: amount.toString(),
    quoteType: 'exact_input',
  });
  const minOutput = (BigInt(quote.quotedAmount) * BigInt(10_000 - options.slippageBps)) / 10_000n;
  log(
    `1. quote     ${options.amount} ${tokenIn.symbol} → ${formatUnits(BigInt(quote.quotedAmount), tokenOut.decimals)} ${tokenOut.symbol} (at least ${formatUnits(minOutput, tokenOut.decimals)} with ${options.slippageBps} bps slippage)`,
  );

  // 2. Build: the intent and its unsigned transaction; an ERC-20 input may need an approve first.
  const deadline = await api.deadline(); // the hub's block time + 300 s, the public client's default
  const intentRequest = {
    srcChainKey: options.from,
    dstChainKey: options.to,
    inputToken: tokenIn.address,
    outputToken: tokenOut.address,
    inputAmount: amount.toString(),
    minOutputAmount: minOutput.toString(),
    deadline,
    allowPartialFill: false,
    srcAddress: account.address,
    dstAddress: account.address,
    // solver (any) and data (0x) are the client's defaults
  };
  const allowance = await api.allowance(intentRequest);
  if (!allowance.valid) {
    const approval = await api.approve(intentRequest);
    if (approval.tx) {
      const hash = await wallet.sendTransaction({
        to: approval.tx.to as Address,
        data: approval.tx.data as Hex,
        value: BigInt(approval.tx.value),
      });
      await chains.src.client.waitForTransactionReceipt({ hash });
      log(`   approve    ${hash}`);
    }
  }
  const built = await api.buildIntent(intentRequest);
  // This example swaps between EVM chains; other networks answer their own transaction form.
  if (!isEvmTx(built.tx)) throw new Error(`${intentRequest.srcChainKey} answered a ${built.tx.encoding} transaction, not an EVM one`);
  const tx = built.tx;
  log(`2. build     to ${tx.to}, ${tx.data.length / 2 - 1} bytes of calldata, intent ${String(built.intent.intentId).slice(0, 12)}…`);

  // 3 and 4. Sign locally and broadcast to the source chain.
  const txHash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data as Hex, value: BigInt(tx.value) });
  log(`3. sign      signed by ${account.address} (locally; the key never leaves this process)`);
  const receipt = await chains.src.client.waitForTransactionReceipt({ hash: txHash });
  log(`4. broadcast ${txHash} mined in block ${receipt.blockNumber} (${receipt.status})`);
  if (receipt.status !== 'success') throw new Error(`The source transaction reverted: ${txHash}`);

  // 5. Submit, then poll until solved or failed. A lost answer (5xx, no connection) is retried
  // for a minute: submitting is idempotent, and inserted or duplicate both mean tracked.
  const submitted = await api.submit(
    {
      txHash,
      srcChainKey: options.from,
      walletAddress: account.address,
      intent: built.intent,
      relayData: built.relayData.payload,
    },
    { onRetry: ({ attempt, error, delayMs }) => log(`   submit answer lost (${String(error)}); retry ${attempt} in ${delayMs} ms`) },
  );
  log(
    `5. submit    ${submitted.data.status}; following its status stream (polling every ${options.pollMs / 1000} s if the stream cannot be had)`,
  );
  // Each transition as it happens, once, in order (resumed with Last-Event-ID if the stream breaks).
  let status: SubmissionStatus | undefined;
  const watching = AbortSignal.timeout(options.timeoutMs);
  for await (const event of api.watchSubmission(txHash, options.from, { pollIntervalMs: options.pollMs, signal: watching })) {
    const step = event.data.history[event.seq - 1];
    log(`   ${step.status.padEnd(17)} ${step.at}${step.detail ? `  ${step.detail}` : ''}`);
    status = event.data;
  }
  if (!status?.terminal)
    throw new Error(`Not settled within ${Math.round(options.timeoutMs / 1000)} s; follow it again later (the status is kept)`);
  if (status.status === 'failed') {
    log(`failed: ${status.userMessage ?? 'no message'}`);
    return status;
  }
  log(
    `solved: hub ${status.result?.hubTxHash}, fill ${status.result?.fillTxHash}${status.result?.deliveryTxHash ? `, delivered ${status.result.deliveryTxHash}` : ''}`,
  );
  const after = await balances();
  log(
    `  after:  ${formatUnits(after.in, tokenIn.decimals)} ${tokenIn.symbol} on ${options.from} (${formatUnits(after.in - before.in, tokenIn.decimals)}), ${formatUnits(after.out, tokenOut.decimals)} ${tokenOut.symbol} on ${options.to} (+${formatUnits(after.out - before.out, tokenOut.decimals)})`,
  );
  return status;
}

export async function connect(key: string, rpcUrls: Record<string, string>): Promise<{ chain: Chain; client: PublicClient; url: string }> {
  const url = rpcUrls[key];
  if (!url) throw new Error(`No RPC URL for ${key}: add it to RPC_URLS (key=url,…)`);
  const probe = createPublicClient({ transport: http(url) });
  const id = await probe.getChainId();
  const chain = defineChain({
    id,
    name: key,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  return { chain, client: createPublicClient({ chain, transport: http(url), pollingInterval: 250 }), url };
}

export async function findToken(api: SwapClient, chainKey: string, symbol: string): Promise<Token> {
  const tokens = await api.tokensOf(chainKey);
  const token = tokens.find((t) => t.symbol.toLowerCase() === symbol.toLowerCase());
  if (!token) throw new Error(`${chainKey} has no ${symbol} (it has ${tokens.map((t) => t.symbol).join(', ')})`);
  return token;
}

export function balanceOf(client: PublicClient, token: Token, owner: Address): Promise<bigint> {
  if (token.address === NATIVE) return client.getBalance({ address: owner });
  return client.readContract({ address: token.address as Address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}

if (require.main === module) {
  runSwap(optionsFromEnv())
    .then((status) => process.exit(status.status === 'solved' ? 0 : 2))
    .catch((error: Error) => {
      console.error(`example:swap failed: ${error.message}`);
      process.exit(1);
    });
}
