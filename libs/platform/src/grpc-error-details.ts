import type { Metadata } from '@grpc/grpc-js';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

/**
 * The standard rich-error trailer of gRPC: a serialized `google.rpc.Status`
 * (https://github.com/googleapis/googleapis/blob/master/google/rpc/status.proto), read by grpcurl,
 * grpc-gateway and the official clients' error-details helpers.
 */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

/** The ErrorInfo domain of every error Toolsurface sends. */
export const ERROR_DOMAIN = 'toolsurface';

/** Type URL of `google.rpc.ErrorInfo` inside a `google.protobuf.Any`. */
export const ERROR_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.ErrorInfo';

/** `google.rpc.ErrorInfo`: why the call failed (reason), who says so (domain), and context. */
export interface ErrorInfo {
  reason: string;
  domain: string;
  metadata: Record<string, string>;
}

/** `google.rpc.Status` with its details still packed as `google.protobuf.Any`. */
export interface RpcStatus {
  code: number;
  message: string;
  details: Array<{ typeUrl: string; value: Uint8Array }>;
}

// Field numbers below are those of google/rpc/status.proto (Status: code=1, message=2,
// details=3), google/protobuf/any.proto (type_url=1, value=2) and google/rpc/error_details.proto
// (ErrorInfo: reason=1, domain=2, metadata=3 as map<string,string>, whose entries are key=1, value=2).

// Encoding is written out by hand (varints and length-delimited fields of the protobuf wire
// format), so the trailer needs no generated google.rpc code; a refused call's Status differs from
// another's only in code and message, so the ErrorInfo of a reason without metadata is encoded once
// (detailsByReason). Strings go through Buffer.from, which writes a lone surrogate as U+FFFD.
// Decoding, done by clients and tests, uses @bufbuild/protobuf's BinaryReader.

/** Appends a base-128 varint (non-negative `n` below 2^31: field tags, lengths, status codes). */
function putVarint(out: number[], n: number): void {
  for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
}

/** Appends field `no` with wire type 2 (length-delimited) holding `payload` (a string as UTF-8). */
function putField(out: number[], no: number, payload: readonly number[] | Uint8Array | string): void {
  const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  putVarint(out, (no << 3) | WireType.LengthDelimited);
  putVarint(out, bytes.length);
  out.push(...bytes);
}

function errorInfoBytes(info: ErrorInfo): number[] {
  const out: number[] = [];
  if (info.reason) putField(out, 1, info.reason);
  if (info.domain) putField(out, 2, info.domain);
  for (const [k, v] of Object.entries(info.metadata)) {
    const entry: number[] = [];
    putField(entry, 1, k);
    putField(entry, 2, v);
    putField(out, 3, entry);
  }
  return out;
}

function rpcStatusBytes(
  st: Omit<RpcStatus, 'details'> & { details: Array<{ typeUrl: string; value: readonly number[] | Uint8Array }> },
): number[] {
  const out: number[] = [];
  if (st.code) {
    putVarint(out, (1 << 3) | WireType.Varint);
    putVarint(out, st.code);
  }
  if (st.message) putField(out, 2, st.message);
  for (const d of st.details) {
    const any: number[] = [];
    putField(any, 1, d.typeUrl);
    putField(any, 2, d.value);
    putField(out, 3, any);
  }
  return out;
}

/** Serializes `google.rpc.ErrorInfo`. */
export function encodeErrorInfo(info: ErrorInfo): Uint8Array {
  return Uint8Array.from(errorInfoBytes(info));
}

/** Serializes `google.rpc.Status`. */
export function encodeRpcStatus(st: RpcStatus): Uint8Array {
  return Uint8Array.from(rpcStatusBytes(st));
}

