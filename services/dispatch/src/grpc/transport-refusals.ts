import { Metadata, status, type ServerInterceptingCall, type ServerInterceptingCallInterface, type ServerInterceptor } from '@grpc/grpc-js';
import { ReasonCode } from '@toolsurface/core';

/** The status a server call ends with (grpc-js does not export its PartialStatusObject type). */
type CallStatus = Parameters<ServerInterceptingCallInterface['sendStatus']>[0];
/** The listener a server call is started with. */
type CallListener = Parameters<ServerInterceptingCallInterface['start']>[0];

/** A call grpc-js refused itself, before any message of it reached a handler. */
export interface TransportRefusal {
  /** The call's request metadata (headers), when they arrived. */
  metadata: Metadata;
  reason: ReasonCode;
  /** The size the request announced, bytes, when the refusal says it. */
  requestBytes?: number;
}

// grpc-js's text for a message over grpc.max_receive_message_length (stream-decoder.ts):
// "Received message larger than max (<size> vs <limit>)"; group 1 is the announced size.
const OVERSIZE_TEXT = /larger than max \((\d+) vs \d+\)/;

/** The audit reason of a status grpc-js sent on its own. */
function reasonOf(s: CallStatus): ReasonCode {
  switch (s.code) {
    case status.RESOURCE_EXHAUSTED:
      return ReasonCode.REQUEST_TOO_LARGE;
    case status.DEADLINE_EXCEEDED:
      return ReasonCode.TOOL_TIMEOUT;
    default:
      // A body that does not decompress, or a malformed grpc-timeout header.
      return ReasonCode.INVALID_REQUEST;
  }
}

/**
 * A server interceptor that reports every call to `method` the transport refuses before a message
 * reaches the handler: a request over the message size limit (announced in its 5-byte frame
 * header, so it is refused before it is buffered), one that does not decompress, a malformed
 * timeout. The handler never runs for these, so without this they leave no audit event.
 *
 * grpc-js sends these refusals with `sendStatus` on its innermost call object, past every
 * interceptor's responder, so no responder sees them: the interceptor wraps that object's
 * `sendStatus` (and `start`, to see whether a message was delivered), so it must come first.
 * Raising the transport limit and checking sizes in the handler instead would still leave requests
 * over the raised limit unseen, and would buffer each one up to it. The call itself is returned,
 * not a ServerInterceptingCall around it: a wrapper would add its own listener and responder
 * layers to every call on the hot path. A refusal is reported once, and never after a message was
 * delivered (the call path audits those itself, including requests that do not decode). A client
 * that cancels is not a refusal.
 */
export function transportRefusals(method: string, onRefused: (refusal: TransportRefusal) => void): ServerInterceptor {
  return (descriptor, call) => {
    // The interceptor type asks for a ServerInterceptingCall; grpc-js uses only the interface.
    if (descriptor.path !== method) return call as ServerInterceptingCall;
    let metadata = new Metadata();
    let delivered = false;
    let reported = false;
    const send = call.sendStatus.bind(call);
    call.sendStatus = (s: CallStatus) => {
      if (!delivered && !reported && s.code !== status.OK) {
        reported = true;
        const size = OVERSIZE_TEXT.exec(s.details ?? '');
        try {
          onRefused({ metadata, reason: reasonOf(s), ...(size ? { requestBytes: Number(size[1]) } : {}) });
        } catch {
          // The refusal goes out whatever the report did.
        }
      }
      send(s);
    };
    const start = call.start.bind(call);
    call.start = (listener: CallListener) =>
      start({
        onReceiveMetadata: (md) => {
          metadata = md;
          listener.onReceiveMetadata(md);
        },
        onReceiveMessage: (message) => {
          delivered = true;
          listener.onReceiveMessage(message);
        },
        onReceiveHalfClose: () => listener.onReceiveHalfClose(),
        onCancel: () => listener.onCancel(),
      });
    return call as ServerInterceptingCall;
  };
}
