import { trace } from '@opentelemetry/api';
import { AppError, Attr, ReasonCode, UNIFIED_HELD_BACK_PREFIX, UNIFIED_NO_CLOSE_TOOL_PREFIX } from '@toolsurface/core';
import type { CallContext, RealCall } from './call-context';
import { modelError, textContent } from './call-result';
import { MAX_ARGUMENT_DEPTH, deeperThan, parseArguments } from './domain/arguments';
import { Messages } from './domain/messages';
import type { CallResult, DispatchPorts, UnifiedInfo } from './domain/ports';

const EMPTY_UNIFIED: UnifiedInfo = { tool: '', confidence: 0, argumentsJson: '', candidates: [], missingArguments: [], executed: false };

/** unified_tool (step 2 in unified mode): UnifiedService maps the request, and an `execute` decision re-enters step 3. */
export class UnifiedMetaTool {
  constructor(
    private readonly ports: DispatchPorts,
    private readonly maxArgumentsBytes: number,
    private readonly realCall: RealCall,
  ) {}

  async unifiedTool(call: CallContext, a: Record<string, unknown>): Promise<CallResult> {
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
          parseArguments(meta.argumentsJson, this.maxArgumentsBytes),
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
}

function safeJson(text: string): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
