import { META_TOOL_NAMES, type Via } from '@toolsurface/core';
import type { SurfaceRecord } from '@toolsurface/state';
import type { ParsedArguments } from './domain/arguments';
import type { CallResult, PersonDecision, PersonRefusal } from './domain/ports';

export const META_NAMES: ReadonlySet<string> = new Set(META_TOOL_NAMES);

/** What the audit event of one CallTool records; `surface` is set once step 1 found it. */
export interface AuditedCall {
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
export interface CallContext extends AuditedCall {
  surface: SurfaceRecord;
}

/** Steps 3 to 6 for one real call (DispatchService); `ran` is true once the tool was invoked (step 6). */
export type RealCall = (
  call: CallContext,
  name: string,
  args: ParsedArguments,
  via: Via,
  confidence?: number,
  /** Supervised autonomy: check everything, then answer with this proposal instead of invoking. */
  propose?: () => CallResult,
) => Promise<{ result: CallResult; ran: boolean }>;
