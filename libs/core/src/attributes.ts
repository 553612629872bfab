/**
 * The one registry of span attribute names: OpenTelemetry semantic conventions first (GenAI for
 * tool calls, RPC, messaging), then `toolsurface.*`.
 */
export const Attr = {
  GEN_AI_OPERATION_NAME: 'gen_ai.operation.name',
  GEN_AI_TOOL_NAME: 'gen_ai.tool.name',
  GEN_AI_TOOL_CALL_ID: 'gen_ai.tool.call.id',
  RPC_SYSTEM: 'rpc.system',
  RPC_SERVICE: 'rpc.service',
  RPC_METHOD: 'rpc.method',
  RPC_GRPC_STATUS_CODE: 'rpc.grpc.status_code',
  MESSAGING_SYSTEM: 'messaging.system',
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
} as const;
