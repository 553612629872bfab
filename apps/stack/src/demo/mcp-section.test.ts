import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpSkipReason, principalUrl } from './mcp-section';

describe('the demo’s MCP section', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  /** An HTTP server on a free loopback port answering every request with `status`; its base URL. */
  async function answering(status: number): Promise<string> {
    server = createServer((_, res) => res.writeHead(status).end());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('connects to the gateway principal’s URL under the base URL', () => {
    expect(principalUrl('http://127.0.0.1:3100')).toBe('http://127.0.0.1:3100/mcp/gateway/agent-hub');
    expect(principalUrl('http://127.0.0.1:3100/', { kind: 'agent', id: 'researcher' })).toBe('http://127.0.0.1:3100/mcp/agent/researcher');
  });

  it('runs where the endpoint answers (400 to a GET without a session)', async () => {
    expect(await mcpSkipReason(principalUrl(await answering(400)))).toBeUndefined();
  });

  it('is skipped, saying why, where nothing listens or a key is needed', async () => {
    const base = await answering(401);
    expect(await mcpSkipReason(principalUrl(base))).toMatch(/requires a key .*TOOLSURFACE_MCP_KEY/);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    expect(await mcpSkipReason(principalUrl(base))).toMatch(/no MCP endpoint answers at .*ECONNREFUSED.*MCP_PORT/);
  });
});
