import { INTENTS_ABI, loadChainDirectory, type ChainDirectory } from '@swap/chains';
import type { BuildResponse, EvmTx } from '@swap/contracts';
import { eventually, HermesDouble, intentRequestBody, jsonOf, LogCapture, postJson } from '@swap/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  erc20Abi,
  http,
  parseUnits,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startPlatform, type Platform } from '../../../tools/embedded/src/platform';
import { DEV_KEYS } from '../../../tools/devnet/src/devnet';

jest.setTimeout(120_000);

/** Pyth feed ids of the oracle's markets.json: the prices this test moves. */
const FEED = {
  ETH: 'ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace',
  USDC: 'eaa020c61cc479712813461ce153894a96a6c00b21ed0cfc2798d1f9a9e9c94a',
};
const ZERO = '0x0000000000000000000000000000000000000000';

describe('quotes from competing solvers, filled on the devnet (npm start’s platform)', () => {
  const hermes = new HermesDouble();
  const logs = new LogCapture();
  const user = privateKeyToAccount(DEV_KEYS[1]);
  let platform: Platform;
  let dataDir: string;
  let directory: ChainDirectory;
  let hub: PublicClient;
  let wallet: WalletClient;
  let gateway: string;

  const setPrices = (eth: string) => {
    const now = Math.floor(Date.now() / 1000);
    hermes.push([
      { id: FEED.ETH, price: parseUnits(eth, 8).toString(), expo: -8, publishTime: now },
      { id: FEED.USDC, price: '100000000', expo: -8, publishTime: now },
    ]);
  };
  const token = (symbol: string) => directory.tokensOf('0x92.sonic').find((t) => t.symbol === symbol)!.address as Address;
  const post = (path: string, body: unknown) => postJson(`${gateway}${path}`, body);
  const send = async (tx: EvmTx): Promise<Hex> => {
    const hash = await wallet.sendTransaction({
      to: tx.to as Address,
      data: tx.data as Hex,
      value: BigInt(tx.value),
      account: user,
      chain: wallet.chain,
    });
    expect((await hub.waitForTransactionReceipt({ hash })).status).toBe('success');
    return hash;
  };
  const balance = (asset: Address, owner: Address) =>
    hub.readContract({ address: asset, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
  const intentBody = (input: Address, output: Address, amount: string) =>
    intentRequestBody({
      srcChainKey: '0x92.sonic',
      dstChainKey: '0x92.sonic',
      inputToken: input,
      outputToken: output,
      inputAmount: amount,
      user: user.address,
    });
  const approve = async (input: Address, output: Address, amount: string) => {
    const approval = await post('/v1/swaps/approve', { ...intentBody(input, output, amount), deadline: '0' });
    if (approval.body.tx) await send(approval.body.tx);
  };
  // Generous: on a busy 2-core CI run a fill once took longer than 20 s; what each test asserts is not how fast.
  const solvedStatus = (intentTxHash: Hex) =>
    eventually(
      async () => {
        const status = await post('/v1/swaps/intents/status', { intentTxHash });
        return status.body.status === 3 ? status.body : undefined;
      },
      60_000,
      100,
    );

  beforeAll(async () => {
    await hermes.start();
    setPrices('3000');
    dataDir = await mkdtemp(join(tmpdir(), 'marketplace-e2e-'));
    platform = await startPlatform({
      dataDir,
      gatewayPort: 0,
      servicePorts: 'ephemeral',
      logLevel: 'info',
      logDestination: logs,
      devnet: true,
      env: { PRICE_SOURCE: 'hermes', HERMES_URL: hermes.url, FLUSH_INTERVAL_MS: '100', CANDLE_CACHE_TTL_MS: '0', EXCLUSIVITY_MS: '1000' },
      solverEnv: { PRICE_REFRESH_MS: '200' },
    });
    gateway = platform.gatewayUrl;
    directory = loadChainDirectory(platform.devnet!.profilePath);
    const rpc = directory.hub.rpcUrls![0];
    const chain = defineChain({
      id: 146,
      name: 'hub',
      nativeCurrency: { name: 'S', symbol: 'S', decimals: 18 },
      rpcUrls: { default: { http: [rpc] } },
    });
    hub = createPublicClient({ chain, transport: http(rpc), pollingInterval: 100 });
    wallet = createWalletClient({ chain, transport: http(rpc), account: user });
    // The oracle has the pushed prices once its first flush lands.
    await eventually(async () => (await jsonOf(await fetch(`${gateway}/v1/be/oracle/markets`))).symbols.includes('ETH'), 10_000, 100);
  });

  afterAll(async () => {
    await platform?.stop();
    await hermes.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs two reference solvers with different spreads, both connected', async () => {
    expect(platform.solvers.map((s) => [s.name, s.spreadBps, s.solver.connected])).toEqual([
      ['reference-tight', 20, true],
      ['reference-wide', 45, true],
    ]);
  });

  it('quote → build with includeTxData → sign → send on the hub → posted to the solvers → the best one fills on chain', async () => {
    const usdc = token('USDC');
    const weth = token('WETH');
    await approve(usdc, weth, '3000000000');

    const quote = await post('/v1/swaps/quote?includeTxData=true', {
      tokenSrc: usdc,
      tokenSrcChainKey: '0x92.sonic',
      tokenDst: weth,
      tokenDstChainKey: '0x92.sonic',
      amount: '3000000000',
      quoteType: 'exact_input',
      srcAddress: user.address,
      dstAddress: user.address,
    });
    expect(quote.status).toBe(200);
    // 3 000 USDC at $1 for WETH at $3 000: 1 WETH, less the tighter solver's 20 bps.
    expect(quote.body.quotedAmount).toBe('998000000000000000');
    const txData = quote.body.txData as BuildResponse & { tx: EvmTx };
    expect(txData.intent).toMatchObject({
      inputAmount: '3000000000',
      minOutputAmount: '993010000000000000',
      allowPartialFill: false,
      solver: ZERO,
      data: '0x',
    });
    const deadline = Number(txData.intent.deadline) - Math.floor(Date.now() / 1000);
    expect(deadline).toBeGreaterThan(290);
    expect(deadline).toBeLessThanOrEqual(302);

    const tight = platform.solvers[0].solver.account.address;
    const [wethBefore, solverUsdcBefore] = await Promise.all([balance(weth, user.address), balance(usdc, tight)]);
    const intentTx = await send(txData.tx);
    const executed = await post('/v1/intent/execute', { intent_tx_hash: intentTx, quote_uuid: quote.body.quoteId });
    expect(executed.status).toBe(200);
    expect(executed.body.answer).toBe('OK');
    // Idempotent by intent: the same answer, nothing handed out again.
    expect((await post('/v1/intent/execute', { intent_tx_hash: intentTx, quote_uuid: quote.body.quoteId })).body).toEqual(executed.body);

    const solved = await solvedStatus(intentTx);
    expect(solved.intentHash).toBe(executed.body.intent_hash);
    const fill = await hub.getTransactionReceipt({ hash: solved.fillTxHash });
    expect(fill.from.toLowerCase()).toBe(tight.toLowerCase());
    const filled = fill.logs
      .filter((l) => l.address.toLowerCase() === directory.hub.contracts!.intents!.toLowerCase())
      .map((l) => decodeEventLog({ abi: INTENTS_ABI, data: l.data, topics: l.topics }))
      .find((e) => e.eventName === 'IntentFilled');
    expect(filled?.args).toMatchObject({
      intentHash: executed.body.intent_hash,
      intentState: { exists: false, remainingInput: 0n, receivedOutput: 998000000000000000n, pendingPayment: false },
    });
    expect((await balance(weth, user.address)) - wethBefore).toBe(998000000000000000n);
    expect((await balance(usdc, tight)) - solverUsdcBefore).toBe(3000000000n);
    expect((await post('/v1/intent/status', { intent_tx_hash: intentTx })).body).toEqual({ status: 3, fill_tx_hash: solved.fillTxHash });
    // The dashboards' win share and fills per solver: the quote won, the fill confirmed by the hub.
    const quoteBuilder = platform.services.find((s) => s.name === 'quote-builder')!;
    const counted = async (metric: string) =>
      Number(
        (await (await fetch(`${quoteBuilder.adminUrl}/metrics`)).text()).match(
          new RegExp(`^${metric}\\{solver="reference-tight"[^}]*\\} (\\d+)`, 'm'),
        )?.[1] ?? 0,
      );
    expect(await counted('solver_quotes_won_total')).toBeGreaterThanOrEqual(1);
    await eventually(async () => ((await counted('solver_fills_total')) >= 1 ? true : undefined), 10_000, 100);
  });

  it('fills a limit order only once the price crosses its limit', async () => {
    const usdc = token('USDC');
    const weth = token('WETH');
    await approve(weth, usdc, parseUnits('1', 18).toString());
    // Sell 1 WETH for at least 3 300 USDC while ETH is at $3 000.
    const order = await post('/v1/swaps/limit-orders', {
      ...intentBody(weth, usdc, parseUnits('1', 18).toString()),
      minOutputAmount: '3300000000',
    });
    expect(order.status).toBe(200);
    expect(order.body.intent.deadline).toBe('0');
    const orderTx = await send(order.body.tx);
    const executed = await post('/v1/intent/execute', { intent_tx_hash: orderTx });
    expect(executed.status).toBe(200);
    const hash = executed.body.intent_hash as string;

    // Both solvers hold it and judge it below the market on every refresh (200 ms).
    await eventually(() => platform.solvers.every((s) => s.solver.open.has(hash)), 10_000, 50);
    await new Promise((r) => setTimeout(r, 800));
    expect((await post('/v1/swaps/intents/status', { intentTxHash: orderTx })).body.status).toBe(2);
    const [exists] = await hub.readContract({
      address: directory.hub.contracts!.intents as Address,
      abi: INTENTS_ABI,
      functionName: 'intentStates',
      args: [hash as Hex],
    });
    expect(exists).toBe(true);

    const usdcBefore = await balance(usdc, user.address);
    setPrices('3400');
    const solved = await solvedStatus(orderTx);
    expect(solved.fillTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    // No quote, no exclusivity: both solvers race. At $3 400 the tighter one pays 3 393.2
    // USDC (20 bps), the wider one 3 384.7 (45 bps); either is above the limit.
    expect([3_393_200_000n, 3_384_700_000n]).toContain((await balance(usdc, user.address)) - usdcBefore);
  });

  it('estimates gas of a built transaction at the chain’s prices, and says when it would fail', async () => {
    const usdc = token('USDC');
    const weth = token('WETH');
    const approval = await post('/v1/swaps/approve', { ...intentBody(usdc, weth, '5'), deadline: '0' });
    const estimate = await post('/v1/swaps/gas/estimate', { chainKey: '0x92.sonic', tx: approval.body.tx });
    expect(estimate.status).toBe(200);
    expect(estimate.body.unit).toBe('wei');
    expect(BigInt(estimate.body.gas)).toBeGreaterThan(21_000n);
    expect(BigInt(estimate.body.fee)).toBe(BigInt(estimate.body.gas) * BigInt(estimate.body.price));

    // A limit order for more than the wallet holds cannot be created: the chain says so.
    const order = await post('/v1/swaps/limit-orders', {
      ...intentBody(usdc, weth, parseUnits('999999999', 6).toString()),
      minOutputAmount: '1',
    });
    const failing = await post('/v1/swaps/gas/estimate', { chainKey: '0x92.sonic', tx: order.body.tx });
    expect(failing.status).toBe(422);
    expect(failing.body.code).toBe('TRANSACTION_WOULD_FAIL');

    // More native ETH than the wallet holds: the node refuses it, and that is the transaction's fault.
    const eth = directory.tokensOf('0xa4b1.arbitrum').find((t) => t.symbol === 'ETH')!.address as Address;
    const deposit = await post('/v1/swaps/limit-orders', {
      ...intentBody(eth, weth, parseUnits('1000000', 18).toString()),
      srcChainKey: '0xa4b1.arbitrum',
    });
    expect(deposit.status).toBe(200);
    const rich = await post('/v1/swaps/gas/estimate', { chainKey: '0xa4b1.arbitrum', tx: deposit.body.tx });
    expect([rich.status, rich.body.code]).toEqual([422, 'TRANSACTION_WOULD_FAIL']);

    const bad = await post('/v1/swaps/gas/estimate', { chainKey: '0x92.sonic', tx: { from: 'me', to: approval.body.tx.to, data: 'zz' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['tx.from', 'tx.data']);
    const missing = await post('/v1/swaps/gas/estimate', { chainKey: '0x92.sonic' });
    expect([missing.status, missing.body.message]).toEqual([400, 'tx is required']);
  });

  it('gives the quote’s winner the intent alone for EXCLUSIVITY_MS, then every solver (last: it stops a solver)', async () => {
    const usdc = token('USDC');
    const weth = token('WETH');
    await approve(usdc, weth, '1000000000');
    const quote = await post('/v1/swaps/quote?includeTxData=true', {
      tokenSrc: usdc,
      tokenSrcChainKey: '0x92.sonic',
      tokenDst: weth,
      tokenDstChainKey: '0x92.sonic',
      amount: '1000000000',
      quoteType: 'exact_input',
      srcAddress: user.address,
      dstAddress: user.address,
    });
    // The tighter solver wins the quote, then goes away before the intent is executed.
    const [tight, wide] = platform.solvers;
    await tight.solver.stop();
    const intentTx = await send(quote.body.txData.tx);
    const started = Date.now();
    expect((await post('/v1/intent/execute', { intent_tx_hash: intentTx, quote_uuid: quote.body.quoteId })).status).toBe(200);
    // A fill not seen has failed on busy runs now and then, cause not yet known: say what the platform and solvers logged.
    const solved = await solvedStatus(intentTx).catch((error: Error) => {
      const said = logs.where((l) => l.level === 'warn' || l.level === 'error').slice(-20);
      throw new Error(`${error.message}; warnings and errors logged meanwhile: ${JSON.stringify(said)}`);
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const fill = await hub.getTransactionReceipt({ hash: solved.fillTxHash });
    expect(fill.from.toLowerCase()).toBe(wide.solver.account.address.toLowerCase());
  });

  it('limits the keyless solver API per client (last: it uses up this client’s minute): 429 in the solver shape, at most one hub read per unknown transaction', async () => {
    const quoteBuilder = platform.services.find((s) => s.name === 'quote-builder')!;
    const hubReads = async () => {
      const text = await (await fetch(`${quoteBuilder.adminUrl}/metrics`)).text();
      return [...text.matchAll(/^execute_hub_reads_total\{[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    };
    const raw = (path: string, body: unknown) =>
      fetch(`${gateway}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const inBatches = async (n: number, call: (i: number) => Promise<Response>) => {
      const answers: { status: number; body: unknown; retryAfter: string | null; policy: string | null }[] = [];
      for (let i = 0; i < n; i += 20) {
        const batch = await Promise.all(Array.from({ length: Math.min(20, n - i) }, (_, j) => call(i + j)));
        for (const res of batch)
          answers.push({
            status: res.status,
            body: await jsonOf(res),
            retryAfter: res.headers.get('retry-after'),
            policy: res.headers.get('ratelimit-policy'),
          });
      }
      return answers;
    };

    // 300 executes of 10 transactions the hub does not know: the limit (60 a minute) answers most; the hub is read once per hash.
    const before = await hubReads();
    const unknown = Array.from({ length: 10 }, (_, i) => `0x${'e'.repeat(62)}${String(i).padStart(2, '0')}`);
    const executes = await inBatches(300, (i) => raw('/v1/intent/execute', { intent_tx_hash: unknown[i % 10] }));
    const limited = executes.filter((a) => a.status === 429);
    expect(executes.filter((a) => a.status !== 429 && a.status !== 404)).toEqual([]);
    expect(limited.length).toBeGreaterThanOrEqual(300 - 2 * 60);
    expect(limited[0]).toEqual({
      status: 429,
      body: {
        detail: {
          code: -429,
          message: expect.stringMatching(/^Too many execute requests from this client: at most 60 a minute; retry after \d+ s$/),
        },
      },
      retryAfter: expect.stringMatching(/^\d+$/),
      policy: '"execute";q=60;w=60',
    });
    expect((await hubReads()) - before).toBeLessThanOrEqual(unknown.length);

    // Quotes: 120 a minute (each is an RFQ to every solver and a stored row); past it, 429 before any solver is asked.
    const amounts = await inBatches(140, () =>
      raw('/v1/intent/quote', { token_src: token('USDC'), token_dst: token('WETH'), amount: '1000000', quote_type: 'exact_input' }),
    );
    expect(amounts.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(140 - 120);
    expect(amounts.find((a) => a.status === 429)?.body).toEqual({
      detail: { code: -429, message: expect.stringContaining('quote requests') },
    });
  });
});
