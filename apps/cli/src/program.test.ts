import { describe, expect, it } from 'vitest';
import { parseCommandLine, type ParseOutcome } from './program';

/** Parses argv with an empty environment; returns the outcome and what was printed. */
function parse(argv: string[], env: NodeJS.ProcessEnv = {}): { outcome: ParseOutcome; out: string; err: string } {
  let out = '';
  let err = '';
  const outcome = parseCommandLine(argv, { out: (s) => (out += s), err: (s) => (err += s) }, env);
  return { outcome, out, err };
}

/** The parsed command line; fails the test on anything else. */
function line(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const { outcome, err } = parse(argv, env);
  if (!outcome.ok) throw new Error(`expected a command, got exit ${outcome.exitCode}: ${err}`);
  return outcome.line;
}

/** The exit code and stderr of a command line that must not parse. */
function usage(argv: string[]) {
  const { outcome, err } = parse(argv);
  if (outcome.ok) throw new Error(`expected a usage error for ${argv.join(' ')}`);
  return { exitCode: outcome.exitCode, err };
}

describe('global options', () => {
  it("default to the services' ports, readable output and a 10 s deadline", () => {
    expect(line(['open', 'agent:a']).globals).toEqual({
      resolver: '127.0.0.1:50051',
      dispatch: '127.0.0.1:50053',
      json: false,
      timeoutMs: 10_000,
    });
  });

  it('take TOOLSURFACE_RESOLVER and TOOLSURFACE_DISPATCH from the environment; flags win', () => {
    const env = { TOOLSURFACE_RESOLVER: 'gw:7001', TOOLSURFACE_DISPATCH: 'gw:7003' };
    expect(line(['open', 'agent:a'], env).globals).toMatchObject({ resolver: 'gw:7001', dispatch: 'gw:7003' });
    expect(line(['--resolver', '10.0.0.1:1', 'open', 'agent:a'], env).globals.resolver).toBe('10.0.0.1:1');
  });

  it('take TLS files from flags or TOOLSURFACE_TLS_*, and refuse a client certificate without a CA or without its key', () => {
    expect(line(['--tls-ca', 'ca.pem', 'open', 'agent:a']).globals.tls).toEqual({ caFile: 'ca.pem' });
    const env = { TOOLSURFACE_TLS_CA: 'ca.pem', TOOLSURFACE_TLS_CERT: 'me.pem', TOOLSURFACE_TLS_KEY: 'me.key' };
    expect(line(['open', 'agent:a'], env).globals.tls).toEqual({ caFile: 'ca.pem', certFile: 'me.pem', keyFile: 'me.key' });
    expect(usage(['--tls-cert', 'me.pem', '--tls-key', 'me.key', 'open', 'agent:a'])).toEqual({
      exitCode: 2,
      err: expect.stringContaining('need --tls-ca'),
    });
    expect(usage(['--tls-ca', 'ca.pem', '--tls-cert', 'me.pem', 'open', 'agent:a'])).toEqual({
      exitCode: 2,
      err: expect.stringContaining('go together'),
    });
  });

  it('are accepted before or after the command, nested commands included', () => {
    expect(line(['--json', 'mode', 'get', 'agent:a']).globals.json).toBe(true);
    expect(line(['mode', 'get', 'agent:a', '--json', '--dispatch', '[::1]:50053']).globals).toMatchObject({
      json: true,
      dispatch: '[::1]:50053',
    });
  });

  it('refuse an address that is not host:port, and a bad timeout', () => {
    expect(usage(['--resolver', 'localhost', 'open', 'agent:a'])).toEqual({
      exitCode: 2,
      err: 'error: --resolver must be host:port, got "localhost"\n',
    });
    expect(usage(['--timeout', '1.5', 'open', 'agent:a']).err).toContain('--timeout must be a whole number');
  });
});

