import { randomBytes } from 'node:crypto';
import { metrics, type Counter } from '@opentelemetry/api';
import {
  AppError,
  admit,
  isAppError,
  refusedOutright,
  Attr,
  INSTRUMENTATION_SCOPE,
  Metric,
  ReasonCode,
  CONFIG_FILE_ACTOR,
  countToolTokens,
  readOrchestrators,
  mayActFor,
  UNAUTHENTICATED_CALLER,
  type Caller,
  principalKey,
  resolveMode,
  type AdmissionPolicy,
  type Autonomy,
  type OrchestratorConfig,
  type PresentationMode,
  type PrincipalRef,
  type ToolsurfaceConfig,
} from '@toolsurface/core';
import {
  ADMISSION_KEY,
  CONFIG_DOCUMENT_KEY,
  CONFIG_HASH_KEY,
  ConfigView,
  ORCHESTRATORS_KEY,
  MCP_KEYS_KEY,
  bindingsKey,
  capabilityKey,
  configDocument,
  presentationKey,
  type BindingsRecord,
  type CatalogRecord,
  type PresentationRecord,
  type SnapshotStore,
  type SurfaceRecord,
  type WatchedBucket,
} from '@toolsurface/state';
import { modeToProto, principalToProto, resolvedModeToProto, autonomyToProto } from '@toolsurface/platform';
import type { Logger } from '@toolsurface/platform';
import { buildBoundSet, modelView, presentTools, type BoundSet, type CatalogEntry, type PresentedTool } from './domain/surface-builder';
import { principalsChanged, surfaceInputs, type SurfaceInputs } from './domain/config-changes';
import type { ResolverPublisher } from './events/resolver.publisher';

/** A surface with what the model sees. */
export interface OpenedSurface {
  record: SurfaceRecord;
  presented: PresentedTool[];
}

/** Surface IDs: `srf_` and 32 hex digits of randomness. */
// Matches the exact shape newSurfaceId produces.
export const SURFACE_ID_PATTERN = /^srf_[0-9a-f]{32}$/;

function newSurfaceId(): string {
  return `srf_${randomBytes(16).toString('hex')}`;
}

let opened: Counter | undefined;
/** toolsurface.surfaces.opened, from the global meter on first use. */
function surfacesOpened(): Counter {
  opened ??= metrics
    .getMeter(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version)
    .createCounter(Metric.SURFACES_OPENED.name, { unit: Metric.SURFACES_OPENED.unit, description: Metric.SURFACES_OPENED.description });
  return opened;
}

/** Presentation settings, bindings, surfaces and snapshots: the logic behind SurfaceService and PresentationService. */
export class SurfaceResolverService {
  // Bound sets by (principal, bindings, catalog listing times, policy): an open for a known snapshot skips the hashing.
  private readonly boundCache = new Map<string, { set: BoundSet; snapshotId: string }>();
  private readonly tokenCache = new Map<string, number>();
  private readonly announced = new Set<string>();
  /** The config bucket's records as readers see them (the applied document and the API's overrides). */
  private readonly config: ConfigView;

  constructor(
    /** The config bucket, written here only: the document by applyConfig, overrides by setPresentation and setBindings. */
    private readonly configBucket: WatchedBucket<unknown>,
    private readonly catalog: WatchedBucket<CatalogRecord>,
    private readonly surfaces: WatchedBucket<SurfaceRecord>,
    private readonly snapshots: SnapshotStore,
    private readonly publisher: ResolverPublisher,
    private readonly logger: Logger,
    private readonly ttl: { defaultSeconds: number; maxSeconds: number },
    /** AUTH_REQUIRED: refuse every caller while no orchestrator is configured, rather than switch authentication off. */
    private readonly authRequired = false,
  ) {
    this.config = new ConfigView(configBucket);
  }

