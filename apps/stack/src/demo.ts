// `npm run demo`: a scripted agent session against a running stack, or one started for the demo.
import { join, relative } from 'node:path';
import { checkClientTls, clientTls, GatewayClient } from '@toolsurface/client';
import { channelCredentials, type TlsFiles } from '@toolsurface/platform';
import { runScenario } from './demo/scenario';
import { MCP_GATEWAY, mcpSkipReason, principalUrl, runMcpSection } from './demo/mcp-section';
import { Report } from './demo/report';
import { formatMs } from './demo/stats';
import {
  checkHealth,
  DEFAULT_CONFIG_PATH,
  DEFAULT_LOG_DIR,
  NATS_BINARY_HINT,
  onStopSignal,
  privateNats,
  PROBE_TIMEOUT_MS,
  REPO_ROOT,
  SAMPLE_DIR,
  type NatsHandle,
  defaultNatsBinary,
} from '@toolsurface/devkit';
import { loadConfigFile } from '@toolsurface/core';
import { loadPortalConfig } from '@toolsurface/portal';
import { DEFAULT_PORTS, startStack, type RunningStack } from './stack';

const t0 = performance.now();
const write = (s: string) => void process.stdout.write(s);
const width = Math.min(process.stdout.columns || 100, 110);
const report = new Report(write, Boolean(process.stdout.isTTY) && !process.env.NO_COLOR, width);
/** the demo's own NATS server, from the moment it starts (a stop signal meanwhile waits for it, to stop it and remove its data) */
let natsStarting: Promise<NatsHandle | undefined> | undefined;
let stack: RunningStack | undefined;
const release = async () => {
  await stack?.stop();
  await (await natsStarting?.catch(() => undefined))?.stop();
};
onStopSignal((signal) => {
  write(`\n${signal}: stopping what the demo started…\n`);
  void release().finally(() => process.exit(130));
});

report.line('Toolsurface demo: one scripted agent session through the gRPC APIs, then an MCP client');
const defaults = {
  resolver: `127.0.0.1:${DEFAULT_PORTS.resolver}`,
  discovery: `127.0.0.1:${DEFAULT_PORTS.discovery}`,
  dispatch: `127.0.0.1:${DEFAULT_PORTS.dispatch}`,
  unified: `127.0.0.1:${DEFAULT_PORTS.unified}`,
};
// TOOLSURFACE_RESOLVER and TOOLSURFACE_DISPATCH (as for the CLI) point at a stack elsewhere, such
// as one `npm start` moved off taken default ports.
const given =
  process.env.TOOLSURFACE_RESOLVER && process.env.TOOLSURFACE_DISPATCH
    ? { resolver: process.env.TOOLSURFACE_RESOLVER, dispatch: process.env.TOOLSURFACE_DISPATCH }
    : undefined;
let addresses = given ?? { resolver: defaults.resolver, dispatch: defaults.dispatch };
let startMs = 0;
// TOOLSURFACE_TLS_CA (and TOOLSURFACE_TLS_CERT / _KEY for mutual TLS), as for the CLI: the demo
// then talks TLS to a running stack (one `npm start` ran with GRPC_TLS_*), and starts none itself
let tls: TlsFiles | undefined;
try {
  const { TOOLSURFACE_TLS_CA: ca, TOOLSURFACE_TLS_CERT: cert, TOOLSURFACE_TLS_KEY: key } = process.env;
  tls = ca || cert || key ? clientTls(ca || undefined, cert || undefined, key || undefined) : undefined;
  if (tls) checkClientTls(tls, { caFile: 'TOOLSURFACE_TLS_CA', certFile: 'TOOLSURFACE_TLS_CERT', keyFile: 'TOOLSURFACE_TLS_KEY' });
} catch (e) {
  write(`error: ${(e as Error).message.replace(/--tls-(ca|cert|key)/g, (_, k: string) => `TOOLSURFACE_TLS_${k.toUpperCase()}`)}\n`);
  process.exit(2);
}
const over = tls ? 'over TLS' : 'over plaintext';
try {
  const targets = Object.entries(given ?? defaults);
  const creds = channelCredentials(tls);
  const health = await Promise.all(targets.map(([, a]) => checkHealth(a, '', PROBE_TIMEOUT_MS, creds)));
  const statuses = targets.map(([name, a], i) => `${name} ${a} ${health[i]}`).join(', ');
  if (health.every((h) => h === 'SERVING')) {
    report.line(
      `stack     running ${given ? 'at TOOLSURFACE_RESOLVER / TOOLSURFACE_DISPATCH' : 'on the default ports'} (resolver ${addresses.resolver}, dispatch ${addresses.dispatch}, ${over})`,
    );
  } else if (given) {
    throw new Error(
      `TOOLSURFACE_RESOLVER ${given.resolver} / TOOLSURFACE_DISPATCH ${given.dispatch}: no stack answers there ${over} (${statuses})`,
    );
  } else if (tls) {
    throw new Error(
      `no stack answers ${over} on the default ports (${statuses}); the demo starts a stack of its own only without TOOLSURFACE_TLS_*`,
    );
  } else {
    const logDir = join(DEFAULT_LOG_DIR, 'demo');
    const some = health.some((h) => h === 'SERVING');
    report.line(
      some
        ? `stack     only part of a stack answers on the default ports (${statuses}): starting one on free ports for this demo…`
        : `stack     none answers on the default ports over plaintext (${statuses}; for a stack that speaks TLS, set TOOLSURFACE_TLS_CA): starting one on free ports for this demo…`,
    );
    const t = performance.now();
    // A nats-server of its own (privateNats): a stack writes its config, its server-everything's
    // URL among it, to the NATS it uses, so on a shared server this throwaway stack left another
    // stack there calling the server-everything it stopped at the end.
    natsStarting = privateNats({ logPath: join(logDir, 'nats.log') });
    const nats = await natsStarting;
    if (!nats) {
      // (on a NATS server it does not own, its config would stay behind for the stacks there)
      throw new Error(
        `no nats-server binary (${defaultNatsBinary()}) to start a NATS server of the demo's own. ${NATS_BINARY_HINT} ` +
          'Or start a stack with `npm start` (it uses NATS_URL) and run the demo against it.',
      );
    }
    stack = await startStack({ natsUrl: nats.url, freePorts: true, logDir });
    startMs = performance.now() - t;
    addresses = { resolver: stack.addresses.resolver, dispatch: stack.addresses.dispatch };
    report.line(
      `          started in ${formatMs(startMs)}: resolver ${stack.addresses.resolver}, dispatch ${stack.addresses.dispatch}, ` +
        `everything ${stack.addresses.everythingUrl}`,
    );
    report.line(`          NATS ${nats.url} (started for the demo, its data removed at the end), logs ${relative(REPO_ROOT, logDir)}/`);
  }
} catch (e) {
  write(`error: could not get a stack to run the demo against: ${(e as Error).message}\n`);
  await release();
  process.exit(1);
}

