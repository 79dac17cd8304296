// Rules beyond Kubernetes' schemas, each naming the object and field; see docs/operators/kubernetes.md#checking-a-change.
import { WorkQueues } from '@swap/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHART, nameOf, type KubeObject } from './manifests';
import type { RuleOptions } from './rule-options';
import { SERVICE_NODE_FLAG } from './service-launch';

type PodSpec = {
  containers: Container[];
  securityContext?: SecurityContext;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  volumes?: { hostPath?: unknown; name: string }[];
  terminationGracePeriodSeconds?: number;
};
type SecurityContext = {
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  privileged?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type?: string };
};
type Probe = { httpGet?: { path?: string; port?: string | number }; timeoutSeconds?: number };
type Container = {
  name: string;
  image: string;
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  volumeMounts?: { name: string; mountPath: string }[];
  securityContext?: SecurityContext;
  resources?: { requests?: { memory?: string }; limits?: { memory?: string } };
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command?: string[] }; sleep?: { seconds?: number } } };
};

const workloads = (objects: KubeObject[]) => objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
const podSpecOf = (object: KubeObject): PodSpec => object.spec.template.spec;
const configData = (objects: KubeObject[]): Record<string, unknown> =>
  Object.assign({}, ...objects.filter((o) => o.kind === 'ConfigMap').map((o) => o.data ?? {}));

