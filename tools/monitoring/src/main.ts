/** `npm run monitoring:generate`: writes the chart's alert rules from alert-rules.ts (a test fails while they differ). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES_FILE, rulesYaml } from './rules-file';

writeFileSync(join(process.cwd(), RULES_FILE), rulesYaml());
process.stdout.write(`wrote ${RULES_FILE}\n`);
