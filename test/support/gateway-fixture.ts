import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { ensureNats, findFreePort, type NatsHandle } from '@toolsurface/devkit';
import { startStack, type RunningStack, type StartStackOptions } from '@toolsurface/stack';
import { channelCredentials, type TlsFiles } from '@toolsurface/platform';
import { Clients } from './clients';
import { OtlpReceiver } from './otlp-receiver';

/** One event seen on `toolsurface.>`, with its headers. */
export interface SeenEvent {
  subject: string;
  data: Uint8Array;
  traceparent: string | undefined;
  msgId: string | undefined;
}

/** A whole gateway for a suite: its own nats-server on a free port, the four services as processes, the real MCP servers. */
export interface GatewayFixture {
  stack: RunningStack;
  nats: NatsHandle;
  /** The nats-server's log file (permission violations show there). */
  natsLog: string;
  nc: NatsConnection;
  clients: Clients;
  otlp: OtlpReceiver;
  events: SeenEvent[];
  stop(): Promise<void>;
}

/** Capabilities whose catalog must be listed before the suite starts. */
async function waitForCatalog(nc: NatsConnection, capabilities: string[], timeoutMs = 60_000): Promise<void> {
  const kv = await new Kvm(nc).create('toolsurface_catalog', { history: 1 });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok: string[] = [];
    for (const c of capabilities) {
      const e = await kv.get(c);
      if (e && e.operation === 'PUT' && (JSON.parse(e.string()) as { status: string }).status === 'ok') ok.push(c);
    }
    if (ok.length === capabilities.length) return;
    if (Date.now() > deadline)
      throw new Error(`catalog not ready in ${timeoutMs} ms: have ${ok.join(', ') || 'none'} of ${capabilities.join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Starts everything for a suite from a config file; the suite must call stop(). */
export async function startGateway(
  configPath: string,
  capabilities: string[],
  opts: {
    tls?: TlsFiles;
    serviceEnv?: StartStackOptions['serviceEnv'];
    /** Extra environment for every service (after the fixture's OTEL_* variables, so it may replace them). */
    env?: NodeJS.ProcessEnv;
    /** nats-server config (users, permissions), its environment, and the user the suite's own connection (`nc`) logs in as. */
    nats?: { configFile: string; env: NodeJS.ProcessEnv; user: string; pass: string };
  } = {},
): Promise<GatewayFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'toolsurface-e2e-'));
  const port = await findFreePort();
  const natsLog = join(dir, 'nats.log');
  const nats = await ensureNats({
    url: `nats://127.0.0.1:${port}`,
    dataDir: join(dir, 'nats'),
    logPath: natsLog,
    ...(opts.nats ? { configFile: opts.nats.configFile, env: opts.nats.env } : {}),
  });
  const otlp = new OtlpReceiver();
  const endpoint = await otlp.start();
  let stack: RunningStack;
  try {
    stack = await startStack({
      natsUrl: nats.url,
      configPath,
      freePorts: true,
      logDir: join(dir, 'logs'),
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        // The test receiver reads OTLP/JSON (the services' default is http/protobuf).
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_METRIC_EXPORT_INTERVAL: '500',
        LOG_LEVEL: 'info',
        ...opts.env,
      },
      ...(opts.tls ? { tls: opts.tls } : {}),
      ...(opts.serviceEnv ? { serviceEnv: opts.serviceEnv } : {}),
    });
  } catch (e) {
    await nats.stop();
    await otlp.stop();
    throw e;
  }
  const nc = await connect({ servers: nats.url, ...(opts.nats ? { user: opts.nats.user, pass: opts.nats.pass } : {}) });
  const events: SeenEvent[] = [];
  // JetStream publishes are plain messages on their subject too: a core subscription sees them all.
  nc.subscribe('toolsurface.>', {
    callback: (_err, m: Msg) => {
      events.push({
        subject: m.subject,
        data: m.data,
        traceparent: m.headers?.get('traceparent') || undefined,
        msgId: m.headers?.get('Nats-Msg-Id') || undefined,
      });
    },
  });
  await waitForCatalog(nc, capabilities);
  const clients = new Clients(stack.addresses, undefined, channelCredentials(opts.tls));
  return {
    stack,
    nats,
    natsLog,
    nc,
    clients,
    otlp,
    events,
    async stop() {
      clients.close();
      await nc.drain().catch(() => undefined);
      await stack.stop();
      await nats.stop();
      await otlp.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The bearer token of the `mcp-front` orchestrator of test/fixtures/mcp*.yaml: what dispatch's MCP endpoint sends to surface-resolver. */
export const MCP_FRONT_TOKEN = 'mcp-front-token-0123456789';

/**
 * The whole gateway on an MCP fixture config, its MCP endpoint logged in at surface-resolver as
 * the `mcp-front` orchestrator; `dispatchEnv` adds dispatch variables (OAuth, for one).
 */
export function startMcpGateway(configPath: string, capabilities: string[], dispatchEnv: NodeJS.ProcessEnv = {}): Promise<GatewayFixture> {
  return startGateway(configPath, capabilities, { serviceEnv: { dispatch: { MCP_ORCHESTRATOR_TOKEN: MCP_FRONT_TOKEN, ...dispatchEnv } } });
}
