import { API_TAGS } from '@swap/contracts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startPlatform, type Platform } from '../../../tools/embedded/src/platform';
import { launchChromium } from './chromium';

jest.setTimeout(120_000);

/**
 * `/v1/docs` in a real browser (Debian's chromium) on the embedded default: Swagger UI from
 * the platform itself (no network beyond it), the swap's steps in order, schemas expanded,
 * and "Try it out" answering from the running platform.
 */
describe('the API docs page in chromium, on the embedded default', () => {
  let platform: Platform;
  let dataDir: string;
  let browser: Browser;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'docs-ui-'));
    platform = await startPlatform({ dataDir, gatewayPort: 0, servicePorts: 'ephemeral', logLevel: 'warn' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('lists the swap’s steps in order, expands schemas, and tries a call against the platform', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems: string[] = [];
    const outside: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => !r.url().startsWith(platform.gatewayUrl) && !r.url().startsWith('data:') && outside.push(r.url()));
    const res = await page.goto(`${platform.gatewayUrl}/v1/docs`);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");

    await page.locator('.opblock-tag-section').first().waitFor();
    const shown = (await page.locator('.opblock-tag-section h3').allInnerTexts()).map((t) => t.split('\n')[0].trim());
    expect(shown.slice(0, 5)).toEqual(API_TAGS.slice(0, 5).map((t) => t.name));

    // The token route of step 1: its response schema shows the Token's fields, then a live call.
    const op = page.locator('.opblock-get', { has: page.locator('[data-path="/v1/swaps/tokens/{chainKey}"]') });
    await op.locator('.opblock-summary').click();
    await op.locator('.model-example').first().waitFor();
    await op.getByRole('tab', { name: 'Schema' }).first().click();
    await op.locator('.model-box').first().waitFor();
    const schemaText = await op.locator('.responses-wrapper').innerText();
    for (const field of ['symbol', 'decimals', 'chainKey', 'hubAsset', 'vault']) expect(schemaText).toContain(field);

    await op.locator('input[placeholder="chainKey"]').fill('0xa4b1.arbitrum');
    await op.getByRole('button', { name: 'Execute' }).click();
    const live = op.locator('.live-responses-table tr.response');
    await live.first().waitFor();
    expect((await live.locator('.response-col_status').first().innerText()).trim()).toBe('200');
    expect(await live.locator('.response-col_description').first().innerText()).toContain('"chainKey": "0xa4b1.arbitrum"');

    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
