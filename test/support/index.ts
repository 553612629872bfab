export { Clients, principalOf, unaryCall, callError, textOf, rawUnaryMethod } from './clients';
export { OtlpReceiver } from './otlp-receiver';
export type { ReceivedSpan, ReceivedPoint } from './otlp-receiver';
export { startGateway, startMcpGateway, MCP_FRONT_TOKEN } from './gateway-fixture';
export type { GatewayFixture, SeenEvent } from './gateway-fixture';
export { mcpTextOf, toolCalledSince } from './mcp-results';
export { portalRequest } from './portal-http';
export type { PortalAnswer } from './portal-http';
