import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { httpCapabilityPort, rewriteConfig } from './config-copy';
import { channelCredentials, servesTls, tlsEnv, type TlsFiles } from '@toolsurface/platform';
import {
  checkHealth,
  DATA_DIR,
  DEFAULT_CONFIG_PATH,
  DEFAULT_LOG_DIR,
  failIfExited,
  findFreePorts,
  isPortOpen,
  PROBE_TIMEOUT_MS,
  REPO_ROOT,
  spawnManaged,
  StackError,
  tailFile,
  waitForPort,
  waitForServing,
  type ManagedProcess,
  type ProcessExit,
} from '@toolsurface/devkit';

/** Ports of a local stack: the four gRPC services, dispatch's MCP endpoint and the Streamable HTTP MCP server. */
export interface StackPorts {
  resolver: number;
  discovery: number;
  dispatch: number;
  unified: number;
  everythingHttp: number;
  /** dispatch's MCP endpoint (MCP_PORT). */
  mcp: number;
}

/** The fixed ports of `npm start` (the services' own defaults; everything's port is the config URL's). */
export const DEFAULT_PORTS: StackPorts = {
  resolver: 50051,
  discovery: 50052,
  dispatch: 50053,
  unified: 50054,
  everythingHttp: 3001,
  mcp: 3100,
};

/** host:port of each service, the MCP server's URL and the NATS URL in use. */
export interface StackAddresses {
  resolver: string;
  discovery: string;
  dispatch: string;
  unified: string;
  everythingUrl: string;
  /** Base URL of dispatch's MCP endpoint: a principal's URL is `<mcp>/mcp/<kind>/<id>`. */
  mcp: string;
  nats: string;
}

/** One service of the stack: its folder under services/, its port key and its gRPC health service names. */
export interface StackService {
  name: 'surface-resolver' | 'discovery' | 'unified-mapper' | 'dispatch';
  port: 'resolver' | 'discovery' | 'unified' | 'dispatch';
  healthServices: readonly string[];
}

/** The four services in start order (surface-resolver first: it loads the config into NATS). */
export const STACK_SERVICES: readonly StackService[] = [
  { name: 'surface-resolver', port: 'resolver', healthServices: ['toolsurface.v1.SurfaceService', 'toolsurface.v1.PresentationService'] },
  { name: 'discovery', port: 'discovery', healthServices: ['toolsurface.v1.DiscoveryService'] },
  { name: 'unified-mapper', port: 'unified', healthServices: ['toolsurface.v1.UnifiedService'] },
  { name: 'dispatch', port: 'dispatch', healthServices: ['toolsurface.v1.DispatchService'] },
];

const require = createRequire(import.meta.url);

/**
 * The entry file of a service: the `main` of its package (`@toolsurface/<name>`), which this app
 * declares as a dependency, so the stack starts what the workspace builds rather than a path.
 */
export function serviceEntry(name: StackService['name']): string {
  const manifest = require.resolve(`@toolsurface/${name}/package.json`);
  const { main } = JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string };
  return join(dirname(manifest), main ?? 'src/main.ts');
}

/** The Streamable HTTP MCP server the default config reaches as `everything`. */
export const EVERYTHING_ENTRY = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** Preload that makes server-everything listen on the stack's host, not on every interface (see the file). */
export const LISTEN_HOST_PRELOAD = fileURLToPath(new URL('./listen-host.mjs', import.meta.url));

/** Options of `startStack`. */
export interface StartStackOptions {
  natsUrl: string;
  /** Declarative config for surface-resolver (default deploy/local/toolsurface.yaml). */
  configPath?: string;
  /** Ports to use; the rest are DEFAULT_PORTS, or free ones with `freePorts`. */
  ports?: Partial<StackPorts>;
  /** Extra environment for every process (after the stack's own variables). */
  env?: NodeJS.ProcessEnv;
  /** Extra environment for one service (after `env`). */
  serviceEnv?: Partial<Record<StackService['name'], NodeJS.ProcessEnv>>;
  /** Folder of `<process>.log` files (default `<repo>/.data/logs`). */
  logDir?: string;
  /** Pick free ports for whatever `ports` leaves out (tests, and the demo when the defaults are taken). */
  freePorts?: boolean;
  /** Name of the streamable-http capability this stack serves with server-everything (default `everything`). */
  everythingCapability?: string;
  /** How long each service may take to be SERVING, ms (default 30 000). */
  readyTimeoutMs?: number;
  /**
   * TLS for every service's gRPC server and for the calls between them (GRPC_TLS_* variables). The
   * certificate must name 127.0.0.1; the stack's health checks present it as their client certificate.
   */
  tls?: TlsFiles;
}

