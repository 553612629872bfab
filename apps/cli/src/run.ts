import type { Readable, Writable } from 'node:stream';
import { status } from '@grpc/grpc-js';
import { isAppError, ReasonCode, type AppError } from '@toolsurface/core';
import type { CallToolResponse } from '@toolsurface/proto';
import {
  callResultToJson,
  checkClientTls,
  extractHits,
  extractToolDefinition,
  formatBindings,
  formatCallResult,
  formatHits,
  formatPresentation,
  formatPrincipal,
  formatPrincipals,
  formatSurface,
  formatToolDefinition,
  GatewayClient,
  McpBridgeError,
  presentationToJson,
  principalSummaryToJson,
  resolvedModeName,
  runMcpBridge,
  surfaceToJson,
  toolToJson,
  UsageError,
} from '@toolsurface/client';
import { parseCommandLine, type CliOutput, type ParsedCommandLine } from './program';

/** The gateway calls the CLI makes (GatewayClient, or a stand-in in tests). */
export type GatewayApi = Pick<
  GatewayClient,
  | 'openSurface'
  | 'getSurface'
  | 'closeSurface'
  | 'getPresentation'
  | 'setPresentation'
  | 'getBindings'
  | 'setBindings'
  | 'listPrincipals'
  | 'callTool'
  | 'close'
>;

/** How `runCli` reaches the gateway and sizes its output. */
export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** Terminal width for the readable form (default 100). */
  width?: number;
  /** Makes the client for the parsed addresses (default: a GatewayClient). */
  connect?: (line: ParsedCommandLine) => GatewayApi;
  /** Where `toolsurface mcp` speaks MCP (default: the process's stdin and stdout). */
  stdio?: { stdin: Readable; stdout: Writable };
}

/**
 * Runs the `toolsurface` command line: parses `argv` (without node and script), calls the gateway,
 * prints the readable form or one JSON document to `io.out`, and resolves the exit code: 0 on
 * success, 1 when the gateway refused or failed (one `error: REASON: message` line on `io.err`, or a
 * tool result with is_error on `io.out`), 2 for a usage error.
 */
export async function runCli(argv: string[], io: CliOutput, opts: RunOptions = {}): Promise<number> {
  const parsed = parseCommandLine(argv, io, opts.env ?? process.env);
  if (!parsed.ok) return parsed.exitCode;
  const line = parsed.line;
  if (line.command.name === 'mcp') return runMcp(line, line.command, io, opts);
  if (line.globals.tls) {
    try {
      checkClientTls(line.globals.tls);
    } catch (e) {
      io.err(`error: ${(e as Error).message}\n`);
      return 2;
    }
  }
  const client = (opts.connect ?? defaultConnect)(line);
  try {
    return await runCommand(line, client, io, opts.width ?? 100);
  } catch (e) {
    io.err(`${errorLine(e, line)}\n`);
    return e instanceof UsageError ? 2 : 1;
  } finally {
    client.close();
  }
}

/**
 * `toolsurface mcp`: the stdio bridge to the principal's MCP endpoint. Only MCP goes to stdout;
 * diagnostics go to `io.err`. Resolves 0 when stdin ends or on SIGTERM or SIGINT (the session
 * closed), 1 when the endpoint cannot be reached or refuses the bridge.
 */
async function runMcp(
  line: ParsedCommandLine,
  c: Extract<ParsedCommandLine['command'], { name: 'mcp' }>,
  io: CliOutput,
  opts: RunOptions,
): Promise<number> {
  const tls = line.globals.tls;
  if (tls) {
    if (c.url.protocol !== 'https:')
      io.err(`toolsurface mcp: --tls-ca, --tls-cert and --tls-key apply to https:// URLs only, not ${c.url.href}\n`);
    try {
      checkClientTls(tls);
    } catch (e) {
      io.err(`error: ${(e as Error).message}\n`);
      return 2;
    }
  }
  // A client that stops its server with a signal rather than by closing stdin: end the session all the same.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    await runMcpBridge({
      url: c.url,
      ...(c.key ? { key: c.key } : {}),
      ...(tls ? { tls } : {}),
      timeoutMs: line.globals.timeoutMs,
      stdin: opts.stdio?.stdin ?? process.stdin,
      stdout: opts.stdio?.stdout ?? process.stdout,
      log: (text) => io.err(`${text}\n`),
      version: '0.1.0',
      stop: stop.signal,
    });
    return 0;
  } catch (e) {
    io.err(`${e instanceof McpBridgeError ? `error: ${e.message}` : errorLine(e)}\n`);
    return 1;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}

/** A GatewayClient for the parsed addresses and deadline. */
function defaultConnect(line: ParsedCommandLine): GatewayApi {
  return new GatewayClient(
    { resolver: line.globals.resolver, dispatch: line.globals.dispatch },
    { controlMs: line.globals.timeoutMs, callMs: Math.max(line.globals.timeoutMs, 60_000) },
    line.globals.token,
    line.globals.tls,
  );
}

/** The one line printed for a failure: `error: REASON: message`, with a hint when the gateway is not reachable. */
export function errorLine(e: unknown, line?: ParsedCommandLine): string {
  if (isAppError(e)) {
    const hint = e.code === ReasonCode.UNAVAILABLE && line ? unavailableHint(e, line) : '';
    // grpc-js ends connection errors with an empty "Resolution note:", and nests its "No connection
    // established. Last error:" once per load-balancing layer: neither says anything more.
    const message = e.message
      .replace(/\.?\s*Resolution note:\s*$/, '')
      .replace(/(No connection established\. Last error: )+/g, 'No connection established. Last error: ');
    return `error: ${e.code}: ${message}${hint}`;
  }
  return `error: ${e instanceof Error ? e.message : String(e)}`;
}

