// What GET /api/principals/<kind>/<id>/activity answers: shared by the server and the web app (types only, no imports).

/** One tool call as a principal's Recent activity lists it (from a `tool.called` event). */
export interface ActivityEntry {
  /** The order in which the portal read it: tells entries apart (stream sequences start over with a new stream). */
  seq: number;
  atMs: number;
  /** The bound or system tool the call resolved to, else the name asked of a meta-tool, else the name called. */
  tool: string;
  /** The name the model called (a meta-tool's name for a call through execute_tool or unified_tool). */
  calledName: string;
  capability: string;
  via: string;
  /** ok, error, refused or proposed. */
  outcome: string;
  reason: string;
  /** Admission's decision (allow or deny) and the rule or limit that made it. */
  decision: string;
  rule: string;
  durationMs: number;
  orchestrator: string;
}

/** live: reading new calls as they come; replaying: reading the recent window; unavailable: no NATS or no stream (see message); off: not configured. */
export type ActivityStatus = 'connecting' | 'replaying' | 'live' | 'unavailable' | 'off';

/** What GET /api/principals/<kind>/<id>/activity answers. */
export interface ActivityView {
  status: ActivityStatus;
  message: string;
  bounds: { perPrincipal: number; principals: number; replay: number };
  refusalsOnly: boolean;
  calls: ActivityEntry[];
}
