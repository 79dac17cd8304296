import { INTENTS_ABI, loadChainDirectory, type ChainDirectory } from '@swap/chains';
import type { BuildResponse, EvmTx, Intent, SubmissionStatusResponse } from '@swap/contracts';
import { eventually, intentRequestBody, jsonOf, LogCapture, readEventStream, postJson } from '@swap/testing';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WebhooksService } from '../../relay-tracker/src/relay-tracker.definition';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  getAddress,
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
import { spawnCommand, spawnNode } from './processes';

jest.setTimeout(180_000);

type Status = SubmissionStatusResponse['data'];

/** Every step of a swap settled to solved, in order. */
const SOLVED_PATH = ['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution', 'solved'];

describe('settlement: every submitted swap driven to solved or failed (npm start’s platform, devnet)', () => {
  const logs = new LogCapture();
  const user = privateKeyToAccount(DEV_KEYS[3]);
  let platform: Platform;
  let dataDir: string;
  let directory: ChainDirectory;
  let gateway: string;
  const clients = new Map<string, { read: PublicClient; write: WalletClient }>();
  let spokeToSpoke: { built: BuildResponse; txHash: Hex; done: Status } | undefined;

  const token = (key: string, symbol: string) => directory.tokensOf(key).find((t) => t.symbol === symbol)!.address as Address;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => postJson(`${gateway}${path}`, body, headers);
  const send = async (key: string, tx: EvmTx, gas?: bigint): Promise<{ hash: Hex; status: string }> => {
    const c = clients.get(key)!;
    const hash = await c.write.sendTransaction({
      to: tx.to as Address,
      data: tx.data as Hex,
      value: BigInt(tx.value),
      account: user,
      chain: c.write.chain,
      ...(gas ? { gas } : {}),
    });
    return { hash, status: (await c.read.waitForTransactionReceipt({ hash })).status };
  };
  const balance = (key: string, asset: Address, owner: Address = user.address) =>
    clients.get(key)!.read.readContract({ address: asset, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
  const status = async (txHash: string, srcChainKey: string): Promise<Status> =>
    (await jsonOf(await fetch(`${gateway}/v1/swaps/submit-tx/status?txHash=${txHash}&srcChainKey=${srcChainKey}`))).data;
  const settled = (txHash: string, srcChainKey: string, timeoutMs = 30_000) =>
    eventually(
      async () => {
        const s = await status(txHash, srcChainKey);
        return s.status === 'solved' || s.status === 'failed' ? s : undefined;
      },
      timeoutMs,
      100,
    );
  const submit = (
    txHash: string,
    srcChainKey: string,
    built: { intent: Intent; relayData: { payload: string } },
    walletAddress: string = user.address,
    headers: Record<string, string> = {},
  ) =>
    post('/v1/swaps/submit-tx', { txHash, srcChainKey, walletAddress, intent: built.intent, relayData: built.relayData.payload }, headers);
  /** The spec's steps 1–4: quote with the build, approve when needed, sign and send, submit. */
  const swap = async (src: string, dst: string, input: string, output: string, amount: string, headers: Record<string, string> = {}) => {
    const quote = await post('/v1/swaps/quote?includeTxData=true', {
      tokenSrc: token(src, input),
      tokenSrcChainKey: src,
      tokenDst: token(dst, output),
      tokenDstChainKey: dst,
      amount,
      quoteType: 'exact_input',
      srcAddress: user.address,
      dstAddress: user.address,
    });
    expect({ status: quote.status, error: quote.status === 200 ? undefined : quote.body }).toEqual({ status: 200, error: undefined });
    const approval = await post('/v1/swaps/approve', {
      ...intentBody(src, dst, token(src, input), token(dst, output), amount),
      deadline: '0',
    });
    if (approval.body.tx) await send(src, approval.body.tx);
    const sent = await send(src, quote.body.txData.tx);
    expect(sent.status).toBe('success');
    expect((await submit(sent.hash, src, quote.body.txData, user.address, headers)).body.data.status).toBe('inserted');
    return { quote: quote.body, txHash: sent.hash };
  };
  const intentBody = (src: string, dst: string, input: string, output: string, amount: string) =>
    intentRequestBody({
      srcChainKey: src,
      dstChainKey: dst,
      inputToken: input,
      outputToken: output,
      inputAmount: amount,
      user: user.address,
    });
  const statuses = (s: Status) => s.history.map((h) => h.status);
  /** The paths of EVM addresses in an answer that are not EIP-55 (bytes fields and calldata aside). */
  const notChecksummed = (answer: unknown, path = ''): string[] => {
    if (typeof answer === 'string')
      return /^0x[0-9a-fA-F]{40}$/.test(answer) && !/\.(srcAddress|dstAddress|data|payload)$/.test(path) && getAddress(answer) !== answer
        ? [`${path}: ${answer}`]
        : [];
    if (answer && typeof answer === 'object')
      return Object.entries(answer).flatMap(([key, value]) => notChecksummed(value, `${path}.${key}`));
    return [];
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'settlement-e2e-'));
    platform = await startPlatform({
      dataDir,
      gatewayPort: 0,
      servicePorts: 'ephemeral',
      logLevel: 'info',
      logDestination: logs,
      devnet: true,
      // The 100 concurrent submits come from one client, within the same minute as the others.
      env: {
        NOT_FOUND_WINDOW_MS: '2000',
        STEP_POLL_MS: '150',
        // A built swap nobody submits is adopted 4 s after its hub intent (2 min by default).
        ADOPT_AFTER_MS: '4000',
        SIMULATION_TICK_MS: '200',
        FLUSH_INTERVAL_MS: '200',
        SUBMIT_LIMIT_PER_CLIENT: '100000',
        SUBMIT_LIMIT_PER_WALLET: '100000',
      },
      solverEnv: { PRICE_REFRESH_MS: '300' },
    });
    gateway = platform.gatewayUrl;
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
    // The solvers need prices (the simulated feed's first candles): ready once a quote works.
    await eventually(
      async () =>
        (
          await post('/v1/swaps/quote', {
            tokenSrc: token('0x92.sonic', 'USDC'),
            tokenSrcChainKey: '0x92.sonic',
            tokenDst: token('0x92.sonic', 'WETH'),
            tokenDstChainKey: '0x92.sonic',
            amount: '1000000',
            quoteType: 'exact_input',
          })
        ).status === 200,
      20_000,
      200,
    );
  });

  afterAll(async () => {
    await platform?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('spoke → spoke: relayed to the hub, filled, delivered on the destination spoke; every step in the spec’s order', async () => {
    const before = await balance('0x2105.base', token('0x2105.base', 'USDC'));
    const { quote, txHash } = await swap('0xa4b1.arbitrum', '0x2105.base', 'USDC', 'USDC', '25000000');
    const done = await settled(txHash, '0xa4b1.arbitrum');
    expect(done.status).toBe('solved');
    expect(statuses(done)).toEqual(SOLVED_PATH);
    expect(done.result).toEqual({
      hubTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      fillTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      deliveryTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    const received = (await balance('0x2105.base', token('0x2105.base', 'USDC'))) - before;
    expect(received).toBeGreaterThanOrEqual(BigInt(quote.txData.intent.minOutputAmount));
    // Each step's time: the first entry closes none; together they span the swap's life.
    expect(done.terminal).toBe(true);
    expect(done.history[0].durationMs).toBe(0);
    expect(done.history.reduce((sum, h) => sum + h.durationMs, 0)).toBe(
      Date.parse(done.history.at(-1)!.at) - Date.parse(done.history[0].at),
    );
    spokeToSpoke = { built: quote.txData, txHash, done };
  });

  it('pushes each transition on a status stream, in order, closing at solved; a resume with Last-Event-ID misses and repeats nothing', async () => {
    const { txHash } = await swap('0xa4b1.arbitrum', '0x2105.base', 'USDC', 'USDC', '5000000');
    // Opened while the swap settles: the history so far is replayed, the rest pushed as it happens.
    const url = `${gateway}/v1/swaps/submit-tx/events?txHash=${txHash}&srcChainKey=0xa4b1.arbitrum`;
    const live = await readEventStream(url, { timeoutMs: 30_000 });
    expect(live).toMatchObject({ status: 200, contentType: expect.stringMatching(/^text\/event-stream/), ended: true });
    expect(live.events.map((e) => e.id)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(live.events.map((e) => e.event)).toEqual(SOLVED_PATH);
    const data = live.events.map((e) => JSON.parse(e.data) as Status);
    // Each event's data is the status answer as it was then: its own status, the history up to it.
    data.forEach((d, i) => {
      expect(d.status).toBe(live.events[i].event);
      expect(d.history.map((h) => h.status)).toEqual(live.events.slice(0, i + 1).map((e) => e.event));
      expect(d.terminal).toBe(i === 5);
    });
    expect(data[1].result).toBeUndefined();
    expect(data[2].result).toEqual({ hubTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const done = await status(txHash, '0xa4b1.arbitrum');
    expect(data[5]).toEqual(done);

    const resumed = await readEventStream(url, { headers: { 'last-event-id': '3' }, timeoutMs: 10_000 });
    expect(resumed.ended).toBe(true);
    expect(resumed.events.map((e) => e.id)).toEqual(['4', '5', '6']);
    expect(resumed.events.map((e) => e.data)).toEqual(live.events.slice(3).map((e) => e.data));
    // After the terminal event nothing more will come: 204, so an EventSource stops reconnecting.
    expect((await fetch(url, { headers: { 'last-event-id': '6' } })).status).toBe(204);
    const beyond = await fetch(url, { headers: { 'last-event-id': '7' } });
    expect(beyond.status).toBe(400);
    expect((await jsonOf(beyond)).details).toEqual([expect.objectContaining({ field: 'Last-Event-ID', rule: 'knownEvent' })]);
    const unknown = await fetch(url.replace(txHash, `0x${'ab'.repeat(32)}`));
    expect({ status: unknown.status, type: unknown.headers.get('content-type') }).toEqual({
      status: 404,
      type: 'application/json; charset=utf-8',
    });
  });

  it('sends each transition of a swap submitted with an organisation’s key to its webhook endpoint, in order, every signature valid', async () => {
    // An organisation and its key (the operator routes of key-registry answer loopback callers in the embedded default).
    const keyRegistry = platform.services.find((s) => s.name === 'key-registry')!.url;
    const org = await jsonOf(
      await fetch(`${keyRegistry}/ops/organisations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Hooks Inc' }),
      }),
    );
    const created = await jsonOf(
      await fetch(`${keyRegistry}/ops/organisations/${org.id}/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'hooks' }),
      }),
    );
    const received: { at: number; headers: Record<string, string>; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req
        .on('data', (c: Buffer) => (body += c.toString()))
        .on('end', () => {
          received.push({ at: Date.now(), headers: req.headers as Record<string, string>, body });
          res.writeHead(200).end();
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const webhooks = platform.services.find((s) => s.name === 'relay-tracker')!.app.get(WebhooksService);
      const endpoint = await webhooks.create(org.id, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` }, 'e2e');
      // The swaps family is `off` here: the key is identified, never required.
      const { txHash } = await swap('0xa4b1.arbitrum', '0x2105.base', 'USDC', 'USDC', '3000000', { 'x-api-key': created.key });
      await settled(txHash, '0xa4b1.arbitrum');
      const events = await eventually(() => (received.length >= 6 ? received : undefined), 15_000, 50);
      const verifier = new Webhook(endpoint.secret);
      const bodies = events.map((e) => verifier.verify(e.body, e.headers) as { type: string; data: Status });
      expect(bodies.map((b) => b.data.status)).toEqual(SOLVED_PATH);
      expect(bodies.every((b) => b.type === 'submission.status' && b.data.txHash === txHash.toLowerCase())).toBe(true);
      expect(new Set(events.map((e) => e.headers['webhook-id'])).size).toBe(6);
      // Transition → received, on one clock (this machine's).
      const lags = bodies.slice(1).map((b, i) => events[i + 1].at - Date.parse(b.data.history.at(-1)!.at));
      process.stdout.write(`webhooks: transition → received ${lags.map((l) => `${l} ms`).join(', ')}\n`);
      expect(Math.max(...lags)).toBeLessThan(5_000);
    } finally {
      server.close();
    }
  });

  it('answers the relay routes: packets of the source and of the fill, relay data of an intent or a submission, an untracked submit', async () => {
    const { built, txHash, done } = spokeToSpoke!;
    const arbitrum = directory.getChain('0xa4b1.arbitrum');
    const hub = directory.hub;
    // The source's message to the hub, by relay chain id; the fill's delivery to Base, by chain key and the public client's field name.
    const toHub = await post('/v1/swaps/intents/packet', {
      chainId: arbitrum.relayChainId,
      txHash: txHash.toUpperCase().replace('0X', '0x'),
    });
    expect(toHub).toEqual({
      status: 200,
      body: expect.objectContaining({
        status: 'executed',
        srcChainId: Number(arbitrum.relayChainId),
        dstChainId: Number(hub.relayChainId),
        dstTxHash: done.result!.hubTxHash,
        connSn: expect.any(Number),
      }),
    });
    const delivery = await post('/v1/swaps/intents/packet', { chainId: hub.key, fillTxHash: done.result!.fillTxHash, timeout: 2000 });
    expect(delivery.body).toMatchObject({
      status: 'executed',
      dstChainId: Number(directory.getChain('0x2105.base').relayChainId),
      dstTxHash: done.result!.deliveryTxHash,
    });
    const none = await post('/v1/swaps/intents/packet', { chainId: hub.relayChainId, fillTxHash: `0x${'ab'.repeat(32)}`, timeout: 300 });
    expect(none).toEqual({
      status: 404,
      body: expect.objectContaining({ message: `The relay has no packet for 0x${'ab'.repeat(32)} on ${hub.key} (yet)` }),
    });

    expect((await post('/v1/swaps/intents/extra-data', { txHash })).body).toEqual(built.relayData);
    expect((await post('/v1/swaps/intents/extra-data', { txHash, srcChainKey: '0xa4b1.arbitrum' })).body).toEqual(built.relayData);
    expect((await post('/v1/swaps/intents/extra-data', { intent: built.intent })).body).toEqual(built.relayData);
    const fromHub = await post('/v1/swaps/quote?includeTxData=true', {
      tokenSrc: token('0x92.sonic', 'USDC'),
      tokenSrcChainKey: '0x92.sonic',
      tokenDst: token('0x2105.base', 'USDC'),
      tokenDstChainKey: '0x2105.base',
      amount: '1000000',
      quoteType: 'exact_input',
      srcAddress: user.address,
      dstAddress: user.address,
    });
    expect((await post('/v1/swaps/intents/extra-data', { intent: fromHub.body.txData.intent })).body).toEqual(
      fromHub.body.txData.relayData,
    );

    const resubmitted = await post('/v1/swaps/intents/submit', { chainId: arbitrum.key, txHash, data: built.relayData });
    expect(resubmitted).toEqual({ status: 200, body: { result: expect.objectContaining({ success: true }) } });

    const refusals: [string, unknown, number, string][] = [
      ['/v1/swaps/intents/packet', { chainId: hub.key, txHash, fillTxHash: txHash }, 400, 'Give exactly one of fillTxHash and txHash'],
      [
        '/v1/swaps/intents/packet',
        { chainId: '999999', txHash },
        400,
        'chainId 999999 is neither a relay chain id nor a chain key of a supported chain',
      ],
      ['/v1/swaps/intents/packet', { chainId: hub.key, txHash, timeout: 60_000 }, 400, 'timeout must be at most 8000 milliseconds'],
      ['/v1/swaps/intents/extra-data', {}, 400, 'Give exactly one of txHash and intent'],
      [
        '/v1/swaps/intents/extra-data',
        { txHash: `0x${'cd'.repeat(32)}` },
        404,
        `No submission of transaction 0x${'cd'.repeat(32)}; pass the intent instead`,
      ],
      [
        '/v1/swaps/intents/submit',
        { chainId: hub.key, txHash },
        400,
        `chainId must name a spoke chain: a ${hub.key} transaction needs no relay`,
      ],
      [
        '/v1/swaps/intents/submit',
        { chainId: arbitrum.key, txHash: 'nope' },
        400,
        'txHash must be a transaction hash of its network: 0x and 64 hex digits (EVM, ICON), 64 hex digits (Stellar, Injective) or base58 (a Solana signature, a Sui digest)',
      ],
    ];
    for (const [path, body, code, message] of refusals) {
      const res = await post(path, body);
      expect({ path, body, status: res.status, message: res.body.message }).toEqual({ path, body, status: code, message });
    }
  });

  it('npm run example:swap: the five-step client quotes, builds, signs, broadcasts, submits and polls to solved, printing balances', async () => {
    const example = spawnNode('dist/examples/swap/swap.js', {
      API_URL: gateway,
      CHAIN_PROFILE: platform.devnet!.profilePath,
      // Account 1, the example's own default: DEV_KEYS holds accounts 0–4 (5 and 6 are the solvers').
      PRIVATE_KEY: DEV_KEYS[1],
      AMOUNT: '12.5',
      POLL_MS: '300',
    });
    const code = await example.finished;
    expect({ code, stderr: example.stderr }).toEqual({ code: 0, stderr: [] });
    const out = example.stdout.join('\n');
    for (const step of ['1. quote     12.5 USDC →', '2. build', '3. sign', '4. broadcast', '5. submit    inserted', 'solved: hub 0x'])
      expect(out).toContain(step);
    expect(out).toMatch(/before: 1000000 USDC on 0xa4b1\.arbitrum/);
    expect(out).toMatch(/after: {2}999987\.5 USDC on 0xa4b1\.arbitrum \(-12\.5\), [\d.]+ USDC on 0x2105\.base \(\+1[12]\.\d+\)/);
    expect(out.indexOf('pending')).toBeLessThan(out.indexOf('relaying'));
  });

  it('npm run example:vault: deposits 100 USDC from Arbitrum into lsodaWETH, prints the shares and the position, withdraws them to Base', async () => {
    // Its own demo wallet (account 4): the others here sign with accounts 1, 2 and 3.
    const example = spawnNode('dist/examples/swap/vault.js', {
      API_URL: gateway,
      CHAIN_PROFILE: platform.devnet!.profilePath,
      PRIVATE_KEY: DEV_KEYS[4],
      POLL_MS: '300',
    });
    const code = await example.finished;
    expect({ code, stderr: example.stderr }).toEqual({ code: 0, stderr: [] });
    const out = example.stdout.join('\n');
    for (const step of [
      '1. quote     100 USDC on 0xa4b1.arbitrum →',
      '2. deposit',
      '3. shares',
      '   position  collateral',
      '4. quote',
      '5. withdraw',
    ])
      expect(out).toContain(step);
    expect(out).toMatch(/solved: [\d.]+ USDC on 0x2105\.base \(\+9\d\.\d+\), 0 shares left in the hub wallet/);
    expect(out.match(/ solved /g)).toHaveLength(2);
  });

  it('examples/curl/swap.sh: curl, jq and cast alone list the tokens, quote, approve, sign and send, submit and poll to solved', async () => {
    // Its own demo wallet (account 2): the others here sign with accounts 1 and 3, so no nonce is shared.
    const wallet = privateKeyToAccount(DEV_KEYS[2]);
    const usdcOnBase = token('0x2105.base', 'USDC');
    const received = () => balance('0x2105.base', usdcOnBase, wallet.address);
    const before = await received();
    const started = Date.now();
    const script = spawnCommand('bash', ['examples/curl/swap.sh'], {
      API_URL: gateway,
      CHAIN_PROFILE: platform.devnet!.profilePath,
      PRIVATE_KEY: DEV_KEYS[2],
      AMOUNT: '7000000',
      POLL_SECONDS: '0.2',
      TIMEOUT_SECONDS: '60',
    });
    const code = await script.finished;
    process.stdout.write(`examples/curl/swap.sh: exit ${code} in ${Date.now() - started} ms\n`);
    expect({ code, stderr: script.stderr }).toEqual({ code: 0, stderr: [] });
    const out = script.stdout;
    // One line per step, in order, then each status once as it appeared.
    expect(out.filter((line) => /^\d\. /.test(line)).map((line) => line.slice(0, 12).trimEnd())).toEqual([
      '1. tokens',
      '2. quote',
      '3. allowance',
      '4. sent',
      '5. submitted',
      '6. solved',
    ]);
    const line = (step: string) => out.find((l) => l.startsWith(step))!;
    expect(line('1. tokens')).toBe(
      `1. tokens    USDC on 0xa4b1.arbitrum is ${token('0xa4b1.arbitrum', 'USDC')}, USDC on 0x2105.base is ${usdcOnBase}`,
    );
    expect(line('2. quote')).toMatch(/^2\. quote {5}7 USDC → [\d.]+ USDC \(at least [\d.]+; quote [0-9a-f-]{36}, expires /);
    expect(line('3. allowance')).toMatch(/^3\. allowance approved 7000000 for 0x[0-9a-fA-F]{40} in 0x[0-9a-f]{64}$/);
    expect(line('5. submitted')).toMatch(/^5\. submitted inserted; polling/);
    expect(out.filter((l) => l.startsWith('   ')).map((l) => l.trim().split(/\s+/)[0])).toEqual(SOLVED_PATH);
    // What the API and the chain say: the script's transaction was sent by its wallet and solved, the wallet paid at least the minimum.
    const txHash = line('4. sent').match(/^4\. sent {6}(0x[0-9a-f]{64}), mined in block \d+ of 0xa4b1\.arbitrum$/)![1] as Hex;
    const sent = await clients.get('0xa4b1.arbitrum')!.read.getTransaction({ hash: txHash });
    expect(sent.from.toLowerCase()).toBe(wallet.address.toLowerCase());
    const done = await status(txHash, '0xa4b1.arbitrum');
    expect({ status: done.status, terminal: done.terminal }).toEqual({ status: 'solved', terminal: true });
    expect(line('6. solved')).toBe(
      `6. solved    hub ${done.result!.hubTxHash}, fill ${done.result!.fillTxHash}, delivered ${done.result!.deliveryTxHash}`,
    );
    const atLeast = parseUnits(line('2. quote').match(/at least ([\d.]+)/)![1], 6);
    expect((await received()) - before).toBeGreaterThanOrEqual(atLeast);
  });

  it('spoke → hub and hub → spoke: solved, the receiver paid', async () => {
    const wethBefore = await balance('0x92.sonic', token('0x92.sonic', 'WETH'));
    const toHub = await swap('0x2105.base', '0x92.sonic', 'USDC', 'WETH', '30000000');
    expect((await settled(toHub.txHash, '0x2105.base')).status).toBe('solved');
    expect((await balance('0x92.sonic', token('0x92.sonic', 'WETH'))) - wethBefore).toBeGreaterThanOrEqual(
      BigInt(toHub.quote.txData.intent.minOutputAmount),
    );

    const usdcBefore = await balance('0xa4b1.arbitrum', token('0xa4b1.arbitrum', 'USDC'));
    const toSpoke = await swap('0x92.sonic', '0xa4b1.arbitrum', 'USDC', 'USDC', '15000000');
    const done = await settled(toSpoke.txHash, '0x92.sonic');
    expect(statuses(done)).toEqual(SOLVED_PATH);
    expect(done.result?.hubTxHash).toBe(toSpoke.txHash);
    expect((await balance('0xa4b1.arbitrum', token('0xa4b1.arbitrum', 'USDC'))) - usdcBefore).toBeGreaterThanOrEqual(
      BigInt(toSpoke.quote.txData.intent.minOutputAmount),
    );
  });

  it('settles a swap submitted late, after its deposit and its hub intent were already seen', async () => {
    const src = '0xa4b1.arbitrum';
    const quote = await post('/v1/swaps/quote?includeTxData=true', {
      tokenSrc: token(src, 'USDC'),
      tokenSrcChainKey: src,
      tokenDst: token('0x92.sonic', 'WETH'),
      tokenDstChainKey: '0x92.sonic',
      amount: '11000000',
      quoteType: 'exact_input',
      srcAddress: user.address,
      dstAddress: user.address,
    });
    const approval = await post('/v1/swaps/approve', {
      ...intentBody(src, '0x92.sonic', token(src, 'USDC'), token('0x92.sonic', 'WETH'), '11000000'),
      deadline: '0',
    });
    if (approval.body.tx) await send(src, approval.body.tx);
    const sent = await send(src, quote.body.txData.tx);
    const { hash: intentHash } = (await post('/v1/swaps/intents/hash', { intent: quote.body.txData.intent })).body;
    // The relayer delivered it and the hub opened the intent before anyone submitted it.
    await eventually(
      async () => {
        const [exists] = await clients.get('0x92.sonic')!.read.readContract({
          address: directory.hub.contracts!.intents as Address,
          abi: INTENTS_ABI,
          functionName: 'intentStates',
          args: [intentHash as Hex],
        });
        return exists;
      },
      20_000,
      100,
    );
    expect((await submit(sent.hash, src, quote.body.txData)).body.data.status).toBe('inserted');
    const done = await settled(sent.hash, src);
    expect(statuses(done)).toEqual(SOLVED_PATH);
    expect(done.history[0].detail).toBe('submitted');
  });

  it('adopts a swap built here and broadcast but never submitted, and settles it to solved', async () => {
    const src = '0xa4b1.arbitrum';
    const quote = await post('/v1/swaps/quote?includeTxData=true', {
      tokenSrc: token(src, 'USDC'),
      tokenSrcChainKey: src,
      tokenDst: token('0x92.sonic', 'WETH'),
      tokenDstChainKey: '0x92.sonic',
      amount: '13000000',
      quoteType: 'exact_input',
      srcAddress: user.address,
      dstAddress: user.address,
    });
    const approval = await post('/v1/swaps/approve', {
      ...intentBody(src, '0x92.sonic', token(src, 'USDC'), token('0x92.sonic', 'WETH'), '13000000'),
      deadline: '0',
    });
    if (approval.body.tx) await send(src, approval.body.tx);
    const sent = await send(src, quote.body.txData.tx);
    // Never submitted: the platform learns of it from its own build record and the chain.
    const adopted = await eventually(
      async () => {
        const res = await fetch(`${gateway}/v1/swaps/submit-tx/status?txHash=${sent.hash}&srcChainKey=${src}`);
        if (res.status !== 200) return undefined;
        const s = (await jsonOf(res)).data as Status;
        return s.status === 'solved' || s.status === 'failed' ? s : undefined;
      },
      60_000,
      200,
    );
    expect(adopted).toMatchObject({ status: 'solved', txHash: sent.hash.toLowerCase(), terminal: true });
    expect(adopted.history[0]).toMatchObject({ status: 'pending', detail: expect.stringMatching(/^adopted: built by this deployment/) });
    expect(statuses(adopted)).toEqual(SOLVED_PATH);
  });

  it('adopts a vault deposit and then a withdrawal, built here and never submitted, each to solved with its operation', async () => {
    const src = '0xa4b1.arbitrum';
    const base = '0x2105.base';
    const vault = directory.leverageVaults.find((v) => v.name === 'lsodaWETH')!.vault;
    const ly = async (path: string, body: object) => {
      const answer = await post(`/v1/leverage-yield/${path}`, body);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      return answer.body;
    };
    const lessOnePercent = (amount: string) => ((BigInt(amount) * 99n) / 100n).toString();
    const adopted = (txHash: string) =>
      eventually(
        async () => {
          const res = await fetch(`${gateway}/v1/leverage-yield/submit-tx/status?txHash=${txHash}&srcChainKey=${src}`);
          if (res.status !== 200) return undefined;
          const s = (await jsonOf(res)).data as Status & { operation?: string };
          return s.status === 'solved' || s.status === 'failed' ? s : undefined;
        },
        60_000,
        200,
      );
    const amount = '20000000';
    const quoted = await ly('quote/deposit', {
      vault,
      tokenSrc: token(src, 'USDC'),
      tokenSrcChainKey: src,
      amount,
      quoteType: 'exact_input',
    });
    const body = {
      vault,
      srcChainKey: src,
      srcAddress: user.address,
      inputToken: token(src, 'USDC'),
      inputAmount: amount,
      minOutputAmount: lessOnePercent(quoted.quotedAmount),
    };
    const approval = await ly('approve', body);
    if (approval.tx) await send(src, approval.tx);
    const deposit = await ly('intents/deposit', body);
    const deposited = await adopted((await send(src, deposit.tx)).hash);
    expect(deposited).toMatchObject({ status: 'solved', operation: 'leverage_deposit' });
    expect(deposited.history[0].detail).toMatch(/^adopted: built by this deployment/);

    const hubWallet = deposit.relayData.address;
    const { balance: shares } = await jsonOf(await fetch(`${gateway}/v1/leverage-yield/share-balance?vault=${vault}&owner=${hubWallet}`));
    const outQuote = await ly('quote/withdraw', {
      vault,
      srcChainKey: src,
      tokenDst: token(base, 'USDC'),
      tokenDstChainKey: base,
      amount: shares,
      quoteType: 'exact_input',
    });
    const withdrawal = await ly('intents/withdraw', {
      vault,
      srcChainKey: src,
      srcAddress: user.address,
      dstChainKey: base,
      outputToken: token(base, 'USDC'),
      inputAmount: shares,
      minOutputAmount: lessOnePercent(outQuote.quotedAmount),
    });
    const before = await balance(base, token(base, 'USDC'));
    const withdrawn = await adopted((await send(src, withdrawal.tx)).hash);
    expect(withdrawn).toMatchObject({ status: 'solved', operation: 'leverage_withdraw' });
    expect((await balance(base, token(base, 'USDC'))) - before).toBeGreaterThanOrEqual(BigInt(lessOnePercent(outQuote.quotedAmount)));
  });

  it('is idempotent on (txHash, srcChainKey) whatever the letter case, and 100 concurrent identical submits insert once', async () => {
    const txHash = `0x${randomBytes(32).toString('hex')}`;
    const built = {
      intent: (
        await post(
          '/v1/swaps/limit-orders',
          intentBody('0x92.sonic', '0x92.sonic', token('0x92.sonic', 'USDC'), token('0x92.sonic', 'WETH'), '5'),
        )
      ).body.intent,
      relayData: { payload: '0x' },
    };
    const answers = await Promise.all(Array.from({ length: 100 }, () => submit(txHash, '0x92.sonic', built)));
    expect(answers.filter((a) => a.body.data.status === 'inserted')).toHaveLength(1);
    expect(answers.filter((a) => a.body.data.status === 'duplicate')).toHaveLength(99);
    expect((await submit(txHash.toUpperCase().replace('0X', '0x'), '0x92.sonic', built)).body.data.status).toBe('duplicate');
    expect((await status(txHash.toUpperCase().replace('0X', '0x'), '0x92.sonic')).txHash).toBe(txHash);
  });

  it('fails a hash that never lands once the not-found window passes (here 2 s), saying why', async () => {
    const txHash = `0x${randomBytes(32).toString('hex')}`;
    const built = {
      intent: (
        await post(
          '/v1/swaps/limit-orders',
          intentBody('0x92.sonic', '0x92.sonic', token('0x92.sonic', 'USDC'), token('0x92.sonic', 'WETH'), '5'),
        )
      ).body.intent,
      relayData: { payload: '0x' },
    };
    await submit(txHash, '0x92.sonic', built);
    const done = await settled(txHash, '0x92.sonic');
    expect(done).toMatchObject({
      status: 'failed',
      failedAtStep: 'pending',
      userMessage: expect.stringContaining('could not find this transaction on 0x92.sonic'),
    });
    expect(done.history.at(-1)).toMatchObject({ status: 'failed', detail: 'source transaction not found' });
  });

  it('fails a reverted source transaction with a message a person understands', async () => {
    // createIntent without an allowance: mined, and reverted.
    const order = await post(
      '/v1/swaps/limit-orders',
      intentBody('0x92.sonic', '0x92.sonic', token('0x92.sonic', 'WETH'), token('0x92.sonic', 'USDC'), (10n ** 30n).toString()),
    );
    const sent = await send('0x92.sonic', order.body.tx, 500_000n);
    expect(sent.status).toBe('reverted');
    await submit(sent.hash, '0x92.sonic', order.body);
    const done = await settled(sent.hash, '0x92.sonic');
    expect(done).toMatchObject({
      status: 'failed',
      failedAtStep: 'pending',
      userMessage: 'Your transaction on 0x92.sonic failed (it reverted), so nothing was deposited and no swap was opened.',
    });
  });

  it('keeps a stranger’s bogus claim apart: the swap follows the chain, the claim is kept for audit', async () => {
    const order = await post('/v1/swaps/limit-orders', {
      ...intentBody('0x92.sonic', '0x92.sonic', token('0x92.sonic', 'USDC'), token('0x92.sonic', 'WETH'), '1000000'),
    });
    const sent = await send(
      '0x92.sonic',
      (
        await post('/v1/swaps/approve', {
          ...intentBody('0x92.sonic', '0x92.sonic', token('0x92.sonic', 'USDC'), token('0x92.sonic', 'WETH'), '1000000'),
          deadline: '0',
        })
      ).body.tx,
    );
    expect(sent.status).toBe('success');
    const real = await send('0x92.sonic', order.body.tx);
    // Someone watching the mempool submits the hash first, with an intent of their own.
    const bogus = {
      ...order.body,
      intent: { ...order.body.intent, minOutputAmount: '1', dstAddress: '0x000000000000000000000000000000000000dead' },
    };
    expect((await submit(real.hash, '0x92.sonic', bogus, '0x000000000000000000000000000000000000dEaD')).body.data.status).toBe('inserted');
    expect((await submit(real.hash, '0x92.sonic', order.body)).body.data.status).toBe('duplicate');
    const followed = await eventually(
      async () => {
        const s = await status(real.hash, '0x92.sonic');
        return s.status === 'posted_execution' || s.status === 'solved' ? s : undefined;
      },
      30_000,
      100,
    );
    const { hash } = (await post('/v1/swaps/intents/hash', { intent: order.body.intent })).body;
    expect(followed.intentHash).toBe(hash);
    const db = new pg.Client({ connectionString: platform.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT c.reason, c.wallet_address FROM relay_tracker.rejected_claims c JOIN relay_tracker.submissions s ON s.id = c.submission_id WHERE s.tx_hash = $1`,
        [real.hash],
      );
      expect(rows).toEqual([
        { reason: 'a different intent; a different sender', wallet_address: '0x000000000000000000000000000000000000dEaD' },
      ]);
    } finally {
      await db.end();
    }
  });

  it('stays relaying while the relayer is stopped, then completes', async () => {
    await platform.devnet!.relayer.stop();
    try {
      const { txHash } = await swap('0xa4b1.arbitrum', '0x92.sonic', 'USDC', 'WETH', '12000000');
      const waiting = await eventually(
        async () => {
          const s = await status(txHash, '0xa4b1.arbitrum');
          // Relaying for two seconds (several polls) while nothing carries its message: it waits, nothing failed.
          return s.status === 'relaying' && Date.now() - Date.parse(s.history.at(-1)!.at) > 2_000 ? s : undefined;
        },
        20_000,
        100,
      );
      expect(waiting).toMatchObject({ status: 'relaying', processingAttempts: 0 });
      platform.devnet!.relayer.start();
      expect((await settled(txHash, '0xa4b1.arbitrum')).status).toBe('solved');
    } finally {
      platform.devnet!.relayer.start();
    }
  });

  it('fails an intent no solver fills before its deadline; the cancel it suggests refunds the input on the source spoke, and intentCancelled shows it', async () => {
    const src = '0xa4b1.arbitrum';
    const usdc = token(src, 'USDC');
    const before = await balance(src, usdc);
    const deadline = (await jsonOf(await fetch(`${gateway}/v1/swaps/deadline?offsetSeconds=6`))).deadline as string;
    // Asks far more than any solver pays: nobody fills it.
    const body = {
      ...intentBody(src, '0x92.sonic', usdc, token('0x92.sonic', 'WETH'), '7000000'),
      minOutputAmount: (10n ** 30n).toString(),
      deadline,
    };
    const approval = await post('/v1/swaps/approve', body);
    if (approval.body.tx) await send(src, approval.body.tx);
    const built = (await post('/v1/swaps/intents', body)).body as BuildResponse & { tx: EvmTx };
    const sent = await send(src, built.tx);
    await submit(sent.hash, src, built);
    const failed = await settled(sent.hash, src, 60_000);
    expect(failed).toMatchObject({
      status: 'failed',
      failedAtStep: 'posted_execution',
      intentCancelled: false,
      userMessage: expect.stringContaining('POST /v1/swaps/intents/cancel'),
    });
    expect(await balance(src, usdc)).toBe(before - 7_000_000n);

    const cancel = await post('/v1/swaps/intents/cancel', { srcChainKey: src, intent: built.intent });
    expect((await send(src, cancel.body.tx)).status).toBe('success');
    await eventually(async () => (await status(sent.hash, src)).intentCancelled === true, 30_000, 200);
    await eventually(async () => (await balance(src, usdc)) === before, 30_000, 200);
  });

  it('a cancelled limit order reads 4 (failed, cancelled) on both intent status routes; a cancel of an intent not open on the hub is a 409 before any transaction', async () => {
    const hub = '0x92.sonic';
    // Asks far more than any solver pays: it waits, open, until cancelled.
    const body = {
      ...intentBody(hub, hub, token(hub, 'USDC'), token(hub, 'WETH'), '3000000'),
      minOutputAmount: (10n ** 30n).toString(),
      deadline: '0',
    };
    const orderBody: Record<string, unknown> = { ...body };
    delete orderBody.deadline;
    const approval = await post('/v1/swaps/approve', body);
    expect(approval.body).toMatchObject({ approvalRequired: true, tx: { chainId: 146 } });
    await send(hub, approval.body.tx);
    const order = (await post('/v1/swaps/limit-orders', orderBody)).body as BuildResponse & { tx: EvmTx };
    const sent = await send(hub, order.tx);
    await submit(sent.hash, hub, order);
    await eventually(async () => ((await status(sent.hash, hub)).status === 'posted_execution' ? true : undefined), 30_000, 100);
    const intentStatus = async () => [
      (await post('/v1/swaps/intents/status', { intentTxHash: sent.hash })).body,
      (await post('/v1/intent/status', { intent_tx_hash: sent.hash })).body,
    ];
    const hash = (await post('/v1/swaps/intents/hash', { intent: order.intent })).body.hash as string;
    expect(await intentStatus()).toEqual([{ status: 2, intentHash: hash }, { status: 2 }]);

    const cancel = await post('/v1/swaps/intents/cancel', { srcChainKey: hub, intent: order.intent });
    expect(cancel.body.tx).toMatchObject({ chainId: 146, value: '0' });
    // Every EVM address answered is EIP-55 (the intent's srcAddress/dstAddress are bytes, not addresses).
    const tokens = await jsonOf(await fetch(`${gateway}/v1/swaps/tokens`));
    expect(notChecksummed({ approval: approval.body, order, cancel: cancel.body, tokens, statuses: await intentStatus() })).toEqual([]);
    expect((await send(hub, cancel.body.tx)).status).toBe('success');
    await eventually(async () => (await status(sent.hash, hub)).intentCancelled === true, 30_000, 200);
    expect(await intentStatus()).toEqual([{ status: 4, intentHash: hash, cancelled: true }, { status: 4 }]);

    // Cancelled already: refused, naming the state, and no transaction to pay gas for.
    const again = await post('/v1/swaps/intents/cancel', { srcChainKey: hub, intent: order.intent });
    expect(again).toEqual({
      status: 409,
      body: expect.objectContaining({ code: 'INTENT_NOT_OPEN', details: { state: 'cancelled', intentHash: hash } }),
    });
    expect(again.body.tx).toBeUndefined();

    // Solved: the same.
    const { quote, txHash } = await swap(hub, '0xa4b1.arbitrum', 'USDC', 'USDC', '4000000');
    expect((await settled(txHash, hub)).status).toBe('solved');
    expect(notChecksummed(quote)).toEqual([]);
    const late = await post('/v1/swaps/intents/cancel', { srcChainKey: hub, intent: quote.txData.intent });
    expect(late).toEqual({
      status: 409,
      body: expect.objectContaining({ code: 'INTENT_NOT_OPEN', details: { state: 'solved', intentHash: expect.stringMatching(/^0x/) } }),
    });
  });
});
