import {
  Autonomy,
  PresentationMode,
  PrincipalKind,
  ResolvedMode,
  ToolKind,
  type CallToolResponse,
  type Surface,
  type Tool,
} from '@toolsurface/proto';
import { describe, expect, it } from 'vitest';
import {
  callResultToJson,
  extractHits,
  extractToolDefinition,
  formatCallResult,
  formatHits,
  formatPresentation,
  formatSurface,
  formatToolDefinition,
  oneLine,
  renderContent,
  surfaceToJson,
  table,
} from './format';

const tool = (name: string, kind: ToolKind, description: string, schema: object = { type: 'object' }): Tool => ({
  name,
  title: '',
  description,
  inputSchemaJson: JSON.stringify(schema),
  outputSchemaJson: '',
  annotationsJson: '',
  kind,
  capability: kind === ToolKind.TOOL_KIND_BOUND ? 'everything' : '',
  originalName: '',
});

const surface: Surface = {
  surfaceId: 'srf_1',
  principal: { kind: PrincipalKind.PRINCIPAL_KIND_AGENT, id: 'researcher' },
  configuredMode: PresentationMode.PRESENTATION_MODE_ADAPTIVE,
  resolvedMode: ResolvedMode.RESOLVED_MODE_DISCOVERY,
  snapshotId: 'snap_ab',
  tools: [
    tool('discover_tools', ToolKind.TOOL_KIND_META, 'Search the tools available to you by what you want to do.'),
    tool('journal_append', ToolKind.TOOL_KIND_SYSTEM, 'Write a note to your own journal,\nkept across sessions.'),
  ],
  openedAtMs: 1_000_000,
  expiresAtMs: 1_000_000 + 3_600_000,
  boundToolCount: 36,
  collisions: [],
  autonomy: Autonomy.AUTONOMY_AUTONOMOUS,
  presentedTokens: 485,
};

const response = (over: Partial<CallToolResponse>): CallToolResponse => ({
  contentJson: '[]',
  structuredContentJson: '',
  isError: false,
  reason: '',
  message: '',
  toolName: '',
  via: '',
  unified: undefined,
  durationMs: 0,
  ...over,
});

describe('text helpers', () => {
  it('oneLine flattens whitespace and cuts with an ellipsis', () => {
    expect(oneLine(' a\n  b\tc ')).toBe('a b c');
    expect(oneLine('abcdefghij', 5)).toBe('abcd…');
  });

  it('table aligns columns and cuts the last one to the width', () => {
    expect(
      table([
        ['a', 'long value'],
        ['bbb', 'x'],
      ]),
    ).toBe('a    long value\nbbb  x');
    expect(table([['k', 'v'.repeat(50)]], { width: 20, indent: 2 })).toBe(`  k  ${'v'.repeat(14)}…`);
  });
});

describe('formatSurface', () => {
  it('shows ids, configured → resolved mode, snapshot, tokens, expiry and each tool on one line', () => {
    expect(formatSurface(surface, 100, 1_000_000)).toBe(
      [
        'surface    srf_1',
        'principal  agent:researcher',
        'mode       adaptive → discovery',
        'snapshot   snap_ab (36 bound tools)',
        'tokens     485 for what the model sees',
        'expires    1970-01-01T01:16:40.000Z (in 60 min)',
        '',
        'what the model sees (2 tools)',
        '  discover_tools  meta    Search the tools available to you by what you want to do.',
        '  journal_append  system  Write a note to your own journal, kept across sessions.',
      ].join('\n'),
    );
  });

  it('says so when a gateway is supervised and lists collisions', () => {
    const s = {
      ...surface,
      resolvedMode: ResolvedMode.RESOLVED_MODE_UNIFIED,
      configuredMode: PresentationMode.PRESENTATION_MODE_UNIFIED,
      autonomy: Autonomy.AUTONOMY_SUPERVISED,
      collisions: [{ originalName: 'echo', presentedNames: ['a.echo', 'b.echo'], rule: 'capability prefix' }],
    };
    const text = formatSurface(s, 100, 1_000_000);
    expect(text).toContain('mode       unified\n');
    expect(text).toContain('autonomy   supervised: unified_tool proposes, it does not run');
    expect(text).toContain('collision  echo → a.echo, b.echo (capability prefix)');
  });

  it('as JSON uses enum names, ISO times and schema objects', () => {
    const json = surfaceToJson(surface);
    expect(json).toMatchObject({
      principal: 'agent:researcher',
      configuredMode: 'adaptive',
      resolvedMode: 'discovery',
      autonomy: 'autonomous',
    });
    expect((json.tools as Array<Record<string, unknown>>)[0]).toEqual({
      name: 'discover_tools',
      description: 'Search the tools available to you by what you want to do.',
      inputSchema: { type: 'object' },
      kind: 'meta',
    });
  });
});

describe('discover_tools results', () => {
  const hits = [
    { name: 'read_text_file', description: 'Read the complete contents of a file as text.', score: 7.5 },
    { name: 'edit_file', description: 'Make line-based edits to a text file.', score: 4.256 },
  ];

  it('are read from structuredContent, or from JSON in the first text block', () => {
    expect(extractHits(response({ structuredContentJson: JSON.stringify({ hits, total_tools: 36 }) }))).toEqual({ hits });
    expect(extractHits(response({ contentJson: JSON.stringify([{ type: 'text', text: JSON.stringify({ hits }) }]) }))).toEqual({ hits });
    expect(extractHits(response({ structuredContentJson: JSON.stringify({ hits: [], hint: 'try other words' }) }))).toEqual({
      hits: [],
      hint: 'try other words',
    });
  });

  it('print as a ranked table, or say nothing matched with the hint', () => {
    expect(formatHits(hits)).toBe(
      [
        '#  tool            score  description',
        '1  read_text_file  7.50   Read the complete contents of a file as text.',
        '2  edit_file       4.26   Make line-based edits to a text file.',
      ].join('\n'),
    );
    expect(formatHits([], 80, 'try other words')).toBe('no tools matched: try other words');
  });
});

