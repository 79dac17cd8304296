import type { KubeObject } from './manifests';
import { migrationProblems } from './platform-rules';

const job = (name: string, image: string): KubeObject =>
  ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: { spec: { containers: [{ name: 'migrate', image }] } } } }) as KubeObject;

describe('migrationProblems', () => {
  it('accepts a Job named after its image tag', () => {
    expect(migrationProblems([job('swap-platform-migrate-1.2.3', 'registry.example.com/swap-platform:1.2.3')], 'per-release')).toEqual([]);
  });

  it.each([
    ['a registry with a port', 'swap-platform-migrate-5000/team/swap-platform', 'reg.example:5000/team/swap-platform:1.2.3'],
    ['a digest', `swap-platform-migrate-${'a'.repeat(64)}`, `swap-platform@sha256:${'a'.repeat(64)}`],
  ])('names the invalid Job an overlay pinned through %s makes', (_, name, image) => {
    expect(migrationProblems([job(name, image)], 'per-release')).toEqual([expect.stringContaining('not a valid Job name')]);
  });

  it('names a Job that a new release would not run again', () => {
    expect(migrationProblems([job('swap-platform-migrate-release', 'swap-platform:1.2.3')], 'per-release')).toEqual([expect.stringContaining('not named after its image tag 1.2.3')]);
  });
});