/** Restricted profile (https://kubernetes.io/docs/concepts/security/pod-security-standards/), plus a read-only root filesystem. */
export function restrictedProfileProblems(objects: KubeObject[]): string[] {
  const problems: string[] = [];
  for (const object of workloads(objects)) {
    const pod = podSpecOf(object);
    const at = nameOf(object);
    if (pod.hostNetwork || pod.hostPID || pod.hostIPC) problems.push(`${at}: host namespaces are not allowed`);
    for (const volume of pod.volumes ?? []) if (volume.hostPath) problems.push(`${at}: volume ${volume.name} is a hostPath`);
    for (const container of pod.containers) {
      const own = container.securityContext ?? {};
      const where = `${at} container ${container.name}`;
      if (own.runAsNonRoot !== true && pod.securityContext?.runAsNonRoot !== true) problems.push(`${where}: runAsNonRoot must be true`);
      if ((own.seccompProfile?.type ?? pod.securityContext?.seccompProfile?.type) !== 'RuntimeDefault')
        problems.push(`${where}: seccompProfile must be RuntimeDefault`);
      if (own.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation must be false`);
      if (own.privileged) problems.push(`${where}: privileged is not allowed`);
      if (!own.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities must drop ALL`);
      if (own.capabilities?.add?.length) problems.push(`${where}: capabilities.add must be empty`);
      if (own.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem must be true`);
      if (!container.resources?.requests?.memory || !container.resources?.limits?.memory)
        problems.push(`${where}: memory request and limit are required`);
    }
  }
  return problems;
}

/** Probes on the admin port, a preStop pause, and a grace period longer than pause + drain. */
export function lifecycleProblems(objects: KubeObject[]): string[] {
  const problems: string[] = [];
  const shared = configData(objects);
  for (const object of objects.filter((o) => o.kind === 'Deployment')) {
    const pod = podSpecOf(object);
    for (const container of pod.containers) {
      const where = `${nameOf(object)} container ${container.name}`;
      const env = { ...shared, ...Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value])) };
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
        const port = container[probe]?.httpGet?.port;
        if (port !== 'admin') problems.push(`${where}: ${probe} must be an httpGet on the admin port (found ${JSON.stringify(port)})`);
      }
      if (container.readinessProbe?.httpGet?.path !== '/readyz') problems.push(`${where}: readinessProbe must GET /readyz`);
      // /readyz bounds each dependency check at 2 s: a shorter probe timeout fails a slow but healthy pod.
      if ((container.readinessProbe?.timeoutSeconds ?? 1) <= 2)
        problems.push(`${where}: readinessProbe.timeoutSeconds must exceed /readyz's own 2 s`);
      const pause = Number(container.lifecycle?.preStop?.exec?.command?.[1] ?? container.lifecycle?.preStop?.sleep?.seconds ?? NaN);
      if (!(pause > 0))
        problems.push(`${where}: a preStop pause is required (the endpoint removal takes a few seconds to reach every node)`);
      const drain = Number(env.SHUTDOWN_TIMEOUT_MS) / 1000;
      if (!(drain > 0)) problems.push(`${where}: SHUTDOWN_TIMEOUT_MS is not set`);
      const grace = pod.terminationGracePeriodSeconds ?? 30;
      if (!(grace > pause + drain))
        problems.push(`${where}: terminationGracePeriodSeconds ${grace} must exceed preStop ${pause} s + drain ${drain} s`);
      if (env.ADMIN_PORT === undefined || env.ADMIN_PORT === env.PORT)
        problems.push(`${where}: ADMIN_PORT must be set and differ from PORT`);
      if (container.command?.[0] === 'node' && !container.command.includes(SERVICE_NODE_FLAG))
        problems.push(`${where}: the command must give node ${SERVICE_NODE_FLAG} (docs/operators/capacity.md#memory)`);
    }
  }
  return problems;
}

/** Every workload runs the pinned image; no `latest`, no untagged name. */
export function imageProblems(objects: KubeObject[], expected?: RegExp): string[] {
  const problems: string[] = [];
  for (const object of workloads(objects)) {
    for (const container of podSpecOf(object).containers) {
      const pinned = /@sha256:[a-f0-9]{64}$/.test(container.image) || /:[\w][\w.-]*$/.test(container.image.split('/').pop() ?? '');
      if (!pinned || /:latest$/.test(container.image)) problems.push(`${nameOf(object)}: image ${container.image} is not pinned`);
      else if (expected && !expected.test(container.image))
        problems.push(`${nameOf(object)}: image ${container.image} does not match ${expected}`);
    }
  }
  return problems;
}

/**
 * Health and metrics stay on the admin port: no Service routes to it (a headless one of the
 * metrics component, for a ServiceMonitor to find the pods, has no address to route), and
 * the ingress reaches only the gateway's client port.
 */
export function exposureProblems(objects: KubeObject[]): string[] {
  const problems: string[] = [];
  const adminPort = Number(configData(objects).ADMIN_PORT);
  const discovery = (o: KubeObject) => o.spec.clusterIP === 'None' && o.metadata.labels?.['app.kubernetes.io/component'] === 'metrics';
  for (const service of objects.filter((o) => o.kind === 'Service' && !discovery(o))) {
    for (const port of service.spec.ports as { name?: string; port: number; targetPort?: string | number }[]) {
      if (port.name === 'admin' || port.targetPort === 'admin' || port.port === adminPort || port.targetPort === adminPort)
        problems.push(`${nameOf(service)}: exposes the admin port`);
    }
  }
  const gateway = objects.find((o) => o.kind === 'Service' && o.metadata.name.endsWith('api-gateway'));
  for (const ingress of objects.filter((o) => o.kind === 'Ingress')) {
    for (const rule of ingress.spec.rules as {
      host?: string;
      http: { paths: { backend: { service: { name: string; port: { name?: string; number?: number } } } }[] };
    }[]) {
      for (const { backend } of rule.http.paths) {
        const port = backend.service.port;
        const clientPort = port.name === 'http' || (gateway && port.number === gateway.spec.ports[0].port);
        if (backend.service.name !== gateway?.metadata.name || !clientPort)
          problems.push(
            `${nameOf(ingress)}: ${rule.host} routes to ${backend.service.name}:${port.name ?? port.number}, not the api-gateway's client port`,
          );
      }
    }
  }
  return problems;
}

/** relay-tracker scaled by exactly one autoscaler, whose Deployment leaves replicas to it; a PDB wherever more than one replica runs. */
export function scalingProblems(objects: KubeObject[]): string[] {
  const problems: string[] = [];
  const targetOf = (o: KubeObject) => o.spec.scaleTargetRef.name as string;
  const scalers = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler' || o.kind === 'ScaledObject');
  for (const deployment of objects.filter((o) => o.kind === 'Deployment')) {
    const own = scalers.filter((s) => targetOf(s) === deployment.metadata.name);
    if (own.length > 1) problems.push(`${nameOf(deployment)}: scaled by ${own.map(nameOf).join(' and ')} at once`);
    if (own.length && deployment.spec.replicas !== undefined)
      problems.push(`${nameOf(deployment)}: replicas is rendered although ${nameOf(own[0])} scales it`);
    const minReplicas = own.length ? (own[0].spec.minReplicas ?? own[0].spec.minReplicaCount) : (deployment.spec.replicas ?? 1);
    const selector = deployment.spec.selector.matchLabels as Record<string, string>;
    const pdb = objects.find(
      (o) => o.kind === 'PodDisruptionBudget' && Object.entries(selector).every(([k, v]) => o.spec.selector.matchLabels?.[k] === v),
    );
    if (minReplicas > 1 && !pdb) problems.push(`${nameOf(deployment)}: runs ${minReplicas} replicas without a PodDisruptionBudget`);
  }
  const relayTracker = objects.find((o) => o.kind === 'Deployment' && o.metadata.name.endsWith('relay-tracker'));
  if (relayTracker && !scalers.some((s) => targetOf(s) === relayTracker.metadata.name))
    problems.push('relay-tracker has no autoscaler (HPA or KEDA ScaledObject)');
  for (const scaled of objects.filter((o) => o.kind === 'ScaledObject')) {
    for (const trigger of scaled.spec.triggers as { type: string; metadata: Record<string, string> }[]) {
      const { stream, consumer } = WorkQueues.settlement;
      if (trigger.type === 'nats-jetstream' && (trigger.metadata.stream !== stream || trigger.metadata.consumer !== consumer)) {
        problems.push(
          `${nameOf(scaled)}: watches ${trigger.metadata.stream}/${trigger.metadata.consumer}, but settlement work waits in ${stream}/${consumer}`,
        );
      }
    }
  }
  return problems;
}

/** Only the gateway takes outside traffic: a default deny over the platform's pods, and no other pod's client port open beyond the gateway. */
export function networkPolicyProblems(objects: KubeObject[]): string[] {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const problems: string[] = [];
  const denyAll = policies.find(
    (p) =>
      !p.spec.ingress &&
      p.spec.policyTypes?.includes('Ingress') &&
      p.spec.podSelector?.matchLabels?.['app.kubernetes.io/part-of'] === 'swap-platform',
  );
  if (!denyAll) problems.push('no default-deny NetworkPolicy over the platform pods');
  for (const policy of policies) {
    const selectsGatewayOnly = policy.spec.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'api-gateway';
    for (const rule of (policy.spec.ingress ?? []) as { from?: unknown[]; ports?: { port: string | number }[] }[]) {
      const openToAll = !rule.from || rule.from.length === 0;
      const clientPort = rule.ports?.some((p) => p.port === 'http');
      if (openToAll && clientPort && !selectsGatewayOnly)
        problems.push(`${nameOf(policy)}: opens client ports of pods other than the api-gateway to everyone`);
      if (openToAll && rule.ports?.some((p) => p.port === 'admin')) problems.push(`${nameOf(policy)}: opens the admin port to everyone`);
    }
  }
  for (const name of ['nats', 'postgresql', 'redis']) {
    const guarded = policies.some((p) => JSON.stringify(p.spec.podSelector).includes(`"${name}"`));
    if (!guarded) problems.push(`no NetworkPolicy keeps ${name} to the platform's pods`);
  }
  return problems;
}

/** Numbers as integers (Helm renders YAML numbers as floats: 1.048576e+06), env names once per container. */
export function valueProblems(objects: KubeObject[]): string[] {
  const problems: string[] = [];
  const scientific = /^-?\d+(\.\d+)?e[+-]?\d+$/i;
  for (const config of objects.filter((o) => o.kind === 'ConfigMap')) {
    for (const [key, value] of Object.entries(config.data ?? {}))
      if (scientific.test(String(value))) problems.push(`${nameOf(config)}: ${key}=${value} is not an integer`);
  }
  for (const object of workloads(objects)) {
    for (const container of podSpecOf(object).containers) {
      const seen = new Set<string>();
      for (const variable of container.env ?? []) {
        if (seen.has(variable.name)) problems.push(`${nameOf(object)} container ${container.name}: ${variable.name} is set twice`);
        seen.add(variable.name);
        if (variable.value !== undefined && scientific.test(variable.value))
          problems.push(`${nameOf(object)}: ${variable.name}=${variable.value} is not an integer`);
      }
    }
  }
  return problems;
}

let permissionsText: string | undefined;
const shippedPermissions = () => (permissionsText ??= readFileSync(NATS_PERMISSIONS, 'utf8'));

export const BUS_SERVICES = ['swap-gateway', 'quote-builder', 'relay-tracker', 'key-registry', 'sponsorship-keys', 'partner-portal-api'];
const NATS_SECRETS = ['NATS_NKEY_SEED', 'NATS_PASSWORD', 'NATS_USER', 'NATS_CREDS_FILE'];
/** k8s/base carries a copy. */
export const NATS_PERMISSIONS = join(CHART, 'files', 'nats-permissions.conf');

/** The bus as a trust boundary: docs/operators/securing-the-bus.md. */
export function natsProblems(objects: KubeObject[], options: Pick<RuleOptions, 'busCredentials'> = {}): string[] {
  const problems: string[] = [];
  const seeds = new Map<string, string>();
  for (const object of workloads(objects)) {
    const pod = podSpecOf(object);
    // The migration Job, given NATS_URL, logs in as `operator`: it makes relay-tracker's JetStream streams.
    const service =
      object.kind === 'Deployment'
        ? BUS_SERVICES.find((s) => object.metadata.name === s || object.metadata.name.endsWith(`-${s}`))
        : object.kind === 'Job' && pod.containers.some((c) => (c.env ?? []).some((e) => e.name === 'NATS_URL'))
          ? 'operator'
          : undefined;
    for (const container of pod.containers) {
      const where = `${nameOf(object)} container ${container.name}`;
      const env = new Map((container.env ?? []).map((e) => [e.name, e]));
      for (const name of NATS_SECRETS)
        if (env.get(name)?.value !== undefined) problems.push(`${where}: ${name} is written into the manifest; it belongs in a Secret`);
      const seed = env.get('NATS_NKEY_SEED')?.valueFrom?.secretKeyRef;
      if (!service && NATS_SECRETS.some((name) => env.has(name))) problems.push(`${where}: is not on the bus, yet gets NATS credentials`);
      if (service && options.busCredentials !== false) {
        if (!seed)
          problems.push(`${where}: NATS_NKEY_SEED must come from a Secret (secretKeyRef): the service logs in to NATS as ${service}`);
        else {
          const ref = `${seed.name}/${seed.key}`;
          if (seeds.has(ref))
            problems.push(`${where}: shares its NATS seed ${ref} with ${seeds.get(ref)}: each service is its own NATS user`);
          seeds.set(ref, where);
        }
      }
      for (const name of ['NATS_TLS_CA_FILE', 'NATS_TLS_CERT_FILE', 'NATS_TLS_KEY_FILE']) {
        const file = env.get(name)?.value;
        if (file && !(container.volumeMounts ?? []).some((m) => file.startsWith(`${m.mountPath.replace(/\/$/, '')}/`)))
          problems.push(`${where}: ${name}=${file} is not on a mounted volume`);
      }
    }
  }
  const authorization = objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('nats-authorization'));
  if (authorization.length !== 1) problems.push(`expected one ConfigMap with the NATS authorization block, found ${authorization.length}`);
  else if (authorization[0].data?.['nats-permissions.conf'] !== shippedPermissions()) {
    problems.push(`${nameOf(authorization[0])}: nats-permissions.conf differs from charts/swap-platform/files/nats-permissions.conf`);
  }
  return problems;
}

