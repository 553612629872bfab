import { describe, expect, it } from 'vitest';
import {
  acceptsEventStream,
  afterChange,
  afterList,
  isLoopback,
  isStale,
  loopbackRequestAllowed,
  mcpPathOf,
  negotiatedProtocolVersion,
  newSessionId,
  principalOfPath,
  REASON_META_KEY,
  SESSION_ID_PATTERN,
  sessionsAffected,
  sseEvent,
  toCallToolResult,
  TOOLS_LIST_CHANGED,
  toMcpTool,
} from './mcp';
import type { CallResult } from './ports';

const result = (r: Partial<CallResult>): CallResult => ({
  contentJson: '[]',
  structuredContentJson: '',
  isError: false,
  reason: '',
  message: '',
  toolName: 't',
  via: 'direct',
  unified: undefined,
  durationMs: 0,
  ...r,
});

describe('MCP endpoint: routes', () => {
  it('has one URL per principal and nothing else', () => {
    expect(principalOfPath('/mcp/agent/researcher')).toEqual({ kind: 'agent', id: 'researcher' });
    expect(principalOfPath('/mcp/gateway/ci-1/')).toEqual({ kind: 'gateway', id: 'ci-1' });
    expect(mcpPathOf({ kind: 'gateway', id: 'ci-1' })).toBe('/mcp/gateway/ci-1');
    for (const p of ['/mcp/robot/x', '/mcp/agent/', '/mcp/agent/a/b', '/mcp/agent/a%20b', '/agent/x', '/mcp/agent/' + 'x'.repeat(129)]) {
      expect(principalOfPath(p), p).toBeUndefined();
    }
  });
});

describe('MCP endpoint: DNS rebinding protection on loopback', () => {
  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '10.0.0.1', '::', 'example.com', '127.0.0.1.example.com']) expect(isLoopback(h), h).toBe(false);
  });

  it('takes loopback Host and Origin headers only, on any port', () => {
    expect(loopbackRequestAllowed('127.0.0.1:3100', undefined)).toBe(true);
    expect(loopbackRequestAllowed('localhost:9', 'http://localhost:5173')).toBe(true);
    expect(loopbackRequestAllowed('[::1]:3100', 'https://[::1]')).toBe(true);
    expect(loopbackRequestAllowed('evil.example:3100', undefined)).toBe(false);
    expect(loopbackRequestAllowed(undefined, undefined)).toBe(false);
    expect(loopbackRequestAllowed('127.0.0.1:3100', 'http://evil.example')).toBe(false);
    expect(loopbackRequestAllowed('127.0.0.1:3100', 'null')).toBe(false);
    expect(loopbackRequestAllowed('127.0.0.1:3100', 'file://localhost')).toBe(false);
  });
});

describe('MCP endpoint: sessions', () => {
  it('makes unguessable, visible-ASCII session IDs', () => {
    const a = newSessionId();
    expect(a).toMatch(SESSION_ID_PATTERN);
    expect(newSessionId()).not.toBe(a);
  });

  it('negotiates the protocol version as the SDK does', () => {
    expect(negotiatedProtocolVersion('2025-06-18')).toBe('2025-06-18');
    expect(negotiatedProtocolVersion('2025-11-25')).toBe('2025-11-25');
    expect(negotiatedProtocolVersion('1999-01-01')).toBe('2025-11-25');
    expect(negotiatedProtocolVersion(undefined)).toBe('2025-11-25');
  });
});

