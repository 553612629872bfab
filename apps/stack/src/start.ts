// `npm start`: NATS (running or started), server-everything, the four services and the portal on their default ports, until Ctrl-C.
import { relative } from 'node:path';
import { envTls, servesTls } from '@toolsurface/platform';
import { loadConfigFile } from '@toolsurface/core';
import { formatMs } from './demo/stats';
import {
  DEFAULT_CONFIG_PATH,
  DEFAULT_NATS_URL,
  describeExit,
  ensureNats,
  onStopSignal,
  REPO_ROOT,
  type NatsHandle,
} from '@toolsurface/devkit';
import { createPortal, loadPortalConfig, type Portal } from '@toolsurface/portal';
import { DEFAULT_PORTS, startStack, type RunningStack } from './stack';

const t0 = performance.now();
const log = (s: string) => void process.stdout.write(`${s}\n`);
let nats: NatsHandle | undefined;
let stack: RunningStack | undefined;
let portal: Portal | undefined;
let stopping: Promise<void> | undefined;
const stopAll = (code: number) => {
  stopping ??= (async () => {
    log('stopping…');
    await portal?.stop();
    await stack?.stop();
    await nats?.stop();
    log('stopped');
    process.exit(code);
  })();
  return stopping;
};
onStopSignal(() => void stopAll(0));

try {
  const natsUrl = process.env.NATS_URL ?? DEFAULT_NATS_URL;
  log(`NATS ${natsUrl}…`);
  nats = await ensureNats({ url: natsUrl });
  const configPath = process.env.TOOLSURFACE_CONFIG ?? DEFAULT_CONFIG_PATH;
  log(`starting server-everything and the four services with ${relative(REPO_ROOT, configPath) || configPath}…`);
  // GRPC_TLS_* in this environment reach every service; the launcher's health checks use them too.
  const tls = envTls(process.env);
  if (servesTls(tls)) log(`TLS on every gRPC API${tls.clientCaFile ? ' (mutual: clients need a certificate the client CA signed)' : ''}`);
  stack = await startStack({ natsUrl: nats.url, configPath, tls });
  portal = await startPortal(stack, nats.url);
} catch (e) {
  process.stderr.write(`error: ${(e as Error).message}\n`);
  await stack?.stop();
  await nats?.stop();
  process.exit(1);
}

/** The portal on PORTAL_PORT (default 3200), or on a free port when that one is taken. */
async function startPortal(running: RunningStack, natsUrl: string): Promise<Portal> {
  // Sessions in the stack's NATS, so a restarted portal keeps its sign-ins.
  const env = {
    ...process.env,
    TOOLSURFACE_RESOLVER: running.addresses.resolver,
    MCP_PUBLIC_URL: running.addresses.mcp,
    NATS_URL: natsUrl,
  };
  const first = createPortal(loadPortalConfig(env));
  try {
    await first.start();
    return first;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    const other = createPortal(loadPortalConfig({ ...env, PORTAL_PORT: '0' }));
    await other.start();
    return other;
  }
}

const a = stack.addresses;
// One MCP URL per principal of the config (dispatch's MCP endpoint).
let principals: Array<{ kind: string; id: string }> = [];
try {
  principals = loadConfigFile(stack.configPath).principals;
} catch {
  // surface-resolver loaded it; a read failure here only leaves the list out.
}
const mcpUrls = principals.map((p) => `    ${a.mcp}/mcp/${p.kind}/${p.id}`).join('\n');
// A default port something else held was replaced by a free one: say how the CLI and the demo find the stack.
const moved =
  a.resolver !== `127.0.0.1:${DEFAULT_PORTS.resolver}` || a.dispatch !== `127.0.0.1:${DEFAULT_PORTS.dispatch}`
    ? `Some default ports were taken, so the stack took free ones. First, for the CLI and the demo:\n  export TOOLSURFACE_RESOLVER=${a.resolver} TOOLSURFACE_DISPATCH=${a.dispatch}\n\n`
    : '';
log(`
Toolsurface is up (${formatMs(performance.now() - t0)})
  surface-resolver  ${a.resolver}   SurfaceService, PresentationService
  dispatch          ${a.dispatch}   DispatchService (every tool call)
  discovery         ${a.discovery}
  unified-mapper    ${a.unified}
  everything (MCP)  ${a.everythingUrl}
  MCP endpoint      ${a.mcp}/mcp/<agent|gateway>/<id>   (dispatch; loopback only without mcp_keys)
${mcpUrls}
  portal            ${portal!.url()}/   (sign in with an admin orchestrator's token; any token while the config has no orchestrators)
  NATS              ${nats.url} (${nats.startedByUs ? 'started here' : 'already running'})
  logs              ${relative(REPO_ROOT, stack.logDir)}/<service>.log

${moved}Try it:
  npx toolsurface open agent:researcher
  npx toolsurface discover <surface-id> read a text file
  npx toolsurface call <surface-id> execute_tool '{"name":"echo","arguments":{"message":"hi"}}'
  npm run demo
  open ${portal!.url()}/ in a browser to see and set each principal's tool presentation

Ctrl-C stops everything started here.`);

void stack.unexpectedExit.then(({ name, exit, logTail }) => {
  if (stopping) return;
  process.stderr.write(`error: ${name} ${describeExit(exit)}; stopping the stack\n--- last lines of its log ---\n${logTail}\n`);
  void stopAll(1);
});
