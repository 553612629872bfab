import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@toolsurface/devkit';
import {
  apiTypeErrors,
  containerEnv,
  defaultGrpcPort,
  hasCommand,
  kustomizations,
  podSpec,
  render,
  renderWithComponent,
  schemaErrors,
  serviceNames,
  variablesRead,
  workloads,
  type Container,
  type K8sObject,
} from './support/k8s-manifests';

// deploy/k8s as a user applies it: every kustomization renders with kubectl, every object is valid
// against the Kubernetes API schemas, yamllint passes, and no manifest names a variable, port,
// address or file that the services and images do not have.

const hasKubectl = hasCommand('kubectl', ['version', '--client']);
const hasYamllint = hasCommand('yamllint', ['--version']);
if (!hasKubectl)
  console.warn('deploy-manifests: kubectl not found, the render checks are skipped (it is on these machines, not in Debian)');
if (!hasYamllint)
  console.warn('deploy-manifests: yamllint not found, its check is skipped (apt-get install yamllint; .ci/run installs it)');

const SERVICES = serviceNames();
const PORTAL_CONFIG = join(REPO_ROOT, 'apps', 'portal', 'src', 'config.ts');
const { base, overlays, components, inBase } = kustomizations();
const LOCAL = overlays.find((o) => basename(o) === 'local')!;

/** Every rendering a user can apply: base, overlays, and each optional component on the local overlay. */
function renders(): [string, () => K8sObject[]][] {
  return [
    ['base', () => render(base)],
    ...overlays.map((o): [string, () => K8sObject[]] => [`overlays/${basename(o)}`, () => render(o)]),
    ...components.map((c): [string, () => K8sObject[]] => [
      `overlays/local + components/${basename(c)}`,
      () => renderWithComponent(LOCAL, c),
    ]),
  ];
}

const cache = new Map<string, K8sObject[]>();
function rendered(name: string, fn: () => K8sObject[]): K8sObject[] {
  if (!cache.has(name)) cache.set(name, fn());
  return cache.get(name)!;
}

function containers(objs: K8sObject[]): { owner: string; c: Container }[] {
  return workloads(objs).flatMap((w) => podSpec(w).containers.map((c) => ({ owner: `${w.kind}/${w.metadata.name}`, c })));
}

/** host and port of `host:port`, `dns:///host:port` or `scheme://host:port/...`; undefined for anything else. */
function address(value: string): { host: string; port: number } | undefined {
  // an optional scheme (dns:/// or http://), a host, a port, an optional path
  const m = /^(?:[a-z]+:\/\/\/?)?([A-Za-z0-9.-]+):(\d{1,5})(?:\/.*)?$/.exec(value);
  return m ? { host: m[1]!, port: Number(m[2]) } : undefined;
}

/** A Service of the render that serves `host:port` (in-namespace names only; IP literals are not checked). */
function serviceProblem(objs: K8sObject[], what: string, value: string): string | undefined {
  const a = address(value);
  if (!a || /^[\d.]+$/.test(a.host)) return undefined;
  const svc = objs.find((o) => o.kind === 'Service' && o.metadata.name === a.host);
  if (!svc) return `${what}: no Service "${a.host}" in this rendering (${value})`;
  const ports = (svc.spec as { ports: { port: number }[] }).ports.map((p) => p.port);
  return ports.includes(a.port) ? undefined : `${what}: Service "${a.host}" has no port ${a.port} (it has ${ports.join(', ')})`;
}

/** Files a container names (env *_FILE, *_PATH, TOOLSURFACE_CONFIG, and -c/-sd/--config= arguments). */
function namedFiles(c: Container, env: Map<string, string | undefined>): string[] {
  const files: string[] = [];
  for (const [k, v] of env) if (v?.startsWith('/') && /(_FILE|_PATH|^TOOLSURFACE_CONFIG)$/.test(k)) files.push(v);
  const args = c.args ?? [];
  args.forEach((a, i) => {
    if ((a === '-c' || a === '-sd') && args[i + 1]) files.push(args[i + 1]!);
    if (a.startsWith('--config=')) files.push(a.slice('--config='.length));
  });
  return files;
}

