import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import type { KubeTools } from './kube-tools';
import type { RuleOptions } from './rule-options';

/** Three levels up from the sources, four from their build in dist/. */
export const ROOT = [join(__dirname, '..', '..', '..'), join(__dirname, '..', '..', '..', '..')].find((dir) =>
  existsSync(join(dir, 'charts')),
)!;
export const CHART = join(ROOT, 'charts', 'swap-platform');

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- every kind has its own spec
  data?: Record<string, unknown>;
}

export type RenderSource = (
  { kind: 'chart'; name: string; valuesFiles: string[]; set?: string[] } | { kind: 'kustomize'; name: string; dir: string }
) & { rules: RuleOptions };

const appVersion = String(parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8')).appVersion);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const RENDER_SOURCES: RenderSource[] = [
  {
    kind: 'chart',
    name: 'chart, default values',
    valuesFiles: [],
    rules: { migrations: 'helm-hook', expectedImage: new RegExp(`^swap-platform:${escaped(appVersion)}$`) },
  },
  {
    kind: 'chart',
    name: 'chart, ci/production-values.yaml',
    valuesFiles: [join(CHART, 'ci', 'production-values.yaml')],
    rules: { migrations: 'helm-hook', expectedImage: /^registry\.example\.com\/swap-platform@sha256:/ },
  },
  {
    kind: 'kustomize',
    name: 'k8s/base',
    dir: join(ROOT, 'k8s', 'base'),
    rules: { migrations: 'renamed-by-overlays', expectedImage: new RegExp(`:${escaped(appVersion)}$`) },
  },
  {
    kind: 'kustomize',
    name: 'k8s/overlays/dev',
    dir: join(ROOT, 'k8s', 'overlays', 'dev'),
    rules: { migrations: 'per-release', expectedImage: new RegExp(`^swap-platform:${escaped(appVersion)}$`) },
  },
  {
    kind: 'kustomize',
    name: 'k8s/overlays/prod',
    dir: join(ROOT, 'k8s', 'overlays', 'prod'),
    rules: { migrations: 'per-release', expectedImage: new RegExp(`^registry\\.example\\.com/swap-platform:${escaped(appVersion)}$`) },
  },
];

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

export function helmArgs(source: Extract<RenderSource, { kind: 'chart' }>): string[] {
  return [...source.valuesFiles.flatMap((file) => ['-f', file]), ...(source.set ?? []).flatMap((pair) => ['--set', pair])];
}

export function lintChart(tools: KubeTools, source: Extract<RenderSource, { kind: 'chart' }>): string {
  return run(tools.helm, ['lint', '--strict', CHART, ...helmArgs(source)]);
}

export function render(tools: KubeTools, source: RenderSource): KubeObject[] {
  const text =
    source.kind === 'chart'
      ? run(tools.helm, ['template', 'swap', CHART, '--namespace', 'swap-platform', ...helmArgs(source)])
      : run(tools.kubectl, ['kustomize', source.dir]);
  return parseObjects(text);
}

export function parseObjects(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((document) => {
      if (document.errors.length) throw new Error(`rendered YAML does not parse: ${document.errors[0].message}`);
      return document.toJS() as KubeObject | null;
    })
    .filter((object): object is KubeObject => object !== null);
}

function modelOf(apiVersion: string, kind: string): (new (data: object) => { validate(): void }) | undefined {
  /* eslint-disable @typescript-eslint/no-require-imports -- one module per API group, loaded when met */
  const groups: Record<string, () => Record<string, unknown>> = {
    v1: () => require('kubernetes-models/v1'),
    'apps/v1': () => require('kubernetes-models/apps/v1'),
    'batch/v1': () => require('kubernetes-models/batch/v1'),
    'policy/v1': () => require('kubernetes-models/policy/v1'),
    'autoscaling/v2': () => require('kubernetes-models/autoscaling/v2'),
    'networking.k8s.io/v1': () => require('kubernetes-models/networking.k8s.io/v1'),
    'keda.sh/v1alpha1': () => require('@kubernetes-models/keda/keda.sh/v1alpha1'),
    'monitoring.coreos.com/v1': () => require('@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1'),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return groups[apiVersion]?.()[kind] as (new (data: object) => { validate(): void }) | undefined;
}

export const nameOf = (object: KubeObject) => `${object.kind}/${object.metadata?.name}`;

/** An unknown apiVersion/kind is a problem too. */
export function schemaProblems(objects: KubeObject[]): string[] {
  const problems: string[] = [];
  for (const object of objects) {
    const Model = modelOf(object.apiVersion, object.kind);
    if (!Model) {
      problems.push(`${nameOf(object)}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    // kustomize wraps long base64 over lines; the API server skips the breaks, the schema's "byte" format does not.
    const data =
      object.kind === 'Secret' && object.data
        ? Object.fromEntries(Object.entries(object.data).map(([k, v]) => [k, String(v).replace(/\s+/g, '')]))
        : object.data;
    try {
      new Model({ ...object, ...(data ? { data } : {}) }).validate();
    } catch (error) {
      problems.push(`${nameOf(object)}: ${(error as Error).message}`);
    }
  }
  return problems;
}
