export { GatewayClient } from './client';
export type { GatewayAddresses, GatewayTimeouts } from './client';
export { parsePrincipal, formatPrincipal, UsageError } from './principal';
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
export { parseCommandLine, buildProgram, parseJsonObject, parseIntegerOption, parseAddress, clientTls, checkClientTls, DEFAULT_RESOLVER, DEFAULT_DISPATCH } from './program';
export type { CliCommand, CliOutput, GlobalOptions, ParsedCommandLine, ParseOutcome } from './program';
export { runCli, runCommand, errorLine } from './run';
export type { GatewayApi, RunOptions } from './run';
