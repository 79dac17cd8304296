import './instrument';
import 'reflect-metadata';
import { ConfigError } from '@swap/config';
import { tracingEnabled, tracingRequested } from '@swap/observability';
import { stopOnSignals } from '@swap/service-kit';
import { resolve } from 'node:path';
import { opsVariablesFor } from '../../ops/src/service-urls';
import { startPlatform } from './platform';

/** `npm start`; its variables: docs/operators/configuration.md#npm-start-the-embedded-default. */
async function main(): Promise<void> {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const gatewayPort = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(gatewayPort) || gatewayPort < 0 || gatewayPort > 65535) {
    process.stderr.write(`PORT=${JSON.stringify(process.env.PORT)} is invalid: PORT must be an integer between 0 and 65535\n`);
    process.exit(78);
  }
  const servicePorts = process.env.SERVICE_PORTS === 'ephemeral' ? 'ephemeral' : 'fixed';
  const passThrough: Record<string, string> = {};
  for (const key of [
    'CHAIN_PROFILE',
    'RPC_TIMEOUT_MS',
    'SHUTDOWN_TIMEOUT_MS',
    'UPSTREAM_TIMEOUT_MS',
    'UPSTREAM_CONCURRENCY_PER_CLIENT',
    'CORS_ORIGINS',
    'PORTAL_PUBLIC_URL',
    'OPS_TOKEN',
    // The fees a deployment sets, so `npm start` can show them.
    'PARTNER_FEE_ADDRESS',
    'PARTNER_FEE_PERCENTAGE',
    'PARTNER_FEE_AMOUNT',
    'VAULT_PARTNER_FEE_ADDRESS',
    'VAULT_PARTNER_FEE_PERCENTAGE',
    'VAULT_PARTNER_FEE_AMOUNT',
    'SOLVER_FEE_BPS',
  ]) {
    if (process.env[key]) passThrough[key] = process.env[key]!;
  }
  const devnet = process.env.DEVNET !== 'off';
  const platform = await startPlatform({
    dataDir,
    gatewayPort,
    servicePorts,
    logLevel: process.env.LOG_LEVEL ?? 'info',
    env: passThrough,
    devnet,
  });
  const lines = [
    '',
    `Swap platform (embedded default) is up: ${platform.gatewayUrl}`,
    `  API docs      ${platform.gatewayUrl}/v1/docs   (OpenAPI: ${platform.gatewayUrl}/v1/openapi.json)`,
    `  portal        ${platform.gatewayUrl}/portal/   (partners: sign up, create an organisation and its API keys)`,
    `  explorer      ${platform.gatewayUrl}/explorer/   (paste a swap's transaction hash: its steps, durations, failures)`,
    `  try           curl ${platform.gatewayUrl}/v1/swaps/tokens/0xa4b1.arbitrum`,
    `                curl "${platform.gatewayUrl}/v1/swaps/deadline?offsetSeconds=300"`,
    '',
    '  service              url                        health and metrics (admin port)',
    ...platform.services.map((s) => `  ${s.name.padEnd(20)} ${s.url.padEnd(26)} ${s.adminUrl}/readyz  ${s.adminUrl}/metrics`),
    '',
    ...(platform.devnet
      ? [
          `  chains    devnet (anvil): ${platform.devnet.profile.chains.map((c) => `${c.key} ${c.rpcUrls![0]}`).join(', ')}`,
          `            profile ${platform.devnet.profilePath}`,
          `            relay API ${platform.devnet.relayApiUrl}   (the devnet relayer carries messages between the chains)`,
          `            demo wallets (anvil development keys; test money only):`,
          ...platform.devnet.accounts.slice(1).map((a) => `              ${a.address}  ${a.privateKey}`),
          `  solvers   ${platform.solvers.length} reference solvers on the marketplace (quotes: POST ${platform.gatewayUrl}/v1/swaps/quote)`,
          ...platform.solvers.map(
            (s) =>
              `              ${s.name.padEnd(16)} spread ${String(s.spreadBps).padStart(3)} bps  wallet ${s.wallet}  ${s.solver.connected ? 'connected' : 'NOT connected (see its log)'}`,
          ),
        ]
      : [
          '  chains    the chain profile only (no local chains; DEVNET=off or CHAIN_PROFILE set)',
          '  solvers   none (the reference solvers fill on the devnet): quotes answer 503 NO_SOLVER_AVAILABLE',
        ]),
    `  bus       in-process (NATS semantics, no server)`,
    `  database  PGlite, embedded PostgreSQL, data in ${platform.dataDir} (a socket only this user can open)`,
    `            psql "${platform.databaseUrl}"   (one schema per service: relay_tracker, quote_builder, …)`,
    `  operators npm run ops -- …  (${process.env.OPS_TOKEN ? 'with OPS_TOKEN: Authorization: Bearer' : 'loopback callers; set OPS_TOKEN to require a token'})`,
    ...(servicePorts === 'ephemeral'
      ? [`            the ports are ephemeral: ${opsVariablesFor(platform.services)} npm run ops -- …`]
      : []),
    `  cache     in-memory`,
    tracingEnabled()
      ? `  traces    to ${process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT} ${process.env.OTEL_SERVICE_NAME ? `as ${process.env.OTEL_SERVICE_NAME}` : 'each span under the service it ran in'}`
      : tracingRequested({ ...process.env, OTEL_SDK_DISABLED: undefined, OTEL_TRACES_EXPORTER: undefined })
        ? '  traces    off (OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none)'
        : '  traces    off (set OTEL_EXPORTER_OTLP_ENDPOINT: docs/operators/tracing.md)',
    '',
    'Stop with Ctrl-C.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  stopOnSignals(
    () => platform.stop(),
    Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 15_000),
    () => 'the embedded platform',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`The embedded platform failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
