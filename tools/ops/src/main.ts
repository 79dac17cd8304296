/** `npm run ops -- <command>`: docs/operators/operator-access.md#the-ops-tool; PORTAL_API_URL (http://127.0.0.1:3007) too. */
import { generateSigningKeysEnv } from '@swap/messaging';
import { operatorHeaders } from './operator-headers';
import { parseMetrics, type MetricSample } from './prometheus-text';
import { readinessTable } from './readiness-table';
import { opsServiceUrls } from './service-urls';
import type { DeploymentReadiness } from '@swap/contracts';

const env = {
  ...opsServiceUrls(process.env),
  token: process.env.OPS_TOKEN,
};

const USAGE = `usage: npm run ops -- <command>

  orgs list                          organisations
  orgs create <name>                 create an organisation
  orgs suspend <orgId>               suspend: no key of it works until lifted
  orgs lift <orgId>                  lift a suspension
  orgs invite <orgId> <email>        invite the organisation's first owner to the portal (a link)
  keys list <orgId>                  its keys (name, prefix, scopes, created)
  keys create <orgId> <name>         mint a portal key (shown once)
  keys revoke <orgId> <keyId>        revoke (delete) a key
  keys narrow <keyId> <scope,...>    narrow a key's scopes (swaps:read, swaps:write)
  modes list                         enforcement mode per route family
  modes set <family> <mode>          off → monitor → enforce, or enforce → monitor
  modes routes                       every keyed route's mode: its own, else its family's
  modes set-route <route> <mode>     a route's own mode, e.g. "POST /v1/swaps/quote" enforce (same moves)
  modes clear-route <route>          the route follows its family's mode again
  modes readiness                    per route, the last 7 days: the share of requests without a valid key,
                                     and each organisation's share with the route's scope (ready at 99.9%)
  keyset show                        the key set's epoch and version, the signing key's id and public key
  keyset epoch [n]                   start a new epoch (after a restore key-registry did not notice)
  sponsoring list                    sponsoring keys
  sponsoring mint <owner>            mint a sponsoring key (shown once)
  sponsoring revoke <id>             revoke a sponsoring key
  solvers list                       registered solvers (status, connections to the replica asked)
  solvers add <name>                 register a solver (its credential is shown once)
  solvers suspend <id>               suspend: its connections close, no more requests for quote
  solvers lift <id>                  lift a suspension
  solvers remove <id>                remove a solver (its recorded quotes stay)
  quotes list [n]                    the newest recorded quotes (default 20)
  quotes show <id>                   one recorded quote, with every solver's answer
  counters                           key-check outcomes counted by the services (monitor mode)
  signing-keys                       fresh KEYSET_, CATALOG_, PORTAL_ and USAGE_ key pairs as shell exports, for
                                     services started one by one on a developer's machine:
                                     eval "$(npm run -s ops -- signing-keys)"`;

async function call(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const credential = operatorHeaders(env.token);
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...credential,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new Error(`cannot reach ${base} (${(error as Error).message}); is the service running?`, { cause: error });
  }
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) throw new Error(`${res.status} ${(parsed as { message?: string })?.message ?? text}`);
  return parsed;
}

async function counters(): Promise<string> {
  const rows: string[] = [];
  for (const [service, base] of [
    ['swap-gateway', env.swapGatewayAdmin],
    ['sponsorship-keys', env.sponsorshipAdmin],
  ] as const) {
    let samples: MetricSample[];
    try {
      samples = parseMetrics(await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5_000) })).text()).filter(
        (s) => s.name === 'api_key_checks_total',
      );
    } catch (error) {
      rows.push(`${service}: unreachable (${(error as Error).message})`);
      continue;
    }
    if (samples.length === 0) rows.push(`${service}: no key checks counted yet`);
    for (const s of samples) {
      rows.push(
        `${service.padEnd(17)} ${s.labels.route.padEnd(30)} ${s.labels.mode.padEnd(8)} ${s.labels.outcome.padEnd(12)} ${(s.labels.org || '-').padEnd(38)} ${s.value}`,
      );
    }
  }
  return [
    `${'service'.padEnd(17)} ${'route'.padEnd(30)} ${'mode'.padEnd(8)} ${'outcome'.padEnd(12)} ${'organisation'.padEnd(38)} count`,
    ...rows,
  ].join('\n');
}

