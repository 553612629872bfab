export {
  ensureNats,
  privateNats,
  startStack,
  parseNatsUrl,
  parseNatsInfo,
  serviceEntry,
  serviceLogTail,
  StackError,
  DEFAULT_NATS_URL,
  DEFAULT_PORTS,
  NATS_INSTALL_HINT,
  NATS_BINARY_HINT,
  STACK_SERVICES,
  EVERYTHING_ENTRY,
} from './stack';
export type { EnsureNatsOptions, NatsHandle, RunningStack, StackAddresses, StackPorts, StackService, StartStackOptions } from './stack';
export { findFreePort, findFreePorts, isPortOpen, probeTcp, waitForPort } from './net';
export type { WaitForPortOptions } from './net';
export { checkHealth, waitForServing, splitHostPort } from './health';
export type { HealthStatus, WaitForServingOptions } from './health';
export { rewriteConfig, httpCapabilityPort } from './config-copy';
export type { ConfigRewrite } from './config-copy';
export { spawnManaged, tailFile, describeExit, liveGroupMembers } from './process';
export type { ManagedProcess, ProcessExit, SpawnOptions } from './process';
export { REPO_ROOT, DEFAULT_CONFIG_PATH, SAMPLE_DIR, DATA_DIR, DEFAULT_LOG_DIR, DEFAULT_NATS_DATA_DIR } from './paths';
export { onStopSignal } from './signals';