  /** The stored presentation of a principal; a new principal starts at adaptive (product rule 7). */
  presentation(p: PrincipalRef): PresentationRecord {
    const r = this.config.get(presentationKey(p.kind, p.id)) as PresentationRecord | undefined;
    return r ?? { mode: 'adaptive', autonomy: 'autonomous' };
  }

  /** The capabilities bound to a principal. */
  bindings(p: PrincipalRef): string[] {
    const r = this.config.get(bindingsKey(p.kind, p.id)) as BindingsRecord | undefined;
    return r?.capabilities ?? [];
  }

  /**
   * The configured orchestrators: empty means caller authentication is off (only without
   * AUTH_REQUIRED); undefined (malformed record, or none while required) refuses every caller.
   */
  orchestrators(): OrchestratorConfig[] | undefined {
    return readOrchestrators(this.config.get(ORCHESTRATORS_KEY), this.authRequired);
  }

  /** Whether `cfg` names other MCP keys than the stored ones (credentials come from the file only). */
  mcpKeysChangedBy(cfg: ToolsurfaceConfig): boolean {
    return JSON.stringify(cfg.mcpKeys ?? []) !== JSON.stringify(this.config.get(MCP_KEYS_KEY) ?? []);
  }

  /** Whether `cfg` names other orchestrators than the stored ones (credentials come from the file only). */
  orchestratorsChangedBy(cfg: ToolsurfaceConfig): boolean {
    return JSON.stringify(cfg.orchestrators) !== JSON.stringify(this.config.get(ORCHESTRATORS_KEY) ?? []);
  }

  /** The config as readers see it (the applied document and the API's overrides), read-only. */
  configView(): ConfigView {
    return this.config;
  }

  /** The bound tools a surface opened now would hold, without taking a snapshot. */
  boundSetNow(p: PrincipalRef): BoundSet {
    const catalog = new Map<string, CatalogEntry>();
    for (const c of this.bindings(p)) {
      const r = this.catalog.get(c);
      if (r) catalog.set(c, r);
    }
    return buildBoundSet(p, this.bindings(p), catalog, this.policy());
  }

  /** The tools of a principal's bound capabilities that admission refuses outright, each with the refusing rule. */
  hiddenTools(p: PrincipalRef): Array<{ capability: string; name: string; rule: string }> {
    const policy = this.policy();
    const hidden: Array<{ capability: string; name: string; rule: string }> = [];
    for (const capability of this.bindings(p)) {
      for (const tool of this.catalog.get(capability)?.tools ?? []) {
        if (!refusedOutright(p, capability, tool.name, policy)) continue;
        // Without arguments no conditional rule matches: the decision names the unconditional deny (or "default").
        const r = admit({ principal: p, capability, tool: tool.name, arguments: {}, via: 'direct' }, policy);
        hidden.push({ capability, name: tool.name, rule: r.decision === 'deny' ? r.rule : 'default' });
      }
    }
    return hidden;
  }

  private policy(): AdmissionPolicy {
    return (this.config.get(ADMISSION_KEY) as AdmissionPolicy | undefined) ?? { default: 'allow', rules: [] };
  }