async function run(args: string[]): Promise<unknown> {
  const [group, command, a, b] = args;
  const need = (value: string | undefined, what: string) => {
    if (!value) throw new Error(`${group} ${command}: ${what} is required\n\n${USAGE}`);
    return value;
  };
  if (group === 'counters') return counters();
  if (group === 'signing-keys') return signingKeyExports();
  switch (`${group} ${command}`) {
    case 'orgs list':
      return call(env.keyRegistry, 'GET', '/ops/organisations');
    case 'orgs create':
      return call(env.keyRegistry, 'POST', '/ops/organisations', { name: need(args.slice(2).join(' '), '<name>') });
    case 'orgs suspend':
      return call(env.keyRegistry, 'POST', `/ops/organisations/${need(a, '<orgId>')}/suspend`);
    case 'orgs lift':
      return call(env.keyRegistry, 'POST', `/ops/organisations/${need(a, '<orgId>')}/lift`);
    case 'orgs invite':
      return call(env.portal, 'POST', `/ops/organisations/${need(a, '<orgId>')}/invitations`, { email: need(b, '<email>') });
    case 'keys list':
      return call(env.keyRegistry, 'GET', `/ops/organisations/${need(a, '<orgId>')}/keys`);
    case 'keys create':
      return call(env.keyRegistry, 'POST', `/ops/organisations/${need(a, '<orgId>')}/keys`, {
        name: need(args.slice(3).join(' '), '<name>'),
      });
    case 'keys revoke':
      return call(env.keyRegistry, 'DELETE', `/ops/organisations/${need(a, '<orgId>')}/keys/${need(b, '<keyId>')}`);
    case 'keys narrow':
      return call(env.keyRegistry, 'PUT', `/ops/keys/${need(a, '<keyId>')}/scopes`, { scopes: need(b, '<scope,...>').split(',') });
    case 'modes list':
      return call(env.keyRegistry, 'GET', '/ops/enforcement-modes');
    case 'modes routes':
      return call(env.keyRegistry, 'GET', '/ops/route-modes');
    case 'modes set-route':
      return call(env.keyRegistry, 'PUT', '/ops/route-modes', { route: need(a, '<route>'), mode: need(b, '<mode>') });
    case 'modes clear-route':
      return call(env.keyRegistry, 'DELETE', `/ops/route-modes?route=${encodeURIComponent(need(a, '<route>'))}`);
    case 'modes readiness':
      return readinessTable((await call(env.keyRegistry, 'GET', '/ops/enforcement-modes/readiness')) as DeploymentReadiness);
    case 'modes set':
      return call(env.keyRegistry, 'PUT', `/ops/enforcement-modes/${need(a, '<family>')}`, { mode: need(b, '<mode>') });
    case 'keyset show':
      return call(env.keyRegistry, 'GET', '/ops/keyset');
    case 'keyset epoch':
      return call(env.keyRegistry, 'POST', '/ops/keyset/epoch', a === undefined ? {} : { epoch: epochOf(a) });
    case 'sponsoring list':
      return call(env.sponsorship, 'GET', '/ops/sponsoring-keys');
    case 'sponsoring mint':
      return call(env.sponsorship, 'POST', '/ops/sponsoring-keys', { owner: need(a, '<owner>') });
    case 'sponsoring revoke':
      return call(env.sponsorship, 'DELETE', `/ops/sponsoring-keys/${need(a, '<id>')}`);
    case 'solvers list':
      return call(env.quoteBuilder, 'GET', '/ops/solvers');
    case 'solvers add':
      return call(env.quoteBuilder, 'POST', '/ops/solvers', { name: need(a, '<name>') });
    case 'solvers suspend':
      return call(env.quoteBuilder, 'POST', `/ops/solvers/${need(a, '<id>')}/suspend`);
    case 'solvers lift':
      return call(env.quoteBuilder, 'POST', `/ops/solvers/${need(a, '<id>')}/lift`);
    case 'solvers remove':
      return call(env.quoteBuilder, 'DELETE', `/ops/solvers/${need(a, '<id>')}`);
    case 'quotes list':
      return call(env.quoteBuilder, 'GET', `/ops/quotes?limit=${a ?? '20'}`);
    case 'quotes show':
      return call(env.quoteBuilder, 'GET', `/ops/quotes/${need(a, '<id>')}`);
    default:
      throw new Error(USAGE);
  }
}

run(process.argv.slice(2)).then(
  (result) => process.stdout.write(`${typeof result === 'string' ? result : JSON.stringify(result, null, 2)}\n`),
  (error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);

/** Digits only; the route checks the range. */
function epochOf(text: string): number {
  if (!/^[0-9]{1,13}$/.test(text))
    throw new Error(`epoch must be a whole number of at most 13 digits (at most 10^12), not ${JSON.stringify(text)}`);
  return Number(text);
}

/** Every service reads its own: one environment for all of them (a developer's machine, never a cluster, where each key belongs in its own Secret). */
function signingKeyExports(): string {
  return Object.entries(generateSigningKeysEnv())
    .map(([name, value]) => `export ${name}='${value}'`)
    .join('\n');
}
