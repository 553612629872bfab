import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { writeTestCertificates, type TestCertificates } from '@toolsurface/devkit';

// `toolsurface mcp` (the process, launched by the SDK's StdioClientTransport) against a stand-in
// endpoint built on the SDK's stateful Streamable HTTP server, for what the real endpoint does not
// do yet or does only after an hour: notifications/tools/list_changed on the GET stream, and a
// session it no longer knows. The real endpoint: test/e2e/mcp-bridge.e2e.test.ts.
const bin = join(import.meta.dirname, '..', 'bin', 'toolsurface.js');
const KEY = 'stand-in-key';

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
}
const sessions = new Map<string, Session>();
const deleted: string[] = [];
let version = 1;
let http: HttpServer;
let base: string;

function newSession(): Session {
  const server = new Server({ name: 'stand-in', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: `echo_v${version}`, description: 'echo', inputSchema: { type: 'object' }, _meta: { 'io.example/extra': 1 } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => ({
    content: [{ type: 'text', text: `REFUSED: ${JSON.stringify(req.params.arguments)}` }],
    isError: true,
    _meta: { 'io.toolsurface/reason': 'REFUSED' },
  }));
  const session: Session = {
    server,
    transport: new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, session),
      onsessionclosed: (id) => {
        deleted.push(id);
        sessions.delete(id);
      },
    }),
  };
  return session;
}

/** The stand-in endpoint: a stateful SDK server per session, 404 for a session it does not know. */
function handle(req: IncomingMessage, res: ServerResponse): void {
  if (req.headers.authorization !== `Bearer ${KEY}`) return void res.writeHead(401).end();
  const id = req.headers['mcp-session-id'];
  const known = typeof id === 'string' ? sessions.get(id) : undefined;
  if (id && !known) {
    return void res
      .writeHead(404, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
  }
  const s = known ?? newSession();
  void (known ? Promise.resolve() : s.server.connect(s.transport)).then(() => s.transport.handleRequest(req, res));
}

// The same endpoint over HTTPS that wants a client certificate, as behind a mutual-TLS proxy.
let https: HttpServer;
let httpsBase: string;
let certs: TestCertificates;
let certDir: string;

beforeAll(async () => {
  http = createServer(handle);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  certDir = mkdtempSync(join(tmpdir(), 'toolsurface-cli-mcp-'));
  certs = writeTestCertificates(certDir);
  const pem = (f: string) => readFileSync(f);
  https = createHttpsServer(
    { ca: pem(certs.caFile), cert: pem(certs.certFile), key: pem(certs.keyFile), requestCert: true, rejectUnauthorized: true },
    handle,
  ) as unknown as HttpServer;
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  httpsBase = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  for (const s of sessions.values()) await s.transport.close();
  for (const server of [http, https]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

async function launch(): Promise<{ client: Client; changed: () => number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--principal', 'agent:x', '--url', base, '--key', KEY],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'bridge-int', version: '0.0.0' });
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed++);
  await client.connect(transport);
  return { client, changed: () => changed };
}

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('toolsurface mcp against a stand-in endpoint', () => {
  it('passes tools and results through unchanged and forwards tools/list_changed from the endpoint', async () => {
    const b = await launch();
    try {
      expect(b.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      expect((await b.client.listTools()).tools).toEqual([
        { name: 'echo_v1', description: 'echo', inputSchema: { type: 'object' }, _meta: { 'io.example/extra': 1 } },
      ]);
      expect(await b.client.callTool({ name: 'echo_v1', arguments: { a: 1 } })).toEqual({
        content: [{ type: 'text', text: 'REFUSED: {"a":1}' }],
        isError: true,
        _meta: { 'io.toolsurface/reason': 'REFUSED' },
      });
      const [session] = [...sessions.values()];
      // The bridge's GET stream may open a moment after initialize: send until it arrives.
      await until(() => {
        void session.server.sendToolListChanged().catch(() => undefined);
        return b.changed() > 0;
      }, 'list_changed on the stdio side');
    } finally {
      await b.client.close();
    }
  });

  it('replaces a session the endpoint no longer knows, and tells the client its tools changed', async () => {
    const b = await launch();
    try {
      expect((await b.client.listTools()).tools.map((t) => t.name)).toEqual(['echo_v1']);
      const [id] = [...sessions.keys()];
      sessions.delete(id); // as the endpoint drops a session unused for an hour
      version = 2;
      expect((await b.client.listTools()).tools.map((t) => t.name)).toEqual(['echo_v2']);
      await until(() => b.changed() > 0, 'list_changed after the new session');
      expect(sessions.size).toBe(1);
    } finally {
      await b.client.close();
    }
    // Ending stdin ended the new session (DELETE).
    await until(() => sessions.size === 0, 'the DELETE of the session');
    expect(deleted.length).toBeGreaterThanOrEqual(1);
  });

  it('ends the session and exits 0 on SIGTERM, as on stdin ending', async () => {
    const child = spawn(process.execPath, [bin, 'mcp', '--principal', 'agent:x', '--url', base, '--key', KEY], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await until(() => err.includes('connected to'), 'the bridge connected');
    expect(sessions.size).toBe(1);
    child.kill('SIGTERM'); // bin/toolsurface.js passes it to the CLI's process
    expect(await exited).toBe(0);
    expect(sessions.size).toBe(0);
    expect(err).toContain('stopped; session closed');
    expect(child.stdout.read()).toBeNull();
  });

  it('speaks HTTPS with --tls-ca, and mutual TLS with --tls-cert and --tls-key', async () => {
    const run = (tlsArgs: string[]) => {
      const child = spawn(process.execPath, [bin, ...tlsArgs, 'mcp', '--principal', 'agent:x', '--url', httpsBase, '--key', KEY], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      return { child, exited, err: () => err };
    };
    const mutual = run(['--tls-ca', certs.caFile, '--tls-cert', certs.otherCertFile, '--tls-key', certs.otherKeyFile]);
    await until(() => mutual.err().includes('connected to'), `the bridge connected over mutual TLS: ${mutual.err()}`);
    mutual.child.stdin.end();
    expect(await mutual.exited).toBe(0);
    expect(mutual.err()).toContain('stdin ended; session closed');
    expect(sessions.size).toBe(0);
    // Without the CA the endpoint's certificate is not trusted; without a client certificate the server refuses.
    const untrusted = run([]);
    expect(await untrusted.exited).toBe(1);
    expect(untrusted.err()).toMatch(
      /error: a TLS problem with the MCP endpoint at https:.*\(SELF_SIGNED_CERT_IN_CHAIN: .*\): check --tls-ca/,
    );
    const noClientCert = run(['--tls-ca', certs.caFile]);
    expect(await noClientCert.exited).toBe(1);
    expect(noClientCert.err()).toMatch(
      /error: the MCP endpoint at https:.* wants a client certificate \(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED\): pass --tls-cert and --tls-key\n$/,
    );
  });
});