  /** Opens a surface: takes (or reuses) the snapshot, resolves the mode, stores and announces the surface. */
  async openSurface(principal: PrincipalRef, ttlSeconds: number): Promise<OpenedSurface> {
    if (ttlSeconds > this.ttl.maxSeconds) {
      throw new AppError(ReasonCode.INVALID_REQUEST, `ttl_seconds must be at most ${this.ttl.maxSeconds}`);
    }
    const setting = this.presentation(principal);
    const { set, snapshotId } = await this.boundSet(principal);
    const resolvedMode = resolveMode(setting.mode, set.definitions.length);
    const presented = presentTools(resolvedMode, set.definitions);
    const now = Date.now();
    const record: SurfaceRecord = {
      surfaceId: newSurfaceId(),
      principal,
      configuredMode: setting.mode,
      resolvedMode,
      snapshotId,
      autonomy: principal.kind === 'gateway' ? setting.autonomy : 'autonomous',
      boundToolCount: set.definitions.length,
      presentedTokens: this.tokens(snapshotId, resolvedMode, presented),
      collisions: set.collisions,
      openedAtMs: now,
      expiresAtMs: now + (ttlSeconds || this.ttl.defaultSeconds) * 1000,
    };
    await this.surfaces.put(record.surfaceId, record);
    surfacesOpened().add(1, { [Attr.TS_MODE]: resolvedMode, [Attr.TS_CONFIGURED_MODE]: setting.mode });
    await this.publisher.surfaceOpened({
      surfaceId: record.surfaceId,
      principal: principalToProto(principal),
      configuredMode: modeToProto(record.configuredMode),
      resolvedMode: resolvedModeToProto(resolvedMode),
      snapshotId,
      boundToolCount: record.boundToolCount,
      presentedTokens: record.presentedTokens,
      openedAtMs: record.openedAtMs,
      expiresAtMs: record.expiresAtMs,
    });
    if (set.invalidNames.length > 0) {
      this.logger.warn(
        { principal: principalKey(principal), names: set.invalidNames },
        'tools with names that are not MCP tool names left out',
      );
    }
    if (set.missingCapabilities.length > 0) {
      this.logger.warn(
        { principal: principalKey(principal), capabilities: set.missingCapabilities },
        'bound capabilities not in the catalog; surface opened without them',
      );
    }
    if (set.unavailableCapabilities.length > 0) {
      this.logger.warn(
        { principal: principalKey(principal), capabilities: set.unavailableCapabilities },
        'bound capabilities unavailable; surface lists their last known tools, calls to them get CAPABILITY_UNAVAILABLE',
      );
    }
    return { record, presented };
  }

  /** A surface and what it presents; unknown → SURFACE_NOT_FOUND, past expiry → SURFACE_EXPIRED. */
  async getSurface(surfaceId: string, caller: Caller = UNAUTHENTICATED_CALLER): Promise<OpenedSurface> {
    const record = await this.loadSurface(surfaceId, caller);
    const snapshot = await this.snapshots.get(record.snapshotId);
    return { record, presented: presentTools(record.resolvedMode, snapshot.tools) };
  }

  /** Closes a surface; later calls on it are refused as not found. */
  async closeSurface(surfaceId: string, caller: Caller = UNAUTHENTICATED_CALLER): Promise<void> {
    const record = await this.loadSurface(surfaceId, caller);
    const closed: SurfaceRecord = { ...record, closedAtMs: Date.now() };
    await this.surfaces.put(surfaceId, closed);
    await this.publisher.surfaceClosed({ surfaceId, principal: principalToProto(record.principal), closedAtMs: closed.closedAtMs! });
  }

  private async loadSurface(surfaceId: string, caller: Caller): Promise<SurfaceRecord> {
    if (!SURFACE_ID_PATTERN.test(surfaceId))
      throw new AppError(ReasonCode.SURFACE_NOT_FOUND, `surface "${surfaceId.slice(0, 80)}" does not exist`);
    const record = await this.surfaces.getFresh(surfaceId);
    // Another orchestrator's surface is answered as unknown: no oracle for who owns which ID.
    if (!record || record.closedAtMs !== undefined || !mayActFor(caller, record.principal))
      throw new AppError(ReasonCode.SURFACE_NOT_FOUND, `surface ${surfaceId} does not exist or was closed`);
    if (record.expiresAtMs <= Date.now()) throw new AppError(ReasonCode.SURFACE_EXPIRED, `surface ${surfaceId} expired; open a new one`);
    return record;
  }