/** A started stack. */
export interface RunningStack {
  addresses: StackAddresses;
  ports: StackPorts;
  /** The config surface-resolver loaded (a copy in logDir when the MCP server's port changed). */
  configPath: string;
  logDir: string;
  /** Name, PID and log file of every process started, in start order. */
  processes: ReadonlyArray<{ name: string; pid: number; logPath: string }>;
  /** Settles when a process of the stack exits on its own before `stop` (never rejects). */
  unexpectedExit: Promise<{ name: string; exit: ProcessExit; logTail: string }>;
  /** SIGTERM to every process in reverse start order, SIGKILL after 5 s each; idempotent. */
  stop(): Promise<void>;
  /** Stops one service (SIGTERM) and starts it again with the same settings; resolves once it is SERVING. */
  restart(name: StackService['name']): Promise<void>;
  /**
   * Starts one more dispatch replica on free ports, on the same NATS and services (stopped with the
   * stack); resolves once it is SERVING, with its gRPC address and its MCP endpoint's base URL.
   */
  addDispatchReplica(): Promise<{ dispatch: string; mcp: string; stop(): Promise<void> }>;
}

/**
 * Starts the local stack: server-everything over Streamable HTTP (when the config has that
 * capability), then surface-resolver (waited for, it loads the config), then discovery,
 * unified-mapper and dispatch; each must answer SERVING on the gRPC health service ("" and its
 * service names) within 30 s. Throws StackError with the tail of the failing process's log, after
 * stopping whatever it started. With `freePorts`, picks free ports and, when the MCP server's port
 * differs from the config's URL, writes a copy of the config with that port to `logDir`.
 */
