import { status, type ServiceError, Metadata } from '@grpc/grpc-js';
import { AppError, ReasonCode } from '@toolsurface/core';
import { ERROR_DOMAIN, STATUS_DETAILS_KEY, errorInfoOf, statusDetails } from './grpc-error-details';

/** Metadata key that carries the reason code of a failed call. */
export const REASON_METADATA_KEY = 'toolsurface-reason';

/** The gRPC status of a reason code; exhaustive, so a new code without a mapping fails the build. */
export function toGrpcStatus(code: ReasonCode): status {
  switch (code) {
    case ReasonCode.SURFACE_NOT_FOUND:
    case ReasonCode.SNAPSHOT_NOT_FOUND:
    case ReasonCode.TOOL_NOT_FOUND:
      return status.NOT_FOUND;
    case ReasonCode.SURFACE_EXPIRED:
    case ReasonCode.TOOL_NOT_IN_SNAPSHOT:
    case ReasonCode.TOOL_NOT_DIRECTLY_CALLABLE:
    case ReasonCode.LOW_CONFIDENCE:
    case ReasonCode.MISSING_ARGUMENTS:
    case ReasonCode.PRESENTATION_CHANGED:
      return status.FAILED_PRECONDITION;
    case ReasonCode.INVALID_REQUEST:
    case ReasonCode.INVALID_ARGUMENTS:
      return status.INVALID_ARGUMENT;
    case ReasonCode.PERMISSION_DENIED:
      return status.PERMISSION_DENIED;
    case ReasonCode.UNAUTHENTICATED:
      return status.UNAUTHENTICATED;
    case ReasonCode.CAPABILITY_UNAVAILABLE:
    case ReasonCode.UNAVAILABLE:
      return status.UNAVAILABLE;
    case ReasonCode.TOOL_TIMEOUT:
      return status.DEADLINE_EXCEEDED;
    case ReasonCode.CONFIG_CONFLICT:
      return status.ABORTED;
    case ReasonCode.RATE_LIMITED:
    case ReasonCode.REQUEST_TOO_LARGE:
    case ReasonCode.ARGUMENTS_TOO_LARGE:
    case ReasonCode.RESULT_TOO_LARGE:
      return status.RESOURCE_EXHAUSTED;
    case ReasonCode.TOOL_ERROR:
    case ReasonCode.INTERNAL:
      return status.INTERNAL;
    default: {
      const unmapped: never = code;
      throw new Error(`no gRPC status for reason ${String(unmapped)}`);
    }
  }
}

/** Longest error message sent in gRPC status details, UTF-16 units. */
export const MAX_DETAILS_CHARS = 2000;

/** `text` cut to `max` UTF-16 units (with an ellipsis) and with lone surrogates replaced (U+FFFD). */
export function boundText(text: string, max: number): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return cut.toWellFormed();
}

/**
 * An error grpc-js sends as-is: numeric `code`, `details`, the reason in `toolsurface-reason` and,
 * for standard clients, a `google.rpc.Status` with an ErrorInfo in `grpc-status-details-bin`.
 */
export function toServiceError(err: unknown): Partial<ServiceError> {
  const app = err instanceof AppError ? err : new AppError(ReasonCode.INTERNAL, 'internal error', { cause: err });
  const metadata = new Metadata();
  metadata.set(REASON_METADATA_KEY, app.code);
  // grpc-js percent-encodes details into a trailer: a lone surrogate throws there (and kills the
  // process), and tens of KB never arrive. Bound the text and make it well-formed UTF-16.
  const message = boundText(app.message, MAX_DETAILS_CHARS);
  const code = toGrpcStatus(app.code);
  const details = `${app.code}: ${message}`;
  metadata.set(STATUS_DETAILS_KEY, statusDetails(code, details, app.code, app.details));
  return { code, details, metadata, message };
}

const REASON_VALUES = new Set<string>(Object.values(ReasonCode));

/** Turns an error from a gRPC call back into an AppError with its reason code (the one factory). */
export function fromServiceError(err: unknown): AppError {
  const se = err as Partial<ServiceError>;
  // Our trailer first; else the standard ErrorInfo, for a peer that sends only that (a proxy may drop custom trailers).
  const info = errorInfoOf(se.metadata);
  const raw = se.metadata?.get(REASON_METADATA_KEY)?.[0] ?? (info?.domain === ERROR_DOMAIN ? info.reason : undefined);
  const reason = typeof raw === 'string' && REASON_VALUES.has(raw) ? (raw as ReasonCode) : undefined;
  const details = typeof se.details === 'string' ? se.details.replace(/^[A-Z_]+: /, '') : String(err);
  if (reason) return new AppError(reason, details, { cause: err });
  switch (se.code) {
    case status.UNAVAILABLE:
    case status.DEADLINE_EXCEEDED:
      return new AppError(ReasonCode.UNAVAILABLE, `service unavailable: ${details}`, { cause: err });
    case status.INVALID_ARGUMENT:
      return new AppError(ReasonCode.INVALID_REQUEST, details, { cause: err });
    case status.UNAUTHENTICATED:
      return new AppError(ReasonCode.UNAUTHENTICATED, details, { cause: err });
    default:
      return new AppError(ReasonCode.INTERNAL, details, { cause: err });
  }
}
