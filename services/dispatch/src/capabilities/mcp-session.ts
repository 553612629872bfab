import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError, ReasonCode, type CapabilitySpec, type McpTool } from '@toolsurface/core';
import type { Logger } from '@toolsurface/platform';
import type { CatalogRecord } from '@toolsurface/state';
import { backoffMs } from '../domain/backoff';
import { toCatalogTools } from '../domain/catalog';
import { startToolCallSpan } from './mcp-client-span';
import type { ToolResult } from '../domain/ports';

/** How long connecting (spawn or HTTP, plus MCP initialize) may take, ms. */
export const CONNECT_TIMEOUT_MS = 15_000;
/** Deadline of one tools/list page, ms. */
export const LIST_TIMEOUT_MS = 15_000;
/** Most tools/list pages followed; a server that keeps sending cursors is cut off here. */
export const MAX_LIST_PAGES = 1000;

const CLIENT_INFO = { name: 'toolsurface-dispatch', version: '0.1.0' };

/** What a session reports about its capability: connected with tools, or unavailable. */
export type CatalogReport = (capability: string, status: CatalogRecord['status'], tools: McpTool[], error?: string) => void;

type State = 'connecting' | 'ok' | 'unavailable' | 'closed';

/**
 * One capability's MCP client session, opened once and reused by every call. Lists the tools at
 * connect and on `notifications/tools/list_changed`; when the connection fails or closes it reports
 * the capability unavailable and reconnects with backoff (500 ms doubling, cap 30 s).
 */
export class CapabilitySession {
  private state: State = 'connecting';
  private client: Client | undefined;
  private transport: Transport | undefined;
  /** Bumped whenever a client is abandoned, so late events of an old client are ignored. */
  private generation = 0;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private relisting: Promise<void> | undefined;
  private relistAgain = false;
  private tools: McpTool[] = [];
  private resolveFirstAttempt!: () => void;
  /** Resolves once the first connection attempt succeeded or failed. */
  readonly firstAttempt = new Promise<void>((resolve) => (this.resolveFirstAttempt = resolve));

  constructor(
    readonly name: string,
    readonly spec: CapabilitySpec,
    private readonly report: CatalogReport,
    private readonly logger: Logger,
  ) {}

  /** Starts connecting (in the background). */
  start(): void {
    void this.connect();
  }

  /** The child process ID of a stdio capability while connected (for operators and tests). */
  get pid(): number | null {
    return this.transport instanceof StdioClientTransport ? this.transport.pid : null;
  }

  get connected(): boolean {
    return this.state === 'ok';
  }

  /** Calls a tool on the open session. Throws AppError CAPABILITY_UNAVAILABLE or TOOL_TIMEOUT; a tool failure is a result. */
  async call(tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<ToolResult> {
    const client = this.client;
    if (this.state !== 'ok' || !client) throw new AppError(ReasonCode.CAPABILITY_UNAVAILABLE, `capability ${this.name} is not connected`);
    const gen = this.generation;
    const span = startToolCallSpan(this.name, tool, this.transport);
    try {
      const res = (await client.callTool({ name: tool, arguments: args, _meta: span.meta }, undefined, {
        timeout: timeoutMs,
      })) as CallToolResult;
      // The MCP conventions mark a tool result with isError as a failed call, error.type tool_error.
      span.end(res.isError === true ? 'tool_error' : undefined);
      return { content: res.content ?? [], structuredContent: res.structuredContent, isError: res.isError === true };
    } catch (err) {
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
        span.end(ReasonCode.TOOL_TIMEOUT, undefined, err.message);
        throw new AppError(ReasonCode.TOOL_TIMEOUT, `${this.name}/${tool} did not answer within ${timeoutMs} ms`, { cause: err });
      }
      if (isConnectionFailure(err)) {
        span.end(ReasonCode.CAPABILITY_UNAVAILABLE, undefined, (err as Error).message);
        this.lost(gen, client, `call failed: ${(err as Error).message}`);
        throw new AppError(ReasonCode.CAPABILITY_UNAVAILABLE, `capability ${this.name} lost its connection`, { cause: err });
      }
      // A JSON-RPC error for this call (unknown tool, invalid params, bad result): the tool's own failure.
      const code = err instanceof McpError ? err.code : undefined;
      span.end(code === undefined ? 'tool_error' : String(code), code, (err as Error).message);
      return { content: [{ type: 'text', text: (err as Error).message ?? String(err) }], isError: true };
    }
  }

