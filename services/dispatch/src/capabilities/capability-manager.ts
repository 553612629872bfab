import { AppError, CAPABILITY_NAME_PATTERN, ReasonCode, type McpTool } from '@toolsurface/core';
import type { Logger } from '@toolsurface/platform';
import { capabilityKey, type CatalogRecord, type ConfigSource, type WatchedBucket } from '@toolsurface/state';
import { parseCapabilitySpec, sameCatalog } from '../domain/catalog';
import type { CapabilityPort, ToolResult } from '../domain/ports';
import type { CatalogChangedPublisher } from '../events/catalog-changed.publisher';
import type { CapabilityStatus } from './capability-status';
import { CapabilitySession } from './mcp-session';

const CAPABILITY_PREFIX = capabilityKey('');

/**
 * Keeps one MCP session per capability of the config bucket (`capability.<name>`): opens new ones,
 * reopens changed ones, closes removed ones, and keeps the catalog bucket and `catalog.changed`
 * current with what each capability publishes.
 */
export class CapabilityManager implements CapabilityPort {
  private readonly sessions = new Map<string, { session: CapabilitySession; specJson: string }>();
  private readonly catalogWrites = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly config: ConfigSource,
    private readonly catalog: WatchedBucket<CatalogRecord>,
    private readonly catalogEvents: CatalogChangedPublisher,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    /** Commands a stdio capability may run (CAPABILITY_COMMANDS); empty allows any. */
    private readonly allowedCommands: readonly string[] = [],
    /** Told each capability's state, for the operator (metric, health, log). */
    private readonly status?: CapabilityStatus,
  ) {}

  /** Follows the config bucket (already started) and drops catalog records of capabilities no longer configured. */
  start(): void {
    this.config.onChange((key, value) => this.onConfig(key, value));
    for (const [key, value] of this.config.entries(CAPABILITY_PREFIX)) this.onConfig(key, value);
    for (const [name] of this.catalog.entries()) {
      if (this.config.get(capabilityKey(name)) === undefined) this.removeCatalog(name);
    }
  }

  /** Resolves when every capability made its first connection attempt, or after `maxMs`. */
  async firstAttempts(maxMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.sessions.values()].map((s) => s.session.firstAttempt)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs))),
    ]);
    clearTimeout(timer);
  }

  call(capability: string, tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<ToolResult> {
    const entry = this.sessions.get(capability);
    if (!entry) return Promise.reject(new AppError(ReasonCode.CAPABILITY_UNAVAILABLE, `capability ${capability} is not configured`));
    return entry.session.call(tool, args, timeoutMs);
  }

  timeoutMs(capability: string): number | undefined {
    return this.sessions.get(capability)?.session.spec.timeoutMs;
  }

  /** The session of a capability, if configured (for operators and tests). */
  session(capability: string): CapabilitySession | undefined {
    return this.sessions.get(capability)?.session;
  }

  /** Closes every session (stdio children exit) and waits for pending catalog writes. */
  async stop(): Promise<void> {
    this.stopped = true;
    const sessions = [...this.sessions.values()].map((s) => s.session);
    this.sessions.clear();
    await Promise.allSettled(sessions.map((s) => s.close()));
    await Promise.allSettled([...this.catalogWrites.values()]);
  }

  private onConfig(key: string, value: unknown): void {
    if (this.stopped || !key.startsWith(CAPABILITY_PREFIX)) return;
    const name = key.slice(CAPABILITY_PREFIX.length);
    if (!CAPABILITY_NAME_PATTERN.test(name)) {
      this.logger.warn({ key }, 'ignored a capability with an invalid name');
      return;
    }
    const existing = this.sessions.get(name);
    if (value === undefined) {
      if (existing) {
        this.sessions.delete(name);
        this.logger.info({ capability: name }, 'capability removed from config; closing it');
        void existing.session.close();
      }
      this.removeCatalog(name);
      return;
    }
    const specJson = JSON.stringify(value);
    if (existing?.specJson === specJson) return;
    if (existing) {
      this.logger.info({ capability: name }, 'capability changed in config; reconnecting');
      void existing.session.close();
      this.sessions.delete(name);
    }
    const parsed = parseCapabilitySpec(value);
    const spec =
      typeof parsed !== 'string' &&
      parsed.transport === 'stdio' &&
      this.allowedCommands.length > 0 &&
      !this.allowedCommands.includes(parsed.command)
        ? `command "${parsed.command}" is not in CAPABILITY_COMMANDS`
        : parsed;
    if (typeof spec === 'string') {
      this.logger.error({ capability: name, problem: spec }, 'capability spec is invalid');
      this.writeCatalog(name, 'unavailable', [], `invalid spec: ${spec}`);
      return;
    }
    const session = new CapabilitySession(
      name,
      spec,
      (cap, status, tools, error) => this.writeCatalog(cap, status, tools, error),
      this.logger,
    );
    this.sessions.set(name, { session, specJson });
    session.start();
  }

  // Writes are chained per capability so an older listing never lands after a newer one.
  private chain(name: string, fn: () => Promise<void>): void {
    const next = (this.catalogWrites.get(name) ?? Promise.resolve())
      .then(fn)
      .catch((err: unknown) => this.logger.error({ err, capability: name }, 'catalog update failed'));
    this.catalogWrites.set(name, next);
    void next.finally(() => {
      if (this.catalogWrites.get(name) === next) this.catalogWrites.delete(name);
    });
  }

  private writeCatalog(name: string, status: CatalogRecord['status'], tools: McpTool[], error?: string): void {
    this.chain(name, async () => {
      const stored = this.catalog.get(name);
      // An unavailable capability keeps the tools it last published; its status says it cannot be called now.
      const kept = status === 'unavailable' && tools.length === 0 ? (stored?.tools ?? []) : tools;
      // A write queued before the capability left the config must not bring it back to the operator's view.
      if (this.config.get(capabilityKey(name)) !== undefined) this.status?.report(name, status === 'ok', kept.length, error);
      if (sameCatalog(stored, status, kept)) return;
      const atMs = this.now();
      const record: CatalogRecord = { capability: name, status, tools: kept, listedAtMs: atMs, ...(error ? { error } : {}) };
      await this.catalog.put(name, record);
      await this.catalogEvents.publish({ capability: name, toolCount: kept.length, status, atMs });
    });
  }

  private removeCatalog(name: string): void {
    this.status?.remove(name);
    this.chain(name, async () => {
      if (this.catalog.get(name) === undefined) return;
      await this.catalog.delete(name);
      await this.catalogEvents.publish({ capability: name, toolCount: 0, status: 'unavailable', atMs: this.now() });
    });
  }
}
