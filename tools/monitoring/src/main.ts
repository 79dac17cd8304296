/** `npm run monitoring:generate`: writes the chart's and k8s/'s monitoring files from alert-rules.ts (a test fails while they differ). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GENERATED } from './rules-file';

for (const [file, render] of Object.entries(GENERATED)) {
  mkdirSync(dirname(join(process.cwd(), file)), { recursive: true });
  writeFileSync(join(process.cwd(), file), render());
  process.stdout.write(`wrote ${file}\n`);
}
