import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { activityOff, ActivityFeed } from './activity-feed';
import { handleApi, type ApiContext } from './api';
import type { PortalConfig } from './config';
import { checkRequest, defaultAllowedHosts } from './guard';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats } from '@toolsurface/platform';
import { NatsSessionStore } from './session-kv';
import { MemorySessionStore } from './sessions';
import { JSON_HEADERS, PAGE_HEADERS, serveStatic } from './static';
import { buildWeb } from './web-build';

/** The running portal. */
export interface Portal {
  /** Base URL, e.g. http://127.0.0.1:3200 (after start). */
  url(): string;
  port(): number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Wires the portal: the web app's files and the JSON API behind them. Nothing listens until start(). */
export function createPortal(config: PortalConfig): Portal {
  const ttlMs = config.sessionTtlSeconds * 1000;
  const scheme = config.tls ? 'https' : 'http';
  const activity = config.activity ? new ActivityFeed(config.activity) : undefined;
  const ctx: ApiContext = {
    // Replaced in start() by the NATS store when NATS is configured.
    sessions: new MemorySessionStore(ttlMs),
    resolver: config.resolver,
    ...(config.grpcTls ? { grpcTls: config.grpcTls } : {}),
    secure: scheme === 'https',
    sessionTtlSeconds: config.sessionTtlSeconds,
    mcpPublicUrl: config.mcpPublicUrl,
    activity: activity ?? activityOff(),
  };
  let allowed = new Set<string>();
  let server: Server | undefined;
  let nc: NatsConnection | undefined;
  let port = 0;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const refusal = checkRequest(req, allowed, scheme);
    if (refusal) {
      res.writeHead(refusal.status, JSON_HEADERS);
      res.end(JSON.stringify({ error: refusal.message }));
      return;
    }
    // A throw here would end the process (a request handler runs outside any promise): any
    // page on the web could then stop the portal with one image URL such as /%E0.
    try {
      const path = new URL(req.url ?? '/', 'http://portal').pathname;
      if (path.startsWith('/api/')) {
        void handleApi(ctx, req, res, path);
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'cache-control': 'no-store', ...PAGE_HEADERS });
        res.end();
        return;
      }
      serveStatic(config.webDist, path, res);
    } catch (e) {
      const bad = e instanceof URIError || e instanceof TypeError;
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(bad ? 400 : 500, JSON_HEADERS);
        res.end(JSON.stringify({ error: bad ? 'the request URL is malformed' : `internal error: ${(e as Error).message}` }));
      }
    }
  };

  return {
    url: () => `${scheme}://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    port: () => port,
    async start() {
      // From a clean clone the web app is built on first start.
      await buildWeb(config.webDist);
      if (config.nats) {
        nc = await connectNats(config.nats.url, 'toolsurface-portal', config.nats.auth);
        ctx.sessions = await NatsSessionStore.open(nc, ttlMs, config.nats.replicas);
      }
      server = config.tls
        ? createHttpsServer({ cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) }, handle)
        : createHttpServer(handle);
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.port, config.host, () => resolve());
      });
      port = (server.address() as AddressInfo).port;
      allowed = defaultAllowedHosts(config.allowedHosts, config.host, port);
      // In the background: the pages are served whether NATS is reachable or not.
      activity?.start();
    },
    async stop() {
      await activity?.stop();
      const s = server;
      server = undefined;
      if (s)
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        });
      await nc?.drain().catch(() => undefined);
      nc = undefined;
    },
  };
}
