/**
 * The intents part of `npm run bench`: `POST /v1/swaps/intents` from an EVM spoke, through
 * api-gateway, in cluster mode against the devnet. The build reads two things from chains
 * (the hub's block time for the deadline check, the user's hub wallet) and keeps both, so
 * after the first request a build is encoding work only.
 */
import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChainRegistry } from '@swap/chains';
import { startDevnet } from '../../devnet/src/devnet';
import type { BenchContext } from './oracle-bench';

export async function benchIntents(ctx: BenchContext & { natsUrl: string }): Promise<void> {
  const devnet = await startDevnet({ dataDir: mkdtempSync(join(tmpdir(), 'bench-devnet-')), basePort: 0 });
  try {
    const registry = loadChainRegistry(devnet.profilePath);
    const ports = { quote: await ctx.freePort(), swap: await ctx.freePort(), gateway: await ctx.freePort() };
    const common = { DATABASE_URL: ctx.benchDatabaseUrl, NATS_URL: ctx.natsUrl, NATS_SUBJECT_PREFIX: `bench-intents-${Date.now()}`, HOST: '127.0.0.1', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', CHAIN_PROFILE: devnet.profilePath };
    await ctx.start('dist/apps/quote-builder/src/main.js', { ...common, PORT: String(ports.quote) });
    await ctx.start('dist/apps/swap-gateway/src/main.js', { ...common, PORT: String(ports.swap) });
    await ctx.start('dist/apps/api-gateway/src/main.js', { ...common, PORT: String(ports.gateway), UPSTREAM_SWAP_GATEWAY_URL: `http://127.0.0.1:${ports.swap}` });
    for (const port of Object.values(ports)) await ctx.waitForService(port);

    const gateway = `http://127.0.0.1:${ports.gateway}`;
    const user = devnet.accounts[1].address;
    const usdc = (key: string) => registry.tokensOf(key).find((t) => t.symbol === 'USDC')!.address;
    const deadline = ((await (await fetch(`${gateway}/v1/swaps/deadline?offsetSeconds=3600`)).json()) as { deadline: string }).deadline;
    const body = JSON.stringify({
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
    const first = await fetch(`${gateway}/v1/swaps/intents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (first.status !== 200) throw new Error(`intents answered ${first.status}: ${await first.text()}`);

    const connections = Number(process.env.BENCH_INTENT_CONNECTIONS ?? 10);
    const options = { url: `${gateway}/v1/swaps/intents`, method: 'POST' as const, body, headers: { 'content-type': 'application/json' }, connections };
    await autocannon({ ...options, duration: Math.min(2, ctx.duration) });
    const r = await autocannon({ ...options, duration: ctx.duration });
    ctx.print([
      '',
      `intents: POST /v1/swaps/intents from 0xa4b1.arbitrum (ERC-20, partner fee) through api-gateway, devnet, ${connections} connections, ${ctx.duration} s`,
      `  ${r.requests.average.toFixed(0)} builds/s (target >= 1000), p50 ${r.latency.p50.toFixed(1)} ms, p99 ${r.latency.p99.toFixed(1)} ms (target < 20 ms), non-2xx ${r.non2xx}`,
      '',
    ]);
  } finally {
    await devnet.stop();
  }
}
