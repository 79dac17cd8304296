/**
 * The intents part of `npm run bench`: `POST /v1/swaps/intents` from an EVM spoke, through
 * api-gateway, in cluster mode against the devnet, at the bench's connection count. The
 * build reads two things from chains: the hub's block time for the deadline check (kept
 * briefly) and the user's hub wallet (kept per user): every request comes from another of
 * 100 000 users, so each build looks its user's wallet up on the devnet as a new user's
 * would. The same-run reference is a bare Node server answering a build's body.
 */
import autocannon from 'autocannon';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChainRegistry } from '@swap/chains';
import { unusedPort } from '@swap/testing';
import { startDevnet } from '../../devnet/src/devnet';
import type { BenchContext } from './oracle-bench';

export async function benchIntents(ctx: BenchContext & { natsUrl: string }): Promise<void> {
  const devnet = await startDevnet({ dataDir: mkdtempSync(join(tmpdir(), 'bench-devnet-')), basePort: 0 });
  try {
    const registry = loadChainRegistry(devnet.profilePath);
    const ports = { quote: await unusedPort(), swap: await unusedPort(), gateway: await unusedPort() };
    const common = {
      DATABASE_URL: ctx.benchDatabaseUrl,
      NATS_URL: ctx.natsUrl,
      NATS_SUBJECT_PREFIX: `bench-intents-${Date.now()}`,
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      CHAIN_PROFILE: devnet.profilePath,
    };
    await ctx.start('dist/apps/quote-builder/src/main.js', { ...common, PORT: String(ports.quote) });
    await ctx.startKeyRegistry(common); // the signed key set swap-gateway checks keys with (families off)
    await ctx.start('dist/apps/swap-gateway/src/main.js', { ...common, PORT: String(ports.swap) });
    await ctx.start('dist/apps/api-gateway/src/main.js', {
      ...common,
      PORT: String(ports.gateway),
      UPSTREAM_SWAP_GATEWAY_URL: `http://127.0.0.1:${ports.swap}`,
    });
    for (const port of Object.values(ports)) await ctx.waitForService(port);

    const gateway = `http://127.0.0.1:${ports.gateway}`;
    const usdc = (key: string) => registry.tokensOf(key).find((t) => t.symbol === 'USDC')!.address;
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
    // Distinct users: 0x…0001, 0x…0002, … (valid addresses nobody's hub wallet was looked up for).
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

    // The reference: a bare Node server answering the same body, measured in this run.
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
    ctx.print([
      '',
      `intents: POST /v1/swaps/intents from 0xa4b1.arbitrum (ERC-20, partner fee) through api-gateway, devnet, ${ctx.connections} connections, ${ctx.duration} s, ${nextUser - usersBefore} distinct users`,
      `  ${'reference: bare Node server, same body'.padEnd(42)} ${reference.requests.average.toFixed(0).padStart(7)} req/s, p50 ${reference.latency.p50.toFixed(1)} ms, p99 ${reference.latency.p99.toFixed(1)} ms`,
      `  ${'builds, a new user each'.padEnd(42)} ${r.requests.average.toFixed(0).padStart(7)} req/s, p50 ${r.latency.p50.toFixed(1)} ms, p99 ${r.latency.p99.toFixed(1)} ms, non-2xx ${r.non2xx}, errors ${r.errors}`,
      `  builds run at ${((r.requests.average / reference.requests.average) * 100).toFixed(1)}% of the bare server's throughput`,
      '',
    ]);
  } finally {
    await devnet.stop();
  }
}
