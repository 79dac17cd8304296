import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/*
 * The public client (@sodax/sdk, ESM) runs outside jest: tools/devnet/scripts/gas-vs-sdk.mjs builds a
 * deposit with this platform's adapter against the devnet's RPC double, prices it as POST /gas/estimate
 * does, and asks the client's own estimateGas of the same node for the same transaction.
 */
it("answers the public client's own gas for the same transaction on ICON (steps) and Stellar (the resource fee)", () => {
  const run = spawnSync(process.execPath, [join(__dirname, '../../../tools/devnet/scripts/gas-vs-sdk.mjs')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const results = run.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { network: string; ours: string; sdk: string });
  expect({ stderr: run.stderr, networks: results.map((r) => r.network) }).toEqual({ stderr: '', networks: ['icon', 'stellar'] });
  for (const r of results) expect({ network: r.network, ours: r.ours }).toEqual({ network: r.network, ours: r.sdk });
  expect(run.status).toBe(0);
});
