import { Command, CommanderError } from 'commander';
import { DISCOVER_LIMIT_DEFAULT, DISCOVER_LIMIT_MAX, type Autonomy, type PresentationMode, type PrincipalRef } from '@toolsurface/core';
import {
  AUTONOMY_NAMES,
  clientTls,
  DEFAULT_MCP_BASE_URL,
  mcpEndpointUrl,
  MODE_NAMES,
  parsePrincipal,
  UsageError,
  type ClientTls,
} from '@toolsurface/client';

/** Options that apply to every command. */
export interface GlobalOptions {
  /** surface-resolver host:port. */
  resolver: string;
  /** dispatch host:port. */
  dispatch: string;
  /** Print one JSON document instead of the readable form. */
  json: boolean;
  /** Deadline of each call, ms. */
  timeoutMs: number;
  /** Bearer token of the orchestrator (env TOOLSURFACE_TOKEN), where the gateway requires one. */
  token?: string;
  /** TLS: CA bundle to verify the gateway, and a client certificate and key for mutual TLS. */
  tls?: ClientTls;
}

/** One command, parsed and validated, ready to run. */
export type CliCommand =
  | { name: 'open'; principal: PrincipalRef; ttlSeconds: number }
  | { name: 'surface'; surfaceId: string }
  | { name: 'close'; surfaceId: string }
  | { name: 'discover'; surfaceId: string; query: string; limit?: number }
  | { name: 'schema'; surfaceId: string; tool: string }
  | { name: 'call'; surfaceId: string; tool: string; arguments: Record<string, unknown>; callId: string }
  | { name: 'mode-get'; principal: PrincipalRef }
  | {
      name: 'mode-set';
      principal: PrincipalRef;
      mode: PresentationMode;
      autonomy?: Autonomy;
      /** Compare-and-set: change only if these are still stored (else PRESENTATION_CHANGED). */
      expected?: { mode?: PresentationMode; autonomy?: Autonomy };
    }
  | { name: 'bindings-get'; principal: PrincipalRef }
  | { name: 'bindings-set'; principal: PrincipalRef; capabilities: string[] }
  | { name: 'principals'; kind?: PrincipalRef['kind'] }
  | { name: 'mcp'; principal: PrincipalRef; url: URL; key?: string };

/** A parsed command line. */
export interface ParsedCommandLine {
  globals: GlobalOptions;
  command: CliCommand;
}

/** The outcome of parsing: a command to run, or an exit code when help, the version or a usage error was printed. */
export type ParseOutcome = { ok: true; line: ParsedCommandLine } | { ok: false; exitCode: number };

/** Where the CLI writes. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

/** Default surface-resolver address: env TOOLSURFACE_RESOLVER, else the service's default port. */
export const DEFAULT_RESOLVER = '127.0.0.1:50051';
/** Default dispatch address: env TOOLSURFACE_DISPATCH, else the service's default port. */
export const DEFAULT_DISPATCH = '127.0.0.1:50053';

/** Parses a JSON object argument; throws UsageError for anything else. */
export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${what} is not valid JSON (${(e as Error).message}); quote it, e.g. '{"path":"/tmp/x"}'`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`${what} must be a JSON object, e.g. '{"message":"hi"}'`);
  return value as Record<string, unknown>;
}

/** Parses a whole number in [min, max]; throws UsageError naming the option otherwise. */
export function parseIntegerOption(text: string, what: string, min: number, max: number): number {
  // Digits only: no sign, no decimals, no exponent.
  if (!/^\d+$/.test(text)) throw new UsageError(`${what} must be a whole number from ${min} to ${max}, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new UsageError(`${what} must be from ${min} to ${max}, got ${n}`);
  return n;
}

/** Checks a host:port address; throws UsageError otherwise. */
export function parseAddress(text: string, what: string): string {
  // host (name, IPv4 or [IPv6]) then ":" and a port of 1-5 digits.
  if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(text)) throw new UsageError(`${what} must be host:port, got "${text}"`);
  return text;
}

