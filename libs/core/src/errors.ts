/**
 * Reason codes of docs/DESIGN.md ("Errors"), plus MISSING_ARGUMENTS (unified mapping could not fill a
 * required argument), RATE_LIMITED, ARGUMENTS_TOO_LARGE and RESULT_TOO_LARGE (admission limits),
 * INVALID_REQUEST (a malformed caller request), REQUEST_TOO_LARGE (a request over the gRPC
 * server's message limit, refused by the transport before it decoded), UNAUTHENTICATED,
 * UNAVAILABLE and INTERNAL.
 * A const object plus a union type of the same name.
 */
export const ReasonCode = {
  TOOL_NOT_FOUND: 'TOOL_NOT_FOUND',
  TOOL_NOT_IN_SNAPSHOT: 'TOOL_NOT_IN_SNAPSHOT',
  TOOL_NOT_DIRECTLY_CALLABLE: 'TOOL_NOT_DIRECTLY_CALLABLE',
  INVALID_ARGUMENTS: 'INVALID_ARGUMENTS',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  LOW_CONFIDENCE: 'LOW_CONFIDENCE',
  MISSING_ARGUMENTS: 'MISSING_ARGUMENTS',
  RATE_LIMITED: 'RATE_LIMITED',
  ARGUMENTS_TOO_LARGE: 'ARGUMENTS_TOO_LARGE',
  RESULT_TOO_LARGE: 'RESULT_TOO_LARGE',
  TOOL_ERROR: 'TOOL_ERROR',
  TOOL_TIMEOUT: 'TOOL_TIMEOUT',
  SURFACE_NOT_FOUND: 'SURFACE_NOT_FOUND',
  SURFACE_EXPIRED: 'SURFACE_EXPIRED',
  SNAPSHOT_NOT_FOUND: 'SNAPSHOT_NOT_FOUND',
  CAPABILITY_UNAVAILABLE: 'CAPABILITY_UNAVAILABLE',
  INVALID_REQUEST: 'INVALID_REQUEST',
  REQUEST_TOO_LARGE: 'REQUEST_TOO_LARGE',
  /** A config apply lost a race with another one (gRPC ABORTED): read the config again and retry. */
  CONFIG_CONFLICT: 'CONFIG_CONFLICT',
  /** A SetPresentation with an expected mode or autonomy found another one stored (gRPC FAILED_PRECONDITION): read it again and choose. */
  PRESENTATION_CHANGED: 'PRESENTATION_CHANGED',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;
/** One reason code. */
export type ReasonCode = (typeof ReasonCode)[keyof typeof ReasonCode];

/** Reason codes the model can recover from: they come back as a tool result with is_error. */
export const MODEL_FACING_REASONS: ReadonlySet<ReasonCode> = new Set<ReasonCode>([
  ReasonCode.TOOL_NOT_FOUND,
  ReasonCode.TOOL_NOT_IN_SNAPSHOT,
  ReasonCode.TOOL_NOT_DIRECTLY_CALLABLE,
  ReasonCode.INVALID_ARGUMENTS,
  ReasonCode.PERMISSION_DENIED,
  ReasonCode.LOW_CONFIDENCE,
  ReasonCode.MISSING_ARGUMENTS,
  ReasonCode.RATE_LIMITED,
  ReasonCode.ARGUMENTS_TOO_LARGE,
  ReasonCode.RESULT_TOO_LARGE,
  ReasonCode.TOOL_ERROR,
  ReasonCode.TOOL_TIMEOUT,
  ReasonCode.CAPABILITY_UNAVAILABLE,
]);

/** The application's one error class: a reason code, one sentence for the reader, `cause` kept. */
export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ReasonCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.details = options?.details;
  }
  readonly details: Record<string, unknown> | undefined;
}

/** True when `e` is an AppError with the given code (or any code when omitted). */
export function isAppError(e: unknown, code?: ReasonCode): e is AppError {
  return e instanceof AppError && (code === undefined || e.code === code);
}
