import { Metadata, status } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { AppError, ReasonCode } from '@toolsurface/core';
import { decodeRpcStatus, errorInfoOf, ERROR_INFO_TYPE_URL, STATUS_DETAILS_KEY } from './grpc-error-details';
import { fromServiceError, REASON_METADATA_KEY, toServiceError } from './grpc-status';

// google/rpc/status.proto, google/protobuf/any.proto and google/rpc/error_details.proto's ErrorInfo,
// as protobufjs JSON: an independent decoder for what grpc-status-details-bin carries.
const google = protobuf.Root.fromJSON({
  nested: {
    google: {
      nested: {
        protobuf: { nested: { Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } } } },
        rpc: {
          nested: {
            Status: {
              fields: {
                code: { type: 'int32', id: 1 },
                message: { type: 'string', id: 2 },
                details: { rule: 'repeated', type: 'google.protobuf.Any', id: 3 },
              },
            },
            ErrorInfo: {
              fields: {
                reason: { type: 'string', id: 1 },
                domain: { type: 'string', id: 2 },
                metadata: { keyType: 'string', type: 'string', id: 3 } as protobuf.IMapField,
              },
            },
          },
        },
      },
    },
  },
});
const Status = google.lookupType('google.rpc.Status');
const ErrorInfo = google.lookupType('google.rpc.ErrorInfo');

describe('toServiceError: google.rpc.Status details', () => {
  it('carries a Status with one ErrorInfo (reason code, domain toolsurface, scalar details) that protobufjs decodes', () => {
    const se = toServiceError(
      new AppError(ReasonCode.RATE_LIMITED, 'too many calls', { details: { retryAfterMs: 1500, rule: 'per-tool', nested: { x: 1 } } }),
    );
    const raw = se.metadata!.get(STATUS_DETAILS_KEY)[0] as Buffer;
    const st = Status.toObject(Status.decode(raw)) as {
      code: number;
      message: string;
      details: Array<{ type_url: string; value: Uint8Array }>;
    };
    expect(st.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(st.message).toBe('RATE_LIMITED: too many calls');
    expect(st.details.map((d) => d.type_url)).toEqual([ERROR_INFO_TYPE_URL]);
    expect(ErrorInfo.toObject(ErrorInfo.decode(st.details[0].value))).toEqual({
      reason: 'RATE_LIMITED',
      domain: 'toolsurface',
      metadata: { retryAfterMs: '1500', rule: 'per-tool' },
    });
    // The custom trailer stays for current clients.
    expect(se.metadata!.get(REASON_METADATA_KEY)).toEqual(['RATE_LIMITED']);
  });

  it('reads back what protobufjs encodes, skipping fields it does not know', () => {
    const info = ErrorInfo.encode(
      ErrorInfo.fromObject({ reason: 'SURFACE_NOT_FOUND', domain: 'toolsurface', metadata: { a: 'b' } }),
    ).finish();
    const bytes = Status.encode(
      Status.fromObject({
        code: 5,
        message: 'gone',
        details: [
          { type_url: 'type.googleapis.com/google.rpc.DebugInfo', value: new Uint8Array([10, 1, 120]) },
          { type_url: ERROR_INFO_TYPE_URL, value: info },
        ],
      }),
    ).finish();
    expect(decodeRpcStatus(bytes)).toMatchObject({ code: 5, message: 'gone' });
    const md = new Metadata();
    md.set(STATUS_DETAILS_KEY, Buffer.from(bytes));
    expect(errorInfoOf(md)).toEqual({ reason: 'SURFACE_NOT_FOUND', domain: 'toolsurface', metadata: { a: 'b' } });
    // A peer that sends only the standard trailer still gets its reason code back.
    expect(fromServiceError({ code: 5, details: 'SURFACE_NOT_FOUND: gone', metadata: md }).code).toBe(ReasonCode.SURFACE_NOT_FOUND);
  });

  it('treats a trailer that is not a Status as absent', () => {
    const md = new Metadata();
    md.set(STATUS_DETAILS_KEY, Buffer.from([0xff, 0xff, 0xff]));
    expect(errorInfoOf(md)).toBeUndefined();
  });
});