describe('get_tool_schema results', () => {
  const def = {
    name: 'read_text_file',
    title: 'Read text file',
    description: 'Read the complete contents of a file as text.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        head: { type: 'number', description: 'First N lines' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['path'],
    },
  };

  it('are found at the top level or under `tool`', () => {
    expect(extractToolDefinition(response({ structuredContentJson: JSON.stringify(def) }))).toEqual(def);
    expect(extractToolDefinition(response({ structuredContentJson: JSON.stringify({ tool: def }) }))).toEqual(def);
    expect(extractToolDefinition(response({ contentJson: JSON.stringify([{ type: 'text', text: 'no json' }]) }))).toBeUndefined();
  });

  it('print name, title, description and one row per argument', () => {
    expect(formatToolDefinition(def, 80)).toBe(
      [
        'read_text_file  (Read text file)',
        '  Read the complete contents of a file as text.',
        '',
        'arguments',
        '  path  string    required',
        '  head  number              First N lines',
        '  tags  string[]',
      ].join('\n'),
    );
  });
});

describe('call results', () => {
  it('show the tool, how it arrived and the content', () => {
    const res = response({
      contentJson: JSON.stringify([{ type: 'text', text: 'Echo: hi' }]),
      toolName: 'echo',
      via: 'execute_tool',
      durationMs: 1.25,
    });
    expect(formatCallResult(res)).toBe('tool  echo  via execute_tool  1.3 ms in the tool\nresult\n  Echo: hi');
  });

  it('show a refusal with its reason and the sentence for the model', () => {
    const res = response({
      isError: true,
      reason: 'PERMISSION_DENIED',
      message: 'You are not permitted to call "read_text_file".',
      contentJson: JSON.stringify([{ type: 'text', text: 'You are not permitted to call "read_text_file".' }]),
      toolName: 'read_text_file',
      via: 'execute_tool',
    });
    expect(formatCallResult(res)).toBe(
      'tool     read_text_file  via execute_tool\nrefused  PERMISSION_DENIED: You are not permitted to call "read_text_file".',
    );
  });

  it('show what unified_tool picked, its confidence and the mapped arguments', () => {
    const res = response({
      contentJson: JSON.stringify([{ type: 'text', text: 'The sum of 17 and 25 is 42.' }]),
      toolName: 'get-sum',
      via: 'unified_tool',
      unified: {
        tool: 'get-sum',
        confidence: 0.91,
        argumentsJson: '{"a":17,"b":25}',
        candidates: [{ name: 'get-sum', confidence: 0.91, argumentsJson: '{"a":17,"b":25}', missingArguments: [] }],
        missingArguments: [],
        executed: true,
      },
    });
    expect(formatCallResult(res)).toBe(
      [
        'tool        get-sum  via unified_tool',
        'picked      get-sum  confidence 0.91  ran',
        'arguments   {"a":17,"b":25}',
        'candidates  get-sum 0.91',
        'result',
        '  The sum of 17 and 25 is 42.',
      ].join('\n'),
    );
    expect(callResultToJson(res)).toMatchObject({
      isError: false,
      toolName: 'get-sum',
      content: [{ type: 'text', text: 'The sum of 17 and 25 is 42.' }],
      unified: { tool: 'get-sum', confidence: 0.91, arguments: { a: 17, b: 25 }, executed: true },
    });
  });

  it('print a unified call that did not run without a "tool" line, and a confidence rounded down as the message writes it', () => {
    const res = response({
      isError: true,
      reason: 'LOW_CONFIDENCE',
      message: 'unified_tool did not run a tool: confidence 0.69, below 0.7.',
      toolName: 'get-sum',
      via: 'unified_tool',
      unified: {
        tool: 'get-sum',
        confidence: 0.6999,
        argumentsJson: '{"a":17,"b":25}',
        candidates: [{ name: 'get-sum', confidence: 0.6999, argumentsJson: '{"a":17,"b":25}', missingArguments: [] }],
        missingArguments: [],
        executed: false,
      },
    });
    const text = formatCallResult(res);
    expect(text).not.toMatch(/^tool /m);
    expect(text).toContain('picked      get-sum  confidence 0.69  did not run');
    expect(text).toContain('candidates  get-sum 0.69');
  });

  it('render non-text content as one bracketed line each', () => {
    expect(
      renderContent([
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'resource_link', uri: 'file:///x', name: 'x' },
        { type: 'resource', resource: { uri: 'test://1', text: 'hello' } },
      ]),
    ).toBe('[image image/png, 3 bytes]\n[link file:///x x]\n[resource test://1]\nhello');
  });
});

describe('presentation', () => {
  it('prints principal, mode and autonomy', () => {
    expect(
      formatPresentation({
        principal: { kind: PrincipalKind.PRINCIPAL_KIND_GATEWAY, id: 'partner-portal' },
        mode: PresentationMode.PRESENTATION_MODE_UNIFIED,
        autonomy: Autonomy.AUTONOMY_SUPERVISED,
      }),
    ).toBe('principal  gateway:partner-portal\nmode       unified\nautonomy   supervised');
  });
});