  private async boundSet(principal: PrincipalRef): Promise<{ set: BoundSet; snapshotId: string }> {
    const caps = this.bindings(principal);
    const catalog = new Map<string, CatalogEntry>();
    const versions: string[] = [];
    for (const c of caps) {
      const r = this.catalog.get(c);
      if (r) catalog.set(c, r);
      versions.push(`${c}@${r ? `${r.status}:${r.listedAtMs}` : 'none'}`);
    }
    const policy = this.policy();
    const key = JSON.stringify([principalKey(principal), versions, policy]);
    const cached = this.boundCache.get(key);
    if (cached) {
      await this.announce(cached.snapshotId, cached.set);
      return cached;
    }
    const set = buildBoundSet(principal, caps, catalog, policy);
    const { snapshot } = await this.snapshots.save(set.definitions);
    const entry = { set, snapshotId: snapshot.snapshotId };
    this.boundCache.set(key, entry);
    if (this.boundCache.size > 1024) this.boundCache.delete(this.boundCache.keys().next().value!);
    await this.announce(snapshot.snapshotId, set);
    return entry;
  }

  // snapshot.created goes out once per snapshot per process (JetStream de-duplicates across replicas).
  private async announce(snapshotId: string, set: BoundSet): Promise<void> {
    if (this.announced.has(snapshotId)) return;
    await this.publisher.snapshotCreated({
      snapshotId,
      toolCount: set.definitions.length,
      objectName: snapshotId,
      createdAtMs: Date.now(),
    });
    this.announced.add(snapshotId);
  }

  private tokens(snapshotId: string, mode: string, presented: PresentedTool[]): number {
    const key = `${snapshotId}/${mode}`;
    let n = this.tokenCache.get(key);
    if (n === undefined) {
      n = countToolTokens(modelView(presented));
      this.tokenCache.set(key, n);
      if (this.tokenCache.size > 4096) this.tokenCache.delete(this.tokenCache.keys().next().value!);
    }
    return n;
  }

  /** Sets a principal's mode and/or autonomy; only gateways can be supervised. `actor`: who (presentation.changed). */
  async setPresentation(
    p: PrincipalRef,
    mode: PresentationMode | undefined,
    autonomy: Autonomy | undefined,
    actor: string,
    /** Compare-and-set: what the caller saw; another stored value refuses the change with PRESENTATION_CHANGED. */
    expected: { mode?: PresentationMode; autonomy?: Autonomy } = {},
  ): Promise<PresentationRecord> {
    if (autonomy === 'supervised' && p.kind !== 'gateway') {
      throw new AppError(ReasonCode.INVALID_REQUEST, 'only gateways can be supervised; agents are always autonomous');
    }
    const key = presentationKey(p.kind, p.id);
    // The stored record, not the mirror's: the field left unspecified keeps its current value.
    await this.configBucket.refresh(key);
    await this.configBucket.refresh(CONFIG_DOCUMENT_KEY);
    const current = this.presentation(p);
    const changed = (what: string, now: string) =>
      new AppError(
        ReasonCode.PRESENTATION_CHANGED,
        `${p.kind}:${p.id} ${what} is ${now} now, not the expected one; read it again and choose. Nothing was changed`,
      );
    if (expected.mode && expected.mode !== current.mode) throw changed('mode', current.mode);
    if (expected.autonomy && expected.autonomy !== current.autonomy) throw changed('autonomy', current.autonomy);
    const next: PresentationRecord = { mode: mode ?? current.mode, autonomy: autonomy ?? current.autonomy };
    // With an expectation the write is conditional on the record's revision read above, so a
    // change by another replica or the CLI in between (the bucket is shared) refuses this one.
    const revision = expected.mode || expected.autonomy ? this.configBucket.revision(key) : undefined;
    try {
      await this.putOverride(p, key, next, revision);
    } catch (e) {
      if (revision === undefined || !/wrong last sequence|key exists/i.test((e as Error).message)) throw e;
      await this.configBucket.refresh(key);
      const now = this.presentation(p);
      throw expected.mode && now.mode !== expected.mode ? changed('mode', now.mode) : changed('autonomy', now.autonomy);
    }
    await this.publishChanged(p, next, this.bindings(p), actor);
    return next;
  }