describe('MCP endpoint: tools and results', () => {
  it("maps a presented tool onto MCP's Tool", () => {
    expect(
      toMcpTool({
        name: 'read',
        title: 'Read',
        description: 'reads',
        inputSchemaJson: '{"type":"object","properties":{"path":{"type":"string"}}}',
        outputSchemaJson: '{"type":"object"}',
        annotationsJson: '{"readOnlyHint":true}',
      }),
    ).toEqual({
      name: 'read',
      title: 'Read',
      description: 'reads',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    });
    // MCP needs object schemas: anything else is replaced (input) or left out (output).
    expect(
      toMcpTool({
        name: 'x',
        title: '',
        description: '',
        inputSchemaJson: '{"type":"array"}',
        outputSchemaJson: 'nope',
        annotationsJson: '',
      }),
    ).toEqual({ name: 'x', inputSchema: { type: 'object' } });
  });

  it('passes a success through with its structured content', () => {
    expect(toCallToolResult(result({ contentJson: '[{"type":"text","text":"3"}]', structuredContentJson: '{"sum":3}' }))).toEqual({
      content: [{ type: 'text', text: '3' }],
      structuredContent: { sum: 3 },
      isError: false,
    });
  });

  it('gives a refusal the reason code and the sentence', () => {
    const r = toCallToolResult(
      result({
        isError: true,
        reason: 'PERMISSION_DENIED',
        message: 'admission refused read; do not retry',
        contentJson: '[{"type":"text","text":"admission refused read; do not retry"}]',
      }),
    );
    expect(r).toEqual({
      content: [{ type: 'text', text: 'PERMISSION_DENIED: admission refused read; do not retry' }],
      isError: true,
      _meta: { [REASON_META_KEY]: 'PERMISSION_DENIED' },
    });
  });

  it("keeps a tool's own error content", () => {
    const r = toCallToolResult(
      result({ isError: true, reason: 'TOOL_ERROR', message: 'the tool failed', contentJson: '[{"type":"text","text":"ENOENT"}]' }),
    );
    expect(r.content).toEqual([{ type: 'text', text: 'ENOENT' }]);
    expect(r._meta).toEqual({ [REASON_META_KEY]: 'TOOL_ERROR' });
  });
});

describe('list_changed notifications', () => {
  const p = (id: string) => ({ kind: 'agent' as const, id });
  const sessions = [
    { sessionId: 's1', principal: p('a') },
    { sessionId: 's2', principal: p('b') },
    { sessionId: 's3', principal: p('a') },
    { sessionId: 's4', principal: { kind: 'gateway' as const, id: 'a' } },
  ];

  it('a presentation change affects the sessions of its principal only', () => {
    expect(sessionsAffected({ principal: p('a') }, sessions, () => [])).toEqual(['s1', 's3']);
    expect(sessionsAffected({ principal: p('z') }, sessions, () => [])).toEqual([]);
  });

  it('a catalog change affects the sessions of the principals bound to the capability, reading each binding once', () => {
    const reads: string[] = [];
    const bound = (x: { kind: string; id: string }) => {
      reads.push(`${x.kind}:${x.id}`);
      return x.id === 'b' || x.kind === 'gateway' ? ['memory'] : ['filesystem'];
    };
    expect(sessionsAffected({ capability: 'memory' }, sessions, bound)).toEqual(['s2', 's4']);
    expect(reads).toEqual(['agent:a', 'agent:b', 'gateway:a']);
  });

  it('counts changes: a change makes a session stale, a list clears it unless a change came meanwhile', () => {
    expect(isStale({})).toBe(false);
    const changed = afterChange({});
    expect(changed).toEqual({ changes: 1, listedChanges: 0 });
    expect(isStale(changed)).toBe(true);
    expect(isStale(afterList(changed, 1, false))).toBe(false);
    expect(isStale(afterList(afterChange(changed), 1, false))).toBe(true);
    // an expired surface reopened: counted (streams are notified), not stale
    expect(afterList({ changes: 1, listedChanges: 1 }, 1, true)).toEqual({ changes: 2, listedChanges: 2 });
  });

  it('takes a GET stream only when Accept names text/event-stream', () => {
    expect(acceptsEventStream('text/event-stream')).toBe(true);
    expect(acceptsEventStream('application/json, Text/Event-Stream;q=0.9')).toBe(true);
    expect(acceptsEventStream('application/json')).toBe(false);
    expect(acceptsEventStream(undefined)).toBe(false);
  });

  it('writes a notification as one SSE message event', () => {
    expect(sseEvent(TOOLS_LIST_CHANGED)).toBe('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n');
  });
});
