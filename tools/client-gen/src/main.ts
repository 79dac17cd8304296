/**
 * `npm run client:generate`: writes the typed client's contract from the platform itself.
 * Starts the embedded default (no devnet) on free ports, takes the merged OpenAPI document
 * from the gateway into libs/swap-client/openapi.json, and has openapi-typescript write
 * libs/swap-client/src/schema.ts from it. Both are committed; a test fails when the live
 * document or the generated types drift from them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform } from '../../embedded/src/platform';

/** The repository root, from the source (tools/client-gen/src) or the build (dist/tools/client-gen/src). */
const ROOT = [join(__dirname, '..', '..', '..'), join(__dirname, '..', '..', '..', '..')].find((dir) =>
  existsSync(join(dir, 'package.json')),
)!;
export const CLIENT_DIR = join(ROOT, 'libs', 'swap-client');

/** The document as the client stores it: stable key order as served, two-space indent, a final newline. */
export function documentText(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'client-gen-'));
  const platform = await startPlatform({ dataDir, gatewayPort: 0, servicePorts: 'ephemeral', logLevel: 'warn' });
  try {
    const doc = (await (await fetch(`${platform.gatewayUrl}/v1/openapi.json`)).json()) as { info: Record<string, unknown> };
    if (doc.info['x-partial']) throw new Error('the gateway served a partial document (a service did not answer): not written');
    const documentPath = join(CLIENT_DIR, 'openapi.json');
    await writeFile(documentPath, documentText(doc));
    execFileSync(
      join(ROOT, 'node_modules', '.bin', 'openapi-typescript'),
      [documentPath, '--output', join(CLIENT_DIR, 'src', 'schema.ts')],
      { stdio: 'inherit' },
    );
    process.stdout.write(`wrote ${documentPath} and src/schema.ts\n`);
  } finally {
    await platform.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  });
}