  /** Replaces a principal's bindings; every capability must be configured. `actor`: who (presentation.changed). */
  async setBindings(p: PrincipalRef, capabilities: string[], actor: string): Promise<string[]> {
    const unique = [...new Set(capabilities)];
    await this.configBucket.refresh(CONFIG_DOCUMENT_KEY);
    // (capabilities are checked against the document as stored)
    const unknown = unique.filter((c) => this.config.get(capabilityKey(c)) === undefined);
    if (unknown.length > 0)
      throw new AppError(
        ReasonCode.INVALID_REQUEST,
        `unknown capabilities: ${unknown.map((c) => JSON.stringify(c.slice(0, 64))).join(', ')}`,
      );
    await this.putOverride(p, bindingsKey(p.kind, p.id), { capabilities: unique } satisfies BindingsRecord);
    await this.publishChanged(p, this.presentation(p), unique, actor);
    return unique;
  }

  /**
   * Writes an API change of a principal, stamped with the config document it was computed on (the
   * caller read it from the bucket first), and checks that it still counts once written: an apply
   * that named or dropped the principal in between makes it count for nothing (ConfigView
   * Override), so that is refused with CONFIG_CONFLICT rather than reported as done.
   */
  private async putOverride(
    p: PrincipalRef,
    key: string,
    record: PresentationRecord | BindingsRecord,
    /** Write only if the key is still at this revision (0: absent); rejects with the server's error otherwise. */
    revision?: number,
  ): Promise<void> {
    // (no new read here: a document newer than the one the change was computed on must not stamp it)
    const written = this.config.overrideFor(record);
    if (revision === undefined) await this.configBucket.put(key, written);
    else await this.configBucket.update(key, written, revision);
    await this.configBucket.refresh(CONFIG_DOCUMENT_KEY);
    if (this.config.stale(key, written)) {
      throw new AppError(ReasonCode.CONFIG_CONFLICT, `a config applied meanwhile set ${p.kind}:${p.id} itself; read it again and retry`);
    }
  }

  private publishChanged(p: PrincipalRef, r: PresentationRecord, capabilities: string[], actor: string): Promise<void> {
    return this.publisher.presentationChanged({
      principal: principalToProto(p),
      mode: modeToProto(r.mode),
      autonomy: autonomyToProto(r.autonomy),
      capabilities,
      actor,
    });
  }

  /**
   * The capabilities section of `cfg` differs from the stored one: a run-time ApplyConfig may not
   * change what dispatch executes (stdio command lines, URLs) unless the operator allowed it.
   */
  capabilitiesChangedBy(cfg: ToolsurfaceConfig): string[] {
    const changed: string[] = [];
    const stored = new Map(this.config.entries('capability.').map(([k, v]) => [k.slice('capability.'.length), JSON.stringify(v)]));
    for (const [name, spec] of Object.entries(cfg.capabilities)) if (stored.get(name) !== JSON.stringify(spec)) changed.push(name);
    for (const name of stored.keys()) if (!Object.hasOwn(cfg.capabilities, name)) changed.push(name);
    return changed;
  }

