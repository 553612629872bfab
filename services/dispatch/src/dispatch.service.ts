import { randomUUID } from 'node:crypto';
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import {
  admit,
  AppError,
  DEFAULT_TOOL_TIMEOUT_MS,
  DISCOVERY_META_TOOLS,
  isAppError,
  limitsFor,
  RateLimiter,
  type RateLimits,
  sizeLimitExceeded,
  MODEL_FACING_REASONS,
  principalKey,
  ReasonCode,
  SYSTEM_TOOLS,
  UNIFIED_META_TOOL,
  type AdmissionResult,
  type ResolvedMode,
  type Via,
} from '@toolsurface/core';
import { Attr, mayActFor, UNAUTHENTICATED_CALLER, type Caller } from '@toolsurface/core';
import type { SurfaceRecord } from '@toolsurface/state';
import { CallAudit, ERROR_REASONS } from './call-audit';
import { META_NAMES, type AuditedCall, type CallContext, type RealCall } from './call-context';
import { modelError, resultJson, success, type ResultJson } from './call-result';
import { DiscoveryMetaTools } from './discovery-meta-tools';
import { asObject, parseArguments, type ParsedArguments } from './domain/arguments';
import { errorDetail, Messages } from './domain/messages';
import type { CallRequest, CallResult, DispatchPorts, PersonDecision, PersonRefusal, ToolResult } from './domain/ports';
import { ValidatorCache, type ArgumentValidator } from './domain/validators';
import { resolveName, type Target } from './name-resolution';
import { UnifiedMetaTool } from './unified-meta-tool';

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

const META_BY_MODE: Record<ResolvedMode, ReadonlySet<string>> = {
  direct: new Set(),
  discovery: new Set(['discover_tools', 'get_tool_schema', 'execute_tool']),
  unified: new Set(['unified_tool']),
};

/** `s` cut to MAX_NAME_CHARS, so an over-long field still fits its audit event. */
function bounded(s: unknown): string {
  return typeof s === 'string' ? s.slice(0, MAX_NAME_CHARS) : '';
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
  private readonly audit: CallAudit;
  private readonly discovery: DiscoveryMetaTools;
  private readonly unified: UnifiedMetaTool;

  constructor(
    private readonly ports: DispatchPorts,
    private readonly options: DispatcherOptions,
  ) {
    this.validators = options.validators ?? new ValidatorCache();
    this.now = ports.now ?? Date.now;
    this.rateLimiter = options.rateLimiter ?? new RateLimiter();
    this.audit = new CallAudit(ports.audit, this.now);
    this.discovery = new DiscoveryMetaTools(ports, this.audit);
    this.unified = new UnifiedMetaTool(ports, options.maxArgumentsBytes, this.realCall);
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
    this.audit.record(rec, 'unified_tool', target, person, req.reason, undefined, 0);
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
      if (!rec.audited) this.audit.result(rec, result);
      return result;
    } catch (e) {
      const code = isAppError(e) ? e.code : ReasonCode.INTERNAL;
      if (!rec.audited) this.audit.record(rec, 'direct', undefined, ERROR_REASONS.has(code) ? 'error' : 'refused', code, undefined, 0);
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
    this.audit.record(rec, 'direct', undefined, 'refused', reason, undefined, 0);
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
        return this.downstream(name, () => this.discovery.discoverTools(call, String(a.query), typeof a.limit === 'number' ? a.limit : 0));
      case 'get_tool_schema':
        return this.downstream(name, () => this.discovery.getToolSchema(call, String(a.name)));
      case 'execute_tool':
        return (await this.realCall(call, String(a.name), asObject(a.arguments), 'execute_tool')).result;
      case 'unified_tool':
        return this.downstream(name, () => this.unified.unifiedTool(call, a));
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

  // Steps 3 to 6 for one real call. `ran` is true once the tool was invoked (step 6).
  private readonly realCall: RealCall = async (call, name, args, via, confidence, propose) => {
    const { surface } = call;
    const mode = surface.resolvedMode;
    if (via === 'unified_tool') call.attemptedName = bounded(name);

    // Step 3: resolve the name.
    const resolved = await resolveName(this.ports, surface, name, via);
    if (!resolved.ok) return this.refused(call, via, resolved.reason, resolved.message, resolved.target, resolved.admission);
    const { target } = resolved;

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
  };

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
      this.audit.record(call, via, target, 'proposed', '', admission, 0);
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
        ...this.audit.event(call, via, target, 'error', ReasonCode.INTERNAL, admission, 0),
        eventId: call.eventId,
      });
    } catch (e) {
      // Not run: audited with the tool it was for, then the caller gets the error (UNAVAILABLE).
      this.audit.record(call, via, target, 'error', isAppError(e) ? e.code : ReasonCode.INTERNAL, admission, 0);
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
      this.audit.record(call, via, target, 'error', reason, admission, durationMs);
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
        this.audit.record(call, via, target, 'error', ReasonCode.RESULT_TOO_LARGE, decision, durationMs);
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
      this.audit.record(call, via, target, 'error', ReasonCode.TOOL_ERROR, admission, durationMs);
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
    this.audit.record(call, via, target, 'ok', '', admission, durationMs);
    return { result: success(result, target.presentedName, via, durationMs, json), ran: true };
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
    this.audit.record(call, via, target, 'refused', reason, admission, 0);
    return modelError(reason, message, { toolName: target?.presentedName ?? '', via });
  }
}