export async function startStack(opts: StartStackOptions): Promise<RunningStack> {
  const configPath = resolve(opts.configPath ?? DEFAULT_CONFIG_PATH);
  const logDir = resolve(opts.logDir ?? DEFAULT_LOG_DIR);
  const capability = opts.everythingCapability ?? 'everything';
  const readyTimeoutMs = opts.readyTimeoutMs ?? 30_000;
  let configText: string;
  try {
    configText = readFileSync(configPath, 'utf8');
  } catch (e) {
    throw new StackError(`cannot read the config ${configPath}: ${(e as Error).message}`, { cause: e });
  }
  for (const s of STACK_SERVICES) {
    if (!existsSync(serviceEntry(s.name))) throw new StackError(`${s.name} is missing: ${serviceEntry(s.name)} does not exist`);
  }
  if (servesTls(opts.tls) && !opts.tls?.caFile) {
    // dispatch and the stack's health checks must verify the services' certificate.
    throw new StackError(
      'TLS needs GRPC_TLS_CA_FILE too (the CA that signed GRPC_TLS_CERT_FILE): dispatch and the health checks verify the services against it',
    );
  }
  const configuredHttpPort = httpCapabilityPort(configText, capability);
  const ports = await choosePorts(opts, configuredHttpPort);
  mkdirSync(logDir, { recursive: true });
  // Configs keep MCP servers' data (the memory graph) under <repo>/.data, which a fresh clone lacks.
  mkdirSync(DATA_DIR, { recursive: true });

  let effectiveConfig = configPath;
  if (configuredHttpPort !== undefined && configuredHttpPort !== ports.everythingHttp) {
    effectiveConfig = join(logDir, 'toolsurface.yaml');
    writeFileSync(effectiveConfig, rewriteConfig(configText, dirname(configPath), { httpPorts: { [capability]: ports.everythingHttp } }));
  }

  const host = '127.0.0.1';
  const addr = (p: number) => `${host}:${p}`;
  const addresses: StackAddresses = {
    resolver: addr(ports.resolver),
    discovery: addr(ports.discovery),
    dispatch: addr(ports.dispatch),
    unified: addr(ports.unified),
    everythingUrl: `http://${host}:${ports.everythingHttp}/mcp`,
    mcp: `http://${host}:${ports.mcp}`,
    nats: opts.natsUrl,
  };
  const started: ManagedProcess[] = [];
  let stopping = false;
  let reportExit: (v: { name: string; exit: ProcessExit; logTail: string }) => void = () => undefined;
  const unexpectedExit = new Promise<{ name: string; exit: ProcessExit; logTail: string }>((r) => (reportExit = r));
  const restarting = new Set<ManagedProcess>();
  const track = (proc: ManagedProcess) => {
    started.push(proc);
    void proc.exited.then((exit) => {
      if (!stopping && !restarting.has(proc)) reportExit({ name: proc.name, exit, logTail: proc.tail(30) });
    });
    return proc;
  };
  const stopAll = async () => {
    stopping = true;
    for (const p of [...started].reverse()) await p.stop(5000);
  };
  const baseEnv = {
    ...process.env,
    NATS_URL: opts.natsUrl,
    GRPC_HOST: host,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    ...tlsEnv(opts.tls),
  };
  const healthCredentials = channelCredentials(opts.tls?.caFile ? opts.tls : undefined);
  const startService = (s: StackService, extra: NodeJS.ProcessEnv) =>
    track(
      spawnManaged(s.name, process.execPath, ['--import', 'tsx', serviceEntry(s.name)], {
        cwd: REPO_ROOT,
        env: { ...baseEnv, GRPC_PORT: String(ports[s.port]), ...extra, ...opts.env, ...opts.serviceEnv?.[s.name] },
        logPath: join(logDir, `${s.name}.log`),
      }),
    );
  const extraEnv = (s: StackService): NodeJS.ProcessEnv =>
    s.name === 'surface-resolver'
      ? { TOOLSURFACE_CONFIG: effectiveConfig }
      : s.name === 'dispatch'
        ? {
            DISCOVERY_ADDR: addresses.discovery,
            UNIFIED_ADDR: addresses.unified,
            SURFACE_RESOLVER_ADDR: addresses.resolver,
            MCP_PORT: String(ports.mcp),
          }
        : {};
  const waitReady = async (s: StackService, proc: ManagedProcess) => {
    try {
      await waitForServing(addresses[s.port], {
        services: ['', ...s.healthServices],
        timeoutMs: readyTimeoutMs,
        check: failIfExited(proc),
        credentials: healthCredentials,
      });
    } catch (e) {
      throw new StackError(`${s.name} did not become ready: ${(e as Error).message} (log: ${proc.logPath})`, {
        cause: e,
        logTail: proc.tail(30),
      });
    }
  };

  try {
    if (configuredHttpPort !== undefined) {
      if (!existsSync(EVERYTHING_ENTRY)) throw new StackError(`server-everything is not installed: ${EVERYTHING_ENTRY} does not exist`);
      const everything = track(
        spawnManaged(
          'everything',
          process.execPath,
          ['--import', pathToFileURL(LISTEN_HOST_PRELOAD).href, EVERYTHING_ENTRY, 'streamableHttp'],
          {
            cwd: REPO_ROOT,
            // (the MCP SDK's safe default environment, not this process's: the server's get-env tool
            // hands its environment to any agent bound to it, and a token or password exported
            // before `npm start` must not be in it)
            // (it listens on the port alone, on every interface; LISTEN_HOST_PRELOAD holds it to ours)
            env: { ...getDefaultEnvironment(), ...opts.env, PORT: String(ports.everythingHttp), LISTEN_HOST: host },
            logPath: join(logDir, 'everything.log'),
          },
        ),
      );
      try {
        await waitForPort(host, ports.everythingHttp, { timeoutMs: readyTimeoutMs, check: failIfExited(everything) });
      } catch (e) {
        throw new StackError(`server-everything did not listen on ${ports.everythingHttp}: ${(e as Error).message}`, {
          cause: e,
          logTail: everything.tail(30),
        });
      }
    }
    const [resolverSvc, ...rest] = STACK_SERVICES;
    const resolverProc = startService(resolverSvc, extraEnv(resolverSvc));
    await waitReady(resolverSvc, resolverProc);
    const procs = rest.map((s) => startService(s, extraEnv(s)));
    // All three boot at once; waiting one after the other costs nothing extra.
    for (let i = 0; i < rest.length; i++) await waitReady(rest[i], procs[i]);
  } catch (e) {
    await stopAll();
    throw e instanceof StackError ? e : new StackError((e as Error).message, { cause: e });
  }

  let stopped: Promise<void> | undefined;
  return {
    addresses,
    ports,
    configPath: effectiveConfig,
    logDir,
    processes: started.map((p) => ({ name: p.name, pid: p.pid, logPath: p.logPath })),
    unexpectedExit,
    stop: () => (stopped ??= stopAll()),
    async restart(name) {
      const svc = STACK_SERVICES.find((x) => x.name === name);
      const old = [...started].reverse().find((p) => p.name === name);
      if (!svc || !old) throw new StackError(`no service ${name} in this stack`);
      restarting.add(old);
      await old.stop(5000);
      started.splice(started.indexOf(old), 1);
      const proc = startService(svc, extraEnv(svc));
      await waitReady(svc, proc);
    },
    async addDispatchReplica() {
      const svc = STACK_SERVICES.find((x) => x.name === 'dispatch')!;
      const [grpcPort, mcpPort] = await findFreePorts(2);
      const n = started.filter((p) => p.name.startsWith('dispatch')).length + 1;
      const proc = track(
        spawnManaged(`dispatch-${n}`, process.execPath, ['--import', 'tsx', serviceEntry('dispatch')], {
          cwd: REPO_ROOT,
          env: {
            ...baseEnv,
            ...extraEnv(svc),
            ...opts.env,
            ...opts.serviceEnv?.dispatch,
            GRPC_PORT: String(grpcPort),
            MCP_PORT: String(mcpPort),
          },
          logPath: join(logDir, `dispatch-${n}.log`),
        }),
      );
      const dispatch = addr(grpcPort);
      try {
        await waitForServing(dispatch, {
          services: ['', ...svc.healthServices],
          timeoutMs: readyTimeoutMs,
          check: failIfExited(proc),
          credentials: healthCredentials,
        });
      } catch (e) {
        throw new StackError(`dispatch-${n} did not become ready: ${(e as Error).message}`, { cause: e, logTail: proc.tail(30) });
      }
      return {
        dispatch,
        mcp: `http://${host}:${mcpPort}`,
        stop: async () => {
          restarting.add(proc);
          await proc.stop(5000);
        },
      };
    },
  };
}

