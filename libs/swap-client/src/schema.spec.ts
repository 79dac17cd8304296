import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLIENT = join(__dirname, '..');
const ROOT = join(CLIENT, '..', '..');

describe('the typed client’s generated types', () => {
  it('are what openapi-typescript writes from the committed document (run npm run client:generate after an API change)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-schema-'));
    try {
      const out = join(dir, 'schema.ts');
      execFileSync(join(ROOT, 'node_modules', '.bin', 'openapi-typescript'), [join(CLIENT, 'openapi.json'), '--output', out], {
        stdio: 'ignore',
      });
      expect(readFileSync(out, 'utf8') === readFileSync(join(CLIENT, 'src', 'schema.ts'), 'utf8')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
