import type { AdmissionPolicy, Autonomy, McpTool, PrincipalRef, ReasonCode, Via } from '@toolsurface/core';
import type { Snapshot, SurfaceRecord } from '@toolsurface/state';

/** What a capability (or a system tool) returned: MCP CallToolResult fields. */
export interface ToolResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/** One tool call as the model made it. */
export interface CallRequest {
  surfaceId: string;
  name: string;
  argumentsJson: string;
  callId: string;
}

/** unified_tool's decision, carried back to the caller. Same shape as the proto UnifiedMetadata. */
export interface UnifiedInfo {
  tool: string;
  confidence: number;
  argumentsJson: string;
  candidates: Array<{ name: string; confidence: number; argumentsJson: string; missingArguments: string[] }>;
  missingArguments: string[];
  executed: boolean;
}

/** The answer to one call. Same shape as the proto CallToolResponse. */
export interface CallResult {
  contentJson: string;
  structuredContentJson: string;
  isError: boolean;
  reason: string;
  message: string;
  toolName: string;
  via: string;
  unified: UnifiedInfo | undefined;
  durationMs: number;
}

/** One audited call (becomes a `tool.called` event). */
export interface ToolCalledEvent {
  surfaceId: string;
  /** Unset when the call was refused before its surface was found. */
  principal: PrincipalRef | undefined;
  snapshotId: string;
  /** The authenticated orchestrator; "" when the call did not authenticate. */
  orchestrator: string;
  calledName: string;
  toolName: string;
  capability: string;
  via: Via;
  /**
   * proposed: unified_tool of a supervised gateway, nothing ran; declined or cancelled: a person
   * asked through MCP elicitation did not approve the call (or the rescue), nothing ran.
   */
  outcome: 'ok' | 'error' | 'refused' | 'proposed' | PersonRefusal;
  reason: ReasonCode | '';
  admission: { decision: 'allow' | 'deny'; rule: string } | undefined;
  durationMs: number;
  callId: string;
  atMs: number;
  /** How a person answered through MCP elicitation: approved or chose (the call ran), or declined or cancelled (it did not). */
  person?: PersonDecision | PersonRefusal;
  /** The inner name a meta-tool was asked for (bounded); "" for a call by name. */
  attemptedName?: string;
  /** Size of a request refused for its size before it decoded, bytes. */
  requestBytes?: number;
  /** The event's own id (its Nats-Msg-Id), shared by the record made when the call starts and its event. */
  eventId?: string;
}

/** How a person took part in a call, through MCP elicitation ("approved": a proposal; "chose": a rescued refusal). */
export type PersonDecision = 'approved' | 'chose';

/** A person asked through MCP elicitation who did not approve: "declined", or "cancelled" (dismissed, or no answer came). */
export type PersonRefusal = 'declined' | 'cancelled';

/** Surfaces by ID, kept in memory. */
export interface SurfaceSource {
  get(surfaceId: string): Promise<SurfaceRecord | undefined>;
}

/** Snapshots by ID, kept in memory; throws AppError SNAPSHOT_NOT_FOUND. */
export interface SnapshotSource {
  get(snapshotId: string): Promise<Snapshot>;
}

/** Current settings read from the config and catalog buckets (all in memory). */
export interface SettingsSource {
  admissionPolicy(): AdmissionPolicy;
  /** The principal's stored autonomy, or undefined when it has no presentation record. */
  autonomy(principal: PrincipalRef): Autonomy | undefined;
  /**
   * Whether one of the principal's bound capabilities publishes this name now (as the tool's own
   * name or capability-prefixed) and admission does not hide that tool from the principal: tells
   * "not in this surface's snapshot" from "no such tool". A hidden tool counts as no such tool.
   */
  isBoundToolName(principal: PrincipalRef, name: string): boolean;
  /**
   * The rule that hides every tool the principal's bound capabilities publish under this name
   * ("default" for a default deny), or undefined when none does or no such tool exists. A hidden
   * tool is answered as an unknown name; the rule goes to the audit only.
   */
  hiddenBy?(principal: PrincipalRef, name: string): string | undefined;
}

/** A discovery hit. */
export interface DiscoveryHit {
  name: string;
  description: string;
  score: number;
}

/** DiscoveryService over one snapshot; failures are AppErrors with their reason. */
export interface DiscoveryPort {
  discoverTools(
    req: { snapshotId: string; query: string; limit: number },
    deadline: number,
  ): Promise<{ hits: DiscoveryHit[]; totalTools: number; emptyReason: string; hint: string }>;
  getToolSchema(req: { snapshotId: string; name: string }, deadline: number): Promise<McpTool>;
}

/** UnifiedService; failures are AppErrors with their reason. */
export interface UnifiedPort {
  mapRequest(
    req: { snapshotId: string; request: string; contextJson: string; preferredTools: string[] },
    deadline: number,
  ): Promise<{ decision: string; metadata: UnifiedInfo | undefined; explanation: string }>;
}

/**
 * The open MCP sessions. `call` throws AppError CAPABILITY_UNAVAILABLE when the capability is not
 * connected and TOOL_TIMEOUT past `timeoutMs`; a tool's own failure comes back with isError.
 */
export interface CapabilityPort {
  call(capability: string, tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<ToolResult>;
  /** The capability's per-call deadline, ms (undefined when it is not configured). */
  timeoutMs(capability: string): number | undefined;
}

/** Runs the platform's own tools. */
export interface SystemToolPort {
  run(name: string, principal: PrincipalRef, args: Record<string, unknown>): Promise<ToolResult>;
}

/** Receives audit events; must not block the call (publish, do not wait for the ack). */
export interface AuditPort {
  toolCalled(event: ToolCalledEvent): void;
  /**
   * Called just before a tool runs with the event that stands for the call should the process die
   * before it ends (docs/operations.md, "Audit"); throws AppError UNAVAILABLE when that cannot be
   * recorded, and the call does not run.
   */
  toolStarting?(fallback: ToolCalledEvent & { eventId: string }): void;
}

/** Everything the call path needs. */
export interface DispatchPorts {
  surfaces: SurfaceSource;
  snapshots: SnapshotSource;
  settings: SettingsSource;
  discovery: DiscoveryPort;
  unified: UnifiedPort;
  capabilities: CapabilityPort;
  systemTools: SystemToolPort;
  audit: AuditPort;
  now?: () => number;
}
