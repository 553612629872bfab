import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import ts from 'typescript';
import { parseAllDocuments, parse } from 'yaml';
import { DATA_DIR, REPO_ROOT } from '@toolsurface/devkit';

// Helpers of test/deploy-manifests.int.test.ts: render deploy/k8s with kubectl, validate what it
// renders against the Kubernetes API schemas, and list what the services really read.

/** A rendered Kubernetes object (only the fields the checks read are typed). */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  [key: string]: unknown;
}

export const K8S_DIR = join(REPO_ROOT, 'deploy', 'k8s');

/** Whether a command runs here (`<cmd> --help` or `version` exits 0). */
export function hasCommand(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

/** `kubectl kustomize <dir>` parsed into objects; throws with kubectl's message when it fails. */
export function render(dir: string): K8sObject[] {
  const out = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  return parseAllDocuments(out)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

/**
 * Renders `overlay` with `component` added, from a throwaway kustomization (kustomize refuses
 * absolute paths, so it names both relative to itself).
 */
export function renderWithComponent(overlay: string, component: string): K8sObject[] {
  const dir = mkdtempSync(join(tmpdir(), 'toolsurface-kustomize-'));
  try {
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        `resources: [${JSON.stringify(relative(dir, overlay))}]`,
        `components: [${JSON.stringify(relative(dir, component))}]`,
        '',
      ].join('\n'),
    );
    return render(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The kustomizations to render: the base, each overlay; and the components the base does not include. */
export function kustomizations(): { base: string; overlays: string[]; components: string[]; inBase: string[] } {
  const base = join(K8S_DIR, 'base');
  const overlays = readdirSync(join(K8S_DIR, 'overlays')).map((d) => join(K8S_DIR, 'overlays', d));
  const all = readdirSync(join(K8S_DIR, 'components')).map((d) => join(K8S_DIR, 'components', d));
  const baseKust = parse(readFileSync(join(base, 'kustomization.yaml'), 'utf8')) as { components?: string[] };
  const inBase = (baseKust.components ?? []).map((c) => join(base, c));
  return { base, overlays, components: all.filter((c) => !inBase.includes(c)), inBase };
}

const require = createRequire(import.meta.url);

/**
 * Validates one object against the Kubernetes API schema of its apiVersion and kind (the
 * kubernetes-models package: the API's OpenAPI schemas compiled with Ajv). Returns the error
 * text, or undefined when valid; an unknown kind is an error.
 */
export function schemaErrors(obj: K8sObject): string | undefined {
  let mod: Record<string, unknown>;
  try {
    mod = require(`kubernetes-models/${obj.apiVersion}`) as Record<string, unknown>;
  } catch {
    return `no schema for apiVersion ${obj.apiVersion}`;
  }
  const Model = mod[obj.kind] as (new (data: object) => { validate(): void }) | undefined;
  if (!Model) return `no schema for ${obj.apiVersion} ${obj.kind}`;
  try {
    new Model(obj).validate();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The workloads' pod templates: Deployments and StatefulSets. */
export function workloads(objs: K8sObject[]): K8sObject[] {
  return objs.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet');
}

export interface Container {
  name: string;
  image?: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  envFrom?: { configMapRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string }[];
  readinessProbe?: Record<string, unknown>;
  livenessProbe?: Record<string, unknown>;
}

export interface PodSpec {
  containers: Container[];
  volumes?: { name: string; configMap?: { name: string }; secret?: { secretName: string } }[];
  securityContext?: Record<string, unknown>;
  affinity?: Record<string, unknown>;
}

export function podSpec(w: K8sObject): PodSpec {
  return (w.spec as { template: { spec: PodSpec } }).template.spec;
}

/** Every variable a container gets: its env entries and the keys of the ConfigMaps it takes whole. */
export function containerEnv(c: Container, objs: K8sObject[]): Map<string, string | undefined> {
  const env = new Map<string, string | undefined>();
  for (const from of c.envFrom ?? []) {
    const cm = objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name === from.configMapRef?.name);
    for (const [k, v] of Object.entries(cm?.data ?? {})) env.set(k, v);
  }
  for (const e of c.env ?? []) env.set(e.name, e.value);
  return env;
}

function stripComments(src: string): string {
  // Line and block comments, so that a variable named only in a comment does not count as read.
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

/**
 * The variables a service reads: `env.NAME`, `env['NAME']` and the NAME_WITH_UNDERSCORES string
 * literals handed to the readers, in its config.ts and in libs/platform (which every service's
 * config.ts calls for NATS, TLS, logging and telemetry).
 */
export function variablesRead(service: string, configFile = join(REPO_ROOT, 'services', service, 'src', 'config.ts')): Set<string> {
  const platform = join(REPO_ROOT, 'libs', 'platform', 'src');
  const files = [
    configFile,
    ...readdirSync(platform)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => join(platform, f)),
  ];
  const names = new Set<string>();
  for (const f of files) {
    const src = stripComments(readFileSync(f, 'utf8'));
    // env.NAME and env['NAME'] / env["NAME"]
    for (const m of src.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) names.add(m[1] ?? m[2]!);
    // 'SOME_NAME' literals (at least one underscore: constants such as stream names have none)
    for (const m of src.matchAll(/['"]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"]/g)) names.add(m[1]!);
  }
  // Read by the OpenTelemetry SDK's own resource detector (envDetector), which telemetry.ts installs.
  for (const sdkRead of OTEL_SDK_VARIABLES) names.add(sdkRead);
  return names;
}

/** Variables the OpenTelemetry SDK reads itself, not our code: the service name and resource attributes. */
const OTEL_SDK_VARIABLES = ['OTEL_SERVICE_NAME', 'OTEL_RESOURCE_ATTRIBUTES'];

/** The default of `GRPC_PORT` in a service's config.ts (the port it serves when unset). */
export function defaultGrpcPort(service: string): number | undefined {
  const src = readFileSync(join(REPO_ROOT, 'services', service, 'src', 'config.ts'), 'utf8');
  // integer(env, 'GRPC_PORT', 50053, ...) or envInt(env, 'GRPC_PORT', 50052, ...)
  const m = /'GRPC_PORT',\s*(\d+)/.exec(src);
  return m ? Number(m[1]) : undefined;
}

/** The services: every services/<name> with a src/main.ts. */
export function serviceNames(): string[] {
  return readdirSync(join(REPO_ROOT, 'services')).filter((d) => existsSync(join(REPO_ROOT, 'services', d, 'src', 'main.ts')));
}

/**
 * Fields the Kubernetes API does not have (a misspelt `readinesProbe` is valid JSON Schema, as the
 * schemas allow extra properties, and the API server would drop or refuse it): each object becomes
 * an object literal typed with its kubernetes-models interface, and TypeScript's excess-property
 * and type checks report what does not fit. Returns one message per problem, naming the object.
 */
export function apiTypeErrors(objs: K8sObject[]): string[] {
  // inside the repository, where the compiler finds kubernetes-models in node_modules
  mkdirSync(DATA_DIR, { recursive: true });
  const dir = mkdtempSync(join(DATA_DIR, 'k8s-types-'));
  const file = join(dir, 'objects.ts');
  // one import per kind, then one object per line, so a diagnostic's line names its object
  const kinds = new Map(objs.map((o) => [`${o.apiVersion}/${o.kind}`, `T${o.kind}_${o.apiVersion.replace(/\W/g, '_')}`]));
  const header = [...kinds].map(
    ([path, alias]) => `import type { I${path.split('/').pop()} as ${alias} } from 'kubernetes-models/${path}';`,
  );
  const body = objs.map((o) => `export const o${objs.indexOf(o)}: ${kinds.get(`${o.apiVersion}/${o.kind}`)} = ${JSON.stringify(o)};`);
  try {
    writeFileSync(file, [...header, ...body, ''].join('\n'));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line - header.length : -1;
      const o = objs[line];
      return `${o ? `${o.kind}/${o.metadata.name}` : 'objects.ts'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
