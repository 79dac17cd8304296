import { LEVERAGE_VAULT_ABI, loadChainDirectory, type ChainDirectory } from '@swap/chains';
import { eventually, LogCapture, sampleIntent } from '@swap/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_KEYS } from '../../../tools/devnet/src/devnet';
import { startPlatform, type Platform } from '../../../tools/embedded/src/platform';
import { createSwapClient, isEvmTx, SwapApiError, type EvmTx, type NetworkTx } from '@swap/client';
import { Browser } from './portal-browser';
import { publicBackendCalls } from './public-backend-client';
import { contractMiddleware, OpenApiContract, parseBody, type Exchange } from './openapi-contract';
import { setSwapsMode } from './platform-ops';

jest.setTimeout(180_000);

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The public API as an integrator meets it, on `npm start`'s platform (devnet): the public
 * client's calls in its own shapes (no `solver` or `data` in intent bodies, `/deadline`
 * without an offset, `success` read from the status, `hubAsset` and `vault` read from
 * tokens), then every documented route walked with a good and a bad request. Every answer
 * is checked against the merged OpenAPI document: its status must be documented for the
 * route and its body must match the schema.
 */
const VAULT_FEE_ADDRESS = '0x000000000000000000000000000000000000Fee7';

describe('the public API against its OpenAPI document (npm start’s platform, devnet)', () => {
  const logs = new LogCapture();
  const user = privateKeyToAccount(DEV_KEYS[2]);
  let platform: Platform;
  let dataDir: string;
  let directory: ChainDirectory;
  let contract: OpenApiContract;
  /** The typed client (libs/swap-client), every answer it receives checked against the document. */
  const typed = () => createSwapClient({ baseUrl: platform.gatewayUrl, middleware: [contractMiddleware(contract)] });
  const clients = new Map<string, { read: PublicClient; write: WalletClient }>();

  const token = (key: string, symbol: string) => directory.tokensOf(key).find((t) => t.symbol === symbol)!.address as Address;
  /** One request through the gateway, checked against the document. */
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Exchange> => {
    const res = await fetch(`${platform.gatewayUrl}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const exchange = { method, path, status: res.status, body: parseBody(await res.text()) as any, headers: res.headers };
    contract.check(exchange);
    return exchange;
  };
  const ok = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const r = await api(method, path, body, headers);
    expect({ route: `${method} ${path}`, outcome: r.status >= 200 && r.status < 300 ? 'ok' : { status: r.status, body: r.body } }).toEqual({
      route: `${method} ${path}`,
      outcome: 'ok',
    });
    return r.body;
  };
  const send = async (key: string, built: EvmTx | NetworkTx): Promise<Hex> => {
    if (!isEvmTx(built)) throw new Error(`an EVM transaction was expected on ${key}`);
    const tx = built;
    const c = clients.get(key)!;
    const hash = await c.write.sendTransaction({
      to: tx.to as Address,
      data: tx.data as Hex,
      value: BigInt(tx.value),
      account: user,
      chain: c.write.chain,
    });
    const receipt = await c.read.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return hash;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'public-api-e2e-'));
    platform = await startPlatform({
      dataDir,
      gatewayPort: 0,
      servicePorts: 'ephemeral',
      logLevel: 'warn',
      logDestination: logs,
      devnet: true,
      env: {
        STEP_POLL_MS: '150',
        SIMULATION_TICK_MS: '200',
        FLUSH_INTERVAL_MS: '200',
        SCRYPT_LOG_N: '10',
        // The leveraged-yield family's own fee (0.2%), which the swaps do not pay.
        VAULT_PARTNER_FEE_ADDRESS: VAULT_FEE_ADDRESS,
        VAULT_PARTNER_FEE_PERCENTAGE: '20',
      },
      solverEnv: { PRICE_REFRESH_MS: '300' },
    });
    directory = loadChainDirectory(platform.devnet!.profilePath);
    for (const c of directory.chains.filter((x) => x.type === 'EVM')) {
      const chain = defineChain({
        id: c.chainId as number,
        name: c.name,
        nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 },
        rpcUrls: { default: { http: c.rpcUrls! } },
      });
      clients.set(c.key, {
        read: createPublicClient({ chain, transport: http(c.rpcUrls![0]), pollingInterval: 100 }),
        write: createWalletClient({ chain, transport: http(c.rpcUrls![0]), account: user }),
      });
    }
    const doc = (await (await fetch(`${platform.gatewayUrl}/v1/openapi.json`)).json()) as any;
    expect(doc.info['x-partial']).toBeUndefined();
    contract = new OpenApiContract(doc);
  });

  afterAll(async () => {
    await platform?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const swap = { src: '0xa4b1.arbitrum', dst: '0x92.sonic' };
  let deposited: { hubWallet: Address; shares: bigint } | undefined;
  let built: any;
  let sourceTx: Hex;

  it('runs the public client’s swap in its own shapes with the typed client: tokens, deadline, quote, fee, allowance, approve, intents, submit, status', async () => {
    const client = typed();
    const tokens = await client.tokens();
    for (const t of Object.values(tokens).flat())
      expect(t).toEqual(expect.objectContaining({ hubAsset: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), vault: expect.any(String) }));
    expect((await client.tokensOf(swap.src)).map((t) => t.symbol)).toEqual(['ETH', 'USDC', 'WETH']);

    const hubTime = Number((await clients.get(swap.dst)!.read.getBlock()).timestamp);
    // The public client's call: no offset (the service defaults it to 300 s, as the client does).
    const { deadline } = await ok('GET', '/v1/swaps/deadline');
    expect(Number(deadline) - hubTime).toBeGreaterThanOrEqual(299);
    expect(Number(deadline) - hubTime).toBeLessThanOrEqual(302);
    expect(Number(await client.deadline()) - Number(deadline)).toBeLessThanOrEqual(2);
    const tooFar = await api('GET', '/v1/swaps/deadline?offsetSeconds=604801');
    expect({ status: tooFar.status, message: tooFar.body.message }).toEqual({
      status: 400,
      message: 'offsetSeconds must be a positive integer of seconds (1 to 604800)',
    });

    const amount = '25000000';
    const quote = await client.quote({
      tokenSrc: token(swap.src, 'USDC'),
      tokenSrcChainKey: swap.src,
      tokenDst: token(swap.dst, 'WETH'),
      tokenDstChainKey: swap.dst,
      amount,
      quoteType: 'exact_input',
    });
    expect(BigInt(quote.quotedAmount)).toBeGreaterThan(0n);
    expect(await client.partnerFee(amount)).toMatchObject({ amount, fee: '0', partnerFee: null });

    // The public client's intent body: no solver, no data (it defaults them), its own slippage.
    const intentBody = {
      srcChainKey: swap.src,
      dstChainKey: swap.dst,
      inputToken: token(swap.src, 'USDC'),
      outputToken: token(swap.dst, 'WETH'),
      inputAmount: amount,
      minOutputAmount: ((BigInt(quote.quotedAmount) * 99n) / 100n).toString(),
      deadline,
      allowPartialFill: false,
      srcAddress: user.address,
      dstAddress: user.address,
    };
    // Sent as the public client sends it (no solver, no data), not through our client's defaults.
    const bare = await ok('POST', '/v1/swaps/allowance/check', intentBody);
    if (!bare.valid) {
      const approval = await client.approve(intentBody);
      await send(swap.src, approval.tx!);
      expect((await client.allowance(intentBody)).valid).toBe(true);
    }
    built = await ok('POST', '/v1/swaps/intents', intentBody);
    expect(built.intent).toMatchObject({ solver: '0x0000000000000000000000000000000000000000', data: '0x' });
    sourceTx = await send(swap.src, built.tx);

    const submit = {
      txHash: sourceTx,
      srcChainKey: swap.src,
      walletAddress: user.address,
      intent: built.intent,
      relayData: built.relayData.payload,
    };
    expect(await client.submit(submit)).toEqual({ success: true, data: expect.objectContaining({ status: 'inserted' }) });
    expect((await client.submit(submit)).data.status).toBe('duplicate');
    // The public client's status reader looks for `success` in the body.
    const polled = await ok('GET', `/v1/swaps/submit-tx/status?txHash=${sourceTx}&srcChainKey=${swap.src}`);
    expect(polled.success).toBe(true);
    const seen: string[] = [];
    const done = await client.waitForSettlement(sourceTx, swap.src, {
      intervalMs: 300,
      timeoutMs: 60_000,
      onStatus: (s) => seen.push(s.status),
    });
    expect(done.status).toBe('solved');
    expect(seen.at(-1)).toBe('solved');
    // The same swap on its status stream: the whole history, then closed (the text read to its end).
    const streamed = await api('GET', `/v1/swaps/submit-tx/events?txHash=${sourceTx}&srcChainKey=${swap.src}`);
    expect(streamed.status).toBe(200);
    expect(String(streamed.body).match(/^event:(.+)$/gm)).toEqual(done.history.map((h) => `event:${h.status}`));
    expect((await ok('POST', '/v1/swaps/intents/hash', { intent: built.intent })).hash).toBe(done.intentHash);
    const solver = await ok('POST', '/v1/swaps/intents/status', { intentTxHash: done.result!.hubTxHash });
    expect(solver.status).toBe(3);
    // The relay lookups, with the relay chain id as a JSON number as the public client sends it.
    await ok('POST', '/v1/swaps/intents/packet', { chainId: 23, txHash: sourceTx });
    await ok('POST', '/v1/swaps/intents/extra-data', { txHash: sourceTx, srcChainKey: swap.src });
    await ok('POST', '/v1/swaps/intents/submit', { chainId: 23, txHash: sourceTx, data: built.relayData });
    await ok('POST', '/v1/intent/status', { intent_tx_hash: done.result!.hubTxHash });
  });

  it('finds the swap in the explorer (typed client and the public client’s backend calls) and serves the config reads', async () => {
    const client = typed();
    const status = await client.status(sourceTx, swap.src);
    const { hubTxHash, fillTxHash } = status.result!;
    const found = await eventually(
      async () => {
        const r = await api('GET', `/v1/be/intent/tx/${hubTxHash}`);
        return r.status === 200 && r.body.events.length === 2 ? r.body : undefined;
      },
      20_000,
      100,
    );
    expect(found).toMatchObject({
      intentHash: status.intentHash,
      txHash: hubTxHash,
      chainId: 146,
      chainKey: swap.dst,
      open: false,
      cancelled: false,
      srcChainKey: swap.src,
      dstChainKey: swap.dst,
      intent: {
        intentId: built.intent.intentId,
        inputAmount: built.intent.inputAmount,
        minOutputAmount: built.intent.minOutputAmount,
        deadline: built.intent.deadline,
        srcChain: 23,
        dstChain: 146,
        srcAddress: user.address.toLowerCase(),
      },
      intentState: { exists: true, remainingInput: '0' },
    });
    expect(found.events.map((e: any) => [e.event, e.txHash])).toEqual([
      ['IntentCreated', hubTxHash],
      ['IntentFilled', fillTxHash],
    ]);
    expect(await client.explorer.intentByHash(status.intentHash!)).toEqual(found);
    // The explorer page's read: the swap of the user's own source transaction, both sides.
    const looked = await client.explorer.swap(sourceTx);
    expect(looked.intent).toEqual(found);
    // The fill and the delivery lead there too.
    expect((await ok('GET', `/v1/be/intent/swap/${fillTxHash}`)).intent.intentHash).toBe(status.intentHash);
    expect(looked.submission).toMatchObject({ txHash: sourceTx.toLowerCase(), srcChainKey: swap.src, status: 'solved' });
    const mine = await client.explorer.userIntents(user.address, { limit: '100' });
    expect(mine.items.map((i) => i.intentHash)).toContain(status.intentHash);
    expect(mine.total).toBeGreaterThanOrEqual(1);
    await client.explorer.orderbook({ offset: '0', limit: '10' });
    const volume = await client.explorer.volume({ limit: '100' });
    expect(volume.items.find((r) => r.intentHash === status.intentHash)).toMatchObject({ txHash: fillTxHash, chainId: 146 });
    expect((await client.explorer.volumeStats()).filledCount).toBeGreaterThanOrEqual(1);
    await client.explorer.partners();
    await client.explorer.partnerSummary(user.address);
    expect(await client.explorer.chains()).toEqual(directory.chains.map((c) => c.key));
    expect((await client.explorer.relayChainIdMap())[swap.src]).toBe(23);
    // The chain map: the three ids of each chain in one place.
    expect((await client.explorer.chainMap()).find((c) => c.key === swap.src)).toEqual({
      key: swap.src,
      name: directory.findChain(swap.src)!.name,
      type: 'EVM',
      evmChainId: 42161,
      relayChainId: 23,
      hub: false,
      aliases: directory.findChain(swap.src)!.aliases,
    });
    const assets = await client.explorer.hubAssets();
    expect(assets[swap.src]![token(swap.src, 'USDC')]).toMatchObject({ symbol: 'USDC', asset: expect.stringMatching(/^0x/) });
    await ok('GET', '/v1/be/config/swap/tokens');
    await ok('GET', `/v1/be/config/swap/${swap.src}/tokens`);
    await ok('GET', `/v1/be/config/hub/${swap.src}/assets`);
    const missing = await api('GET', `/v1/be/intent/0x${'ab'.repeat(32)}`);
    expect(missing).toMatchObject({
      status: 404,
      body: { statusCode: 404, code: 'INTENT_NOT_FOUND', message: expect.stringContaining('Intent not found') },
    });

    // The public client's own backend calls (@sodax/sdk BackendApiService) get the same answers.
    const calls = await publicBackendCalls(platform.gatewayUrl, [
      { method: 'getIntentByTxHash', args: [hubTxHash] },
      { method: 'getIntentByHash', args: [status.intentHash] },
      { method: 'getUserIntents', args: [{ userAddress: user.address, startDate: Date.now() - 3_600_000, endDate: Date.now() + 60_000 }] },
      { method: 'getOrderbook', args: [{ offset: '0', limit: '10' }] },
      { method: 'getChains', args: [] },
      { method: 'getSwapTokens', args: [] },
      { method: 'getSwapTokensByChainId', args: [swap.src] },
      { method: 'getHubAssets', args: [] },
      { method: 'getHubAssetsByChainId', args: [swap.src] },
      { method: 'getRelayChainIdMap', args: [] },
    ]);
    expect(calls.filter((c) => !c.ok)).toEqual([]);
    const value = (i: number) => (calls[i] as { value: any }).value;
    expect(value(0)).toEqual(found);
    expect(value(1)).toEqual(found);
    expect(value(2).items.map((i: any) => i.intentHash)).toContain(status.intentHash);
    expect(value(3)).toEqual(await client.explorer.orderbook({ offset: '0', limit: '10' }));
    expect(value(4)).toEqual(directory.chains.map((c) => c.key));
    expect(value(5)).toEqual(await client.tokens());
    expect(value(6)).toEqual(await client.tokensOf(swap.src));
    expect(value(7)).toEqual(assets);
    expect(value(8)).toEqual(assets[swap.src]);
    expect(value(9)).toEqual(await client.explorer.relayChainIdMap());
  });

  it('builds, sends and cancels a limit order with the typed client, and estimates the gas of a built transaction', async () => {
    const client = typed();
    const hub = swap.dst;
    const body = {
      srcChainKey: hub,
      dstChainKey: swap.src,
      inputToken: token(hub, 'USDC'),
      outputToken: token(swap.src, 'USDC'),
      inputAmount: '3000000',
      minOutputAmount: '999999999999',
      allowPartialFill: false,
      srcAddress: user.address,
      dstAddress: user.address,
    };
    const approval = await client.approve({ ...body, deadline: '0' });
    if (approval.tx) {
      await ok('POST', '/v1/swaps/gas/estimate', { chainKey: hub, tx: approval.tx });
      await send(hub, approval.tx);
    }
    const order = await client.limitOrder(body);
    expect(order.intent.deadline).toBe('0');
    await ok('POST', '/v1/swaps/gas/estimate', { chainKey: hub, tx: order.tx });
    await send(hub, order.tx);
    const cancel = await client.cancel(hub, order.intent);
    await send(hub, cancel.tx);
    // An error reaches the caller as a SwapApiError with the platform's body.
    const error = await client.tokensOf('0x1.nowhere').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwapApiError);
    expect({ status: (error as SwapApiError).status, code: (error as SwapApiError).code }).toEqual({
      status: 404,
      code: 'CHAIN_NOT_FOUND',
    });
  });

  it('serves candles and the solver API’s quote and execute', async () => {
    const markets = await ok('GET', '/v1/be/oracle/markets');
    const now = Math.floor(Date.now() / 1000);
    await ok('GET', `/v1/be/oracle/candles?symbol=${markets.symbols[0]}&interval=1m&from=${now - 600}&to=${now}`);
    const hubUsdc = token(swap.dst, 'USDC');
    const hubWeth = token(swap.dst, 'WETH');
    await ok('POST', '/v1/intent/quote', { token_src: hubUsdc, token_dst: hubWeth, amount: '1000000', quote_type: 'exact_input' });
    // A hub intent of its own, handed to the solvers by its creation transaction.
    const { deadline } = await ok('GET', '/v1/swaps/deadline?offsetSeconds=600');
    const body = {
      srcChainKey: swap.dst,
      dstChainKey: swap.dst,
      inputToken: hubUsdc,
      outputToken: hubWeth,
      inputAmount: '1500000',
      minOutputAmount: '1',
      deadline,
      allowPartialFill: false,
      srcAddress: user.address,
      dstAddress: user.address,
    };
    const approval = await ok('POST', '/v1/swaps/approve', body);
    if (approval.tx) await send(swap.dst, approval.tx);
    const hubTx = await send(swap.dst, (await ok('POST', '/v1/swaps/intents', body)).tx);
    expect(await ok('POST', '/v1/intent/execute', { intent_tx_hash: hubTx })).toMatchObject({ answer: 'OK' });
  });

  it('serves the leveraged-yield vaults and reads each from the hub, a deposit into a vault seen in every read', async () => {
    const ly = typed().leverageYield;
    const vaults = await ly.vaults();
    expect(vaults.map((v) => v.name)).toEqual(['lsodaWETH', 'lsodaUSDC']);
    expect(vaults).toEqual(directory.leverageVaults);
    const [weth, usdc] = vaults as { vault: Address; asset: Address }[];
    expect(await ly.vault('LSODAWETH')).toEqual(weth);
    await expect(ly.vault('lsodaNONE')).rejects.toMatchObject({ status: 404, body: { code: 'VAULT_NOT_FOUND' } });
    expect(await api('GET', '/v1/leverage-yield/asset?vault=0x123')).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ field: 'vault', message: 'vault must be an Ethereum address' })] },
    });
    expect(await api('GET', `/v1/leverage-yield/position?vault=${token(swap.dst, 'WETH')}`)).toMatchObject({
      status: 404,
      body: { code: 'VAULT_NOT_FOUND' },
    });
    expect(BigInt(await ly.deadline(60))).toBeGreaterThan(BigInt(Math.floor(Date.now() / 1000)));

    const read = (route: string, query = '') => ok('GET', `/v1/leverage-yield/${route}?vault=${weth.vault}${query}`);
    expect(await ly.asset(weth.vault)).toEqual(weth.asset);
    const assets = 10n ** 18n;
    const shares = await ly.previewDeposit(weth.vault, String(assets));
    const hub = clients.get(swap.dst)!;
    const write = async (address: Address, abi: any, functionName: string, args: unknown[]) => {
      const hash = await hub.write.writeContract({ address, abi, functionName, args, account: user, chain: hub.write.chain });
      expect((await hub.read.waitForTransactionReceipt({ hash })).status).toBe('success');
    };
    await write(weth.asset, erc20Abi, 'approve', [weth.vault, assets]);
    await write(weth.vault, LEVERAGE_VAULT_ABI, 'deposit', [assets, user.address]);

    const owner = `&owner=${user.address}`;
    expect(await ly.shareBalance(weth.vault, user.address)).toEqual(shares);
    const totalAssets = await ly.totalAssets(weth.vault);
    expect(assets - BigInt(totalAssets)).toBeLessThan(10n ** 10n);
    expect(await read('preview/redeem', `&shares=${shares}`)).toEqual({ assets: (await read('max-withdraw', owner)).maxWithdraw });
    expect(BigInt(await ly.previewWithdraw(weth.vault, totalAssets))).toBeGreaterThanOrEqual(BigInt(shares));
    const position = await ly.position(weth.vault);
    expect(Number(position.ltv)).toBeGreaterThanOrEqual(6_999);
    expect(Number(position.ltv)).toBeLessThanOrEqual(7_000);
    expect(BigInt(position.collateral) - BigInt(position.debt)).toBe(BigInt(totalAssets));
    // Collateral × 85% liquidation threshold / debt at 70%.
    expect(BigInt(position.healthFactor) / 10n ** 14n).toBe(12_142n);

    const apr = await read('apr');
    expect(apr).toMatchObject({ targetLtvBps: '7000', leverageMultiplierWad: '2333333333333333333' });
    const [supply, borrow, leverage] = [BigInt(apr.supplyAprRay), BigInt(apr.borrowAprRay), BigInt(apr.leverageMultiplierWad)];
    expect(borrow).toBeGreaterThan(0n);
    expect(BigInt(apr.netAprRay)).toBe(supply + (leverage * (supply - borrow)) / 10n ** 18n);
    // No yields API configured: the devnet vault's fallback, 3.1% in RAY, stale.
    const lsd = { aprRay: '31000000000000000000000000', label: 'WETH staking (devnet) (fallback)', stale: true };
    expect(await read('apr/lsd')).toEqual(lsd);
    const effective = await ly.effectiveApr(weth.vault);
    const effectiveSupply = supply + 31n * 10n ** 24n;
    expect(effective).toEqual({
      ...apr,
      lsdApr: lsd,
      effectiveSupplyAprRay: effectiveSupply.toString(),
      effectiveNetAprRay: (effectiveSupply + (leverage * (effectiveSupply - borrow)) / 10n ** 18n).toString(),
    });
    // A vault without a staking yield: none, and not stale.
    expect(await ok('GET', `/v1/leverage-yield/apr/lsd?vault=${usdc.vault}`)).toEqual({ aprRay: '0', label: '', stale: false });
  });

  it('deposits 100 USDC from Arbitrum into a vault through the solvers: quote, allowance, approve, build, submit, solved, the shares in the hub wallet', async () => {
    const vault = directory.leverageVaults[0];
    const usdc = token(swap.src, 'USDC');
    const fee = { address: '0x000000000000000000000000000000000000fee5', percentage: 10 };
    const amount = '100000000';
    const quoteBody = {
      vault: vault.vault,
      tokenSrc: usdc,
      tokenSrcChainKey: swap.src,
      amount,
      quoteType: 'exact_input' as const,
      partnerFee: fee,
    };
    const ly = typed().leverageYield;
    const quote = await ly.quoteDeposit(quoteBody);
    expect(BigInt(quote.quotedAmount)).toBeGreaterThan(0n);
    // 0.1% of the input is the partner's; solvers were asked about the rest.
    expect(quote.feeAmount).toBe('100000');
    // Naming none, the family's configured 0.2%.
    const { partnerFee: _given, ...unfeed } = quoteBody;
    expect((await ly.quoteDeposit(unfeed)).feeAmount).toBe('200000');
    const withTx = await ok('POST', '/v1/leverage-yield/quote/deposit?includeTxData=true', { ...quoteBody, srcAddress: user.address });
    expect(withTx.txData.intent).toMatchObject({ outputToken: vault.vault, dstChain: directory.hub.relayChainId });
    expect(withTx.txData.intent.dstAddress).toBe(withTx.txData.relayData.address.toLowerCase());
    const noAddress = await api('POST', '/v1/leverage-yield/quote/deposit?includeTxData=true', quoteBody);
    expect(noAddress).toMatchObject({ status: 400, body: { details: [expect.objectContaining({ field: 'srcAddress' })] } });

    const body = {
      vault: vault.vault,
      srcChainKey: swap.src,
      srcAddress: user.address,
      inputToken: usdc,
      inputAmount: amount,
      minOutputAmount: ((BigInt(quote.quotedAmount) * 98n) / 100n).toString(),
      partnerFee: fee,
    };
    const unknownVault = await api('POST', '/v1/leverage-yield/intents/deposit', { ...body, vault: token(swap.dst, 'WETH') });
    expect(unknownVault).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ field: 'vault', rule: 'knownVault' })] },
    });
    if (!(await ok('POST', '/v1/leverage-yield/allowance/check', body)).valid) {
      await send(swap.src, (await ly.approve(body)).tx!);
      expect((await ly.allowance(body)).valid).toBe(true);
    }
    const deposit: any = await ly.deposit(body);
    const hubWallet = deposit.relayData.address as Address;
    expect(deposit.intent).toMatchObject({
      outputToken: vault.vault,
      dstAddress: hubWallet.toLowerCase(),
      creator: hubWallet,
      minOutputAmount: body.minOutputAmount,
      inputAmount: '99900000',
    });
    // No deadline given: the hub's time + 300 s, as the public client's default.
    expect(Number(deposit.intent.deadline) - Number((await clients.get(swap.dst)!.read.getBlock()).timestamp)).toBeLessThanOrEqual(302);
    const before = BigInt(await ly.shareBalance(vault.vault, hubWallet));
    const txHash = await send(swap.src, deposit.tx);
    const submit = {
      txHash,
      srcChainKey: swap.src,
      walletAddress: user.address,
      intent: deposit.intent,
      relayData: deposit.relayData.payload,
    };
    const missing = await api('GET', `/v1/leverage-yield/submit-tx/status?txHash=${txHash}&srcChainKey=${swap.src}`);
    expect(missing).toMatchObject({ status: 404, body: { statusCode: 404, message: 'Vault swap transaction not found' } });
    const noOperation = await api('POST', '/v1/leverage-yield/submit-tx', submit);
    expect(noOperation).toMatchObject({ status: 400, body: { details: [expect.objectContaining({ field: 'operation' })] } });
    // A deposit labelled a withdrawal is refused before anything is stored.
    const mislabelled = await api('POST', '/v1/leverage-yield/submit-tx', { ...submit, operation: 'withdraw' });
    expect(mislabelled).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ field: 'operation', rule: 'matchesIntent' })] },
    });
    expect(await ly.submit({ ...submit, operation: 'deposit' })).toMatchObject({
      success: true,
      data: { status: 'inserted', message: expect.stringContaining('/v1/leverage-yield/submit-tx/status') },
    });
    // One record with swaps: the same transaction again is a duplicate on either route.
    expect((await typed().submit(submit)).data.status).toBe('duplicate');
    const client = typed();
    const done = await client.waitForSettlement(txHash, swap.src, { intervalMs: 300, timeoutMs: 60_000 });
    expect(done).toMatchObject({ status: 'solved', operation: 'leverage_deposit' });
    expect(await ly.status(txHash, swap.src)).toMatchObject({ status: 'solved', operation: 'leverage_deposit' });
    // The family's intent helpers, the swaps' own.
    const hubTx = done.result!.hubTxHash!;
    expect((await ok('POST', '/v1/leverage-yield/intents/hash', { intent: deposit.intent })).hash).toBe(done.intentHash);
    expect(await ly.intentStatus(hubTx)).toMatchObject({ status: 3 });
    await ok('POST', '/v1/leverage-yield/intents/packet', { chainId: 23, txHash });
    await ok('POST', '/v1/leverage-yield/intents/extra-data', { txHash, srcChainKey: swap.src });
    await ok('POST', '/v1/leverage-yield/intents/submit', { chainId: 23, txHash, data: deposit.relayData });
    expect(await ly.intent(hubTx)).toEqual(deposit.intent);
    const fill = await ly.fill(hubTx);
    expect(fill).toMatchObject({ exists: false, remainingInput: '0', pendingPayment: false });
    expect(BigInt(fill.receivedOutput)).toBeGreaterThanOrEqual(BigInt(body.minOutputAmount));
    expect(await api('GET', `/v1/leverage-yield/intents/0x${'ab'.repeat(32)}`)).toMatchObject({
      status: 404,
      body: { code: 'INTENT_NOT_FOUND' },
    });
    expect(await ok('GET', `/v1/leverage-yield/fees/partner?amount=1000000&feeAddress=${fee.address}&feePercentage=10`)).toMatchObject({
      fee: '1000',
      inputAmount: '999000',
    });
    // The family's configured fee, not the swaps' (none here).
    expect(await ly.partnerFee('1000000')).toMatchObject({ fee: '2000', partnerFee: { address: VAULT_FEE_ADDRESS, percentage: 20 } });
    expect(await typed().partnerFee('1000000')).toMatchObject({ fee: '0', partnerFee: null });
    // The solvers' fee: the public client's 0.1%, rounded down, on either family.
    expect(await ly.solverFee('1000000')).toEqual({ amount: '1000000', fee: '1000', feeBps: 10 });
    expect(await typed().solverFee('999')).toEqual({ amount: '999', fee: '0', feeBps: 10 });
    const shares = BigInt(await ly.shareBalance(vault.vault, hubWallet)) - before;
    expect(shares).toBeGreaterThanOrEqual(BigInt(body.minOutputAmount));
    // Exactly what the fill paid.
    expect(shares.toString()).toBe((await ok('GET', `/v1/leverage-yield/intents/${done.result!.hubTxHash}/fill`)).receivedOutput);
    expect(await ly.maxWithdraw(vault.vault, hubWallet)).toBe(await ly.previewRedeem(vault.vault, String(before + shares)));
    deposited = { hubWallet, shares };
  });

  it('withdraws those shares to USDC on Base through the solvers: quote, a message to the hub wallet, submit, solved, the USDC on Base', async () => {
    const { hubWallet, shares } = deposited!;
    const vault = directory.leverageVaults[0];
    const base = '0x2105.base';
    const baseUsdc = token(base, 'USDC');
    const ly = typed().leverageYield;
    const quoteBody = {
      vault: vault.vault,
      srcChainKey: swap.src,
      tokenDst: baseUsdc,
      tokenDstChainKey: base,
      amount: shares.toString(),
      quoteType: 'exact_input' as const,
    };
    const quote = await ly.quoteWithdraw(quoteBody);
    expect(BigInt(quote.quotedAmount)).toBeGreaterThan(0n);
    const withTx: any = await ly.quoteWithdraw(
      { ...quoteBody, srcAddress: user.address, dstAddress: user.address },
      { includeTxData: true },
    );
    expect(withTx.txData.intent).toMatchObject({ inputToken: vault.vault, creator: hubWallet, srcChain: '23', dstChain: '30' });

    const body = {
      vault: vault.vault,
      srcChainKey: swap.src,
      srcAddress: user.address,
      dstChainKey: base,
      outputToken: baseUsdc,
      inputAmount: shares.toString(),
      minOutputAmount: ((BigInt(quote.quotedAmount) * 98n) / 100n).toString(),
    };
    // More shares than the hub wallet holds: refused before anything is signed.
    const tooMany = await api('POST', '/v1/leverage-yield/intents/withdraw', { ...body, inputAmount: (shares * 1000n).toString() });
    expect(tooMany).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ field: 'inputAmount', rule: 'sharesHeld' })] },
    });
    // The quote's own field named, its body being the quote's.
    const quotedTooMany = await api('POST', '/v1/leverage-yield/quote/withdraw?includeTxData=true', {
      ...quoteBody,
      amount: (shares * 2n).toString(),
      srcAddress: user.address,
      dstAddress: user.address,
    });
    expect(quotedTooMany).toMatchObject({
      status: 400,
      body: { details: [expect.objectContaining({ field: 'amount', rule: 'sharesHeld' })] },
    });
    const expired = await api('POST', '/v1/leverage-yield/intents/withdraw', { ...body, deadline: '1000' });
    expect(expired).toMatchObject({ status: 400, body: { message: expect.stringContaining('GET /v1/leverage-yield/deadline') } });
    const fromHub = await api('POST', '/v1/leverage-yield/intents/withdraw', { ...body, srcChainKey: swap.dst });
    expect(fromHub).toMatchObject({ status: 400, body: { details: [expect.objectContaining({ field: 'srcChainKey', rule: 'spoke' })] } });

    // An unfillable withdrawal, opened on the hub and cancelled: its shares come back to the hub wallet (no spoke holds them).
    const greedy: any = await ly.withdraw({ ...body, minOutputAmount: (BigInt(quote.quotedAmount) * 100n).toString() });
    const greedyTx = await send(swap.src, greedy.tx);
    const greedySubmit = {
      txHash: greedyTx,
      srcChainKey: swap.src,
      walletAddress: user.address,
      intent: greedy.intent,
      relayData: greedy.relayData.payload,
    };
    await ly.submit({ ...greedySubmit, operation: 'withdraw' });
    await eventually(async () => (await ly.status(greedyTx, swap.src)).status === 'posted_execution', 30_000, 100);
    expect(await ly.shareBalance(vault.vault, hubWallet)).toBe('0');
    const cancel = await ly.cancel(swap.src, greedy.intent);
    expect((await ok('POST', '/v1/leverage-yield/gas/estimate', { chainKey: swap.src, tx: cancel.tx })).gas).toBeDefined();
    await send(swap.src, cancel.tx);
    await eventually(async () => (await ly.shareBalance(vault.vault, hubWallet)) === shares.toString(), 30_000, 100);

    const withdrawal: any = await ly.withdraw(body);
    expect(withdrawal.relayData.address).toBe(hubWallet);
    expect(withdrawal.intent).toMatchObject({
      creator: hubWallet,
      inputToken: vault.vault,
      inputAmount: shares.toString(),
      dstAddress: user.address.toLowerCase(),
    });
    // The user signs a message on the spoke they deposited from, to their hub wallet: no allowance, no deposit.
    expect(withdrawal.tx).toMatchObject({ to: directory.findChain(swap.src)!.connection, value: '0', chainId: 42161 });
    const baseClient = createPublicClient({ transport: http(directory.findChain(base)!.rpcUrls![0]) });
    const balance = () => baseClient.readContract({ address: baseUsdc, abi: erc20Abi, functionName: 'balanceOf', args: [user.address] });
    const before = await balance();
    const txHash = await send(swap.src, withdrawal.tx);
    const submit = {
      txHash,
      srcChainKey: swap.src,
      walletAddress: user.address,
      intent: withdrawal.intent,
      relayData: withdrawal.relayData.payload,
    };
    expect((await ly.submit({ ...submit, operation: 'withdraw' })).data.status).toBe('inserted');
    const done = await typed().waitForSettlement(txHash, swap.src, { intervalMs: 300, timeoutMs: 60_000 });
    expect(done).toMatchObject({ status: 'solved', operation: 'leverage_withdraw' });
    expect(await ly.shareBalance(vault.vault, hubWallet)).toBe('0');
    // Exactly what the fill paid (USDC keeps 6 decimals on the hub and on Base), delivered on Base.
    const paid = BigInt((await ok('GET', `/v1/leverage-yield/intents/${done.result!.hubTxHash}/fill`)).receivedOutput);
    expect(paid).toBeGreaterThanOrEqual(BigInt(body.minOutputAmount));
    await eventually(async () => (await balance()) - before === paid, 30_000, 100);
  });

  it('serves sponsorship requests to a sponsoring key', async () => {
    const sponsorship = platform.services.find((s) => s.name === 'sponsorship-keys')!;
    const minted = (await (
      await fetch(`${sponsorship.url}/ops/sponsoring-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ owner: 'relayer-co' }),
      })
    ).json()) as { key: string };
    const key = { 'x-api-key': minted.key as string };
    await eventually(async () => (await api('GET', '/v1/sponsorships/requests', undefined, key)).status === 200, 20_000, 100);
    await ok('POST', '/v1/sponsorships/requests', { chainKey: swap.src, walletAddress: user.address }, key);
  });

  it('walks the partner portal: account, organisation, keys, webhooks, invitations, members', async () => {
    // Two partners' browsers, every request through api() (checked against the document).
    const integrator = new Browser(() => platform.gatewayUrl, api);
    const colleague = new Browser(() => platform.gatewayUrl, api);
    const portal = async (method: string, path: string, body?: unknown, who = integrator) => {
      const r = await who.call(method, path, body);
      expect({ route: `${method} ${path}`, status: r.status < 300 ? 'ok' : r.body }).toEqual({ route: `${method} ${path}`, status: 'ok' });
      return r.body;
    };
    await portal('GET', '/portal/api/auth/csrf');
    await portal('POST', '/portal/api/auth/sign-up', { email: 'integrator@example.com', password: 'correct horse battery' });
    await portal('POST', '/portal/api/auth/sign-out');
    await portal('GET', '/portal/api/auth/csrf');
    await portal('POST', '/portal/api/auth/sign-in', { email: 'integrator@example.com', password: 'correct horse battery' });
    await portal('GET', '/portal/api/me');
    const org = await portal('POST', '/portal/api/orgs', { name: 'Contract Co' });
    const orgId = org.id ?? org.orgId;
    const key = await portal('POST', `/portal/api/orgs/${orgId}/keys`, { name: 'production' });
    await portal('GET', `/portal/api/orgs/${orgId}/keys`);
    // A swap submitted with the key (swaps enforced meanwhile, so it is known) is the organisation's.
    for (const mode of ['monitor', 'enforce']) expect(await setSwapsMode(platform, mode)).toBe(200);
    const keyed = { 'x-api-key': key.key as string };
    await eventually(
      async () =>
        (await api('GET', `/v1/swaps/submit-tx/status?txHash=0x${'5c'.repeat(32)}&srcChainKey=${swap.src}`, undefined, keyed)).status !==
        401,
      10_000,
      50,
    );
    const intent = sampleIntent();
    await ok(
      'POST',
      '/v1/swaps/submit-tx',
      { txHash: `0x${'5c'.repeat(32)}`, srcChainKey: swap.src, walletAddress: intent.srcAddress, intent, relayData: '0xbeef' },
      keyed,
    );
    // Back to monitor (enforce → off is no legal move): keyless requests pass again.
    expect(await setSwapsMode(platform, 'monitor')).toBe(200);
    const listed = await portal('GET', `/portal/api/orgs/${orgId}/swaps?txHash=0x${'5C'.repeat(32)}&limit=5`);
    expect(listed.swaps.map((x: any) => x.txHash)).toEqual([`0x${'5c'.repeat(32)}`]);
    await portal('GET', `/portal/api/orgs/${orgId}/swaps/${swap.src}/0x${'5c'.repeat(32)}`);
    expect(await portal('GET', `/portal/api/orgs/${orgId}/fees?from=2026-01-01&to=2026-02-01`)).toEqual({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-02-01T00:00:00.000Z',
      fees: [],
    });
    // Usage, counted off the request path: the series is there at once, the keyed requests within the flush.
    expect((await portal('GET', `/portal/api/orgs/${orgId}/usage?interval=minute`)).series).toHaveLength(60);
    await portal('GET', `/portal/api/orgs/${orgId}/usage/readiness`);
    await portal('DELETE', `/portal/api/orgs/${orgId}/keys/${key.id}`);
    // Webhooks: nothing listens on port 9, so the test's attempt fails (answered 200 with why).
    const hook = await portal('POST', `/portal/api/orgs/${orgId}/webhooks`, { url: 'http://127.0.0.1:9/hooks', description: 'contract' });
    expect(hook.secret).toMatch(/^whsec_/);
    await portal('GET', `/portal/api/orgs/${orgId}/webhooks`);
    const tried = await portal('POST', `/portal/api/orgs/${orgId}/webhooks/${hook.id}/test`);
    expect(tried).toMatchObject({ ok: false, error: expect.any(String) });
    await portal('GET', `/portal/api/orgs/${orgId}/webhooks/${hook.id}/deliveries`);
    await portal('POST', `/portal/api/orgs/${orgId}/webhooks/${hook.id}/deliveries/${tried.deliveryId}/replay`);
    expect((await portal('POST', `/portal/api/orgs/${orgId}/webhooks/${hook.id}/rotate-secret`)).secret).not.toBe(hook.secret);
    const keep = await portal('POST', `/portal/api/orgs/${orgId}/invitations`, { email: 'colleague@example.com', role: 'member' });
    const drop = await portal('POST', `/portal/api/orgs/${orgId}/invitations`, { email: 'other@example.com', role: 'admin' });
    await portal('GET', `/portal/api/orgs/${orgId}/invitations`);
    await portal('DELETE', `/portal/api/orgs/${orgId}/invitations/${drop.id}`);
    await portal('GET', '/portal/api/auth/csrf', undefined, colleague);
    await portal('POST', '/portal/api/auth/sign-up', { email: 'colleague@example.com', password: 'another long passphrase' }, colleague);
    await portal('GET', `/portal/api/invitations/${keep.token}`, undefined, colleague);
    await portal('POST', `/portal/api/invitations/${keep.token}/accept`, undefined, colleague);
    // A member reads the organisation's webhooks; only owners and admins change them.
    expect((await colleague.call('GET', `/portal/api/orgs/${orgId}/webhooks`)).status).toBe(200);
    expect((await colleague.call('POST', `/portal/api/orgs/${orgId}/webhooks`, { url: 'http://127.0.0.1:9/x' })).status).toBe(403);
    await portal('DELETE', `/portal/api/orgs/${orgId}/webhooks/${hook.id}`);
    const members = await portal('GET', `/portal/api/orgs/${orgId}/members`);
    const member = members.find((m: any) => m.email === 'colleague@example.com');
    await portal('PATCH', `/portal/api/orgs/${orgId}/members/${member.userId}`, { role: 'admin' });
    await portal('DELETE', `/portal/api/orgs/${orgId}/members/${member.userId}`);
  });

  it('answers a bad request on every documented route in the document’s error shape', async () => {
    for (const entry of contract.all) {
      const [method, template] = entry.split(' ');
      const op = contract.doc.paths[template][method.toLowerCase()];
      const path = template.replace(/\{[^}]+\}/g, 'not-valid-%01');
      const required = (op.parameters ?? []).filter((p: any) => p.in === 'query' && p.required);
      let r: Exchange;
      if (op.requestBody) r = await api(method, path, { unexpected: '\u0007' });
      else if (path !== template || required.length) r = await api(method, path);
      else r = await api(method, `${path}?dup=1&dup=2`);
      expect({ entry, refused: r.status >= 400 && r.status < 500 }).toEqual({ entry, refused: true });
    }
  });

  it('walked every documented route well and badly, and every answer matched the document', () => {
    expect(contract.violations).toEqual([]);
    expect(contract.all.filter((e) => !contract.good.has(e))).toEqual([]);
    expect(contract.all.filter((e) => !contract.bad.has(e))).toEqual([]);
    // Nothing internal is documented: no health, metrics or operator routes, no bus messages.
    expect(contract.all.filter((e) => /\/(healthz|readyz|metrics|ops)\b/.test(e))).toEqual([]);
    expect(Object.keys(contract.doc.components.schemas).filter((n) => /Message$|Event$/.test(n))).toEqual([]);
  });
});
