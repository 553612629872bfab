import { describe, expect, it } from 'vitest';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describeConnectError, mcpEndpointUrl } from './mcp-bridge';

const agent = { kind: 'agent' as const, id: 'researcher' };

describe('mcpEndpointUrl', () => {
  it("appends the principal's path to a base URL, keeping a prefix", () => {
    expect(mcpEndpointUrl('http://127.0.0.1:3100', agent).href).toBe('http://127.0.0.1:3100/mcp/agent/researcher');
    expect(mcpEndpointUrl('https://gw.example/toolsurface/', agent).href).toBe('https://gw.example/toolsurface/mcp/agent/researcher');
  });

  it("takes a URL that already names the principal's path as it is", () => {
    expect(mcpEndpointUrl('http://h:1/mcp/agent/researcher/', agent).href).toBe('http://h:1/mcp/agent/researcher');
  });

  it('refuses what is not an http(s) URL, and another principal’s endpoint', () => {
    expect(() => mcpEndpointUrl('ws://127.0.0.1:3100', agent)).toThrow(/http:\/\/ or https:\/\//);
    expect(() => mcpEndpointUrl('127.0.0.1:3100', agent)).toThrow(/not a URL: give e.g. http:\/\/127.0.0.1:3100/);
    expect(() => mcpEndpointUrl('http://h/mcp/gateway/researcher', agent)).toThrow(/another principal than agent:researcher/);
  });
});

describe('describeConnectError', () => {
  const o = { url: new URL('http://127.0.0.1:3100/mcp/agent/researcher'), timeoutMs: 10_000 };
  const body = (message: string) =>
    `Error POSTing to endpoint: ${JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message }, id: null })}`;

  it('401: says whether a key was sent, and where a key goes', () => {
    const e = new StreamableHTTPError(401, body('a valid API key of agent:researcher is required'));
    expect(describeConnectError(e, { ...o, key: 'k' })).toBe(
      'the MCP endpoint at http://127.0.0.1:3100/mcp/agent/researcher refused the API key (401: a valid API key of agent:researcher is required); check --key or TOOLSURFACE_MCP_KEY',
    );
    expect(describeConnectError(e, o)).toMatch(/wants an API key \(401: .*\); pass --key or set TOOLSURFACE_MCP_KEY$/);
  });

  it('404 and other statuses, a refused connection, and a timeout', () => {
    expect(describeConnectError(new StreamableHTTPError(404, body('not found')), o)).toMatch(
      /does not exist \(404: not found\); check --url/,
    );
    expect(describeConnectError(new StreamableHTTPError(503, 'Error POSTing to endpoint: busy'), o)).toMatch(/failed \(HTTP 503: busy\)/);
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    expect(describeConnectError(refused, o)).toMatch(
      /^cannot reach the MCP endpoint at .* \(ECONNREFUSED\): is the stack running\?.*npm start/,
    );
    expect(describeConnectError(new McpError(ErrorCode.RequestTimeout, 'Request timed out'), o)).toMatch(/within --timeout 10000 ms/);
    const blocked = Object.assign(new TypeError('fetch failed'), { cause: new Error('bad port') });
    expect(describeConnectError(blocked, o)).toMatch(/failed: fetch failed \(bad port\)$/);
  });

  it('TLS failures: a client certificate wanted, an untrusted certificate, without OpenSSL internals', () => {
    const https = { ...o, url: new URL('https://gw.example/mcp/agent/researcher') };
    const required = Object.assign(new Error('8C:error:0A00045C:SSL routines::tlsv13 alert certificate required'), {
      code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
    });
    expect(describeConnectError(required, https)).toBe(
      'the MCP endpoint at https://gw.example/mcp/agent/researcher wants a client certificate (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED): pass --tls-cert and --tls-key',
    );
    const untrusted = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }),
    });
    expect(describeConnectError(untrusted, https)).toBe(
      'a TLS problem with the MCP endpoint at https://gw.example/mcp/agent/researcher (SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain): check --tls-ca, --tls-cert and --tls-key against its certificates',
    );
    const openssl = Object.assign(new Error('8C:error:0A000086:SSL routines::certificate verify failed'), { code: 'ERR_SSL_X' });
    expect(describeConnectError(openssl, https)).toMatch(/\(ERR_SSL_X\): check --tls-ca/);
  });
});
