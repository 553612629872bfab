// Public API of @toolsurface/stack: the local stack launcher behind `npm start` and the demo, for
// the cross-service suites in test/ that run the whole gateway.
export { startStack, serviceEntry, serviceLogTail, choosePorts, DEFAULT_PORTS, STACK_SERVICES, EVERYTHING_ENTRY } from './stack';
export type { RunningStack, StackAddresses, StackPorts, StackService, StartStackOptions } from './stack';
export { rewriteConfig, httpCapabilityPort } from './config-copy';
export type { ConfigRewrite } from './config-copy';
