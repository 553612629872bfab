// Public API of @toolsurface/devkit: local process tooling for the launcher, the demo, tests and
// tools (a nats-server of one's own, managed child processes, free ports, gRPC health waits).
// Never imported by a service's production code.
export {
  ensureNats,
  privateNats,
  parseNatsUrl,
  parseNatsInfo,
  failIfExited,
  defaultNatsBinary,
  StackError,
  DEFAULT_NATS_URL,
  NATS_INSTALL_HINT,
  NATS_BINARY_HINT,
} from './nats-server';
export type { EnsureNatsOptions, NatsHandle } from './nats-server';
export { findFreePort, findFreePorts, isPortOpen, probeTcp, waitForPort } from './net';
export type { WaitForPortOptions } from './net';
export { checkHealth, waitForServing, splitHostPort, PROBE_TIMEOUT_MS } from './health';
export type { HealthStatus, WaitForServingOptions } from './health';
export { spawnManaged, tailFile, describeExit, liveGroupMembers } from './process';
export type { ManagedProcess, ProcessExit, SpawnOptions } from './process';
export { REPO_ROOT, DEFAULT_CONFIG_PATH, SAMPLE_DIR, DATA_DIR, DEFAULT_LOG_DIR, DEFAULT_NATS_DATA_DIR } from './paths';
export { onStopSignal } from './signals';
// A throwaway PKI made with openssl, for the TLS tests and for trying TLS locally (tools/dev-pki.ts).
export { ca, leaf, writeTestCertificates } from './certs';
export type { TestCertificates } from './certs';
export { faultsTable } from './fault-table';
export type { FaultResultRow, FaultResults } from './fault-table';
// A scripted server of the OpenAI chat-completions protocol, for protocol tests of the model mapper.
export { startOpenAIProtocolServer, chatCompletion } from './openai-protocol-server';
export type { OpenAIProtocolServer, ReceivedChatRequest, ScriptedReply, ChatScript } from './openai-protocol-server';