/** Whether `file` lies on one of the container's volumes, and, on a ConfigMap of the render, is one of its keys. */
function fileProblem(objs: K8sObject[], w: K8sObject, c: Container, file: string): string | undefined {
  // the deepest mount holding the file: volumes may be mounted inside one another
  const mount = (c.volumeMounts ?? [])
    .filter((m) => file === m.mountPath || file.startsWith(`${m.mountPath.replace(/\/$/, '')}/`))
    .sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
  if (!mount) return `${file} is on no volume of container ${c.name} (the root filesystem is read-only and holds no config)`;
  const vol = podSpec(w).volumes?.find((v) => v.name === mount.name);
  if (!vol?.configMap) return undefined;
  const cm = objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name === vol.configMap!.name);
  const key = file.slice(mount.mountPath.replace(/\/$/, '').length + 1);
  if (!cm) return `${file}: ConfigMap ${vol.configMap.name} is not in this rendering`;
  return key === '' || key in (cm.data ?? {}) ? undefined : `${file}: ConfigMap ${vol.configMap.name} has no key "${key}"`;
}

describe.skipIf(!hasKubectl)('deploy/k8s renders with kubectl and matches the code', () => {
  it('includes the overlays local and production, and renders the components the base leaves out', () => {
    expect(overlays.map((o) => basename(o)).sort()).toEqual(['local', 'production']);
    expect(components.length + inBase.length).toBeGreaterThanOrEqual(4);
  });

  describe.each(renders())('%s', (name, fn) => {
    it('renders, and every object is valid against the Kubernetes API schemas', () => {
      const objs = rendered(name, fn);
      expect(objs.length).toBeGreaterThan(5);
      const invalid = objs.map((o) => [`${o.kind}/${o.metadata.name}`, schemaErrors(o)]).filter(([, e]) => e !== undefined);
      expect(invalid).toEqual([]);
    });

    it('uses only fields the Kubernetes API has, with the types it expects', () => {
      expect(apiTypeErrors(rendered(name, fn))).toEqual([]);
    }, 120_000);

    it('gives every container resources and the hardened security context', () => {
      const objs = rendered(name, fn);
      const problems: string[] = [];
      for (const w of workloads(objs)) {
        const pod = podSpec(w);
        if (pod.securityContext?.runAsNonRoot !== true) problems.push(`${w.metadata.name}: pod not runAsNonRoot`);
        // a Secret mounted without read for others is readable by a non-root user through fsGroup only
        const secret = pod.volumes?.find((v) => v.secret && ((v.secret as { defaultMode?: number }).defaultMode ?? 0o644) % 8 < 4);
        if (secret && pod.securityContext?.fsGroup === undefined)
          problems.push(`${w.metadata.name}: Secret ${secret.name} unreadable (no fsGroup)`);
        for (const c of pod.containers) {
          if (!c.resources?.requests?.cpu || !c.resources.requests.memory || !c.resources.limits?.memory)
            problems.push(`${w.metadata.name}/${c.name}: no cpu and memory requests and memory limit`);
          const sc = c.securityContext ?? {};
          if (sc.allowPrivilegeEscalation !== false || sc.readOnlyRootFilesystem !== true)
            problems.push(`${w.metadata.name}/${c.name}: privilege escalation allowed or root filesystem writable`);
          if (!(sc.capabilities as { drop?: string[] } | undefined)?.drop?.includes('ALL'))
            problems.push(`${w.metadata.name}/${c.name}: capabilities not dropped`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('sets on each service only variables it reads, serves the port its config defaults to, and runs its compiled entry', () => {
      const objs = rendered(name, fn);
      const problems: string[] = [];
      for (const svc of SERVICES) {
        const w = objs.find((o) => o.kind === 'Deployment' && o.metadata.name === svc);
        if (!w) {
          problems.push(`no Deployment ${svc}`);
          continue;
        }
        const c = podSpec(w).containers[0]!;
        const env = containerEnv(c, objs);
        const read = variablesRead(svc);
        for (const k of env.keys()) if (!read.has(k)) problems.push(`${svc}: sets ${k}, which it does not read`);
        const port = defaultGrpcPort(svc);
        const grpc = c.ports?.find((p) => p.name === 'grpc')?.containerPort;
        if (env.get('GRPC_PORT') !== String(port) || grpc !== port)
          problems.push(`${svc}: GRPC_PORT ${env.get('GRPC_PORT')} / containerPort ${grpc}, config default ${port}`);
        const service = objs.find((o) => o.kind === 'Service' && o.metadata.name === svc);
        const sport = (service?.spec as { ports?: { port: number }[] } | undefined)?.ports?.[0]?.port;
        if (sport !== port) problems.push(`${svc}: Service port ${sport}, config default ${port}`);
        for (const probe of [c.readinessProbe, c.livenessProbe]) {
          const p = (probe as { grpc?: { port: number } } | undefined)?.grpc?.port;
          if (p !== undefined && p !== port) problems.push(`${svc}: probe on ${p}, serves ${port}`);
        }
        // the image's WORKDIR holds dist/<service>/main.js, built from services/<service>/src/main.ts (tools/build)
        if (JSON.stringify(c.args) !== JSON.stringify([`dist/${svc}/main.js`])) problems.push(`${svc}: args ${JSON.stringify(c.args)}`);
      }
      expect(problems).toEqual([]);
    });

    it('sets on the portal only variables it reads, serves and probes the port its config defaults to, and runs its compiled entry', () => {
      const objs = rendered(name, fn);
      const w = objs.find((o) => o.kind === 'Deployment' && o.metadata.name === 'portal');
      expect(w, 'Deployment portal').toBeDefined();
      const c = podSpec(w!).containers[0]!;
      const env = containerEnv(c, objs);
      const problems: string[] = [];
      const read = variablesRead('portal', PORTAL_CONFIG);
      for (const k of env.keys()) if (!read.has(k)) problems.push(`portal: sets ${k}, which it does not read`);
      const port = Number(/'PORTAL_PORT',\s*(\d+)/.exec(readFileSync(PORTAL_CONFIG, 'utf8'))![1]);
      const http = c.ports?.find((p) => p.name === 'http')?.containerPort;
      if (env.get('PORTAL_PORT') !== String(port) || http !== port)
        problems.push(`portal: PORTAL_PORT ${env.get('PORTAL_PORT')} / containerPort ${http}, config default ${port}`);
      if (env.get('PORTAL_HOST') !== '0.0.0.0')
        problems.push(`portal: PORTAL_HOST ${env.get('PORTAL_HOST')}, unreachable from the Service`);
      const service = objs.find((o) => o.kind === 'Service' && o.metadata.name === 'portal');
      const sport = (service?.spec as { ports?: { port: number }[] } | undefined)?.ports?.[0]?.port;
      if (sport !== port) problems.push(`portal: Service port ${sport}, config default ${port}`);
      // The portal refuses a Host it does not answer (421): each probe must send one of PORTAL_ALLOWED_HOSTS.
      const allowed = (env.get('PORTAL_ALLOWED_HOSTS') ?? '').split(',');
      for (const [kind, probe] of [
        ['readiness', c.readinessProbe],
        ['liveness', c.livenessProbe],
      ] as const) {
        const get = (probe as { httpGet?: { port: number; path: string; httpHeaders?: { name: string; value: string }[] } } | undefined)
          ?.httpGet;
        if (!get) {
          problems.push(`portal: no ${kind} httpGet probe`);
          continue;
        }
        if (get.port !== port) problems.push(`portal: ${kind} probe on ${get.port}, serves ${port}`);
        const host = get.httpHeaders?.find((h) => h.name.toLowerCase() === 'host')?.value;
        if (!host || !allowed.includes(host)) problems.push(`portal: ${kind} probe sends Host ${host}, not one of ${allowed.join(', ')}`);
      }
      const resolver = serviceProblem(objs, 'portal TOOLSURFACE_RESOLVER', env.get('TOOLSURFACE_RESOLVER') ?? '');
      if (resolver || !env.get('TOOLSURFACE_RESOLVER')) problems.push(resolver ?? 'portal: no TOOLSURFACE_RESOLVER');
      // sessions in NATS (shared by the replicas), and the web app the build puts beside the bundle (tools/build)
      if (!env.get('NATS_URL')) problems.push('portal: no NATS_URL, so sessions would live in one pod');
      if (env.get('PORTAL_WEB_DIST') !== '/app/dist/portal/web') problems.push(`portal: PORTAL_WEB_DIST ${env.get('PORTAL_WEB_DIST')}`);
      if (JSON.stringify(c.args) !== JSON.stringify(['dist/portal/main.js'])) problems.push(`portal: args ${JSON.stringify(c.args)}`);
      expect(problems).toEqual([]);
    });

    it('points every address at a Service and port of the same rendering, and every file at a volume', () => {
      const objs = rendered(name, fn);
      const problems: string[] = [];
      for (const w of workloads(objs)) {
        for (const c of podSpec(w).containers) {
          const env = containerEnv(c, objs);
          for (const [k, v] of env) {
            if (v === undefined || !/(_URL|_ADDR|_ENDPOINT)$/.test(k)) continue;
            for (const part of v.split(',')) {
              const p = serviceProblem(objs, `${w.metadata.name} ${k}`, part.trim());
              if (p) problems.push(p);
            }
          }
          for (const f of namedFiles(c, env)) {
            const p = fileProblem(objs, w, c, f);
            if (p) problems.push(`${w.metadata.name}: ${p}`);
          }
        }
      }
      // the capabilities of the cluster's config file are Services of the rendering
      const cfg = objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('toolsurface-config'));
      const doc = parse(cfg?.data?.['toolsurface.yaml'] ?? '') as { capabilities?: Record<string, { transport: string; url?: string }> };
      expect(Object.keys(doc.capabilities ?? {}).length).toBeGreaterThan(0);
      for (const [cap, spec] of Object.entries(doc.capabilities ?? {})) {
        if (spec.transport !== 'streamable-http') problems.push(`capability ${cap}: ${spec.transport} (a pod runs no stdio program)`);
        const p = serviceProblem(objs, `capability ${cap}`, spec.url ?? '');
        if (p) problems.push(p);
      }
      expect(problems).toEqual([]);
    });

    it('starts only programs that the capabilities image installs', () => {
      const objs = rendered(name, fn);
      const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'deploy', 'docker', 'capabilities', 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      const problems: string[] = [];
      for (const { owner, c } of containers(objs).filter((x) => x.c.image?.startsWith('toolsurface-capabilities'))) {
        // node_modules/<@scope/name or name>/<file>, possibly inside a --stdio command line
        for (const m of (c.args ?? []).join(' ').matchAll(/node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\/(\S+)/g)) {
          if (!(m[1]! in pkg.dependencies)) problems.push(`${owner}: ${m[1]} is not in deploy/docker/capabilities/package.json`);
          if (!existsSync(join(REPO_ROOT, 'node_modules', m[1]!, m[2]!))) problems.push(`${owner}: ${m[0]} does not exist`);
        }
      }
      expect(problems).toEqual([]);
    });
  });

  it('names in deploy/README.md only kustomizations that render, and files that exist', () => {
    const readme = readFileSync(join(REPO_ROOT, 'deploy', 'README.md'), 'utf8');
    // kubectl kustomize <dir> and kubectl apply -k <dir>, from the repository root
    const dirs = [...readme.matchAll(/kubectl (?:kustomize|apply -k) ([\w./-]+)/g)].map((m) => m[1]!);
    expect(dirs.length).toBeGreaterThan(0);
    for (const d of dirs) expect(render(join(REPO_ROOT, d)).length, d).toBeGreaterThan(5);
    // docker build -f <Dockerfile> ... <context>
    for (const m of readme.matchAll(/docker build -f ([\w./-]+) .* ([\w./-]+)$/gm)) {
      expect(existsSync(join(REPO_ROOT, m[1]!)), m[1]).toBe(true);
      expect(existsSync(join(REPO_ROOT, m[2]!)), m[2]).toBe(true);
    }
    // `k8s/...`, `docker/...`, `local/...` (from deploy/) and `components/...`, `overlays/...` (from deploy/k8s/)
    for (const m of readme.matchAll(/`((?:k8s|docker|local|components|overlays)\/[\w./-]*[\w-])`/g)) {
      const p = m[1]!;
      const under = p.startsWith('components/') || p.startsWith('overlays/') ? join(REPO_ROOT, 'deploy', 'k8s') : join(REPO_ROOT, 'deploy');
      if (!p.includes('<')) expect(existsSync(join(under, p.split(/\s/)[0]!)), p).toBe(true);
    }
  });

  describe('overlays/production', () => {
    const objs = (): K8sObject[] => rendered('overlays/production', () => render(overlays.find((o) => basename(o) === 'production')!));
    const named = (kind: string, name: string): K8sObject | undefined => objs().find((o) => o.kind === kind && o.metadata.name === name);

    it('runs NATS as a 3-node JetStream cluster on volumes, one per node, with a disruption budget', () => {
      const nats = named('StatefulSet', 'nats')!;
      expect(nats.spec!.replicas).toBe(3);
      expect((nats.spec!.volumeClaimTemplates as unknown[]).length).toBe(1);
      const args = podSpec(nats).containers[0]!.args!;
      expect(args).toContain('--cluster_name');
      expect(args[args.indexOf('--routes') + 1]!.split(',')).toHaveLength(3);
      expect(JSON.stringify(podSpec(nats).affinity)).toContain('requiredDuringSchedulingIgnoredDuringExecution');
      expect((named('PodDisruptionBudget', 'nats')!.spec as { minAvailable: number }).minAvailable).toBe(2);
    });

    it('replicates every stream and bucket 3 times, and logs each service into NATS as its own user', () => {
      for (const svc of SERVICES) {
        const env = containerEnv(podSpec(named('Deployment', svc)!).containers[0]!, objs());
        expect(env.get('JETSTREAM_REPLICAS'), svc).toBe('3');
        expect(env.get('NATS_USER'), svc).toBe(svc);
        expect(env.has('NATS_PASSWORD'), svc).toBe(true);
      }
    });

    it('logs the portal into NATS as its own user, with the replica count of every bucket', () => {
      const c = podSpec(named('Deployment', 'portal')!).containers[0]!;
      const env = containerEnv(c, objs());
      expect(env.get('NATS_USER')).toBe('portal');
      expect(env.has('NATS_PASSWORD')).toBe(true);
      const replicas = (c.env ?? []).find((e) => e.name === 'JETSTREAM_REPLICAS') as
        { valueFrom?: { configMapKeyRef?: { name: string; key: string } } } | undefined;
      const cm = objs().find((o) => o.kind === 'ConfigMap' && o.metadata.name === replicas?.valueFrom?.configMapKeyRef?.name);
      expect(cm?.data?.[replicas!.valueFrom!.configMapKeyRef!.key]).toBe('3');
    });

    it('gives each stateless service and the portal a disruption budget and an autoscaler starting at 2', () => {
      for (const svc of [...SERVICES, 'portal']) {
        expect(named('PodDisruptionBudget', svc), svc).toBeDefined();
        expect((named('HorizontalPodAutoscaler', svc)!.spec as { minReplicas: number }).minReplicas, svc).toBe(2);
      }
    });

    it('lets only dispatch reach the capabilities and only the services reach NATS', () => {
      const from = (name: string): string => JSON.stringify((named('NetworkPolicy', name)!.spec as { ingress: unknown }).ingress);
      expect(named('NetworkPolicy', 'default-deny-ingress')).toBeDefined();
      expect(from('capabilities')).toBe(
        JSON.stringify([{ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'dispatch' } } }] }]),
      );
      expect(from('nats')).toContain('"app.kubernetes.io/component":"service"');
      expect(from('nats')).toContain('"app.kubernetes.io/name":"portal"');
      expect(named('NetworkPolicy', 'portal')).toBeDefined();
      // every service pod carries the label the NATS policy admits, and no capability does
      for (const w of workloads(objs()).filter((x) => x.kind === 'Deployment')) {
        const labels = (w.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;
        expect(labels['app.kubernetes.io/component'] === 'service', w.metadata.name).toBe(SERVICES.includes(w.metadata.name));
      }
    });

    it('forbids stdio capabilities on dispatch', () => {
      const env = containerEnv(podSpec(named('Deployment', 'dispatch')!).containers[0]!, objs());
      const commands = env.get('CAPABILITY_COMMANDS') ?? '';
      expect(commands).not.toBe('');
      for (const cmd of commands.split(',')) expect(existsSync(cmd.trim()), cmd).toBe(false);
    });
  });
});

describe('deploy/docker', () => {
  it.each(['Dockerfile', 'capabilities.Dockerfile'])('%s builds on a base pinned by digest and runs as a non-root user', (file) => {
    const lines = readFileSync(join(REPO_ROOT, 'deploy', 'docker', file), 'utf8').split('\n');
    // ARG NODE_IMAGE=<name>:<tag>@sha256:<64 hex digits>
    expect(
      lines.find((l) => /^ARG NODE_IMAGE=[\w./-]+:[\w.-]+@sha256:[0-9a-f]{64}$/.test(l)),
      file,
    ).toBeDefined();
    const froms = lines.filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const f of froms) expect(f, file).toMatch(/^FROM \$\{NODE_IMAGE\}( AS \w+)?$/);
    // the last stage's USER is a numeric non-root uid (runAsNonRoot can check only numbers)
    const last = lines.slice(lines.lastIndexOf(froms.at(-1)!));
    expect(
      last.find((l) => l.startsWith('USER ')),
      file,
    ).toMatch(/^USER [1-9]\d*(:\d+)?$/);
  });
});

describe.skipIf(!hasYamllint)('yamllint', () => {
  it('passes on deploy/ with deploy/.yamllint', () => {
    const run = (): string =>
      execFileSync('yamllint', ['--strict', '-c', join(REPO_ROOT, 'deploy', '.yamllint'), join(REPO_ROOT, 'deploy')], { encoding: 'utf8' });
    expect(run).not.toThrow();
  });
});
