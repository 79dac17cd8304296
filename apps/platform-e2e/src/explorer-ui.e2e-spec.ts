import type { BuildResponse, EvmTx } from '@swap/contracts';
import { eventually, intentRequestBody } from '@swap/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_KEYS } from '../../../tools/devnet/src/devnet';
import { startPlatform, type Platform } from '../../../tools/embedded/src/platform';
import { launchChromium } from './chromium';
import { DevnetWallet } from './devnet-wallet';

jest.setTimeout(180_000);

/**
 * The swap timeline page (/explorer/) in a real browser (Debian's chromium through
 * playwright-core), on `npm start`'s platform with the devnet: a support desk given only a
 * transaction hash finds what happened, step by step with durations, and why a swap failed
 * in words with what to do; a swap in flight is followed live until it ends.
 */
describe('the explorer page in chromium, on the devnet platform', () => {
  let platform: Platform;
  let dataDir: string;
  let browser: Browser;
  let wallet: DevnetWallet;
  const src = '0xa4b1.arbitrum';
  const dst = '0x2105.base';
  const open = async (path: string, width = 1000): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${platform.gatewayUrl}${path}`);
    return page;
  };
  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
  /** Approve when needed, build, sign and send from the source chain, submit: the source transaction. */
  const start = async (body: Record<string, unknown>): Promise<{ hash: string; built: BuildResponse }> => {
    const approval = await wallet.post('/v1/swaps/approve', { ...body, deadline: '0' });
    if (approval.body.tx) await wallet.send(src, approval.body.tx);
    const built = (await wallet.post('/v1/swaps/intents', body)).body as BuildResponse & { tx: EvmTx };
    const sent = await wallet.send(src, built.tx);
    expect(sent.status).toBe('success');
    const submitted = await wallet.post('/v1/swaps/submit-tx', {
      txHash: sent.hash,
      srcChainKey: src,
      walletAddress: wallet.user.address,
      intent: built.intent,
      relayData: built.relayData.payload,
    });
    expect(submitted.body.data.status).toBe('inserted');
    return { hash: sent.hash, built };
  };
  const usdcBody = (amount: string) =>
    intentRequestBody({
      srcChainKey: src,
      dstChainKey: dst,
      inputToken: wallet.token(src, 'USDC'),
      outputToken: wallet.token(dst, 'USDC'),
      inputAmount: amount,
      user: wallet.user.address,
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'explorer-ui-'));
    platform = await startPlatform({
      dataDir,
      gatewayPort: 0,
      servicePorts: 'ephemeral',
      logLevel: 'warn',
      devnet: true,
      env: { STEP_POLL_MS: '150', SIMULATION_TICK_MS: '200', FLUSH_INTERVAL_MS: '200' },
      solverEnv: { PRICE_REFRESH_MS: '300' },
    });
    wallet = new DevnetWallet(platform, privateKeyToAccount(DEV_KEYS[4]));
    browser = await launchChromium();
    // The solvers need prices (the simulated feed's first candles): ready once a quote works.
    await eventually(
      async () =>
        (
          await wallet.post('/v1/swaps/quote', {
            tokenSrc: wallet.token(src, 'USDC'),
            tokenSrcChainKey: src,
            tokenDst: wallet.token(dst, 'USDC'),
            tokenDstChainKey: dst,
            amount: '1000000',
            quoteType: 'exact_input',
          })
        ).status === 200,
      30_000,
      200,
    );
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('shows a solved swap from its source transaction: each step with its time and duration, amounts, solver, every chain transaction; at 375 px too', async () => {
    const { deadline } = await wallet.get('/v1/swaps/deadline?offsetSeconds=600');
    const { hash } = await start({ ...usdcBody('7000000'), minOutputAmount: '6000000', deadline });
    const done = await wallet.settled(hash, src);
    expect(done.status).toBe('solved');

    const res = await fetch(`${platform.gatewayUrl}/explorer/tx/${hash}`);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const page = await open(`/explorer/tx/${hash}`);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    expect(await text(page, 'status')).toBe('Solved');
    const steps = page.getByTestId('timeline').locator('li');
    expect(await steps.count()).toBe(done.history.length);
    const rows = await steps.allInnerTexts();
    expect(rows[0]).toContain('Waiting for the source transaction');
    expect(rows.at(-1)).toContain('Solved');
    // Each step but the last says how long it took (the next entry's duration), the last ends it.
    for (const row of rows.slice(0, -1)) expect(row).toContain('took ');
    expect(rows.at(-1)).toContain('end');
    expect(rows.join('\n')).toContain(done.history[1]!.at.slice(11, 19));
    // Chains by name, then the key the API takes (the deployment's chain map).
    const chainMap = (await (await fetch(`${platform.gatewayUrl}/v1/be/config/chains`)).json()) as { key: string; name: string }[];
    const nameOf = (key: string) => chainMap.find((c) => c.key === key)!.name;
    expect(await text(page, 'sent')).toBe(`7 USDC from ${nameOf(src)} · ${src}`);
    expect(await text(page, 'received')).toMatch(/^\d+(\.\d+)? USDC$/);
    expect(await text(page, 'solver')).toMatch(/^0x[0-9a-fA-F]{40}/);
    const txs = await text(page, 'transactions');
    for (const h of [hash, done.result!.hubTxHash!, done.result!.fillTxHash!, done.result!.deliveryTxHash!]) expect(txs).toContain(h);
    expect(txs).toContain(dst);
    expect(txs).toContain(nameOf(dst));

    // A support desk given the hub transaction instead: pasted into the search, the same swap.
    await page.getByLabel('Transaction or intent hash').fill(done.result!.hubTxHash!);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.waitForURL(`**/explorer/tx/${done.result!.hubTxHash!}`);
    await eventually(async () => (await text(page, 'transactions')).includes(hash), 10_000, 100);
    expect(await text(page, 'status')).toBe('Solved');
    expect(errors).toEqual([]);

    // On a phone: nothing wider than the screen.
    const narrow = await open(`/explorer/tx/${done.intentHash}`, 375);
    expect(await text(narrow, 'status')).toBe('Solved');
    expect(await narrow.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await Promise.all([page.close(), narrow.close()]);
  });

  it('follows a swap in flight live until it fails, then says why and what to do; the cancel it suggests shows once made', async () => {
    const { deadline } = await wallet.get('/v1/swaps/deadline?offsetSeconds=8');
    // Asks far more than any solver pays: nobody fills it before its deadline.
    const { hash, built } = await start({ ...usdcBody('3000000'), minOutputAmount: (10n ** 30n).toString(), deadline });
    const page = await open(`/explorer/tx/${hash}`, 375);
    expect(await text(page, 'status')).toBe('In flight');
    // A second reader whose status stream the network drops: it polls every 3 s instead, one read a tick.
    const cut = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    await cut.route('**/v1/swaps/submit-tx/events**', (route) => route.abort());
    let reads = 0;
    cut.on('request', (request) => void (request.url().includes('/v1/be/intent/swap/') && reads++));
    const cutSince = Date.now();
    await cut.goto(`${platform.gatewayUrl}/explorer/tx/${hash}`);
    // No reload: the page moves with the swap's status stream.
    await page.getByTestId('status').filter({ hasText: 'Failed' }).waitFor({ timeout: 60_000 });
    await cut.getByTestId('status').filter({ hasText: 'Failed' }).waitFor({ timeout: 10_000 });
    expect(reads).toBeLessThanOrEqual(Math.ceil((Date.now() - cutSince) / 3_000) + 2);
    await cut.close();
    const alert = await page.getByRole('alert').innerText();
    expect(alert).toContain('Why it failed:');
    expect(alert).toContain('deadline');
    expect(alert).toMatch(/deadline \(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\)/); // the page's way of writing a time, not the API's ISO
    expect(await text(page, 'advice')).toContain('POST /v1/swaps/intents/cancel');
    // The body to build the cancel with, as the page gives it, is what the route takes.
    await page.getByText('The cancel request body').click();
    const given = JSON.parse(await text(page, 'cancel-body')) as { srcChainKey: string; intent: unknown };
    const lower = (value: unknown) => JSON.parse(JSON.stringify(value).toLowerCase()) as unknown;
    expect(lower(given)).toEqual(lower({ srcChainKey: src, intent: built.intent }));
    expect((await wallet.status(hash, src)).status).toBe('failed');

    const cancel = await wallet.post('/v1/swaps/intents/cancel', given);
    const cancelTx = await wallet.send(src, cancel.body.tx);
    expect(cancelTx.status).toBe('success');
    await eventually(async () => (await wallet.status(hash, src)).intentCancelled === true, 30_000, 200);
    // The cancel finds the swap too: the user's transaction on the spoke, and the hub's that cancelled the intent.
    const swapOf = async (key: string) => {
      const res = await fetch(`${platform.gatewayUrl}/v1/be/intent/swap/${key}`);
      return res.ok
        ? ((await res.json()) as { intent: { intentHash: string; events: { event: string; txHash: string }[] } | null })
        : undefined;
    };
    const byHub = await swapOf(hash);
    const hubCancel = byHub!.intent!.events.find((e) => e.event === 'IntentCancelled')!.txHash;
    for (const key of [cancelTx.hash, hubCancel])
      await eventually(async () => (await swapOf(key))?.intent?.intentHash === byHub!.intent!.intentHash, 30_000, 200);
    await page.reload();
    expect(await text(page, 'advice')).toContain('cancelled on the hub and its input refunded');
    expect(await text(page, 'transactions')).toContain('Cancelled');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.close();
  });

  it('finds a swap broadcast but never submitted by the user’s own source transaction (its deposit traced through the hub index)', async () => {
    const { deadline } = await wallet.get('/v1/swaps/deadline?offsetSeconds=600');
    const body = { ...usdcBody('2000000'), minOutputAmount: '1500000', deadline };
    const approval = await wallet.post('/v1/swaps/approve', { ...body, deadline: '0' });
    if (approval.body.tx) await wallet.send(src, approval.body.tx);
    const built = (await wallet.post('/v1/swaps/intents', body)).body as BuildResponse & { tx: EvmTx };
    const sent = await wallet.send(src, built.tx);
    const found = await eventually(
      async () => {
        const res = await fetch(`${platform.gatewayUrl}/v1/be/intent/swap/${sent.hash}`);
        return res.status === 200 ? ((await res.json()) as { submission: unknown; intent: { srcChainKey: string } | null }) : undefined;
      },
      30_000,
      200,
    );
    expect(found.intent).toMatchObject({ srcChainKey: src });
    const page = await open(`/explorer/tx/${sent.hash}`, 375);
    expect(await text(page, 'sent')).toMatch(new RegExp(`^2 USDC from .+ · ${src.replace('.', '\\.')}$`));
    expect(await text(page, 'intent-hash')).toMatch(/^0x[0-9a-f]{64}$/);
    // The user's own transaction is listed (the deposit the hub's intent came from), and the addresses in EIP-55.
    const source = page.getByTestId('transactions').locator('tbody tr', { hasText: sent.hash });
    expect(await source.locator('td').allInnerTexts()).toEqual(['Source (the user’s)', expect.stringMatching(` · ${src}$`), sent.hash]);
    expect(await text(page, 'from')).toBe(wallet.user.address);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.close();
  });

  it('says so for a hash nothing has, and for text that is not a hash', async () => {
    const page = await open(`/explorer/tx/0x${'ab'.repeat(32)}`, 375);
    expect(await page.getByRole('alert').innerText()).toContain('No swap found');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.getByLabel('Transaction or intent hash').fill('not a hash');
    await page.getByRole('button', { name: 'Look up' }).click();
    expect(await page.getByRole('alert').innerText()).toContain('Paste a transaction hash');
    // The address follows what was asked, so a reload does not bring back the swap before it.
    expect(page.url()).toMatch(/\/explorer\/tx\/not%20a%20hash$/);
    await page.close();
    // A link is checked as the box is: text that is no hash never reaches the API; spaces around a hash are dropped.
    const traversal = await open('/explorer/tx/..%2F..%2Fconfig%2Fchains');
    expect(await traversal.getByRole('alert').innerText()).toContain('Paste a transaction hash');
    await traversal.close();
    const spaced = await open(`/explorer/tx/%20%200x${'cd'.repeat(32)}`);
    expect(await spaced.getByRole('alert').innerText()).toContain('No swap found');
    await spaced.close();
  });
});
