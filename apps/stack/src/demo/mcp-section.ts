// Part g of `npm run demo`: a real MCP client (the MCP SDK's Client over Streamable HTTP) on
// dispatch's MCP endpoint, as a gateway principal in discovery mode.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META_TOOL_NAMES, type PrincipalRef } from '@toolsurface/core';
import { CallToolResponse } from '@toolsurface/proto';
import { extractHits, extractToolDefinition, formatHits, formatToolDefinition, oneLine, renderContent } from '@toolsurface/client';
import { check, type Report, type StepContext } from './report';

/** The gateway principal of deploy/local/toolsurface.yaml that the MCP section connects as (discovery mode). */
export const MCP_GATEWAY: PrincipalRef = { kind: 'gateway', id: 'agent-hub' };

/** What the MCP section needs. */
export interface McpSectionOptions {
  /** Base URL of dispatch's MCP endpoint (`http://127.0.0.1:3100`). */
  baseUrl: string;
  /** A key of `mcp_keys` for the principal, where the endpoint requires one. */
  key?: string;
  /** Folder the filesystem capability serves (deploy/local/sample). */
  sampleDir: string;
  /** Width of the printed lines. */
  width?: number;
}

/** `<base>/mcp/gateway/agent-hub`. */
export function principalUrl(baseUrl: string, p: PrincipalRef = MCP_GATEWAY): string {
  return `${baseUrl.replace(/\/+$/, '')}/mcp/${p.kind}/${p.id}`;
}

/**
 * Why the MCP section cannot run against the endpoint at `url` (nothing answers there, or it needs
 * a key the demo lacks), or undefined where it can. A GET without a session is the probe: the
 * endpoint answers it with 400 (401 without a valid key).
 */
export async function mcpSkipReason(url: string, key?: string, timeoutMs = 1500): Promise<string | undefined> {
  try {
    const res = await fetch(url, {
      headers: { Accept: 'text/event-stream', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel();
    if (res.status === 401)
      return `the MCP endpoint at ${url} requires a key (mcp_keys in its config): set TOOLSURFACE_MCP_KEY to one for ${MCP_GATEWAY.kind}:${MCP_GATEWAY.id}`;
    return undefined;
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
    return `no MCP endpoint answers at ${url} (${cause}); dispatch serves one only with MCP_PORT (TOOLSURFACE_MCP_URL names another base URL)`;
  }
}

/** A CallToolResult as the gRPC answer the client library's formatters read. */
function asResponse(r: CallToolResult): CallToolResponse {
  return CallToolResponse.fromPartial({
    contentJson: JSON.stringify(r.content ?? []),
    structuredContentJson: r.structuredContent ? JSON.stringify(r.structuredContent) : '',
    isError: r.isError === true,
  });
}

/** The text of a result, cut to `maxLines` lines. */
function text(r: CallToolResult, maxLines = 6): string {
  const all = (renderContent(r.content) || JSON.stringify(r.structuredContent ?? {})).trimEnd().split('\n');
  return all.length > maxLines ? [...all.slice(0, maxLines), `… (${all.length - maxLines} more lines)`].join('\n') : all.join('\n');
}

/**
 * Plays part g: connect (initialize), tools/list, discover_tools, get_tool_schema for the top hit,
 * execute_tool reading notes/welcome.txt, then DELETE. Step failures are counted in the report.
 */
export async function runMcpSection(report: Report, opts: McpSectionOptions): Promise<void> {
  const width = opts.width ?? 100;
  const url = principalUrl(opts.baseUrl);
  const headers = opts.key ? { Authorization: `Bearer ${opts.key}` } : undefined;
  const transport = new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : undefined);
  const client = new Client({ name: 'toolsurface-demo', version: '0.1.0' });
  const callTool = async (s: StepContext, name: string, args: Record<string, unknown>) => {
    s.call(`tools/call ${name} ${oneLine(JSON.stringify(args), 110)}`);
    const r = (await s.timed(() => client.callTool({ name, arguments: args }))) as CallToolResult;
    check(!r.isError, `expected a result, got ${oneLine(text(r, 2))}`);
    return r;
  };
  let connected = false;
  let sessionId: string | undefined;
  try {
    const tools = await report.step('g1', 'connect and list tools', async (s) => {
      s.call(`initialize  POST ${url}`);
      await s.timed(() => client.connect(transport));
      connected = true;
      sessionId = transport.sessionId;
      const server = client.getServerVersion();
      s.kv('session', `${sessionId ?? '(none)'} (Mcp-Session-Id: one surface of ${MCP_GATEWAY.kind}:${MCP_GATEWAY.id})`);
      s.kv('server', `${server?.name ?? '?'} ${server?.version ?? ''}, protocol ${transport.protocolVersion ?? '?'}`);
      s.call('tools/list');
      const { tools } = await s.timed(() => client.listTools());
      const names = tools.map((t) => t.name);
      const meta = names.filter((n) => (META_TOOL_NAMES as readonly string[]).includes(n));
      const system = names.filter((n) => !meta.includes(n));
      s.kv('tools', `${names.length}: ${meta.join(', ')} + system tools ${system.join(', ')}`);
      for (const m of ['discover_tools', 'get_tool_schema', 'execute_tool'])
        check(
          names.includes(m),
          `tools/list has no ${m}: is ${MCP_GATEWAY.kind}:${MCP_GATEWAY.id} in the stack's config, in discovery mode? (deploy/local/toolsurface.yaml)`,
        );
      return names;
    });
    if (!tools) return;
    const query = 'read a text file';
    const top = await report.step('g2', `discover_tools "${query}"`, async (s) => {
      const r = await callTool(s, 'discover_tools', { query, limit: 3 });
      const { hits, hint } = extractHits(asResponse(r));
      s.block(formatHits(hits, width - 8, hint));
      check(hits.length > 0, 'no hits');
      return hits[0].name;
    });
    if (!top) return;
    await report.step('g3', `get_tool_schema ${top}`, async (s) => {
      const r = await callTool(s, 'get_tool_schema', { name: top });
      const def = extractToolDefinition(asResponse(r));
      check(def, 'the result holds no tool definition');
      s.block(formatToolDefinition(def, width - 8));
    });
    const readTool = top.endsWith('read_text_file') || top.endsWith('read_file') ? top : 'read_text_file';
    await report.step('g4', `execute_tool ${readTool} notes/welcome.txt`, async (s) => {
      const path = join(opts.sampleDir, 'notes', 'welcome.txt');
      const r = await callTool(s, 'execute_tool', { name: readTool, arguments: { path } });
      s.block(text(r));
      check(renderContent(r.content).trim(), 'the result holds no text');
    });
  } finally {
    if (connected) {
      await report.step('g5', 'end the session', async (s) => {
        s.call(`DELETE ${url}  (Mcp-Session-Id ${sessionId ?? '?'}): closes the surface`);
        await s.timed(() => transport.terminateSession());
        await client.close();
        // the endpoint forgets the session: a request that names it is answered 404
        s.call('tools/list with the old Mcp-Session-Id');
        const res = await s.timed(() =>
          fetch(url, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
              'Mcp-Session-Id': sessionId ?? '',
              'Mcp-Protocol-Version': transport.protocolVersion ?? '2025-11-25',
              ...headers,
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          }),
        );
        await res.body?.cancel();
        s.kv('status', `${res.status} (the session is gone)`);
        check(res.status === 404, `expected 404 for the ended session, got ${res.status}`);
      });
    } else await client.close().catch(() => undefined);
  }
}