describe('commands', () => {
  it('open <principal> [--ttl]', () => {
    expect(line(['open', 'gateway:partner-portal']).command).toEqual({
      name: 'open',
      principal: { kind: 'gateway', id: 'partner-portal' },
      ttlSeconds: 0,
    });
    expect(line(['open', 'agent:a', '--ttl', '60']).command).toMatchObject({ ttlSeconds: 60 });
  });

  it('discover joins the query words and validates --limit', () => {
    expect(line(['discover', 'srf_1', 'read', 'a', 'text', 'file', '--limit', '3']).command).toEqual({
      name: 'discover',
      surfaceId: 'srf_1',
      query: 'read a text file',
      limit: 3,
    });
    expect(line(['discover', 'srf_1', 'echo']).command).not.toHaveProperty('limit');
    expect(usage(['discover', 'srf_1', 'x', '--limit', '51']).err).toBe('error: --limit must be from 1 to 50, got 51\n');
    expect(usage(['discover', 'srf_1', 'x', '--limit', 'ten']).err).toContain('--limit must be a whole number from 1 to 50, got "ten"');
    expect(usage(['discover', 'srf_1']).err).toContain("missing required argument 'query'");
  });

  it('schema <surface-id> <tool>', () => {
    expect(line(['schema', 'srf_1', 'read_text_file']).command).toEqual({ name: 'schema', surfaceId: 'srf_1', tool: 'read_text_file' });
  });

  it('call takes a JSON object of arguments, {} when omitted', () => {
    expect(line(['call', 'srf_1', 'execute_tool', '{"name":"echo","arguments":{"message":"hi"}}']).command).toEqual({
      name: 'call',
      surfaceId: 'srf_1',
      tool: 'execute_tool',
      arguments: { name: 'echo', arguments: { message: 'hi' } },
      callId: '',
    });
    expect(line(['call', 'srf_1', 'read_graph']).command).toMatchObject({ arguments: {} });
    expect(line(['call', 'srf_1', 'echo', '{}', '--call-id', 'c-1']).command).toMatchObject({ callId: 'c-1' });
  });

  it('call refuses arguments that are not a JSON object', () => {
    expect(usage(['call', 'srf_1', 'echo', '{message: hi}']).err).toMatch(/^error: json-arguments is not valid JSON \(.*\); quote it/);
    expect(usage(['call', 'srf_1', 'echo', '[1,2]']).err).toContain('json-arguments must be a JSON object');
    expect(usage(['call', 'srf_1', 'echo', 'null']).exitCode).toBe(2);
  });

  it("call unified_tool --request/--context fill the meta-tool's arguments", () => {
    expect(line(['call', 'srf_1', 'unified_tool', '--request', 'add 17 and 25']).command).toMatchObject({
      arguments: { request: 'add 17 and 25' },
    });
    expect(line(['call', 'srf_1', 'unified_tool', '--request', 'add', '--context', '{"a":1}']).command).toMatchObject({
      arguments: { request: 'add', context: { a: 1 } },
    });
    expect(line(['call', 'srf_1', 'unified_tool', '--request', 'add', '--context', 'two numbers']).command).toMatchObject({
      arguments: { context: 'two numbers' },
    });
    expect(usage(['call', 'srf_1', 'echo', '--request', 'x']).err).toBe(
      'error: --request, --context and --preferred are for unified_tool; put other arguments in json-arguments\n',
    );
    expect(
      line(['call', 'srf_1', 'unified_tool', '--request', 'read notes/welcome.txt', '--preferred', 'read_text_file, read_media_file'])
        .command,
    ).toMatchObject({
      arguments: { request: 'read notes/welcome.txt', preferred_tools: ['read_text_file', 'read_media_file'] },
    });
    expect(usage(['call', 'srf_1', 'unified_tool', '--request', 'x', '--preferred', ' , ']).err).toBe(
      'error: --preferred needs at least one tool name\n',
    );
  });

  it('mode get|set validate the mode, the autonomy and who may be supervised', () => {
    expect(line(['mode', 'get', 'agent:a']).command).toEqual({ name: 'mode-get', principal: { kind: 'agent', id: 'a' } });
    expect(line(['mode', 'set', 'gateway:g', 'unified', '--autonomy', 'supervised']).command).toEqual({
      name: 'mode-set',
      principal: { kind: 'gateway', id: 'g' },
      mode: 'unified',
      autonomy: 'supervised',
    });
    expect(line(['mode', 'set', 'agent:a', 'adaptive']).command).not.toHaveProperty('autonomy');
    expect(
      line(['mode', 'set', 'gateway:g', 'direct', '--expect-mode', 'unified', '--expect-autonomy', 'supervised']).command,
    ).toMatchObject({
      expected: { mode: 'unified', autonomy: 'supervised' },
    });
    expect(line(['mode', 'set', 'agent:a', 'adaptive']).command).not.toHaveProperty('expected');
    expect(usage(['mode', 'set', 'agent:a', 'direct', '--expect-mode', 'fast']).err).toBe(
      'error: --expect-mode "fast" is not one of direct, discovery, unified, adaptive\n',
    );
    expect(usage(['mode', 'set', 'agent:a', 'fast']).err).toBe('error: mode "fast" is not one of direct, discovery, unified, adaptive\n');
    expect(usage(['mode', 'set', 'gateway:g', 'direct', '--autonomy', 'manual']).err).toContain(
      '--autonomy "manual" is not one of autonomous, supervised',
    );
    expect(usage(['mode', 'set', 'agent:a', 'unified', '--autonomy', 'supervised']).err).toBe('error: only gateways can be supervised\n');
  });

  it('principals [--kind agent|gateway]', () => {
    expect(line(['principals']).command).toEqual({ name: 'principals' });
    expect(line(['principals', '--kind', 'gateway']).command).toEqual({ name: 'principals', kind: 'gateway' });
    expect(usage(['principals', '--kind', 'robot']).err).toBe('error: --kind "robot" is not one of agent, gateway\n');
  });

  it('bindings get|set; set needs capabilities or --none, duplicates dropped', () => {
    expect(line(['bindings', 'get', 'agent:a']).command).toEqual({ name: 'bindings-get', principal: { kind: 'agent', id: 'a' } });
    expect(line(['bindings', 'set', 'agent:a', 'memory', 'filesystem', 'memory']).command).toEqual({
      name: 'bindings-set',
      principal: { kind: 'agent', id: 'a' },
      capabilities: ['memory', 'filesystem'],
    });
    expect(line(['bindings', 'set', 'agent:a', '--none']).command).toMatchObject({ capabilities: [] });
    expect(usage(['bindings', 'set', 'agent:a']).err).toBe('error: give the capabilities to bind, or --none to unbind them all\n');
    expect(usage(['bindings', 'set', 'agent:a', 'memory', '--none']).exitCode).toBe(2);
  });

  it("mcp --principal [--url] [--key]: the principal's endpoint URL, the key from the flag or TOOLSURFACE_MCP_KEY", () => {
    expect(line(['mcp', '--principal', 'gateway:portal']).command).toEqual({
      name: 'mcp',
      principal: { kind: 'gateway', id: 'portal' },
      url: new URL('http://127.0.0.1:3100/mcp/gateway/portal'),
    });
    const env = { TOOLSURFACE_MCP_KEY: 'k-env', TOOLSURFACE_MCP_URL: 'https://gw.example/tools/' };
    expect(line(['mcp', '--principal', 'agent:a'], env).command).toMatchObject({
      url: new URL('https://gw.example/tools/mcp/agent/a'),
      key: 'k-env',
    });
    expect(line(['mcp', '--principal', 'agent:a', '--key', 'k-flag', '--url', 'http://h:1/mcp/agent/a'], env).command).toMatchObject({
      url: new URL('http://h:1/mcp/agent/a'),
      key: 'k-flag',
    });
    expect(usage(['mcp'])).toEqual({ exitCode: 2, err: expect.stringContaining("required option '--principal <principal>'") });
    expect(usage(['mcp', '--principal', 'a'])).toEqual({ exitCode: 2, err: expect.stringContaining('needs a kind') });
    expect(usage(['mcp', '--principal', 'agent:a', '--url', 'ftp://h'])).toEqual({ exitCode: 2, err: expect.stringContaining('http://') });
    expect(usage(['mcp', '--principal', 'agent:a', '--url', 'nope'])).toEqual({ exitCode: 2, err: expect.stringContaining('not a URL') });
    expect(usage(['mcp', '--principal', 'agent:a', '--url', 'http://h/mcp/agent/b'])).toEqual({
      exitCode: 2,
      err: expect.stringContaining('another principal'),
    });
  });

  it('close and surface take a surface ID', () => {
    expect(line(['close', 'srf_1']).command).toEqual({ name: 'close', surfaceId: 'srf_1' });
    expect(line(['surface', 'srf_1']).command).toEqual({ name: 'surface', surfaceId: 'srf_1' });
    expect(usage(['close', '']).err).toContain('the surface ID is empty');
  });
});

