// Public API of @toolsurface/client: a typed gRPC client of the gateway for orchestrators and
// programs (the CLI, the demo), with the readable and JSON forms of what it returns.
export { GatewayClient } from './client';
export type { GatewayAddresses, GatewayTimeouts } from './client';
export { clientTls, checkClientTls } from './tls';
export type { ClientTls } from './tls';
export { parsePrincipal, formatPrincipal, UsageError } from './principal';
export { runMcpBridge, mcpEndpointUrl, describeConnectError, McpBridgeError, DEFAULT_MCP_BASE_URL } from './mcp-bridge';
export type { McpBridgeOptions } from './mcp-bridge';
export { httpsFetch } from './https-fetch';
export type { FetchLike } from './https-fetch';
export {
  MODE_NAMES,
  AUTONOMY_NAMES,
  modeToProto,
  modeName,
  resolvedModeName,
  autonomyToProto,
  autonomyName,
  toolKindName,
  principalToProto,
  principalFromProto,
} from './enums';
export {
  oneLine,
  table,
  wrap,
  indentText,
  parseJsonText,
  renderContent,
  structuredResult,
  extractHits,
  extractToolDefinition,
  surfaceToJson,
  toolToJson,
  callResultToJson,
  presentationToJson,
  formatSurface,
  formatHits,
  formatToolDefinition,
  formatCallResult,
  formatPresentation,
  formatBindings,
} from './format';
export type { ToolHitView, ToolDefinitionView } from './format';
export { formatPrincipals, principalSummaryToJson } from './principals-format';