/** Migrations run once per release before the services: a Helm pre-install/pre-upgrade hook, or (k8s/) a Job named after the image tag. */
export function migrationProblems(objects: KubeObject[], mode: RuleOptions['migrations']): string[] {
  const jobs = objects.filter((o) => o.kind === 'Job');
  if (jobs.length !== 1) return [`expected one migration Job, found ${jobs.length}`];
  const [job] = jobs;
  // A label of its pods: at most 63 characters; the overlays cut the tag at the image reference's first ':'.
  if (!/^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$/.test(job.metadata.name)) {
    return [
      `${nameOf(job)}: not a valid Job name (lowercase letters, digits, '-' and '.', at most 63); pin the overlay's image by tag, without a digest or a registry port`,
    ];
  }
  if (mode === 'renamed-by-overlays') return [];
  if (mode === 'helm-hook') {
    const hook = job.metadata.annotations?.['helm.sh/hook'] ?? '';
    return hook.includes('pre-install') && hook.includes('pre-upgrade') ? [] : [`${nameOf(job)}: not a pre-install,pre-upgrade hook`];
  }
  const tag = podSpecOf(job).containers[0].image.split(':').pop() ?? '';
  return job.metadata.name.endsWith(`-${tag}`)
    ? []
    : [`${nameOf(job)}: not named after its image tag ${tag}, so a new release would not run it again`];
}

export function platformProblems(objects: KubeObject[], options: RuleOptions): string[] {
  return [
    ...restrictedProfileProblems(objects),
    ...lifecycleProblems(objects),
    ...imageProblems(objects, options.expectedImage),
    ...exposureProblems(objects),
    ...scalingProblems(objects),
    ...networkPolicyProblems(objects),
    ...valueProblems(objects),
    ...migrationProblems(objects, options.migrations),
    ...natsProblems(objects, options),
  ];
}
