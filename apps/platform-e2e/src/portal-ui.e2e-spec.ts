import { eventually, sampleIntent } from '@swap/testing';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { startPlatform, type Platform } from '../../../tools/embedded/src/platform';
import { setSwapsMode } from './platform-ops';

jest.setTimeout(120_000);

/** PORTAL_SCREENSHOTS=docs/portal writes the screenshots of docs/integrators/partner-portal.md. */
const SHOTS = process.env.PORTAL_SCREENSHOTS;

/**
 * The partner portal's web UI in a real browser (Debian's chromium through playwright-core),
 * on the embedded default (`npm start`'s platform, without the devnet), through the gateway.
 */
describe('partner portal UI in chromium, on the embedded default', () => {
  let platform: Platform;
  let dataDir: string;
  let browser: Browser;
  const portal = () => `${platform.gatewayUrl}/portal/`;
  const shot = async (page: Page, name: string) => {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  /** Answers served with a valid key: the usage the portal must show for its organisation. */
  let validHashes = 0;
  const hashWith = (key: string) =>
    fetch(`${platform.gatewayUrl}/v1/swaps/intents/hash`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ intent: sampleIntent() }),
    }).then((r) => {
      if (r.status === 200) validHashes++;
      return r.status;
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-ui-'));
    platform = await startPlatform({
      dataDir,
      gatewayPort: 0,
      servicePorts: 'ephemeral',
      logLevel: 'warn',
      env: { SCRYPT_LOG_N: '10', PORTAL_PUBLIC_URL: 'http://127.0.0.1', USAGE_FLUSH_MS: '300' },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const signUp = async (page: Page, email: string) => {
    await page.goto(page.url().startsWith('http') ? page.url() : portal());
    await page.getByRole('button', { name: 'No account yet? Create one' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
  };

  /**
   * The Usage panel against what was sent: totals and chart from the organisation's known requests
   * (`submits` with the key besides the intent hashes counted), and a readiness badge per route,
   * one route given eight days of history in the database so that it can be ready.
   */
  const usageShown = async (page: Page, orgId: string, submits: number) => {
    const HASH = 'POST /v1/swaps/intents/hash';
    const db = new pg.Client({ connectionString: platform.databaseUrl });
    await db.connect();
    await db.query(
      `INSERT INTO key_registry.usage_hours (hour, org_id, key_id, route, outcome, requests, client_errors, server_errors)
       VALUES (date_trunc('hour', now() - interval '8 days'), $1, '', $2, 'valid', 1, 0, 0)`,
      [orgId, HASH],
    );
    await db.end();
    const panel = page.getByRole('region', { name: 'Usage of Acme Wallet' });
    const expected = validHashes + submits;
    await eventually(
      async () => {
        await panel.getByRole('button', { name: 'Refresh usage' }).click();
        return (await panel.getByTestId('usage-requests').textContent()) === String(expected);
      },
      10_000,
      200,
    );
    expect(await panel.getByTestId('usage-valid').textContent()).toBe(String(expected));
    expect(await panel.getByTestId('usage-error-share').textContent()).toBe('0%');
    // All in this hour: one bar per outcome present, the valid one's height the whole axis' share of it.
    const bars = panel.getByTestId('usage-chart').locator('.recharts-bar-rectangle path');
    expect(await bars.count()).toBe(1);
    expect(Number(await bars.first().getAttribute('height'))).toBeGreaterThan(0);
    const routes = panel.getByRole('table', { name: 'Usage per route' });
    expect(await routes.getByRole('row').count()).toBe(3);
    await routes.getByRole('row', { name: new RegExp(`^${HASH} ${validHashes} 0%`) }).waitFor();
    const readiness = panel.getByRole('table', { name: 'Enforcement readiness per route' });
    // Every keyed route with its mode now (swaps enforced here, leveraged yield off), readiness where the organisation's keys were used.
    expect(await readiness.getByRole('row').count()).toBe(1 + 13 + 14);
    await readiness.getByRole('row', { name: /POST \/v1\/leverage-yield\/intents\/deposit off 0 – No requests/ }).waitFor();
    await readiness.getByRole('row', { name: /POST \/v1\/swaps\/intents\/hash enforce .* Ready to enforce/ }).waitFor();
    await readiness.getByRole('row', { name: /POST \/v1\/swaps\/quote enforce 0 – No requests/ }).waitFor();
    await readiness.getByRole('row', { name: /POST \/v1\/swaps\/submit-tx .* Too early/ }).waitFor();
    await shot(page, 'usage');
  };

  it('signs up, creates an organisation and keys (shown once, copied), refuses a third, revokes with confirmation; members read only', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(portal()).origin });
    const page = await context.newPage();
    await page.goto(portal());
    await shot(page, 'sign-in');
    await signUp(page, 'owner@ui.example');
    await page.getByLabel('New organisation name').fill('Acme Wallet');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await page.getByRole('heading', { name: 'API keys of Acme Wallet' }).waitFor();
    expect(await page.getByTestId('key-guidance').textContent()).toMatch(/on a server: never in a browser bundle.*one key per environment/);
    const orgId = await page.getByRole('combobox', { name: 'Organisation', exact: true }).inputValue();

    // A modal dialog: Escape closes it and focus returns to the button that opened it.
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog', { name: 'Create an API key' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Create key');

    // Create: the name is checked as it is typed.
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Key name').fill('x'.repeat(65));
    await dialog.getByText('Name must be at most 64 characters (65 now)').waitFor();
    expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Key name').fill('production');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('region', { name: 'New API key' });
    await shown.getByText('it is shown only this once and cannot be shown again').waitFor();
    const key = (await shown.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^svc_[\w-]{43}$/);
    await shot(page, 'new-key');
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    const table = page.getByRole('table');
    await table.getByText(`${key.slice(0, 12)}••••••••`).waitFor();
    expect(await page.content()).not.toContain(key);
    await table.getByText('Read swaps, Execute swaps').waitFor();

    // A second key, then a third: the spec's message.
    for (const name of ['staging', 'third']) {
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByLabel('Key name').fill(name);
      await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
      if (name === 'staging') await page.getByRole('button', { name: 'I have stored it' }).click();
    }
    await page
      .getByRole('dialog')
      .getByRole('alert')
      .getByText('Two active API keys already exist; revoke one, then create another')
      .waitFor();
    await shot(page, 'key-limit');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // The key from the browser works on an enforced swaps route; revoked, it is refused.
    for (const mode of ['monitor', 'enforce']) expect(await setSwapsMode(platform, mode)).toBe(200);
    await eventually(async () => (await hashWith(key)) === 200, 5_000, 50);

    // A swap submitted with it is in the organisation's Swaps panel, found by its hash and linked to the explorer.
    const swapTx = `0x${'5a'.repeat(32)}`;
    const intent = sampleIntent();
    const submitted = await fetch(`${platform.gatewayUrl}/v1/swaps/submit-tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({
        txHash: swapTx,
        srcChainKey: '0xa4b1.arbitrum',
        walletAddress: intent.srcAddress,
        intent,
        relayData: '0xbeef',
      }),
    });
    expect(submitted.status).toBe(200);
    const swapsPanel = page.getByRole('region', { name: 'Swaps of Acme Wallet' });
    await swapsPanel.getByRole('button', { name: 'Refresh swaps' }).click();
    const row = swapsPanel.getByRole('link', { name: /^0x5a5a5a5a…/ });
    await row.waitFor();
    expect(await row.getAttribute('href')).toBe(`/explorer/tx/${swapTx}`);
    await swapsPanel.getByLabel('Source transaction hash').fill(`0x${'6b'.repeat(32)}`);
    await swapsPanel.getByRole('button', { name: 'Find' }).click();
    await swapsPanel.getByText('No swap of this transaction was submitted with this organisation’s keys.').waitFor();
    await swapsPanel.getByLabel('Source transaction hash').fill('not a hash');
    await swapsPanel.getByRole('button', { name: 'Find' }).click();
    await swapsPanel.getByRole('alert').getByText('txHash must be a transaction hash').waitFor();
    await swapsPanel.getByLabel('Source transaction hash').fill(swapTx.toUpperCase().replace('0X', '0x'));
    await swapsPanel.getByRole('button', { name: 'Find' }).click();
    await row.waitFor();
    await shot(page, 'swaps');
    await usageShown(page, orgId, 1);

    // No solved swap carried a fee here: the report says so, and its CSV is the header alone.
    const feesPanel = page.getByRole('region', { name: 'Partner fees of Acme Wallet' });
    await feesPanel.getByTestId('no-fees').waitFor();
    const csvHref = (await feesPanel.getByRole('link', { name: 'Download CSV' }).getAttribute('href'))!;
    expect(csvHref).toMatch(new RegExp(`^/portal/api/orgs/${orgId}/fees\\?from=\\d{4}-\\d\\d-\\d\\d&to=\\d{4}-\\d\\d-\\d\\d&format=csv$`));
    const csv = await page.request.get(`${platform.gatewayUrl}${csvHref}`);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toBe('day,token,receiver,amount,swaps\n');

    await page.getByRole('button', { name: 'Revoke key production' }).click();
    await page.getByRole('dialog', { name: 'Revoke key production?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('button', { name: 'Revoke key production' }).waitFor({ state: 'detached' });
    await eventually(async () => (await hashWith(key)) === 401, 5_000, 50);
    expect(await setSwapsMode(platform, 'monitor')).toBe(200);

    // A create whose answer never arrives (the key was made): creating is blocked until a refresh, which flags the unknown key.
    await page.route(`**/portal/api/orgs/${orgId}/keys`, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await route.fetch();
      await route.abort('timedout');
    });
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Key name').fill('lost');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByText('Creating is blocked until the list has been refreshed').waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).isDisabled()).toBe(true);
    await page.unroute(`**/portal/api/orgs/${orgId}/keys`);
    // Still blocked after a reload until the list arrives; the fetch marks the key nobody saw.
    await page.reload();
    await page.getByText('Not recognised? It may come from the create that did not complete').waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).isDisabled()).toBe(false);
    await shot(page, 'unrecognised-key');
    await page.getByRole('button', { name: 'Revoke key lost' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('button', { name: 'Revoke key lost' }).waitFor({ state: 'detached' });

    // Invite a member, who then sees a read-only list, on a phone-sized screen.
    await page.getByLabel('Email to invite').fill('member@ui.example');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = (await page.getByTestId('invitation-link').textContent())!;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1\/portal\/invitations\/[\w-]+$/);
    // No SMTP_URL here: the link is to be sent by hand.
    expect(await page.getByTestId('invitation-sent').textContent()).toContain('Send this link to member@ui.example:');
    await shot(page, 'members');
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const member = await phone.newPage();
    await member.goto(`${portal()}invitations/${link.split('/').at(-1)}`);
    await signUp(member, 'member@ui.example');
    await member.getByText('You are invited to join Acme Wallet as a member (invitation for member@ui.example).').waitFor();
    await member.getByRole('button', { name: 'Accept invitation' }).click();
    await member.getByRole('heading', { name: 'API keys of Acme Wallet' }).waitFor();
    await member.getByText('You are a member: you can see the keys').waitFor();
    await member.getByRole('cell', { name: 'staging', exact: true }).waitFor();
    expect(await member.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await member.getByRole('button', { name: /^Revoke key/ }).count()).toBe(0);
    expect(await member.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await shot(member, 'member-phone');
    await phone.close();

    // The owner removes the member, after a confirmation.
    await page.reload();
    await page.getByRole('button', { name: 'Remove member@ui.example' }).click();
    await page.getByRole('dialog', { name: 'Remove member@ui.example?' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Remove member@ui.example' }).waitFor({ state: 'detached' });
    await context.close();
  });

  it('adds a webhook endpoint (secret shown once, copied), tests it, reads and replays its deliveries, rotates, explains a disabled one, deletes', async () => {
    const got: { id: string; headers: Record<string, string>; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req
        .on('data', (c: Buffer) => (body += c.toString()))
        .on('end', () => {
          got.push({ id: String(req.headers['webhook-id']), headers: req.headers as Record<string, string>, body });
          res.writeHead(204).end();
        });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(portal()).origin });
    const page = await context.newPage();
    try {
      await page.goto(portal());
      await signUp(page, 'hooks@ui.example');
      await page.getByLabel('New organisation name').fill('Hooks Co');
      await page.getByRole('button', { name: 'Create organisation' }).click();
      await page.getByRole('heading', { name: 'Webhooks of Hooks Co' }).waitFor();

      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
      await dialog.getByLabel('Endpoint URL').fill('not a url');
      await dialog.getByText('URL must be a full address').waitFor();
      expect(await dialog.getByRole('button', { name: 'Add endpoint' }).isDisabled()).toBe(true);
      await dialog.getByLabel('Endpoint URL').fill(url);
      await dialog.getByLabel('Description (optional)').fill('order service');
      await dialog.getByRole('button', { name: 'Add endpoint' }).click();
      const shown = page.getByRole('region', { name: 'Webhook signing secret' });
      const secret = (await shown.getByTestId('webhook-secret').textContent())!;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      await shown.getByRole('button', { name: 'Copy secret' }).click();
      await shown.getByRole('button', { name: 'Copied' }).waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
      await shown.getByRole('button', { name: 'I have stored it' }).click();
      expect(await page.content()).not.toContain(secret);

      // A test reaches the receiver, signed with that secret.
      await page.getByRole('button', { name: 'Send test' }).click();
      await page.getByText(/^Test delivered: answered 204 in \d+ ms/).waitFor();
      expect(got).toHaveLength(1);
      expect(new Webhook(secret).verify(got[0].body, got[0].headers)).toMatchObject({ type: 'webhook.test' });
      await shot(page, 'webhooks');

      // The log shows it; a replay sends it again with the same webhook-id.
      await page.getByRole('button', { name: 'Deliveries' }).click();
      const log = page.getByRole('table', { name: 'Deliveries' });
      await log.getByText('webhook.test').waitFor();
      await log.getByText(/Delivered · 204/).waitFor();
      await log.getByRole('button', { name: `Replay delivery ${got[0].id}` }).click();
      await eventually(() => (got.length === 2 ? true : undefined), 5_000, 50);
      expect(got[1].id).toBe(got[0].id);

      // Rotation: a new secret, the old one signing too meanwhile.
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page
        .getByRole('dialog', { name: `Rotate the secret of ${url}?` })
        .getByRole('button', { name: 'Rotate secret' })
        .click();
      const rotated = (await page.getByRole('region', { name: 'Webhook signing secret' }).getByTestId('webhook-secret').textContent())!;
      expect(rotated).not.toBe(secret);
      await page.getByText('the previous secret signs too until').waitFor();
      await page.getByRole('button', { name: 'I have stored it' }).click();

      // An endpoint disabled after failing for days says why.
      const db = new pg.Client({ connectionString: platform.databaseUrl });
      await db.connect();
      await db.query(
        `UPDATE relay_tracker.webhook_endpoints SET disabled_at = now(), disabled_reason = 'every delivery failed since 2026-11-22 10:00 UTC; the last: answered 500'`,
      );
      await db.end();
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await page.getByText(/: every delivery failed since 2026-11-22 10:00 UTC; the last: answered 500\. Nothing is sent to it/).waitFor();

      await page.getByRole('button', { name: `Delete endpoint ${url}` }).click();
      await page
        .getByRole('dialog', { name: `Delete endpoint ${url}?` })
        .getByRole('button', { name: 'Delete endpoint' })
        .click();
      await page.getByText('No endpoints yet.').waitFor();
    } finally {
      await context.close();
      receiver.close();
    }
  });

  it('serves the UI with a strict content security policy, and API paths never as pages', async () => {
    const page = await fetch(portal());
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain('<div id="root"></div>');
    const api = await fetch(`${portal()}api/nothing-here`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    expect((await fetch(`${portal()}../../etc/passwd`)).status).not.toBe(200);
  });
});