/** The surface ID argument; throws UsageError when it is empty. */
function surfaceIdArg(text: string): string {
  if (text.trim() === '') throw new UsageError('the surface ID is empty: use the ID `toolsurface open` printed');
  return text;
}

/**
 * Builds the commander program. Each action only records its parsed command in `sink`, so that
 * parsing (unit-tested) is kept apart from running it against the gateway.
 */
export function buildProgram(io: CliOutput, env: NodeJS.ProcessEnv, sink: (c: CliCommand) => void): Command {
  const program = new Command('toolsurface')
    .description('Talk to a running Toolsurface gateway: open surfaces, find and call tools, set modes and bindings.')
    .version('0.1.0')
    .option('--resolver <addr>', 'surface-resolver host:port (env TOOLSURFACE_RESOLVER)', env.TOOLSURFACE_RESOLVER || DEFAULT_RESOLVER)
    .option(
      '--token <token>',
      'bearer token of the orchestrator, where the gateway requires one (env TOOLSURFACE_TOKEN)',
      env.TOOLSURFACE_TOKEN || undefined,
    )
    .option(
      '--tls-ca <file>',
      'call over TLS, verifying the gateway against this CA bundle (PEM; env TOOLSURFACE_TLS_CA)',
      env.TOOLSURFACE_TLS_CA || undefined,
    )
    .option('--tls-cert <file>', 'client certificate for mutual TLS (PEM; env TOOLSURFACE_TLS_CERT)', env.TOOLSURFACE_TLS_CERT || undefined)
    .option('--tls-key <file>', 'key of the client certificate (PEM; env TOOLSURFACE_TLS_KEY)', env.TOOLSURFACE_TLS_KEY || undefined)
    .option('--dispatch <addr>', 'dispatch host:port (env TOOLSURFACE_DISPATCH)', env.TOOLSURFACE_DISPATCH || DEFAULT_DISPATCH)
    .option('--timeout <ms>', 'deadline of each call in ms', '10000')
    .option('--json', 'print one JSON document instead of the readable form', false)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  program
    .command('open')
    .description('open a surface for a principal and show what the model sees')
    .argument('<principal>', 'agent:ID or gateway:ID')
    .option('--ttl <seconds>', 'lifetime of the surface (default: the server default)')
    .action((principal: string, o: { ttl?: string }) =>
      sink({
        name: 'open',
        principal: parsePrincipal(principal),
        ttlSeconds: o.ttl ? parseIntegerOption(o.ttl, '--ttl', 1, 7 * 24 * 3600) : 0,
      }),
    );

  program
    .command('surface')
    .description('show an open surface again')
    .argument('<surface-id>')
    .action((id: string) => sink({ name: 'surface', surfaceId: surfaceIdArg(id) }));

  program
    .command('discover')
    .description("search the surface's tools (discover_tools)")
    .argument('<surface-id>')
    .argument('<query...>', 'what you want to do')
    .option('--limit <n>', `how many hits (1-${DISCOVER_LIMIT_MAX}; the service's default ${DISCOVER_LIMIT_DEFAULT})`)
    .action((id: string, query: string[], o: { limit?: string }) =>
      sink({
        name: 'discover',
        surfaceId: surfaceIdArg(id),
        query: query.join(' '),
        ...(o.limit ? { limit: parseIntegerOption(o.limit, '--limit', 1, DISCOVER_LIMIT_MAX) } : {}),
      }),
    );

  program
    .command('schema')
    .description("show one tool's definition (get_tool_schema, or the surface itself in direct mode)")
    .argument('<surface-id>')
    .argument('<tool>')
    .action((id: string, tool: string) => sink({ name: 'schema', surfaceId: surfaceIdArg(id), tool }));

  program
    .command('call')
    .description('call any presented tool by name, meta-tools included')
    .argument('<surface-id>')
    .argument('<tool>')
    .argument('[json-arguments]', 'the arguments as a JSON object', '{}')
    .option('--request <text>', 'unified_tool: what you want done')
    .option('--context <json-or-text>', 'unified_tool: extra values (JSON object) or text')
    .option('--preferred <tools>', 'unified_tool: tool names to prefer, comma-separated (preferred_tools)')
    .option('--call-id <id>', 'the tool-call ID for the audit trail')
    .action((id: string, tool: string, json: string, o: { request?: string; context?: string; preferred?: string; callId?: string }) => {
      const args = parseJsonObject(json, 'json-arguments');
      if ((o.request !== undefined || o.context !== undefined || o.preferred !== undefined) && tool !== 'unified_tool') {
        throw new UsageError('--request, --context and --preferred are for unified_tool; put other arguments in json-arguments');
      }
      if (o.request !== undefined) args.request = o.request;
      if (o.context !== undefined) args.context = isJsonObjectText(o.context) ? JSON.parse(o.context) : o.context;
      if (o.preferred !== undefined) {
        const names = o.preferred
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n !== '');
        if (names.length === 0) throw new UsageError('--preferred needs at least one tool name');
        args.preferred_tools = names;
      }
      sink({ name: 'call', surfaceId: surfaceIdArg(id), tool, arguments: args, callId: o.callId ?? '' });
    });

  const mode = program.command('mode').description("get or set a principal's presentation mode");
  mode
    .command('get')
    .argument('<principal>', 'agent:ID or gateway:ID')
    .action((principal: string) => sink({ name: 'mode-get', principal: parsePrincipal(principal) }));
  mode
    .command('set')
    .argument('<principal>', 'agent:ID or gateway:ID')
    .argument('<mode>', MODE_NAMES.join(' | '))
    .option('--autonomy <autonomy>', `${AUTONOMY_NAMES.join(' | ')} (gateways only)`)
    .option('--expect-mode <mode>', 'change only if this is still the stored mode (else exit 1, PRESENTATION_CHANGED)')
    .option('--expect-autonomy <autonomy>', 'change only if this is still the stored autonomy')
    .action((principal: string, m: string, o: { autonomy?: string; expectMode?: string; expectAutonomy?: string }) => {
      const p = parsePrincipal(principal);
      const oneOf = (value: string | undefined, names: readonly string[], what: string) => {
        if (value !== undefined && !names.includes(value)) throw new UsageError(`${what} "${value}" is not one of ${names.join(', ')}`);
      };
      oneOf(m, MODE_NAMES, 'mode');
      oneOf(o.autonomy, AUTONOMY_NAMES, '--autonomy');
      oneOf(o.expectMode, MODE_NAMES, '--expect-mode');
      oneOf(o.expectAutonomy, AUTONOMY_NAMES, '--expect-autonomy');
      if (o.autonomy === 'supervised' && p.kind !== 'gateway') throw new UsageError('only gateways can be supervised');
      const expected = {
        ...(o.expectMode ? { mode: o.expectMode as PresentationMode } : {}),
        ...(o.expectAutonomy ? { autonomy: o.expectAutonomy as Autonomy } : {}),
      };
      sink({
        name: 'mode-set',
        principal: p,
        mode: m as PresentationMode,
        ...(o.autonomy ? { autonomy: o.autonomy as Autonomy } : {}),
        ...(o.expectMode || o.expectAutonomy ? { expected } : {}),
      });
    });

  const bindings = program.command('bindings').description('get or set the capabilities bound to a principal');
  bindings
    .command('get')
    .argument('<principal>', 'agent:ID or gateway:ID')
    .action((principal: string) => sink({ name: 'bindings-get', principal: parsePrincipal(principal) }));
  bindings
    .command('set')
    .argument('<principal>', 'agent:ID or gateway:ID')
    .argument('[capabilities...]', 'capability names (none: give --none)')
    .option('--none', 'unbind every capability')
    .action((principal: string, caps: string[], o: { none?: boolean }) => {
      const p = parsePrincipal(principal);
      if (caps.length === 0 && !o.none) throw new UsageError('give the capabilities to bind, or --none to unbind them all');
      if (caps.length > 0 && o.none) throw new UsageError('--none cannot be combined with capability names');
      sink({ name: 'bindings-set', principal: p, capabilities: [...new Set(caps)] });
    });

  program
    .command('principals')
    .description('list principals: configured mode, the mode each resolves to now, bound tools, autonomy, bindings')
    .option('--kind <kind>', 'agent | gateway (default: both)')
    .action((o: { kind?: string }) => {
      if (o.kind !== undefined && o.kind !== 'agent' && o.kind !== 'gateway')
        throw new UsageError(`--kind "${o.kind}" is not one of agent, gateway`);
      sink({ name: 'principals', ...(o.kind ? { kind: o.kind } : {}) });
    });

  program
    .command('close')
    .description('close a surface')
    .argument('<surface-id>')
    .action((id: string) => sink({ name: 'close', surfaceId: surfaceIdArg(id) }));

  program
    .command('mcp')
    .description("serve a principal's MCP endpoint on stdin/stdout, for MCP clients that launch local servers")
    .requiredOption('--principal <principal>', 'agent:ID or gateway:ID')
    .option(
      '--url <url>',
      `base URL of the MCP endpoint; the principal's path /mcp/<kind>/<id> is appended (env TOOLSURFACE_MCP_URL)`,
      env.TOOLSURFACE_MCP_URL || DEFAULT_MCP_BASE_URL,
    )
    .option(
      '--key <key>',
      'API key of the principal, sent as Authorization: Bearer (env TOOLSURFACE_MCP_KEY)',
      env.TOOLSURFACE_MCP_KEY || undefined,
    )
    .action((o: { principal: string; url: string; key?: string }) => {
      const principal = parsePrincipal(o.principal);
      sink({ name: 'mcp', principal, url: mcpEndpointUrl(o.url, principal), ...(o.key ? { key: o.key } : {}) });
    });

  for (const c of [program, ...allSubcommands(program)]) {
    c.exitOverride().configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  }
  return program;
}