// Where the gateway requires caller authentication, the demo acts as the orchestrator whose token is in TOOLSURFACE_TOKEN.
const gw = new GatewayClient(addresses, {}, process.env.TOOLSURFACE_TOKEN || undefined, tls);
const sessionStart = performance.now();
// the config whose rules the demo names: its own stack's, or the one `npm start` reads
const configPath = stack ? DEFAULT_CONFIG_PATH : process.env.TOOLSURFACE_CONFIG || DEFAULT_CONFIG_PATH;
try {
  await runScenario(gw, report, { sampleDir: SAMPLE_DIR, width, configPath });
} finally {
  gw.close();
}

// g. dispatch's MCP endpoint: its own stack's, else TOOLSURFACE_MCP_URL, else `npm start`'s 3100
const mcpBase = stack?.addresses.mcp ?? (process.env.TOOLSURFACE_MCP_URL || `http://127.0.0.1:${DEFAULT_PORTS.mcp}`);
const mcpKey = process.env.TOOLSURFACE_MCP_KEY || undefined;
const mcpUrl = principalUrl(mcpBase);
report.section(`g. an MCP client: the MCP SDK's Client over Streamable HTTP, as ${MCP_GATEWAY.kind}:${MCP_GATEWAY.id} (discovery)`);
// (the endpoint speaks plain HTTP: TLS, where wanted, is a proxy's job; docs/security.md)
if (tls) report.line('  (TOOLSURFACE_TLS_* applies to the gRPC APIs: this section uses plain HTTP on loopback)');
const mcpSkip = await mcpSkipReason(mcpUrl, mcpKey);
if (mcpSkip) report.line(`  skipped: ${mcpSkip}`);
else await runMcpSection(report, { baseUrl: mcpBase, key: mcpKey, sampleDir: SAMPLE_DIR, width });
const sessionMs = performance.now() - sessionStart;
if (stack) report.line(`\nstopping the stack started for the demo…`);
await release();

const total = report.passed + report.failures.length;
report.section('summary');
report.line(`  ${total} steps: ${report.passed} passed, ${report.failures.length} failed`);
for (const f of report.failures) report.line(`  ✗ ${f}`);
report.line(
  `  wall time ${formatMs(performance.now() - t0)}` +
    (startMs > 0 ? ` (stack start ${formatMs(startMs)}, session ${formatMs(sessionMs)})` : ` (session ${formatMs(sessionMs)})`),
);
// where an MCP client can connect next (docs/mcp.md): this stack's endpoint, or `npm start`'s once it runs
if (stack) {
  report.line(
    `  MCP clients: \`npm start\` serves http://127.0.0.1:${DEFAULT_PORTS.mcp}/mcp/<agent|gateway>/<id> (this demo's endpoint stopped with its stack); docs/mcp.md`,
  );
} else if (!mcpSkip) {
  report.line(`  MCP clients: connect to ${mcpBase}/mcp/<agent|gateway>/<id>, e.g. ${mcpUrl}; docs/mcp.md`);
}
// last, where a person sees and sets what the demo showed: the portal of `npm start`
report.line(`  Portal: ${portalPointer()}; apps/portal/README.md`);
process.exit(report.failures.length > 0 ? 1 : 0);

/** Where `npm start` serves the portal and what signs in there, from the config it reads. */
function portalPointer(): string {
  const url = `http://127.0.0.1:${loadPortalConfig({ PORTAL_PORT: process.env.PORTAL_PORT }).port}/`;
  let signIn = "an admin orchestrator's token";
  try {
    const admins = loadConfigFile(configPath).orchestrators.filter((o) => o.admin);
    signIn = admins.length === 0 ? 'any token (the config lists no orchestrators)' : `the token of ${admins.map((o) => o.id).join(' or ')}`;
  } catch {
    // the demo ran against a stack whose config it cannot read here: the general hint stands
  }
  const where = stack ? `\`npm start\` serves ${url}` : `open the URL \`npm start\` printed (${url} by default)`;
  return `${where} in a browser, to see and set each principal's tool presentation; sign in with ${signIn}`;
}
