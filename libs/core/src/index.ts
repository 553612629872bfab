export {
  ADAPTIVE_DISCOVERY_THRESHOLD,
  CONFIDENCE_THRESHOLD,
  UNIFIED_HELD_BACK_PREFIX,
  UNIFIED_NO_CLOSE_TOOL_PREFIX,
  confidenceText,
} from './constants';
export { ReasonCode, MODEL_FACING_REASONS, AppError, isAppError } from './errors';
export type { PrincipalKind, PrincipalRef, PresentationMode, ResolvedMode, Autonomy, Via, McpTool, BoundToolDefinition } from './types';
export { PRINCIPAL_ID_PATTERN, CAPABILITY_NAME_PATTERN, principalKey } from './types';
export { snapshotIdOf, SNAPSHOT_ID_PATTERN } from './snapshot';
export { resolveMode } from './modes';
export {
  META_TOOL_NAMES,
  DISCOVER_LIMIT_MAX,
  DISCOVER_LIMIT_DEFAULT,
  QUERY_MAX_CHARS,
  DISCOVERY_META_TOOLS,
  UNIFIED_META_TOOL,
} from './meta-tools';
export type { MetaToolName } from './meta-tools';
export { SYSTEM_CAPABILITY, JOURNAL_ENTRY_MAX_CHARS, SYSTEM_TOOLS, RESERVED_TOOL_NAMES, isSystemToolName } from './system-tools';
export { globMatch } from './glob';
export {
  admit,
  refusedOutright,
  limitsFor,
  sizeLimitExceeded,
  RateLimiter,
  rateBucketKey,
  refilledTokens,
  retryAfterMs,
} from './admission';
export type { RateLimits, RateRefusal } from './admission';
export type { AdmissionRule, AdmissionPolicy, AdmissionInput, AdmissionResult, AdmissionLimit } from './admission';
export { countToolTokens } from './tokens';
export { parseConfig, loadConfigFile, CONFIG_FILE_SCHEMA, DEFAULT_TOOL_TIMEOUT_MS } from './config-file';
export type { StdioCapability, HttpCapability, CapabilitySpec, PrincipalConfig, ToolsurfaceConfig } from './config-file';
export { Attr, INSTRUMENTATION_SCOPE, Metric } from './attributes';
export {
  authenticate,
  readOrchestrators,
  readMcpKeys,
  mcpKeyFor,
  mayActFor,
  requirePrincipal,
  requireAdmin,
  tokenDigest,
  UNAUTHENTICATED_CALLER,
  actorOf,
  ACTOR_VIA_METADATA,
  VIA_PORTAL,
  CONFIG_FILE_ACTOR,
} from './auth';
export type { OrchestratorConfig, McpKeyConfig, Caller } from './auth';
export { foldSpelling } from './glob';
export { argumentsMatch, defaultArgumentMatch, ARGUMENT_MATCHES } from './argument-match';
export type { ArgumentMatch } from './argument-match';
export { hiddenByRule } from './admission';
/** Compiled JSON Schema validators for tool arguments (Ajv, strict mode off, draft detection), shared by dispatch and the model mapper. */
export { ValidatorCache, fromDraft04, toProblems, MAX_REPORTED_PROBLEMS } from './validators';
export type { ArgumentProblem, ArgumentValidator, CompileProblem } from './validators';
