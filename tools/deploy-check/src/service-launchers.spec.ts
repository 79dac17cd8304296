import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NODE_FLAG } from './service-launch';

const ROOT = join(__dirname, '../../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('every launcher of a service runs it as the image does (docs/operators/capacity.md#memory)', () => {
  it('the image: its command sizes the young generation and its environment fixes the mmap threshold', () => {
    const dockerfile = read('docker/Dockerfile');
    expect(dockerfile).toMatch(new RegExp(`^CMD \\["node", "--enable-source-maps", "${SERVICE_NODE_FLAG}", "dist/apps/`, 'm'));
    expect(dockerfile).toMatch(/^ENV GLIBC_TUNABLES=glibc\.malloc\.mmap_threshold=1048576$/m);
    expect(read('docker/smoke.sh')).toContain(`node --enable-source-maps ${SERVICE_NODE_FLAG} "dist/apps/`);
  });

  it('npm run start:<service> and nx serve', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const starts = Object.entries(scripts).filter(([name, command]) => name.startsWith('start:') && command.includes('dist/apps/'));
    expect(starts.length).toBeGreaterThanOrEqual(8);
    expect(starts.filter(([, command]) => !command.includes(SERVICE_NODE_FLAG))).toEqual([]);
    const serves = readdirSync(join(ROOT, 'apps'))
      .map((app) => `apps/${app}/project.json`)
      .flatMap((path) => {
        try {
          return [...read(path).matchAll(/"command": "(node [^"]*dist\/apps\/[^"]*\/src\/main\.js)"/g)].map((m) => [path, m[1]]);
        } catch {
          return [];
        }
      });
    expect(serves.length).toBeGreaterThanOrEqual(8);
    expect(serves.filter(([, command]) => !command.includes(SERVICE_NODE_FLAG))).toEqual([]);
  });
});
