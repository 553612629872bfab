import { toolToProto, unary, type GrpcDeps } from '@toolsurface/platform';
import type { DiscoveryServiceServer } from '@toolsurface/proto';
import type { DiscoveryService } from '../discovery.service';

const SERVICE = 'toolsurface.v1.DiscoveryService';

/** DiscoveryService over the domain. */
export function discoveryHandlers(discovery: DiscoveryService, deps: GrpcDeps): DiscoveryServiceServer {
  return {
    discoverTools: unary(SERVICE, 'DiscoverTools', async (req) => discovery.discover(req.snapshotId, req.query, req.limit), deps),
    getToolSchema: unary(
      SERVICE,
      'GetToolSchema',
      async (req) => ({ tool: toolToProto(await discovery.schema(req.snapshotId, req.name), 'bound') }),
      deps,
    ),
  };
}