describe('usage errors, help and version', () => {
  it('print one error line and exit 2 for a bad principal', () => {
    expect(usage(['open', 'researcher'])).toEqual({
      exitCode: 2,
      err: 'error: principal "researcher" needs a kind: write agent:researcher or gateway:researcher\n',
    });
  });

  it("exit 2 for unknown commands, missing and excess arguments, with commander's message", () => {
    expect(usage(['nope'])).toMatchObject({ exitCode: 2 });
    expect(usage(['nope']).err).toContain("error: unknown command 'nope'");
    expect(usage(['open']).err).toContain("error: missing required argument 'principal'");
    expect(usage(['open', 'agent:a', 'agent:b']).err).toContain('too many arguments');
    expect(usage(['open', 'agent:a', '--bogus']).err).toContain("unknown option '--bogus'");
  });

  it('exit 2 with the help when no command is given', () => {
    const r = usage([]);
    expect(r.exitCode).toBe(2);
    expect(r.err).toContain('Usage: toolsurface');
  });

  it('exit 0 for --help and --version, printed on stdout', () => {
    const help = parse(['--help']);
    expect(help.outcome).toEqual({ ok: false, exitCode: 0 });
    expect(help.out).toContain('open [options] <principal>');
    const sub = parse(['call', '--help']);
    expect(sub.outcome).toEqual({ ok: false, exitCode: 0 });
    expect(sub.out).toContain('--request <text>');
    const version = parse(['--version']);
    expect(version).toMatchObject({ outcome: { ok: false, exitCode: 0 }, out: '0.1.0\n' });
  });
});
