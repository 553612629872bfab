import { unary, type GrpcDeps } from '@toolsurface/platform';
import type { UnifiedServiceServer } from '@toolsurface/proto';
import type { UnifiedMapperService } from '../unified-mapper.service';

const SERVICE = 'toolsurface.v1.UnifiedService';

/** UnifiedService over the mapper. */
export function unifiedHandlers(mapper: UnifiedMapperService, deps: GrpcDeps): UnifiedServiceServer {
  return {
    mapRequest: unary(
      SERVICE,
      'MapRequest',
      async (req) => {
        const r = await mapper.map(req.snapshotId, req.request, req.contextJson, req.preferredTools, req.referenceTimeMs);
        return {
          decision: r.decision,
          explanation: r.explanation,
          mapper: r.answeredBy ?? 'rules',
          modelFallback: r.modelFailure ?? '',
          metadata: {
            tool: r.tool ?? '',
            confidence: r.confidence,
            argumentsJson: JSON.stringify(r.arguments),
            candidates: r.candidates.map((c) => ({
              name: c.name,
              confidence: c.confidence,
              argumentsJson: JSON.stringify(c.arguments),
              missingArguments: c.missingArguments,
            })),
            missingArguments: r.missingArguments,
            executed: false,
          },
        };
      },
      deps,
    ),
  };
}
