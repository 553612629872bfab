import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startMcpGateway, type GatewayFixture } from '../support';

// OAuth 2.1 resource-server mode of the MCP endpoint against the whole gateway: an authorization
// server of the suite's own (its metadata and JWKS served by node:http on loopback), tokens signed
// with jose, the endpoint configured by MCP_OAUTH_ISSUER and MCP_PUBLIC_URL (the JWKS found in the
// issuer's metadata).
const fixtures = join(import.meta.dirname, '..', 'fixtures');
const PUBLIC_URL = 'https://tools.example.test';
const KEY = 'mcp-key-agents-0123456789';
let g: GatewayFixture;
let idp: Server;
let issuer: string;
let signingKey: CryptoKey;
let strangerKey: CryptoKey;
let jwksFetches = 0;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair('ES256')).privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  idp = createServer((req, res) => {
    const json = (body: unknown) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/.well-known/oauth-authorization-server') return json({ issuer, jwks_uri: `${issuer}/keys` });
    if (req.url === '/keys') {
      jwksFetches++;
      return json({ keys: [jwk] });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  g = await startMcpGateway(join(fixtures, 'mcp-oauth.yaml'), ['memory'], { MCP_OAUTH_ISSUER: issuer, MCP_PUBLIC_URL: PUBLIC_URL });
}, 180_000);
afterAll(async () => {
  await g?.stop();
  await new Promise((r) => idp?.close(r));
}, 60_000);

const urlOf = (id: string) => new URL(`${g.stack.addresses.mcp}/mcp/agent/${id}`);
const metadataUrlOf = (id: string) => `${PUBLIC_URL}/.well-known/oauth-protected-resource/mcp/agent/${id}`;

/** An access token as the suite's authorization server issues it; `claims` and `opts` change it. */
async function token(
  claims: Record<string, unknown> = {},
  opts: { audience?: string; issuer?: string; expiresIn?: string | number; key?: CryptoKey } = {},
): Promise<string> {
  return new SignJWT({ toolsurface_principals: ['agent:alice'], ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setSubject('user-1')
    .setIssuer(opts.issuer ?? issuer)
    .setAudience(opts.audience ?? `${PUBLIC_URL}/mcp/agent/alice`)
    .setIssuedAt()
    .setExpirationTime(opts.expiresIn ?? '5m')
    .sign(opts.key ?? signingKey);
}

function initialize(id: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(urlOf(id), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
}

async function connect(id: string, bearer: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(urlOf(id), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } });
  const client = new Client({ name: 'toolsurface-oauth-e2e', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('MCP endpoint: OAuth 2.1 resource server', () => {
  it('serves the protected-resource metadata, at the root and for each principal URL', async () => {
    const root = await fetch(`${g.stack.addresses.mcp}/.well-known/oauth-protected-resource`);
    expect(root.status).toBe(200);
    expect(await root.json()).toMatchObject({
      resource: PUBLIC_URL,
      authorization_servers: [issuer],
      bearer_methods_supported: ['header'],
    });
    const alice = await fetch(`${g.stack.addresses.mcp}/.well-known/oauth-protected-resource/mcp/agent/alice`);
    expect(await alice.json()).toMatchObject({ resource: `${PUBLIC_URL}/mcp/agent/alice`, authorization_servers: [issuer] });
    expect((await fetch(`${g.stack.addresses.mcp}/.well-known/oauth-protected-resource/mcp/robot/x`)).status).toBe(404);
  });

  it('lists and calls tools with a valid token of the principal, and keeps the session bound to its subject', async () => {
    const c = await connect('alice', await token());
    try {
      const { tools } = await c.client.listTools();
      expect(tools.map((t) => t.name)).toContain('read_graph');
      const r = (await c.client.callTool({ name: 'read_graph', arguments: {} })) as CallToolResult;
      expect(r.isError ?? false).toBe(false);
      // A valid token of another subject does not reach this session.
      const res = await fetch(urlOf('alice'), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${await new SignJWT({ toolsurface_principals: 'alice' })
            .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
            .setSubject('user-2')
            .setIssuer(issuer)
            .setAudience(PUBLIC_URL)
            .setExpirationTime('5m')
            .sign(signingKey)}`,
          'Mcp-Session-Id': c.transport.sessionId!,
          'Mcp-Protocol-Version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      expect(res.status).toBe(404);
    } finally {
      await c.transport.terminateSession();
      await c.client.close();
    }
    // The JWKS was fetched once and cached.
    expect(jwksFetches).toBe(1);
  });

  it('accepts the endpoint audience (MCP_PUBLIC_URL) and a bare ID in the claim, and API keys beside OAuth', async () => {
    expect(
      (await initialize('alice', { Authorization: `Bearer ${await token({ toolsurface_principals: 'alice' }, { audience: PUBLIC_URL })}` }))
        .status,
    ).toBe(200);
    expect((await initialize('bob', { Authorization: `Bearer ${KEY}` })).status).toBe(200);
  });

  it('answers 401 with the resource_metadata challenge without a token, and invalid_token for a bad one', async () => {
    const none = await initialize('alice');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrlOf('alice')}"`);
    const bad: Record<string, string> = {
      expired: await token({}, { expiresIn: Math.floor(Date.now() / 1000) - 120 }),
      'wrong audience': await token({}, { audience: 'https://elsewhere.example' }),
      'wrong issuer': await token({}, { issuer: 'https://idp.elsewhere.example' }),
      'another principal': await token({ toolsurface_principals: ['agent:bob'] }),
      'no principal claim': await token({ toolsurface_principals: undefined }),
      'unknown signing key': await token({}, { key: strangerKey }),
      'not a token': 'not-a-key-nor-a-token',
    };
    for (const [what, t] of Object.entries(bad)) {
      const res = await initialize('alice', { Authorization: `Bearer ${t}` });
      expect(res.status, what).toBe(401);
      expect(res.headers.get('www-authenticate'), what).toBe(`Bearer resource_metadata="${metadataUrlOf('alice')}", error="invalid_token"`);
    }
    // Alice's token opens alice's URL only.
    const forBob = await initialize('bob', { Authorization: `Bearer ${await token({}, { audience: PUBLIC_URL })}` });
    expect(forBob.status).toBe(401);
    expect(forBob.headers.get('www-authenticate')).toContain(metadataUrlOf('bob'));
  });
});
