/**
 * The one registry of span attribute names: OpenTelemetry semantic conventions first (GenAI for
 * tool calls, MCP and JSON-RPC for the MCP endpoint, RPC, messaging, network), then
 * `toolsurface.*`. The semantic-convention names are those of `@opentelemetry/semantic-conventions`
 * (most from its incubating entry, which OpenTelemetry advises to copy rather than import);
 * core.test.ts checks each against the package's constant and that none is deprecated (the GenAI
 * and MCP ones excepted: the package marks them "moved" to the GenAI conventions, not replaced).
 */
export const Attr = {
  GEN_AI_OPERATION_NAME: 'gen_ai.operation.name',
  GEN_AI_TOOL_NAME: 'gen_ai.tool.name',
  GEN_AI_TOOL_CALL_ID: 'gen_ai.tool.call.id',
  GEN_AI_PROMPT_NAME: 'gen_ai.prompt.name',
  MCP_METHOD_NAME: 'mcp.method.name',
  MCP_SESSION_ID: 'mcp.session.id',
  MCP_PROTOCOL_VERSION: 'mcp.protocol.version',
  MCP_RESOURCE_URI: 'mcp.resource.uri',
  JSONRPC_REQUEST_ID: 'jsonrpc.request.id',
  JSONRPC_PROTOCOL_VERSION: 'jsonrpc.protocol.version',
  RPC_STATUS_CODE: 'rpc.status_code',
  NETWORK_TRANSPORT: 'network.transport',
  NETWORK_PROTOCOL_NAME: 'network.protocol.name',
  RPC_SYSTEM_NAME: 'rpc.system.name',
  RPC_METHOD: 'rpc.method',
  SERVER_ADDRESS: 'server.address',
  SERVER_PORT: 'server.port',
  MESSAGING_SYSTEM_NAME: 'messaging.system.name',
  MESSAGING_DESTINATION_NAME: 'messaging.destination.name',
  MESSAGING_OPERATION_TYPE: 'messaging.operation.type',
  MESSAGING_MESSAGE_ID: 'messaging.message.id',
  ERROR_TYPE: 'error.type',
  TS_MODE: 'toolsurface.mode',
  TS_SNAPSHOT_ID: 'toolsurface.snapshot_id',
  TS_SURFACE_ID: 'toolsurface.surface_id',
  TS_VIA: 'toolsurface.via',
  TS_CONFIDENCE: 'toolsurface.confidence',
  TS_CAPABILITY: 'toolsurface.capability',
  TS_REASON: 'toolsurface.reason',
  TS_ADMISSION_DECISION: 'toolsurface.admission.decision',
  TS_ADMISSION_RULE: 'toolsurface.admission.rule',
  TS_PRINCIPAL: 'toolsurface.principal',
  TS_OUTCOME: 'toolsurface.outcome',
  TS_CONFIGURED_MODE: 'toolsurface.configured_mode',
  TS_DISCOVERED: 'toolsurface.discovered',
} as const;

/** The instrumentation scope of every tracer and meter of the services. */
export const INSTRUMENTATION_SCOPE = { name: 'toolsurface', version: '0.1.0' } as const;

/**
 * The one registry of metric instruments: name, unit (UCUM, as OpenTelemetry's conventions write
 * them) and description. `rpc.server.call.duration` follows the RPC semantic conventions; the rest
 * are `toolsurface.*`. Attributes come from Attr.
 */
export const Metric = {
  /** Every CallTool, by gen_ai.tool.name, toolsurface.via, toolsurface.outcome, toolsurface.reason, toolsurface.capability. */
  TOOL_CALLS: { name: 'toolsurface.tool.calls', unit: '{call}', description: 'Tool calls by tool, path and outcome (one per CallTool).' },
  /** Time the tool itself took, for calls that ran. */
  TOOL_CALL_DURATION: {
    name: 'toolsurface.tool.call.duration',
    unit: 's',
    description: 'Duration of the tool call inside the capability, for calls that ran.',
  },
  /** 1-based rank of an executed tool in the surface's last discover_tools answer; 0 when it was not in it. */
  DISCOVERY_RANK: {
    name: 'toolsurface.discovery.rank',
    unit: '{rank}',
    description: 'Rank of the executed tool in the last discover_tools results of its surface (0: not among them).',
  },
  /** Surfaces opened, by toolsurface.mode (resolved) and toolsurface.configured_mode. */
  SURFACES_OPENED: {
    name: 'toolsurface.surfaces.opened',
    unit: '{surface}',
    description: 'Surfaces opened, by resolved and configured mode.',
  },
  /** Per capability (toolsurface.capability), per dispatch replica: 1 while its MCP session is connected, else 0. */
  CAPABILITY_UP: {
    name: 'toolsurface.capability.up',
    unit: '1',
    description: 'Whether the MCP session of a capability is connected (1) or not (0), on this dispatch replica.',
  },
  /** Each MCP request dispatch makes to a capability (tools/call), by mcp.method.name, gen_ai.tool.name, toolsurface.capability, network.transport and error.type; the MCP conventions' metric. */
  MCP_CLIENT_OPERATION_DURATION: {
    name: 'mcp.client.operation.duration',
    unit: 's',
    description: 'Duration of MCP requests from dispatch to a capability, as the client sees them.',
  },
  /** Server-side duration of each gRPC call, by rpc.system.name, rpc.method (`package.Service/Method`) and rpc.status_code (`OK`, `NOT_FOUND`, ...). */
  RPC_SERVER_DURATION: { name: 'rpc.server.call.duration', unit: 's', description: 'Duration of gRPC calls on the server.' },
  /** Each request unified-mapper sent to its model endpoint (MAPPER=openai), by toolsurface.outcome (`answered`, `fallback`) and toolsurface.reason (why the rule engine answered instead). */
  MAPPER_MODEL_CALLS: {
    name: 'toolsurface.mapper.model.calls',
    unit: '{call}',
    description: 'Requests to the model mapper endpoint, by outcome and, for a fallback to the rule engine, its reason.',
  },
} as const;
