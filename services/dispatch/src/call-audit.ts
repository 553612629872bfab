import { metrics, type Counter, type Histogram } from '@opentelemetry/api';
import { Attr, INSTRUMENTATION_SCOPE, Metric, ReasonCode, type AdmissionResult, type Via } from '@toolsurface/core';
import { META_NAMES, type AuditedCall } from './call-context';
import type { AuditPort, CallResult, ToolCalledEvent } from './domain/ports';
import type { Target } from './name-resolution';

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

/** Outcomes that are failures of the tool or the system rather than refusals (recorded as "error"). */
export const ERROR_REASONS: ReadonlySet<string> = new Set<ReasonCode>([
  ReasonCode.TOOL_ERROR,
  ReasonCode.TOOL_TIMEOUT,
  ReasonCode.CAPABILITY_UNAVAILABLE,
  ReasonCode.RESULT_TOO_LARGE,
  ReasonCode.UNAVAILABLE,
  ReasonCode.INTERNAL,
]);

/** What one audit records: the call, how the tool was reached, the tool, how the call ended. */
type AuditArgs = [
  call: AuditedCall,
  via: Via,
  target: Pick<Target, 'presentedName' | 'capability'> | undefined,
  outcome: ToolCalledEvent['outcome'],
  reason: ReasonCode | '',
  admission: AdmissionResult | undefined,
  durationMs: number,
];

/** The one audit of each call: its `tool.called` event and the call path's metrics. */
export class CallAudit {
  private readonly metrics: CallMetrics = callMetrics();
  /** Names in the last discover_tools answer of each surface, in rank order (oldest surface dropped first). */
  private readonly lastHits = new Map<string, string[]>();

  constructor(
    private readonly sink: AuditPort,
    private readonly now: () => number,
  ) {}

  /** Keeps the names of a surface's discover_tools answer, in rank order, for the discovery-rank metric. */
  rememberHits(surfaceId: string, names: string[]): void {
    this.lastHits.delete(surfaceId);
    this.lastHits.set(surfaceId, names);
    if (this.lastHits.size > RANKED_SURFACES_MAX) this.lastHits.delete(this.lastHits.keys().next().value!);
  }

  /** The audit of a call whose result was not audited on the way: meta-tools, unified refusals and proposals. */
  result(call: AuditedCall, result: CallResult): void {
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
    this.record(call, via, target, outcome, result.reason as ReasonCode | '', undefined, result.durationMs);
  }

  record(...args: AuditArgs): void {
    const [call, via, target, outcome, reason, , durationMs] = args;
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
    this.sink.toolCalled(this.event(...args));
  }

  event(...[call, via, target, outcome, reason, admission, durationMs]: AuditArgs): ToolCalledEvent {
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
