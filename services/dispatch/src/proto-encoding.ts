import { BinaryWriter } from '@bufbuild/protobuf/wire';

/** Largest message after which the writer's buffer is kept for the next one, bytes. */
const KEPT_BUFFER_MAX = 64 * 1024;

/**
 * Wraps a generated `encode` so that messages are written into one reused writer. The generated
 * `encode(m).finish()` allocates a fresh writer per message and grows its buffer as it fills (from
 * 128 bytes); on the call path that is an audit event and a CallTool response on every call. The
 * bytes are the same, and each call still gets its own copy (`finish()` copies them out and rewinds
 * the writer, which keeps its buffer for the next message).
 */
export function reusedWriterEncoder<T>(encode: (message: T, writer: BinaryWriter) => BinaryWriter): (message: T) => Uint8Array {
  let writer = new BinaryWriter();
  return (message) => {
    let bytes: Uint8Array;
    try {
      bytes = encode(message, writer).finish();
    } catch (e) {
      // A message that failed half-way leaves its bytes in the writer: start the next one afresh.
      writer = new BinaryWriter();
      throw e;
    }
    // A large message grew the buffer at least as large: let it go rather than hold it for good.
    if (bytes.length > KEPT_BUFFER_MAX) writer = new BinaryWriter();
    return bytes;
  };
}
