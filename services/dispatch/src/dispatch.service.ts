import { randomUUID } from 'node:crypto';
import {
  context,
  metrics,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Counter,
  type Histogram,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import {
  admit,
  AppError,
  DEFAULT_TOOL_TIMEOUT_MS,
  DISCOVERY_META_TOOLS,
  isAppError,
  isSystemToolName,
  limitsFor,
  RateLimiter,
  type RateLimits,
  sizeLimitExceeded,
  META_TOOL_NAMES,
  MODEL_FACING_REASONS,
  principalKey,
  ReasonCode,
  refusedOutright,
  SYSTEM_CAPABILITY,
  SYSTEM_TOOLS,
  UNIFIED_META_TOOL,
  type AdmissionResult,
  type ResolvedMode,
  type Via,
} from '@toolsurface/core';
import {
  Attr,
  INSTRUMENTATION_SCOPE,
  mayActFor,
  Metric,
  UNAUTHENTICATED_CALLER,
  UNIFIED_HELD_BACK_PREFIX,
  UNIFIED_NO_CLOSE_TOOL_PREFIX,
  type Caller,
} from '@toolsurface/core';
import type { SurfaceRecord } from '@toolsurface/state';
import { MAX_ARGUMENT_DEPTH, asObject, deeperThan, parseArguments, type ParsedArguments } from './domain/arguments';
import { errorDetail, Messages } from './domain/messages';
import type {
  CallRequest,
  CallResult,
  DispatchPorts,
  PersonDecision,
  PersonRefusal,
  ToolCalledEvent,
  ToolResult,
  UnifiedInfo,
} from './domain/ports';
import { ValidatorCache, type ArgumentValidator } from './domain/validators';

/** Longest tool name or surface ID accepted (matches the meta-tools' `name` schema). */
export const MAX_NAME_CHARS = 256;
/** How long before the caller's deadline a tool call is given up, so the refusal still reaches the model, ms. */
export const RESPONSE_MARGIN_MS = 100;
/** Least time, after the margin, a tool is started with; below it the call is refused before it runs, ms. */
export const MIN_TOOL_BUDGET_MS = 10;

/** Options of the call path. */
export interface DispatcherOptions {
  maxArgumentsBytes: number;
  tracer: Tracer;
  validators?: ValidatorCache;
  /** Where admission's rate limits take tokens (default: in this process's memory). */
  rateLimiter?: RateLimits;
}

/** Surfaces whose last discover_tools answer is kept for the discovery-rank metric. */
const RANKED_SURFACES_MAX = 10_000;

/** The call path's instruments (Metric in @toolsurface/core), from the global meter. */
interface CallMetrics {
  calls: Counter;
  duration: Histogram;
  rank: Histogram;
}

function callMetrics(): CallMetrics {
  const meter = metrics.getMeter(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version);
  const opts = (m: { unit: string; description: string }) => ({ unit: m.unit, description: m.description });
  return {
    calls: meter.createCounter(Metric.TOOL_CALLS.name, opts(Metric.TOOL_CALLS)),
    duration: meter.createHistogram(Metric.TOOL_CALL_DURATION.name, opts(Metric.TOOL_CALL_DURATION)),
    rank: meter.createHistogram(Metric.DISCOVERY_RANK.name, {
      ...opts(Metric.DISCOVERY_RANK),
      advice: { explicitBucketBoundaries: [0, 1, 2, 3, 5, 10, 20, 50] },
    }),
  };
}

const META_NAMES: ReadonlySet<string> = new Set(META_TOOL_NAMES);
const META_BY_MODE: Record<ResolvedMode, ReadonlySet<string>> = {
  direct: new Set(),
  discovery: new Set(['discover_tools', 'get_tool_schema', 'execute_tool']),
  unified: new Set(['unified_tool']),
};

/** What the audit event of one CallTool records; `surface` is set once step 1 found it. */
interface AuditedCall {
  surfaceId: string;
  surface?: SurfaceRecord;
  calledName: string;
  callId: string;
  /** The authenticated orchestrator ("" when the call did not authenticate). */
  orchestrator: string;
  /** The inner name a meta-tool was asked for, so a refusal records what was attempted. */
  attemptedName?: string;
  /** Size of a request refused for its size before it decoded, bytes. */
  requestBytes?: number;
  deadline: number;
  /** Set by the one audit of this call. */
  audited: boolean;
  /** The event's id, set when the tool is about to run (the start record and the event share it). */
  eventId?: string;
  /** Set when a person answered for this call through MCP elicitation (callAnsweredByPerson, auditPersonRefused). */
  person?: PersonDecision | PersonRefusal;
}

/** The call being served: what the model asked for, on which surface. */
interface CallContext extends AuditedCall {
  surface: SurfaceRecord;
}

/** Outcomes that are failures of the tool or the system rather than refusals (recorded as "error"). */
const ERROR_REASONS: ReadonlySet<string> = new Set<ReasonCode>([
  ReasonCode.TOOL_ERROR,
  ReasonCode.TOOL_TIMEOUT,
  ReasonCode.CAPABILITY_UNAVAILABLE,
  ReasonCode.RESULT_TOO_LARGE,
  ReasonCode.UNAVAILABLE,
  ReasonCode.INTERNAL,
]);

/** `s` cut to MAX_NAME_CHARS, so an over-long field still fits its audit event. */
function bounded(s: unknown): string {
  return typeof s === 'string' ? s.slice(0, MAX_NAME_CHARS) : '';
}

/** Where step 3 resolved a name to. */
interface Target {
  presentedName: string;
  capability: string;
  originalName: string;
  /** The bound tool's input schema; system tools use their precompiled validators. */
  inputSchema: Record<string, unknown>;
  system: boolean;
}

const EMPTY_UNIFIED: UnifiedInfo = { tool: '', confidence: 0, argumentsJson: '', candidates: [], missingArguments: [], executed: false };

function textContent(text: string): string {
  return JSON.stringify([{ type: 'text', text }]);
}

/** A tool result's content and structured content as the response carries them ("" when there is none). */
interface ResultJson {
  contentJson: string;
  structuredContentJson: string;
}

function resultJson(result: ToolResult): ResultJson {
  return {
    contentJson: JSON.stringify(result.content ?? []),
    structuredContentJson: result.structuredContent === undefined ? '' : JSON.stringify(result.structuredContent),
  };
}

/** A successful result; `json` is the result already serialised, when it was (see resultJson). */
function success(result: ToolResult, toolName: string, via: string, durationMs: number, json: ResultJson = resultJson(result)): CallResult {
  return {
    contentJson: json.contentJson,
    structuredContentJson: json.structuredContentJson,
    isError: false,
    reason: '',
    message: '',
    toolName,
    via,
    unified: undefined,
    durationMs,
  };
}

/** A model-facing error: a tool result with is_error, a reason code and one sentence (docs/DESIGN.md "Errors"). */
export function modelError(
  reason: ReasonCode,
  message: string,
  fields: { toolName?: string; via?: string; unified?: UnifiedInfo; content?: unknown[]; durationMs?: number } = {},
): CallResult {
  return {
    contentJson: fields.content && fields.content.length > 0 ? JSON.stringify(fields.content) : textContent(message),
    structuredContentJson: '',
    isError: true,
    reason,
    message,
    toolName: fields.toolName ?? '',
    via: fields.via ?? '',
    unified: fields.unified,
    durationMs: fields.durationMs ?? 0,
  };
}

/**
 * The one call path (docs/DESIGN.md "A call, step by step"): load the surface, resolve meta-tools of the
 * resolved mode, resolve the name against the snapshot, validate the arguments, admit, invoke, and
 * audit every call that reached step 3. Model-facing refusals come back as results; caller errors
 * are thrown AppErrors.
 */
export class DispatchService {
  private readonly validators: ValidatorCache;
  private readonly metaValidators = new Map<string, ArgumentValidator>();
  private readonly systemValidators = new Map<string, ArgumentValidator>();
  private readonly now: () => number;
  private readonly rateLimiter: RateLimits;
  private readonly metrics: CallMetrics = callMetrics();
  /** Names in the last discover_tools answer of each surface, in rank order (oldest surface dropped first). */
  private readonly lastHits = new Map<string, string[]>();

  constructor(
    private readonly ports: DispatchPorts,
    private readonly options: DispatcherOptions,
  ) {
    this.validators = options.validators ?? new ValidatorCache();
    this.now = ports.now ?? Date.now;
    this.rateLimiter = options.rateLimiter ?? new RateLimiter();
    for (const t of [...DISCOVERY_META_TOOLS, UNIFIED_META_TOOL]) this.metaValidators.set(t.name, this.validators.forSchema(t.inputSchema));
    for (const t of SYSTEM_TOOLS) this.systemValidators.set(t.name, this.validators.forSchema(t.inputSchema));
  }

  /**
   * Serves one CallTool. `deadline` is the caller's absolute deadline (ms since epoch). Every call
   * leaves exactly one `tool.called` event, refused ones and caller errors included.
   */
  async callTool(req: CallRequest, deadline = Infinity, caller: Caller = UNAUTHENTICATED_CALLER): Promise<CallResult> {
    return this.auditedCall(req, deadline, caller);
  }

  /**
   * Runs a call a person answered for through MCP elicitation (src/mcp/elicitation.ts): the call
   * unified_tool proposed, which they approved, or the tool and values they chose for a request it
   * refused. `req.name` is the bound tool. It takes the same steps 3 to 6 as any call on the
   * surface, via unified_tool (the surface's snapshot, the tool's schema, admission), and its
   * tool.called event records `person`.
   */
  async callAnsweredByPerson(
    req: CallRequest,
    person: PersonDecision,
    deadline = Infinity,
    caller: Caller = UNAUTHENTICATED_CALLER,
  ): Promise<CallResult> {
    return this.auditedCall(req, deadline, caller, person);
  }

  /**
   * Audits a person's no, through MCP elicitation (src/mcp/elicitation.ts), to the call unified_tool
   * proposed or to the rescue of a request it refused: nothing runs, and one tool.called event of
   * unified_tool's, with outcome and `person` "declined" or "cancelled", says so (`tool`: the tool
   * unified_tool named; `reason`: the refusal the model keeps, "" for a proposal).
   */
  async auditPersonRefused(
    req: { surfaceId: string; callId: string; tool: string; reason: ReasonCode | '' },
    person: PersonRefusal,
    caller: Caller = UNAUTHENTICATED_CALLER,
  ): Promise<void> {
    const rec: AuditedCall = {
      surfaceId: bounded(req.surfaceId),
      calledName: 'unified_tool',
      callId: bounded(req.callId),
      orchestrator: caller.orchestrator,
      deadline: Infinity,
      audited: false,
      person,
      ...(req.tool ? { attemptedName: bounded(req.tool) } : {}),
    };
    // The surface was open when the person was asked; a closed or expired one still names who was asked.
    const surface = await this.ports.surfaces.get(req.surfaceId).catch(() => undefined);
    if (surface) rec.surface = surface;
    const capability = surface && req.tool ? await this.capabilityOf(surface.snapshotId, req.tool) : '';
    const target = req.tool ? { presentedName: bounded(req.tool), capability } : undefined;
    this.audit(rec, 'unified_tool', target, person, req.reason, undefined, 0);
  }

  private async capabilityOf(snapshotId: string, tool: string): Promise<string> {
    try {
      return (await this.ports.snapshots.get(snapshotId)).byName.get(tool)?.capability ?? '';
    } catch {
      return '';
    }
  }

  private async auditedCall(req: CallRequest, deadline: number, caller: Caller, person?: PersonDecision): Promise<CallResult> {
    const rec: AuditedCall = {
      surfaceId: bounded(req.surfaceId),
      calledName: bounded(req.name),
      callId: bounded(req.callId),
      orchestrator: caller.orchestrator,
      deadline,
      audited: false,
      ...(person ? { person } : {}),
    };
    try {
      const result = await this.serve(req, rec, caller);
      if (!rec.audited) this.auditResult(rec, result);
      return result;
    } catch (e) {
      const code = isAppError(e) ? e.code : ReasonCode.INTERNAL;
      if (!rec.audited) this.audit(rec, 'direct', undefined, ERROR_REASONS.has(code) ? 'error' : 'refused', code, undefined, 0);
      throw e;
    }
  }

  /**
   * Audits a CallTool the gRPC layer refused before it got here: the caller did not authenticate,
   * the request did not decode, or the transport refused it (then `requestBytes` is its size when
   * known). `orchestrator` is "" when the caller is not known.
   */
  auditRejected(req: Partial<CallRequest>, reason: ReasonCode, orchestrator = '', requestBytes?: number): void {
    const rec: AuditedCall = {
      surfaceId: bounded(req.surfaceId),
      calledName: bounded(req.name),
      callId: bounded(req.callId),
      orchestrator,
      deadline: Infinity,
      audited: false,
      ...(requestBytes === undefined ? {} : { requestBytes }),
    };
    this.audit(rec, 'direct', undefined, 'refused', reason, undefined, 0);
  }

  private async serve(req: CallRequest, rec: AuditedCall, caller: Caller): Promise<CallResult> {
    if (!req.surfaceId) throw new AppError(ReasonCode.INVALID_REQUEST, 'surface_id is required');
    if (req.surfaceId.length > MAX_NAME_CHARS)
      throw new AppError(ReasonCode.INVALID_REQUEST, `surface_id is longer than ${MAX_NAME_CHARS} characters`);
    if (!req.name) throw new AppError(ReasonCode.INVALID_REQUEST, 'name is required');
    if (req.name.length > MAX_NAME_CHARS)
      throw new AppError(ReasonCode.INVALID_REQUEST, `name is longer than ${MAX_NAME_CHARS} characters`);
    // The call ID travels in the audit event: an unbounded one could push the event past NATS's message limit.
    if (typeof req.callId === 'string' && req.callId.length > MAX_NAME_CHARS)
      throw new AppError(ReasonCode.INVALID_REQUEST, `call_id is longer than ${MAX_NAME_CHARS} characters`);

    const surface = await this.loadSurface(req.surfaceId);
    // Another orchestrator's surface is answered as unknown: no oracle for who owns which ID.
    if (!mayActFor(caller, surface.principal)) {
      throw new AppError(
        ReasonCode.SURFACE_NOT_FOUND,
        `surface ${JSON.stringify(req.surfaceId.slice(0, 64))} does not exist; open a surface first`,
      );
    }
    const rpcSpan = trace.getActiveSpan();
    // Built only for a span that keeps them (not when tracing is off or the call is not sampled).
    if (rpcSpan?.isRecording()) {
      rpcSpan.setAttributes({
        [Attr.TS_SURFACE_ID]: surface.surfaceId,
        [Attr.TS_MODE]: surface.resolvedMode,
        [Attr.TS_SNAPSHOT_ID]: surface.snapshotId,
        [Attr.TS_PRINCIPAL]: principalKey(surface.principal),
      });
    }
    rec.surface = surface;
    const call = rec as CallContext;
    const args = parseArguments(req.argumentsJson, this.options.maxArgumentsBytes);
    // A person's answer is a call of unified_tool's, so only where unified_tool is presented.
    if (rec.person) {
      if (!META_BY_MODE[surface.resolvedMode].has('unified_tool'))
        return this.refuse(
          call,
          'unified_tool',
          undefined,
          ReasonCode.TOOL_NOT_FOUND,
          Messages.toolNotFound('unified_tool', surface.resolvedMode),
        );
      return (await this.realCall(call, req.name, args, 'unified_tool')).result;
    }

    if (META_NAMES.has(req.name)) {
      if (!META_BY_MODE[surface.resolvedMode].has(req.name)) {
        return this.refuse(call, 'direct', undefined, ReasonCode.TOOL_NOT_FOUND, Messages.toolNotFound(req.name, surface.resolvedMode));
      }
      return this.metaTool(call, req.name, args);
    }
    return (await this.realCall(call, req.name, args, 'direct')).result;
  }

  private async loadSurface(surfaceId: string): Promise<SurfaceRecord> {
    const s = await this.ports.surfaces.get(surfaceId);
    if (!s)
      throw new AppError(
        ReasonCode.SURFACE_NOT_FOUND,
        `surface ${JSON.stringify(surfaceId.slice(0, 64))} does not exist; open a surface first`,
      );
    if (s.closedAtMs !== undefined && s.closedAtMs !== null) {
      throw new AppError(
        ReasonCode.SURFACE_NOT_FOUND,
        `surface ${surfaceId} was closed at ${new Date(s.closedAtMs).toISOString()}; open a new surface`,
      );
    }
    if (this.now() >= s.expiresAtMs) {
      throw new AppError(
        ReasonCode.SURFACE_EXPIRED,
        `surface ${surfaceId} expired at ${new Date(s.expiresAtMs).toISOString()}; open a new surface`,
      );
    }
    return s;
  }

  // Step 2: the meta-tools of the resolved mode.
  private async metaTool(call: CallContext, name: string, args: ParsedArguments): Promise<CallResult> {
    const via = name === 'execute_tool' || name === 'unified_tool' ? name : 'meta';
    if (!args.ok) return modelError(ReasonCode.INVALID_ARGUMENTS, args.message, { toolName: name, via });
    // Recorded before the arguments are checked: a refusal for any reason still says what was tried.
    if ((name === 'execute_tool' || name === 'get_tool_schema') && typeof args.value.name === 'string')
      call.attemptedName = bounded(args.value.name);
    const problems = this.metaValidators.get(name)!(args.value);
    if (problems)
      return modelError(ReasonCode.INVALID_ARGUMENTS, Messages.invalidArguments(name, problems, call.surface.resolvedMode), {
        toolName: name,
        via,
      });
    const a = args.value;
    switch (name) {
      case 'discover_tools':
        if (String(a.query).trim() === '') {
          return modelError(ReasonCode.INVALID_ARGUMENTS, Messages.blankQuery(), { toolName: name, via });
        }
        return this.downstream(name, () => this.discoverTools(call, String(a.query), typeof a.limit === 'number' ? a.limit : 0));
      case 'get_tool_schema':
        return this.downstream(name, () => this.getToolSchema(call, String(a.name)));
      case 'execute_tool':
        return (await this.realCall(call, String(a.name), asObject(a.arguments), 'execute_tool')).result;
      case 'unified_tool':
        return this.downstream(name, () => this.unifiedTool(call, a));
      default:
        throw new AppError(ReasonCode.INTERNAL, `no handler for meta-tool ${name}`);
    }
  }

  /** Runs a call to another service; its model-facing refusals become results, anything else stays a caller error. */
  private async downstream(name: string, fn: () => Promise<CallResult>): Promise<CallResult> {
    try {
      return await fn();
    } catch (e) {
      if (isAppError(e) && MODEL_FACING_REASONS.has(e.code)) {
        return modelError(e.code, e.message, { toolName: name, via: name === 'unified_tool' ? 'unified_tool' : 'meta' });
      }
      throw e;
    }
  }

  private async discoverTools(call: CallContext, query: string, limit: number): Promise<CallResult> {
    const { surface } = call;
    const res = await this.ports.discovery.discoverTools({ snapshotId: surface.snapshotId, query, limit }, call.deadline);
    // Defence in depth for product rule 6: never offer a tool admission would refuse outright.
    const snapshot = await this.ports.snapshots.get(surface.snapshotId);
    const policy = this.ports.settings.admissionPolicy();
    const hits = res.hits.filter((h) => {
      const def = snapshot.byName.get(h.name);
      return def !== undefined && !refusedOutright(surface.principal, def.capability, def.originalName, policy);
    });
    this.lastHits.delete(surface.surfaceId);
    this.lastHits.set(
      surface.surfaceId,
      hits.map((h) => h.name),
    );
    if (this.lastHits.size > RANKED_SURFACES_MAX) this.lastHits.delete(this.lastHits.keys().next().value!);
    const body: Record<string, unknown> = { hits, total_tools: res.totalTools };
    if (hits.length === 0 && res.emptyReason) body.empty_reason = res.emptyReason;
    if (res.hint) body.hint = res.hint;
    return success(
      { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: false },
      'discover_tools',
      'meta',
      0,
    );
  }

  private async getToolSchema(call: CallContext, name: string): Promise<CallResult> {
    const { surface } = call;
    const snapshot = await this.ports.snapshots.get(surface.snapshotId);
    const def = snapshot.byName.get(name);
    if (!def || refusedOutright(surface.principal, def.capability, def.originalName, this.ports.settings.admissionPolicy())) {
      return modelError(ReasonCode.TOOL_NOT_IN_SNAPSHOT, Messages.notInSnapshot(name, surface.resolvedMode), {
        toolName: 'get_tool_schema',
        via: 'meta',
      });
    }
    const tool = await this.ports.discovery.getToolSchema({ snapshotId: surface.snapshotId, name }, call.deadline);
    const body = tool as unknown as Record<string, unknown>;
    return success(
      { content: [{ type: 'text', text: JSON.stringify(tool) }], structuredContent: body, isError: false },
      'get_tool_schema',
      'meta',
      0,
    );
  }

  private async unifiedTool(call: CallContext, a: Record<string, unknown>): Promise<CallResult> {
    const { surface } = call;
    // unified-mapper refuses preferred_tools outside the snapshot itself (product rule 4), telling the model which.
    const preferredTools = Array.isArray(a.preferred_tools) ? a.preferred_tools.map(String) : [];
    if (deeperThan(a.context, MAX_ARGUMENT_DEPTH))
      return modelError(ReasonCode.INVALID_ARGUMENTS, Messages.contextTooDeep(MAX_ARGUMENT_DEPTH), {
        toolName: 'unified_tool',
        via: 'unified_tool',
      });
    const mapped = await this.ports.unified.mapRequest(
      {
        snapshotId: surface.snapshotId,
        request: String(a.request),
        contextJson: a.context === undefined ? '' : JSON.stringify(a.context),
        preferredTools,
      },
      call.deadline,
    );
    const meta: UnifiedInfo = { ...EMPTY_UNIFIED, ...mapped.metadata, executed: false };
    trace.getActiveSpan()?.setAttribute(Attr.TS_CONFIDENCE, meta.confidence);
    switch (mapped.decision) {
      case 'execute': {
        const autonomy = this.ports.settings.autonomy(surface.principal) ?? surface.autonomy;
        // A supervised gateway gets the proposed call, once the same checks as a real call passed
        // (a call admission would refuse is refused, not proposed); nothing runs.
        const propose =
          surface.principal.kind === 'gateway' && autonomy === 'supervised'
            ? (): CallResult => {
                const proposal = { tool: meta.tool, arguments: safeJson(meta.argumentsJson), confidence: meta.confidence };
                return {
                  contentJson: textContent(`${Messages.proposal(meta.tool, meta.confidence)} ${JSON.stringify(proposal)}`),
                  structuredContentJson: JSON.stringify({ proposal }),
                  isError: false,
                  reason: '',
                  message: Messages.proposal(meta.tool, meta.confidence),
                  toolName: meta.tool,
                  via: 'unified_tool',
                  unified: meta,
                  durationMs: 0,
                };
              }
            : undefined;
        const { result, ran } = await this.realCall(
          call,
          meta.tool,
          parseArguments(meta.argumentsJson, this.options.maxArgumentsBytes),
          'unified_tool',
          meta.confidence,
          propose,
        );
        if (propose && !result.isError) return result;
        result.unified = { ...meta, executed: ran };
        return result;
      }
      case 'low_confidence': {
        const candidates = [...meta.candidates].sort((x, y) => y.confidence - x.confidence);
        // unified-mapper's "Not run: …" explanation says why it held back a call it was confident
        // of (request values left out, a destructive action on one side only): passed on as is
        const heldBack = mapped.explanation.startsWith(UNIFIED_HELD_BACK_PREFIX) ? mapped.explanation.replace(/\.?\s*$/, '') : '';
        // no candidate close to the request: said so, rather than asking for an unrelated tool's arguments
        const noneClose = mapped.explanation.startsWith(UNIFIED_NO_CLOSE_TOOL_PREFIX);
        return modelError(
          ReasonCode.LOW_CONFIDENCE,
          noneClose
            ? Messages.noCloseTool(candidates)
            : Messages.lowConfidence(candidates, heldBack, { tool: meta.tool, missing: meta.missingArguments }, preferredTools.length > 0),
          {
            toolName: meta.tool,
            via: 'unified_tool',
            unified: { ...meta, candidates },
          },
        );
      }
      case 'missing_arguments':
        return modelError(ReasonCode.MISSING_ARGUMENTS, Messages.missingArguments(meta.tool, meta.missingArguments), {
          toolName: meta.tool,
          via: 'unified_tool',
          unified: meta,
        });
      default:
        throw new AppError(ReasonCode.INTERNAL, `unified-mapper answered an unknown decision "${mapped.decision}"`);
    }
  }

  // Steps 3 to 6 for one real call. `ran` is true once the tool was invoked (step 6).
  private async realCall(
    call: CallContext,
    name: string,
    args: ParsedArguments,
    via: Via,
    confidence?: number,
    /** Supervised autonomy: check everything, then answer with this proposal instead of invoking. */
    propose?: () => CallResult,
  ): Promise<{ result: CallResult; ran: boolean }> {
    const { surface } = call;
    const mode = surface.resolvedMode;
    if (via === 'unified_tool') call.attemptedName = bounded(name);

    // Step 3: resolve the name.
    let target: Target;
    if (isSystemToolName(name)) {
      // Product rule 5: a system tool is never folded behind a meta-tool.
      if (via !== 'direct') return this.refused(call, via, ReasonCode.TOOL_NOT_IN_SNAPSHOT, Messages.systemToolBehindMetaTool(name, via));
      target = { presentedName: name, capability: SYSTEM_CAPABILITY, originalName: name, inputSchema: {}, system: true };
    } else if (META_NAMES.has(name)) {
      return this.refused(call, via, ReasonCode.TOOL_NOT_IN_SNAPSHOT, Messages.metaToolBehindMetaTool(name, via));
    } else {
      const snapshot = await this.ports.snapshots.get(surface.snapshotId);
      const def = snapshot.byName.get(name);
      if (!def) {
        // A name the collision rule prefixed: point to the names it is shown under.
        const presented = snapshot.tools.filter((t) => t.originalName === name && t.name !== name).map((t) => t.name);
        if (presented.length > 0) return this.refused(call, via, ReasonCode.TOOL_NOT_FOUND, Messages.shownAs(name, presented));
        // Through a meta-tool the snapshot is the whole world (product rule 3); only a call by a
        // name of its own tells an unknown name from one bound since the surface opened. A tool
        // admission hides from the principal gets the answer of an unknown name, word for word, so
        // the answer does not tell that it exists; only the audit names the rule that hides it.
        const hiddenBy = this.ports.settings.hiddenBy?.(surface.principal, name);
        const hidden: AdmissionResult | undefined = hiddenBy === undefined ? undefined : { decision: 'deny', rule: hiddenBy };
        return via !== 'direct' || this.ports.settings.isBoundToolName(surface.principal, name)
          ? this.refused(call, via, ReasonCode.TOOL_NOT_IN_SNAPSHOT, Messages.notInSnapshot(name, mode), undefined, hidden)
          : this.refused(call, via, ReasonCode.TOOL_NOT_FOUND, Messages.toolNotFound(name, mode), undefined, hidden);
      }
      target = {
        presentedName: def.name,
        capability: def.capability,
        originalName: def.originalName,
        inputSchema: def.inputSchema ?? {},
        system: false,
      };
      if (via === 'direct' && mode !== 'direct')
        return this.refused(call, via, ReasonCode.TOOL_NOT_DIRECTLY_CALLABLE, Messages.notDirectlyCallable(name, mode), target);
    }

    const attributes: Attributes = {
      [Attr.GEN_AI_OPERATION_NAME]: 'execute_tool',
      [Attr.GEN_AI_TOOL_NAME]: target.presentedName,
      [Attr.TS_MODE]: mode,
      [Attr.TS_SNAPSHOT_ID]: surface.snapshotId,
      [Attr.TS_SURFACE_ID]: surface.surfaceId,
      [Attr.TS_VIA]: via,
      [Attr.TS_CAPABILITY]: target.capability,
      [Attr.TS_PRINCIPAL]: principalKey(surface.principal),
    };
    if (call.callId) attributes[Attr.GEN_AI_TOOL_CALL_ID] = call.callId;
    if (confidence !== undefined) attributes[Attr.TS_CONFIDENCE] = confidence;
    const span = this.options.tracer.startSpan(`execute_tool ${target.presentedName}`, { kind: SpanKind.INTERNAL, attributes });
    return context.with(trace.setSpan(context.active(), span), async () => {
      try {
        return await this.checkAndInvoke(call, target, args, via, span, propose);
      } catch (e) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: String((e as Error)?.message ?? e) });
        span.setAttribute(Attr.ERROR_TYPE, isAppError(e) ? e.code : 'INTERNAL');
        throw e;
      } finally {
        span.end();
      }
    });
  }

  // Steps 4 to 6 inside the execute_tool span.
  private async checkAndInvoke(
    call: CallContext,
    target: Target,
    args: ParsedArguments,
    via: Via,
    span: Span,
    propose?: () => CallResult,
  ): Promise<{ result: CallResult; ran: boolean }> {
    const { surface } = call;

    // Step 4: arguments against the snapshot's input schema.
    if (!args.ok) return this.failed(call, via, target, span, ReasonCode.INVALID_ARGUMENTS, args.message);
    const validator = target.system
      ? this.systemValidators.get(target.originalName)!
      : this.validators.forTool(surface.snapshotId, target.presentedName, target.inputSchema);
    const problems = validator(args.value);
    if (problems)
      return this.failed(
        call,
        via,
        target,
        span,
        ReasonCode.INVALID_ARGUMENTS,
        Messages.invalidArguments(target.presentedName, problems, surface.resolvedMode),
      );

    // Step 5: admission, the same inputs on every path (product rule 6).
    const policy = this.ports.settings.admissionPolicy();
    const admission = admit(
      { principal: surface.principal, capability: target.capability, tool: target.originalName, arguments: args.value, via },
      policy,
    );
    span.setAttributes({ [Attr.TS_ADMISSION_DECISION]: admission.decision, [Attr.TS_ADMISSION_RULE]: admission.rule });
    if (admission.decision === 'deny')
      return this.failed(call, via, target, span, ReasonCode.PERMISSION_DENIED, Messages.permissionDenied(target.presentedName), admission);

    // Admission's limits on an admitted call: argument size, then the rate (a refused call takes no token).
    const limits = limitsFor(surface.principal, target.capability, target.originalName, policy);
    if (limits.length > 0) {
      const argBytes = Buffer.byteLength(JSON.stringify(args.value), 'utf8');
      const big = sizeLimitExceeded(limits, argBytes, 'maxArgumentBytes');
      if (big)
        return this.failed(call, via, target, span, ReasonCode.ARGUMENTS_TOO_LARGE, Messages.argumentsTooLarge(argBytes, big.max), {
          decision: 'deny',
          rule: big.limit.id,
        });
    }
    if (propose) {
      this.audit(call, via, target, 'proposed', '', admission, 0);
      return { result: propose(), ran: false };
    }
    // Too little of the caller's deadline left to run the tool and still answer: do not start it.
    if (call.deadline - this.now() - RESPONSE_MARGIN_MS < MIN_TOOL_BUDGET_MS) {
      return this.failed(call, via, target, span, ReasonCode.TOOL_TIMEOUT, Messages.noTimeLeft(target.presentedName), admission);
    }
    if (limits.length > 0) {
      const limited = await this.rateLimiter.take(limits, surface.principal, target.capability, target.originalName, this.now());
      if (limited) {
        span.setAttribute(Attr.TS_ADMISSION_RULE, limited.limit.id);
        return this.failed(
          call,
          via,
          target,
          span,
          ReasonCode.RATE_LIMITED,
          Messages.rateLimited(target.presentedName, limited.retryAfterMs),
          { decision: 'deny', rule: limited.limit.id },
        );
      }
    }

    // Step 6: invoke with the capability's deadline, capped by the caller's.
    const timeoutMs = target.system
      ? DEFAULT_TOOL_TIMEOUT_MS
      : (this.ports.capabilities.timeoutMs(target.capability) ?? DEFAULT_TOOL_TIMEOUT_MS);
    // Time out before the caller's deadline, so the model gets TOOL_TIMEOUT rather than the caller DEADLINE_EXCEEDED.
    const budget = Math.min(timeoutMs, call.deadline - this.now() - RESPONSE_MARGIN_MS);
    // Written down before it runs, so a process killed mid-call still leaves an event (throws UNAVAILABLE when it cannot be).
    call.eventId = randomUUID();
    try {
      this.ports.audit.toolStarting?.({
        ...this.auditEvent(call, via, target, 'error', ReasonCode.INTERNAL, admission, 0),
        eventId: call.eventId,
      });
    } catch (e) {
      // Not run: audited with the tool it was for, then the caller gets the error (UNAVAILABLE).
      this.audit(call, via, target, 'error', isAppError(e) ? e.code : ReasonCode.INTERNAL, admission, 0);
      throw e;
    }
    const started = performance.now();
    let result: ToolResult;
    try {
      result = target.system
        ? await this.ports.systemTools.run(target.originalName, surface.principal, args.value)
        : await this.ports.capabilities.call(target.capability, target.originalName, args.value, budget);
    } catch (e) {
      const durationMs = performance.now() - started;
      const reason = isAppError(e) ? e.code : ReasonCode.INTERNAL;
      this.audit(call, via, target, 'error', reason, admission, durationMs);
      span.setAttributes({ [Attr.TS_REASON]: reason, [Attr.ERROR_TYPE]: reason });
      span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
      if (reason === ReasonCode.TOOL_TIMEOUT) {
        return {
          result: modelError(reason, Messages.toolTimeout(target.presentedName, budget), {
            toolName: target.presentedName,
            via,
            durationMs,
          }),
          ran: true,
        };
      }
      if (reason === ReasonCode.CAPABILITY_UNAVAILABLE) {
        return {
          result: modelError(reason, Messages.capabilityUnavailable(target.presentedName), {
            toolName: target.presentedName,
            via,
            durationMs,
          }),
          ran: false,
        };
      }
      throw e;
    }
    const durationMs = performance.now() - started;
    // Serialised once: measured here when limits apply, then sent as they are.
    let json: ResultJson | undefined;
    if (limits.length > 0) {
      json = resultJson(result);
      const resultBytes = Buffer.byteLength(json.contentJson, 'utf8') + Buffer.byteLength(json.structuredContentJson, 'utf8');
      const big = sizeLimitExceeded(limits, resultBytes, 'maxResultBytes');
      if (big) {
        // The tool ran; its result is withheld from the model.
        const decision: AdmissionResult = { decision: 'deny', rule: big.limit.id };
        this.audit(call, via, target, 'error', ReasonCode.RESULT_TOO_LARGE, decision, durationMs);
        span.setAttributes({
          [Attr.TS_REASON]: ReasonCode.RESULT_TOO_LARGE,
          [Attr.ERROR_TYPE]: ReasonCode.RESULT_TOO_LARGE,
          [Attr.TS_ADMISSION_RULE]: big.limit.id,
        });
        span.setStatus({ code: SpanStatusCode.ERROR, message: ReasonCode.RESULT_TOO_LARGE });
        return {
          result: modelError(ReasonCode.RESULT_TOO_LARGE, Messages.resultTooLarge(target.presentedName, resultBytes, big.max), {
            toolName: target.presentedName,
            via,
            durationMs,
          }),
          ran: true,
        };
      }
    }
    if (result.isError) {
      this.audit(call, via, target, 'error', ReasonCode.TOOL_ERROR, admission, durationMs);
      span.setAttributes({ [Attr.TS_REASON]: ReasonCode.TOOL_ERROR, [Attr.ERROR_TYPE]: ReasonCode.TOOL_ERROR });
      span.setStatus({ code: SpanStatusCode.ERROR, message: ReasonCode.TOOL_ERROR });
      const res = modelError(ReasonCode.TOOL_ERROR, Messages.toolError(target.presentedName, errorDetail(result.content ?? [])), {
        toolName: target.presentedName,
        via,
        content: result.content,
        durationMs,
      });
      if (result.structuredContent !== undefined) res.structuredContentJson = JSON.stringify(result.structuredContent);
      return { result: res, ran: true };
    }
    this.audit(call, via, target, 'ok', '', admission, durationMs);
    return { result: success(result, target.presentedName, via, durationMs, json), ran: true };
  }

  /** The audit of a call whose result was not audited on the way: meta-tools, unified refusals and proposals. */
  private auditResult(call: AuditedCall, result: CallResult): void {
    const via: Via = result.via === 'execute_tool' || result.via === 'unified_tool' ? result.via : 'direct';
    const target = result.toolName
      ? { presentedName: result.toolName, capability: META_NAMES.has(result.toolName) ? 'meta' : '' }
      : undefined;
    const outcome = result.isError
      ? ERROR_REASONS.has(result.reason)
        ? 'error'
        : 'refused'
      : result.unified !== undefined && !result.unified.executed
        ? 'proposed'
        : 'ok';
    this.audit(call, via, target, outcome, result.reason as ReasonCode | '', undefined, result.durationMs);
  }

  /** A refusal in step 3, before the execute_tool span (the RPC span gets the reason). */
  private refused(
    call: CallContext,
    via: Via,
    reason: ReasonCode,
    message: string,
    target?: Target,
    admission?: AdmissionResult,
  ): { result: CallResult; ran: boolean } {
    // No execute_tool span yet: the RPC span gets the reason (refuse sets it only without a decision).
    if (admission !== undefined) trace.getActiveSpan()?.setAttribute(Attr.TS_REASON, reason);
    return { result: this.refuse(call, via, target, reason, message, admission), ran: false };
  }

  /** A refusal in steps 4 to 6, recorded on the execute_tool span. */
  private failed(
    call: CallContext,
    via: Via,
    target: Target,
    span: Span,
    reason: ReasonCode,
    message: string,
    admission?: AdmissionResult,
  ): { result: CallResult; ran: boolean } {
    span.setAttributes({ [Attr.TS_REASON]: reason, [Attr.ERROR_TYPE]: reason });
    span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    return { result: this.refuse(call, via, target, reason, message, admission), ran: false };
  }

  private refuse(
    call: CallContext,
    via: Via,
    target: Target | undefined,
    reason: ReasonCode,
    message: string,
    admission?: AdmissionResult,
  ): CallResult {
    if (admission === undefined) trace.getActiveSpan()?.setAttribute(Attr.TS_REASON, reason);
    this.audit(call, via, target, 'refused', reason, admission, 0);
    return modelError(reason, message, { toolName: target?.presentedName ?? '', via });
  }

  private audit(
    call: AuditedCall,
    via: Via,
    target: Pick<Target, 'presentedName' | 'capability'> | undefined,
    outcome: ToolCalledEvent['outcome'],
    reason: ReasonCode | '',
    admission: AdmissionResult | undefined,
    durationMs: number,
  ): void {
    call.audited = true;
    const toolName = target?.presentedName ?? '';
    this.metrics.calls.add(1, {
      [Attr.GEN_AI_TOOL_NAME]: toolName,
      [Attr.TS_VIA]: via,
      [Attr.TS_OUTCOME]: outcome,
      [Attr.TS_REASON]: reason,
      [Attr.TS_CAPABILITY]: target?.capability ?? '',
    });
    const ran =
      (outcome === 'ok' || outcome === 'error') && target !== undefined && target.capability !== '' && target.capability !== 'meta';
    if (ran) {
      this.metrics.duration.record(durationMs / 1000, {
        [Attr.GEN_AI_TOOL_NAME]: toolName,
        [Attr.TS_VIA]: via,
        [Attr.TS_OUTCOME]: outcome,
      });
      if (via === 'execute_tool' && call.surface) {
        const rank = (this.lastHits.get(call.surface.surfaceId)?.indexOf(toolName) ?? -1) + 1;
        this.metrics.rank.record(rank, { [Attr.TS_DISCOVERED]: rank > 0 });
      }
    }
    this.ports.audit.toolCalled(this.auditEvent(call, via, target, outcome, reason, admission, durationMs));
  }

  private auditEvent(
    call: AuditedCall,
    via: Via,
    target: Pick<Target, 'presentedName' | 'capability'> | undefined,
    outcome: ToolCalledEvent['outcome'],
    reason: ReasonCode | '',
    admission: AdmissionResult | undefined,
    durationMs: number,
  ): ToolCalledEvent {
    return {
      surfaceId: call.surface?.surfaceId ?? call.surfaceId,
      principal: call.surface?.principal,
      snapshotId: call.surface?.snapshotId ?? '',
      orchestrator: call.orchestrator,
      calledName: call.calledName,
      toolName: target?.presentedName ?? '',
      capability: target?.capability ?? '',
      via,
      outcome,
      reason,
      admission,
      durationMs,
      callId: call.callId,
      atMs: this.now(),
      ...(call.person ? { person: call.person } : {}),
      ...(call.attemptedName === undefined ? {} : { attemptedName: call.attemptedName }),
      ...(call.requestBytes === undefined ? {} : { requestBytes: call.requestBytes }),
      ...(call.eventId ? { eventId: call.eventId } : {}),
    };
  }
}

function safeJson(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
