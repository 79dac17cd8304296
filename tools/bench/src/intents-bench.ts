/** The intents part of `npm run bench`; see docs/development.md#the-intents-part. */
import autocannon from 'autocannon';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HUB_WALLET_FACTORY_ABI, loadChainDirectory } from '@swap/chains';
import { encodeFunctionData, type Address } from 'viem';
import { unusedPort } from '@swap/testing';
import { startDevnet } from '../../devnet/src/devnet';
import type { BenchContext } from './oracle-bench';
import { cpuPerRequestSince, natsServerPid } from './process-stats';

export async function benchIntents(ctx: BenchContext & { natsUrl: string }): Promise<void> {
  const devnet = await startDevnet({ dataDir: mkdtempSync(join(tmpdir(), 'bench-devnet-')), basePort: 0 });
  try {
    const directory = loadChainDirectory(devnet.profilePath);
    const ports = { quote: await unusedPort(), swap: await unusedPort(), gateway: await unusedPort() };
    const common = {
      DATABASE_URL: ctx.benchDatabaseUrl,
      NATS_URL: ctx.natsUrl,
      NATS_SUBJECT_PREFIX: `bench-intents-${Date.now()}`,
      // Its own cache keys: hub wallets kept by an earlier run would make new users returning ones.
      CACHE_KEY_PREFIX: `bench-intents-${Date.now()}`,
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      CHAIN_PROFILE: devnet.profilePath,
    };
    const quoteBuilder = await ctx.start('dist/apps/quote-builder/src/main.js', { ...common, PORT: String(ports.quote) });
    await ctx.startKeyRegistry(common); // the signed key set swap-gateway checks keys with (families off)
    const swapGateway = await ctx.start('dist/apps/swap-gateway/src/main.js', { ...common, PORT: String(ports.swap) });
    const apiGateway = await ctx.start('dist/apps/api-gateway/src/main.js', {
      ...common,
      PORT: String(ports.gateway),
      UPSTREAM_SWAP_GATEWAY_URL: `http://127.0.0.1:${ports.swap}`,
    });
    for (const port of Object.values(ports)) await ctx.waitForService(port);

    const gateway = `http://127.0.0.1:${ports.gateway}`;
    const usdc = (key: string) => directory.tokensOf(key).find((t) => t.symbol === 'USDC')!.address;
    const deadline = ((await (await fetch(`${gateway}/v1/swaps/deadline?offsetSeconds=3600`)).json()) as { deadline: string }).deadline;
    const bodyOf = (user: string) =>
      JSON.stringify({
        srcChainKey: '0xa4b1.arbitrum',
        dstChainKey: '0x92.sonic',
        inputToken: usdc('0xa4b1.arbitrum'),
        outputToken: usdc('0x92.sonic'),
        inputAmount: '2500000',
        minOutputAmount: '2400000',
        deadline,
        allowPartialFill: false,
        srcAddress: user,
        dstAddress: user,
        solver: '0x0000000000000000000000000000000000000000',
        data: '0x',
        partnerFee: { address: '0x000000000000000000000000000000000000fee5', percentage: 10 },
      });
    // Valid addresses nobody's hub wallet was looked up for.
    const USERS = 100_000;
    let nextUser = 1;
    const userAt = (n: number) => `0x${(0xb0000000 + (n % USERS)).toString(16).padStart(40, '0')}`;
    const first = await fetch(`${gateway}/v1/swaps/intents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodyOf(userAt(0)),
    });
    const firstBody = await first.text();
    if (first.status !== 200) throw new Error(`intents answered ${first.status}: ${firstBody}`);

    const bodyFile = join(mkdtempSync(join(tmpdir(), 'bench-intents-')), 'body.json');
    writeFileSync(bodyFile, firstBody);
    const bare = { port: await unusedPort(), proxy: await unusedPort() };
    await ctx.start('dist/tools/bench/src/reference-servers.js', {
      BARE_PORT: String(bare.port),
      PROXY_PORT: String(bare.proxy),
      BODY_FILE: bodyFile,
    });
    await ctx.waitFor(`http://127.0.0.1:${bare.proxy}/`);
    const bareOptions = {
      url: `http://127.0.0.1:${bare.port}/v1/swaps/intents`,
      method: 'POST' as const,
      body: bodyOf(userAt(0)),
      headers: { 'content-type': 'application/json' },
      connections: ctx.connections,
    };
    await autocannon({ ...bareOptions, duration: Math.min(2, ctx.duration) });
    const reference = await autocannon({ ...bareOptions, duration: ctx.duration });

    const options = {
      url: `${gateway}/v1/swaps/intents`,
      connections: ctx.connections,
      requests: [
        {
          method: 'POST' as const,
          headers: { 'content-type': 'application/json' },
          setupRequest: (req: object) => ({ ...req, body: bodyOf(userAt(nextUser++)) }),
        },
      ],
    };
    await autocannon({ ...options, duration: Math.min(2, ctx.duration) });
    const usersBefore = nextUser;
    const r = await autocannon({ ...options, duration: ctx.duration });
    const newUsers = nextUser - usersBefore;

    // The read a new user's build needs, asked of the node directly (other users again).
    const hub = directory.hub;
    const factory = hub.contracts!.hubWalletFactory as Address;
    let nextRead = 0;
    const readBody = (n: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: n,
        method: 'eth_call',
        params: [
          {
            to: factory,
            data: encodeFunctionData({
              abi: HUB_WALLET_FACTORY_ABI,
              functionName: 'getDeployedAddress',
              args: [23n, `0x${(0xc0000000 + n).toString(16).padStart(40, '0')}`],
            }),
          },
          'latest',
        ],
      });
    const nodeOptions = {
      url: hub.rpcUrls![0],
      connections: ctx.connections,
      requests: [
        {
          method: 'POST' as const,
          headers: { 'content-type': 'application/json' },
          setupRequest: (req: object) => ({ ...req, body: readBody(nextRead++) }),
        },
      ],
    };
    await autocannon({ ...nodeOptions, duration: Math.min(2, ctx.duration) });
    const node = await autocannon({ ...nodeOptions, duration: ctx.duration });

    const RETURNING = 100;
    let nextReturning = 0;
    const returningOptions = {
      ...options,
      requests: [
        { ...options.requests[0], setupRequest: (req: object) => ({ ...req, body: bodyOf(userAt(nextReturning++ % RETURNING)) }) },
      ],
    };
    for (let n = 0; n < RETURNING; n++) {
      const res = await fetch(`${gateway}/v1/swaps/intents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: bodyOf(userAt(n)),
      });
      await res.arrayBuffer();
    }
    const tokenOptions = { url: `${gateway}/v1/swaps/tokens`, connections: ctx.connections };
    await autocannon({ ...tokenOptions, duration: Math.min(2, ctx.duration) });
    const tokens = await autocannon({ ...tokenOptions, duration: ctx.duration });
    await autocannon({ ...returningOptions, duration: Math.min(2, ctx.duration) });
    const processes = {
      'api-gateway': apiGateway.pid,
      'swap-gateway': swapGateway.pid,
      'quote-builder': quoteBuilder.pid,
      'nats-server': natsServerPid(),
    };
    const cpuSince = cpuPerRequestSince(processes);
    const returning = await autocannon({ ...returningOptions, duration: ctx.duration });
    const cpuPerBuild = cpuSince(returning.requests.total);

    const row = (label: string, x: autocannon.Result, extra = '') =>
      `  ${label.padEnd(46)} ${x.requests.average.toFixed(0).padStart(7)} req/s, p50 ${x.latency.p50.toFixed(1)} ms, p99 ${x.latency.p99.toFixed(1)} ms${extra}`;
    const pct = (a: autocannon.Result, b: autocannon.Result) => ((a.requests.average / b.requests.average) * 100).toFixed(1);
    ctx.print([
      '',
      `intents: POST /v1/swaps/intents from 0xa4b1.arbitrum (ERC-20, partner fee) through api-gateway, devnet, ${ctx.connections} connections, ${ctx.duration} s each`,
      row('reference: bare Node server, same body', reference),
      row("reference: the hub node's eth_call getDeployedAddress", node, `, non-2xx ${node.non2xx}, errors ${node.errors}`),
      row(`builds, a new user each (${newUsers} users)`, r, `, non-2xx ${r.non2xx}, errors ${r.errors}`),
      row('reference: GET /v1/swaps/tokens, same gateway', tokens),
      row(`builds, ${RETURNING} returning users`, returning, `, non-2xx ${returning.non2xx}, errors ${returning.errors}`),
      `  CPU per returning user's build, µs user+kernel: ${cpuPerBuild.join(', ')}`,
      `intent builds, new users: ${pct(r, node)}% of the node's read rate`,
      `intent builds, returning users: ${pct(returning, tokens)}% of the token list's rate`,
      `  builds (new users) run at ${pct(r, reference)}% of the bare server's throughput`,
      `  ceiling: the token list through the same gateway (no bus, no chain) answers at ${pct(tokens, node)}% of the node's read rate; new users' builds at ${pct(r, tokens)}% of the token list, returning users' at ${pct(returning, tokens)}%`,
      '',
    ]);
  } finally {
    await devnet.stop();
  }
}