/** Every command below `c`, depth first. */
function allSubcommands(c: Command): Command[] {
  return c.commands.flatMap((s) => [s, ...allSubcommands(s)]);
}

/** True when `text` is a JSON object. */
function isJsonObjectText(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

/**
 * Parses argv (without node and script) into globals and one command. Usage errors, help and
 * --version are printed to `io` and come back as an exit code: 0 for help and version, 2 for a usage error.
 */
export function parseCommandLine(argv: string[], io: CliOutput, env: NodeJS.ProcessEnv = process.env): ParseOutcome {
  let command: CliCommand | undefined;
  const program = buildProgram(io, env, (c) => (command = c));
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`error: ${e.message}\n`);
      return { ok: false, exitCode: 2 };
    }
    if (e instanceof CommanderError) return { ok: false, exitCode: e.exitCode === 0 ? 0 : 2 };
    throw e;
  }
  if (!command) {
    io.err(program.helpInformation());
    return { ok: false, exitCode: 2 };
  }
  const o = program.opts<{
    resolver: string;
    dispatch: string;
    json: boolean;
    timeout: string;
    token?: string;
    tlsCa?: string;
    tlsCert?: string;
    tlsKey?: string;
  }>();
  try {
    const globals: GlobalOptions = {
      resolver: parseAddress(o.resolver, '--resolver'),
      dispatch: parseAddress(o.dispatch, '--dispatch'),
      json: o.json === true,
      timeoutMs: parseIntegerOption(String(o.timeout), '--timeout', 1, 3_600_000),
      ...(o.token ? { token: o.token } : {}),
      ...(o.tlsCa || o.tlsCert || o.tlsKey ? { tls: clientTls(o.tlsCa, o.tlsCert, o.tlsKey) } : {}),
    };
    return { ok: true, line: { globals, command } };
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`error: ${e.message}\n`);
      return { ok: false, exitCode: 2 };
    }
    throw e;
  }
}