  /**
   * Applies a declarative config: capabilities, admission, orchestrators, and each listed
   * principal's mode, autonomy and bindings, written as one record (ConfigDocument), so every
   * reader moves from the old config to the new one at once. Principals created through the API
   * keep their settings; a principal the previous config named and this one does not loses the
   * settings and bindings it had (libs/state ConfigView).
   *
   * `guard` runs against the config as it stands just before the write (the handler's checks on
   * capabilities and orchestrators). If another apply lands between that read and the write, this
   * one is refused with CONFIG_CONFLICT (gRPC ABORTED) and nothing of it is written. `actor`: who
   * applied it, for presentation.changed (the config file unless an ApplyConfig caller is named).
   */
  async applyConfig(cfg: ToolsurfaceConfig, guard?: () => void, actor: string = CONFIG_FILE_ACTOR): Promise<void> {
    const revision = this.configBucket.revision(CONFIG_DOCUMENT_KEY);
    const previous = this.config.document();
    const before = this.surfaceInputs();
    guard?.();
    // The first document takes over from the per-key layout: the principals its config named lose
    // what that config gave them, as an apply that drops them would.
    const legacyNamed = previous
      ? []
      : ((this.configBucket.get(CONFIG_HASH_KEY) as { principals?: PrincipalRef[] } | undefined)?.principals ?? []);
    try {
      await this.configBucket.update(CONFIG_DOCUMENT_KEY, configDocument(cfg, previous, Date.now(), legacyNamed), revision);
    } catch (e) {
      if (/wrong last sequence|key exists/i.test((e as Error).message)) {
        throw new AppError(
          ReasonCode.CONFIG_CONFLICT,
          'the config changed while this one was being applied (another ApplyConfig or replica); read it again and retry',
          { cause: e },
        );
      }
      throw e;
    }
    this.logger.info(
      { hash: cfg.hash, principals: cfg.principals.length, capabilities: Object.keys(cfg.capabilities).length },
      'config applied',
    );
    await this.dropStaleOverrides();
    // The first document has no surfaces before it to tell.
    if (previous || legacyNamed.length > 0) await this.announceChanges(before, actor);
  }

  private surfaceInputs(): SurfaceInputs {
    return surfaceInputs([...this.config.entries('presentation.'), ...this.config.entries('bindings.')], this.config.get(ADMISSION_KEY));
  }

  /**
   * Publishes `presentation.changed` for each principal whose surface an apply may have changed, as
   * setPresentation and setBindings do, so that dispatch tells their MCP sessions. The config is
   * applied whatever happens here; a principal not told keeps its surface until it expires.
   */
  private async announceChanges(before: SurfaceInputs, actor: string): Promise<void> {
    const changed = principalsChanged(before, this.surfaceInputs());
    for (const p of changed) {
      await this.publishChanged(p, this.presentation(p), this.bindings(p), actor).catch((err: unknown) =>
        this.logger.warn({ err, principal: p }, 'presentation.changed not published after an apply'),
      );
    }
    if (changed.length > 0) this.logger.info({ principals: changed.length }, 'principals told their presentation changed');
  }

  /**
   * Deletes API override records that no longer count under the applied document (ConfigView
   * Override). Tidiness only: readers ignore them already, and a record is deleted only if it is
   * still the one judged stale (compare-and-delete), so a change made meanwhile stays. The
   * per-key records of the layout before the document are left for dispatch replicas not yet
   * upgraded.
   */
  private async dropStaleOverrides(): Promise<void> {
    for (const [key, value] of this.configBucket.entries()) {
      if (!this.config.stale(key, value)) continue;
      await this.configBucket
        .delete(key, this.configBucket.revision(key))
        .catch((err: unknown) =>
          this.logger.debug({ err, key }, 'a stale override record was not deleted (changed meanwhile, or already gone)'),
        );
    }
  }

  /**
   * Applies the config only when it differs from the one last applied (so API changes survive
   * restarts; before any document, the hash the per-key layout recorded counts). Replicas starting
   * with the same new file race: the ones that lose find it applied and return false.
   */
  async applyConfigIfChanged(cfg: ToolsurfaceConfig): Promise<boolean> {
    const applied = (): string | undefined =>
      this.config.document()?.hash ?? (this.configBucket.get(CONFIG_HASH_KEY) as { hash?: string } | undefined)?.hash;
    for (let attempt = 1; ; attempt++) {
      if (applied() === cfg.hash) return false;
      try {
        await this.applyConfig(cfg);
        return true;
      } catch (e) {
        if (!isAppError(e, ReasonCode.CONFIG_CONFLICT) || attempt >= 5) throw e;
        await this.configBucket.refresh(CONFIG_DOCUMENT_KEY);
      }
    }
  }
}