/** Parses `google.rpc.Status`; unknown fields are skipped. Throws on bytes that are not protobuf. */
export function decodeRpcStatus(bytes: Uint8Array): RpcStatus {
  const r = new BinaryReader(bytes);
  const out: RpcStatus = { code: 0, message: '', details: [] };
  while (r.pos < r.len) {
    const [field, wt] = r.tag();
    if (field === 1 && wt === WireType.Varint) out.code = r.int32();
    else if (field === 2 && wt === WireType.LengthDelimited) out.message = r.string();
    else if (field === 3 && wt === WireType.LengthDelimited) {
      const any = new BinaryReader(r.bytes());
      let typeUrl = '';
      let value: Uint8Array = new Uint8Array();
      while (any.pos < any.len) {
        const [f, t] = any.tag();
        if (f === 1 && t === WireType.LengthDelimited) typeUrl = any.string();
        else if (f === 2 && t === WireType.LengthDelimited) value = any.bytes();
        else any.skip(t, f);
      }
      out.details.push({ typeUrl, value });
    } else r.skip(wt, field);
  }
  return out;
}

/** Parses `google.rpc.ErrorInfo`; unknown fields are skipped. */
export function decodeErrorInfo(bytes: Uint8Array): ErrorInfo {
  const r = new BinaryReader(bytes);
  const out: ErrorInfo = { reason: '', domain: '', metadata: {} };
  while (r.pos < r.len) {
    const [field, wt] = r.tag();
    if (field === 1 && wt === WireType.LengthDelimited) out.reason = r.string();
    else if (field === 2 && wt === WireType.LengthDelimited) out.domain = r.string();
    else if (field === 3 && wt === WireType.LengthDelimited) {
      const entry = new BinaryReader(r.bytes());
      let key = '';
      let value = '';
      while (entry.pos < entry.len) {
        const [f, t] = entry.tag();
        if (f === 1 && t === WireType.LengthDelimited) key = entry.string();
        else if (f === 2 && t === WireType.LengthDelimited) value = entry.string();
        else entry.skip(t, f);
      }
      out.metadata[key] = value;
    } else r.skip(wt, field);
  }
  return out;
}

/** Longest ErrorInfo metadata value sent, UTF-16 units; longer ones are cut. */
const MAX_METADATA_VALUE = 256;

/** Status field 3 (one Any holding an ErrorInfo without metadata), by reason code: the same for every call. */
const detailsByReason = new Map<string, Buffer>();

function errorInfoDetail(reason: string, metadata: Record<string, string>): Buffer {
  const plain = Object.keys(metadata).length === 0;
  const cached = plain ? detailsByReason.get(reason) : undefined;
  if (cached) return cached;
  const any: number[] = [];
  putField(any, 1, ERROR_INFO_TYPE_URL);
  putField(any, 2, errorInfoBytes({ reason, domain: ERROR_DOMAIN, metadata }));
  const field: number[] = [];
  putField(field, 3, any);
  const bytes = Buffer.from(field);
  // Reason codes are a closed set, so the cache stays small.
  if (plain) detailsByReason.set(reason, bytes);
  return bytes;
}

/**
 * The `google.rpc.Status` trailer value for a failed call: `code` and `message` as in grpc-status
 * and grpc-message, one ErrorInfo (reason = our reason code, domain `toolsurface`, metadata = the
 * error's scalar details as strings).
 */
export function statusDetails(code: number, message: string, reason: string, details?: Record<string, unknown>): Buffer {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(details ?? {})) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') metadata[k] = String(v).slice(0, MAX_METADATA_VALUE);
  }
  const text = Buffer.from(message, 'utf8');
  const head: number[] = [];
  if (code) {
    putVarint(head, (1 << 3) | WireType.Varint);
    putVarint(head, code);
  }
  putVarint(head, (2 << 3) | WireType.LengthDelimited);
  putVarint(head, text.length);
  return Buffer.concat([Buffer.from(head), text, errorInfoDetail(reason, metadata)]);
}

/** The ErrorInfo in a call's `grpc-status-details-bin` trailer, or undefined when there is none or it does not parse. */
export function errorInfoOf(metadata: Metadata | undefined): ErrorInfo | undefined {
  const raw = metadata?.get(STATUS_DETAILS_KEY)[0];
  if (!(raw instanceof Uint8Array)) return undefined;
  try {
    const detail = decodeRpcStatus(raw).details.find((d) => d.typeUrl === ERROR_INFO_TYPE_URL);
    return detail ? decodeErrorInfo(detail.value) : undefined;
  } catch {
    return undefined;
  }
}
