import { readFileSync } from 'node:fs';
import type { KubeObject } from './manifests';
import { lifecycleProblems, migrationProblems, NATS_PERMISSIONS, natsProblems } from './platform-rules';
import { SERVICE_NODE_FLAG } from './service-launch';

const job = (name: string, image: string): KubeObject =>
  ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { template: { spec: { containers: [{ name: 'migrate', image }] } } },
  }) as KubeObject;

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
    expect(migrationProblems([job('swap-platform-migrate-release', 'swap-platform:1.2.3')], 'per-release')).toEqual([
      expect.stringContaining('not named after its image tag 1.2.3'),
    ]);
  });
});

describe('natsProblems', () => {
  type Env = { name: string; value?: string; valueFrom?: unknown };
  const deployment = (name: string, env: Env[], volumeMounts: { name: string; mountPath: string }[] = []): KubeObject =>
    ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: { template: { spec: { containers: [{ name, image: 'x:1', env, volumeMounts }] } } },
    }) as KubeObject;
  const seedOf = (name: string): Env => ({
    name: 'NATS_NKEY_SEED',
    valueFrom: { secretKeyRef: { name: `swap-platform-nats-${name}`, key: 'NATS_NKEY_SEED' } },
  });
  const authorization = (text = readFileSync(NATS_PERMISSIONS, 'utf8')): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'swap-nats-authorization' },
    data: { 'nats-permissions.conf': text },
  });

  it('accepts a bus service with its own seed Secret and TLS files on a mounted volume', () => {
    const key = deployment(
      'swap-key-registry',
      [seedOf('key-registry'), { name: 'NATS_TLS_CA_FILE', value: '/etc/nats-ca/ca.crt' }],
      [{ name: 'ca', mountPath: '/etc/nats-ca' }],
    );
    expect(natsProblems([key, deployment('swap-api-gateway', []), authorization()])).toEqual([]);
  });

  it('names a seed in the manifest, a missing or shared seed, credentials off the bus, an unmounted CA and a drifted authorization', () => {
    expect(
      natsProblems([
        deployment('swap-key-registry', [{ name: 'NATS_NKEY_SEED', value: 'SUAB' }]),
        deployment('swap-swap-gateway', [seedOf('quote-builder')]),
        deployment('swap-quote-builder', [seedOf('quote-builder'), { name: 'NATS_TLS_CA_FILE', value: '/etc/nats-ca/ca.crt' }]),
        deployment('swap-oracle-candles', [seedOf('oracle-candles')]),
        authorization('authorization { }'),
      ]),
    ).toEqual([
      'Deployment/swap-key-registry container swap-key-registry: NATS_NKEY_SEED is written into the manifest; it belongs in a Secret',
      'Deployment/swap-key-registry container swap-key-registry: NATS_NKEY_SEED must come from a Secret (secretKeyRef): the service logs in to NATS as key-registry',
      'Deployment/swap-quote-builder container swap-quote-builder: shares its NATS seed swap-platform-nats-quote-builder/NATS_NKEY_SEED with Deployment/swap-swap-gateway container swap-swap-gateway: each service is its own NATS user',
      'Deployment/swap-quote-builder container swap-quote-builder: NATS_TLS_CA_FILE=/etc/nats-ca/ca.crt is not on a mounted volume',
      'Deployment/swap-oracle-candles container swap-oracle-candles: is not on the bus, yet gets NATS credentials',
      'ConfigMap/swap-nats-authorization: nats-permissions.conf differs from charts/swap-platform/files/nats-permissions.conf',
    ]);
    expect(natsProblems([])).toEqual(['expected one ConfigMap with the NATS authorization block, found 0']);
  });
});

describe('lifecycleProblems', () => {
  const deployment = (command: string[]): KubeObject =>
    ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'quote-builder' },
      spec: { template: { spec: { containers: [{ name: 'quote-builder', image: 'swap-platform:1.2.3', command }] } } },
    }) as KubeObject;

  it("names a service whose command leaves V8's young generation to grow after start", () => {
    const flagProblems = (command: string[]) => lifecycleProblems([deployment(command)]).filter((p) => p.includes(SERVICE_NODE_FLAG));
    expect(flagProblems(['node', '--enable-source-maps', 'dist/apps/quote-builder/src/main.js'])).toEqual([
      `Deployment/quote-builder container quote-builder: the command must give node ${SERVICE_NODE_FLAG} (docs/operators/capacity.md#memory)`,
    ]);
    expect(flagProblems(['node', '--enable-source-maps', SERVICE_NODE_FLAG, 'dist/apps/quote-builder/src/main.js'])).toEqual([]);
  });
});