/**
 * Why the gateway may be unreachable: a deadline that passed (gRPC DEADLINE_EXCEEDED), a TLS
 * mismatch when the error says so, else a stack that is not running.
 */
function unavailableHint(e: AppError, line: ParsedCommandLine): string {
  const message = e.message;
  // (the client's own deadline: grpc-js says "Deadline exceeded after …"; a server's DEADLINE_EXCEEDED gets the other hints)
  const cause = e.cause as { code?: unknown; details?: unknown } | undefined;
  if (
    cause?.code === status.DEADLINE_EXCEEDED &&
    typeof cause.details === 'string' &&
    cause.details.startsWith('Deadline exceeded after')
  ) {
    return ` (no answer within --timeout ${line.globals.timeoutMs} ms: raise --timeout, or check that the stack at resolver ${line.globals.resolver}, dispatch ${line.globals.dispatch} is up)`;
  }
  if (/certificate required|alert number 116/i.test(message))
    return ' (the gateway wants a client certificate: pass --tls-cert and --tls-key)';
  if (/certificate|SSL|TLS|handshake/i.test(message))
    return " (a TLS problem: check --tls-ca, --tls-cert and --tls-key against the gateway's certificates)";
  const tlsHint = line.globals.tls ? '' : '; if the gateway speaks TLS, pass --tls-ca';
  return ` (is the stack running? resolver ${line.globals.resolver}, dispatch ${line.globals.dispatch}; start it with \`npm start\`${tlsHint})`;
}

/** Prints a value as one JSON document. */
function printJson(io: CliOutput, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** Prints a tool result and maps is_error to exit code 1. */
function printCall(io: CliOutput, json: boolean, res: CallToolResponse, width: number): number {
  if (json) printJson(io, callResultToJson(res));
  else io.out(`${formatCallResult(res, width)}\n`);
  return res.isError ? 1 : 0;
}

/** Runs one parsed command against the gateway; resolves the exit code (rejects on a caller error). */
export async function runCommand(line: ParsedCommandLine, gw: GatewayApi, io: CliOutput, width = 100): Promise<number> {
  const { json } = line.globals;
  const c = line.command;
  switch (c.name) {
    case 'open':
    case 'surface': {
      const s = c.name === 'open' ? await gw.openSurface(c.principal, c.ttlSeconds) : await gw.getSurface(c.surfaceId);
      if (json) printJson(io, surfaceToJson(s));
      else io.out(`${formatSurface(s, width)}\n`);
      return 0;
    }
    case 'close':
      await gw.closeSurface(c.surfaceId);
      if (json) printJson(io, { closed: c.surfaceId });
      else io.out(`closed ${c.surfaceId}\n`);
      return 0;
    case 'discover': {
      const res = await gw.callTool(c.surfaceId, 'discover_tools', { query: c.query, ...(c.limit ? { limit: c.limit } : {}) });
      if (res.isError) return printCall(io, json, res, width);
      const { hits, hint } = extractHits(res);
      if (json) printJson(io, { hits, ...(hint ? { hint } : {}) });
      else io.out(`${formatHits(hits, width, hint)}\n`);
      return 0;
    }
    case 'schema': {
      // A presented tool's schema is on the surface itself (direct mode, meta and system tools).
      const s = await gw.getSurface(c.surfaceId);
      const presented = s.tools.find((t) => t.name === c.tool);
      if (presented) {
        const def = toolToJson(presented);
        if (json) printJson(io, def);
        else io.out(`${formatToolDefinition(def as never, width)}\n`);
        return 0;
      }
      if (resolvedModeName(s.resolvedMode) !== 'discovery') {
        io.err(
          `error: TOOL_NOT_FOUND: "${c.tool}" is not presented on this ${resolvedModeName(s.resolvedMode)} surface; \`toolsurface surface ${c.surfaceId}\` lists what is\n`,
        );
        return 1;
      }
      const res = await gw.callTool(c.surfaceId, 'get_tool_schema', { name: c.tool });
      const def = res.isError ? undefined : extractToolDefinition(res);
      if (!def) return printCall(io, json, res, width);
      if (json) printJson(io, def);
      else io.out(`${formatToolDefinition(def, width)}\n`);
      return 0;
    }
    case 'call':
      return printCall(io, json, await gw.callTool(c.surfaceId, c.tool, c.arguments, c.callId), width);
    case 'mode-get':
    case 'mode-set': {
      const p =
        c.name === 'mode-get'
          ? await gw.getPresentation(c.principal)
          : await gw.setPresentation(c.principal, c.mode, c.autonomy, c.expected);
      if (json) printJson(io, presentationToJson(p));
      else io.out(`${formatPresentation(p)}\n`);
      return 0;
    }
    case 'bindings-get':
    case 'bindings-set': {
      const caps = c.name === 'bindings-get' ? await gw.getBindings(c.principal) : await gw.setBindings(c.principal, c.capabilities);
      if (json) printJson(io, { principal: formatPrincipal(c.principal), capabilities: caps });
      else io.out(`${formatBindings(formatPrincipal(c.principal), caps)}\n`);
      return 0;
    }
    case 'principals': {
      const list = await gw.listPrincipals(c.kind);
      if (json) printJson(io, { principals: list.map(principalSummaryToJson) });
      else io.out(`${formatPrincipals(list, width)}\n`);
      return 0;
    }
    case 'mcp':
      throw new Error('toolsurface mcp needs stdin and stdout: run it through runCli');
    default: {
      const unhandled: never = c;
      throw new Error(`unhandled command ${JSON.stringify(unhandled)}`);
    }
  }
}
