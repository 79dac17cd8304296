import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');

/** One call of the public client's BackendApiService: a method name and its arguments. */
export interface BackendCall {
  method: string;
  args: unknown[];
}

export type BackendOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/* The public client's own module, imported in a child process: @sodax/sdk ships ESM (its CommonJS build requires a package that exports none). */
const SCRIPT = `
const { BackendApiService } = await import('@sodax/sdk');
const { baseURL, calls } = JSON.parse(process.env.PUBLIC_BACKEND_CALLS);
const api = new BackendApiService({ baseURL, timeout: 15000 });
const out = [];
for (const c of calls) {
  try { out.push({ ok: true, value: await api[c.method](...c.args) }); }
  catch (e) { out.push({ ok: false, error: String(e && e.message) }); }
}
process.stdout.write(JSON.stringify(out));
`;

/**
 * Runs calls of the public client's backend API (`@sodax/sdk` BackendApiService, the
 * devDependency pinned in package.json) against a deployment's `/v1/be`: each call's answer,
 * or the message of the error it threw.
 */
export async function publicBackendCalls(gatewayUrl: string, calls: BackendCall[]): Promise<BackendOutcome[]> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', PUBLIC_BACKEND_CALLS: JSON.stringify({ baseURL: `${gatewayUrl}/v1/be`, calls }) },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  return JSON.parse(stdout) as BackendOutcome[];
}
