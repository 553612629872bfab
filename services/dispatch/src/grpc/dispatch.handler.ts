import type { Metadata, ServerInterceptor } from '@grpc/grpc-js';
import { isAppError, ReasonCode, type Caller, type OrchestratorConfig } from '@toolsurface/core';
import { callerOf, unary, type GrpcDeps } from '@toolsurface/platform';
import { CallToolResponse, DispatchServiceService, type CallToolRequest } from '@toolsurface/proto';
import type { DispatchService } from '../dispatch.service';
import { reusedWriterEncoder } from '../proto-encoding';
import { transportRefusals } from './transport-refusals';

const SERVICE = 'toolsurface.v1.DispatchService';

const encodeResponse = reusedWriterEncoder(CallToolResponse.encode);

/**
 * The generated definition, but CallTool's response is encoded into a reused writer and handed to
 * grpc-js as a Buffer over those bytes (the generated serializer allocates a writer per response and
 * then copies its bytes into a new Buffer). Same bytes on the wire.
 */
const DEFINITION = {
  ...DispatchServiceService,
  callTool: {
    ...DispatchServiceService.callTool,
    responseSerialize: (value: CallToolResponse): Buffer => {
      const bytes = encodeResponse(value);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  },
};

type OrchestratorSource = { orchestrators(): OrchestratorConfig[] | undefined };

/** The orchestrator a call's token names, or "" when it names none (recorded as not authenticated). */
function orchestratorOf(metadata: Metadata, settings: OrchestratorSource): string {
  try {
    return callerOf(metadata, settings.orchestrators()).orchestrator;
  } catch {
    return '';
  }
}

/**
 * The dispatch server's interceptors: a CallTool the transport refuses before the handler runs
 * (over the message size limit, a body that does not decompress) is audited with its reason, its
 * orchestrator and the size it announced; nothing of its body is read (grpc/transport-refusals.ts).
 */
export function dispatchInterceptors(dispatcher: DispatchService, settings: OrchestratorSource): ServerInterceptor[] {
  return [
    transportRefusals(`/${SERVICE}/CallTool`, (r) =>
      dispatcher.auditRejected({}, r.reason, orchestratorOf(r.metadata, settings), r.requestBytes),
    ),
  ];
}

/** DispatchService for startGrpcServer: CallTool straight into the call path; `unary` maps thrown AppErrors to status. */
export function dispatchService(dispatcher: DispatchService, settings: OrchestratorSource, deps: GrpcDeps) {
  return {
    name: SERVICE,
    definition: DEFINITION,
    implementation: {
      callTool: unary<CallToolRequest, CallToolResponse>(
        SERVICE,
        'CallTool',
        (req, info) => {
          let caller: Caller;
          try {
            caller = callerOf(info.metadata, settings.orchestrators());
          } catch (e) {
            // A call without a valid token is refused and still audited.
            if (isAppError(e)) dispatcher.auditRejected(req, e.code);
            throw e;
          }
          return dispatcher.callTool(req, info.deadline, caller);
        },
        deps,
        // A request that does not decode is refused, and audited too (with its caller when the token is valid).
        (info) => dispatcher.auditRejected({}, ReasonCode.INVALID_REQUEST, orchestratorOf(info.metadata, settings)),
      ),
    },
  };
}