/**
 * The ports to use: given ones, then free or default ones. A default port that something else
 * holds is replaced by a free one (the stack's addresses say where each service went); a given
 * port that is taken, or a default one where a gRPC server already answers (a stack already
 * running), fails early. `defaults` is for tests.
 */
export async function choosePorts(
  opts: StartStackOptions,
  configuredHttpPort: number | undefined,
  defaults: StackPorts = DEFAULT_PORTS,
): Promise<StackPorts> {
  const keys = ['resolver', 'discovery', 'dispatch', 'unified', 'everythingHttp', 'mcp'] as const;
  const base: StackPorts = { ...defaults, everythingHttp: configuredHttpPort ?? defaults.everythingHttp };
  const ports = { ...base, ...opts.ports };
  if (opts.freePorts) {
    const missing = keys.filter((k) => opts.ports?.[k] === undefined);
    const free = await findFreePorts(missing.length);
    missing.forEach((k, i) => (ports[k] = free[i]));
    return ports;
  }
  const names: Record<(typeof keys)[number], string> = {
    resolver: 'surface-resolver',
    discovery: 'discovery',
    dispatch: 'dispatch',
    unified: 'unified-mapper',
    everythingHttp: 'server-everything',
    mcp: 'the MCP endpoint of dispatch',
  };
  const busy: Array<(typeof keys)[number]> = [];
  for (const k of keys) {
    if (k === 'everythingHttp' && configuredHttpPort === undefined) continue;
    if (!(await isPortOpen('127.0.0.1', ports[k], 300))) continue;
    const running =
      k !== 'everythingHttp' &&
      k !== 'mcp' &&
      (await checkHealth(`127.0.0.1:${ports[k]}`, '', PROBE_TIMEOUT_MS, channelCredentials(opts.tls?.caFile ? opts.tls : undefined))) !==
        'UNREACHABLE';
    if (opts.ports?.[k] !== undefined || running) {
      throw new StackError(
        running
          ? `a gRPC server already answers on port ${ports[k]} for ${names[k]} (is a stack already running? \`npm run demo\` uses a running stack as is; stop it first)`
          : `port ${ports[k]} for ${names[k]} is already in use; free it or choose another port`,
      );
    }
    busy.push(k);
  }
  const free = await findFreePorts(busy.length);
  busy.forEach((k, i) => (ports[k] = free[i]));
  return ports;
}

/** The last `lines` lines of a service's log in `logDir` (default `<repo>/.data/logs`). */
export function serviceLogTail(name: string, lines = 30, logDir = DEFAULT_LOG_DIR): string {
  return tailFile(join(isAbsolute(logDir) ? logDir : resolve(logDir), `${name}.log`), lines);
}