  /** Closes the session for good (a stdio child is asked to exit, then killed). */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.generation++;
    clearTimeout(this.retryTimer);
    this.resolveFirstAttempt();
    const { client, transport } = this;
    this.client = undefined;
    this.transport = undefined;
    await closeQuietly(client, transport);
  }

  private async connect(): Promise<void> {
    if (this.state === 'closed') return;
    const gen = ++this.generation;
    this.state = 'connecting';
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (gen === this.generation) this.relist();
    });
    client.onclose = () => this.lost(gen, client, 'connection closed');
    client.onerror = (err) => this.logger.debug({ err, capability: this.name }, 'MCP transport error');
    let transport: Transport | undefined;
    try {
      transport = this.makeTransport();
      // Kept at once so close() during the handshake can stop a child that is still starting.
      this.transport = transport;
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      if (gen !== this.generation) throw new Error('superseded');
      this.client = client;
      const tools = await this.listAll(client);
      if (gen !== this.generation) throw new Error('superseded');
      this.tools = tools;
      this.state = 'ok';
      this.attempt = 0;
      this.logger.info({ capability: this.name, tools: tools.length, transport: this.spec.transport }, 'capability connected');
      this.report(this.name, 'ok', tools);
    } catch (err) {
      if (gen === this.generation) this.lost(gen, client, `connect failed: ${(err as Error)?.message ?? String(err)}`, transport);
      else await closeQuietly(client, transport);
    } finally {
      this.resolveFirstAttempt();
    }
  }

  // The session of generation `gen` is gone: report it, drop it, retry later.
  private lost(gen: number, client: Client, reason: string, transport: Transport | undefined = this.transport): void {
    if (gen !== this.generation || this.state === 'closed') return;
    this.generation++;
    this.state = 'unavailable';
    this.client = undefined;
    this.transport = undefined;
    void closeQuietly(client, transport);
    const delay = backoffMs(this.attempt++);
    this.logger.warn({ capability: this.name, reason, retryInMs: delay }, 'capability unavailable');
    this.report(this.name, 'unavailable', this.tools, reason);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }

  // Coalesces bursts of list_changed into one listing at a time, plus one more if more arrived.
  private relist(): void {
    if (this.relisting) {
      this.relistAgain = true;
      return;
    }
    this.relisting = (async () => {
      do {
        this.relistAgain = false;
        const client = this.client;
        const gen = this.generation;
        if (!client || this.state !== 'ok') return;
        try {
          const tools = await this.listAll(client);
          if (gen !== this.generation) return;
          this.tools = tools;
          this.logger.info({ capability: this.name, tools: tools.length }, 'capability tools re-listed');
          this.report(this.name, 'ok', tools);
        } catch (err) {
          if (isConnectionFailure(err)) this.lost(gen, client, `re-list failed: ${(err as Error).message}`);
          else this.logger.warn({ err, capability: this.name }, 'tools/list after list_changed failed; keeping the previous list');
        }
      } while (this.relistAgain);
    })().finally(() => (this.relisting = undefined));
  }

  private async listAll(client: Client): Promise<McpTool[]> {
    const listed: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const res = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: LIST_TIMEOUT_MS });
      listed.push(...res.tools);
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return toCatalogTools(listed);
  }

  private makeTransport(): Transport {
    const spec = this.spec;
    if (spec.transport === 'streamable-http') {
      return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers } });
    }
    // The SDK merges its safe default environment (PATH, HOME, ...) under the configured env.
    const t = new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      env: spec.env,
      cwd: spec.cwd || undefined,
      stderr: 'pipe',
    });
    const stderr = t.stderr;
    if (stderr) {
      createInterface({ input: stderr as unknown as NodeJS.ReadableStream }).on('line', (line) => {
        if (line.trim()) this.logger.info({ capability: this.name, stderr: line.slice(0, 2000) }, 'capability stderr');
      });
    }
    return t;
  }
}

function isConnectionFailure(err: unknown): boolean {
  if (err instanceof McpError) return err.code === ErrorCode.ConnectionClosed;
  if (err instanceof StreamableHTTPError || err instanceof TypeError) return true;
  const code = (err as { code?: unknown })?.code;
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE') return true;
  // The SDK's stdio transport throws a plain Error("Not connected") once the child is gone.
  return err instanceof Error && /^Not connected$/.test(err.message);
}

async function closeQuietly(client: Client | undefined, transport: Transport | undefined): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
    // Ends the server-side session so a stateful server can free it; best effort.
    await Promise.race([transport.terminateSession().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
  try {
    if (client) await client.close();
    else await transport?.close();
  } catch {
    // Already closed or never opened.
  }
}
