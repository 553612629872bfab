// The file format of this project's vector tables (the semantic stage's sub-word table and the
// word vectors of word-vectors.ts), little-endian:
//   u32 header length H, then H bytes of JSON {"format": ..., "version": 1, "dim": d, ...the rows'
//   keys...}, zero-padded so that 4 + H is a multiple of 4,
//   then V float32 row scales, then V·d int8 values (row i = vector i, times its scale).
// Quantising each row to int8 with its own scale (max |value| / 127) keeps cosines within about
// 0.01 of the float ones and a table at a quarter of its float size.

/** What every table's header holds; a format adds its own keys (the rows' names). */
export interface Int8TableHeader {
  format: string;
  version: number;
  dim: number;
}

/** A row scale whose product with any int8 value (-128 … 127) is a finite float32: NaN, Infinity and overflowing scales are refused. */
export function int8ScaleFits(scale: number): boolean {
  return Number.isFinite(scale) && Number.isFinite(Math.fround(scale * 128));
}

/** The bytes of a table: `header` (its JSON), then `rows` vectors of `header.dim` floats (row-major), quantised. */
export function encodeInt8Table(header: Int8TableHeader, rows: number, vectors: Float32Array): Buffer {
  const dim = header.dim;
  if (vectors.length !== rows * dim) throw new RangeError(`vectors hold ${vectors.length} floats, expected ${rows} rows x ${dim}`);
  const raw = Buffer.from(JSON.stringify(header), 'utf8');
  const padded = Buffer.alloc(Math.ceil((4 + raw.length) / 4) * 4 - 4);
  raw.copy(padded);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(padded.length, 0);
  const scales = new Float32Array(rows);
  const values = new Int8Array(rows * dim);
  for (let i = 0; i < rows; i++) {
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(vectors[i * dim + j]));
    const scale = max > 0 ? max / 127 : 1;
    scales[i] = scale;
    for (let j = 0; j < dim; j++) values[i * dim + j] = Math.round(vectors[i * dim + j] / scale);
  }
  return Buffer.concat([head, padded, Buffer.from(scales.buffer), Buffer.from(values.buffer)]);
}

/**
 * Reads a table of `format` (version 1): its header and its rows as floats. `rowsOf` says how
 * many rows the header names (undefined: the header is malformed). Every inconsistency calls
 * `fail` with the reason, which must throw (the caller's own error kind).
 */
export function decodeInt8Table<H extends Int8TableHeader>(
  buf: Uint8Array,
  format: string,
  rowsOf: (header: H) => number | undefined,
  fail: (why: string) => never,
): { header: H; vectors: Float32Array } {
  const { header, scales, values } = readInt8Table(buf, format, rowsOf, fail);
  const d = header.dim;
  const vectors = new Float32Array(values.length);
  for (let i = 0; i < scales.length; i++) for (let j = i * d, end = j + d; j < end; j++) vectors[j] = values[j] * scales[i];
  return { header, vectors };
}

/**
 * Reads a table as stored: its header, one scale per row and the int8 rows (a view of `buf`, not a
 * copy), for a reader that turns rows into floats only when it needs them. Checks as decodeInt8Table.
 */
export function readInt8Table<H extends Int8TableHeader>(
  buf: Uint8Array,
  format: string,
  rowsOf: (header: H) => number | undefined,
  fail: (why: string) => never,
): { header: H; scales: Float32Array; values: Int8Array } {
  if (!(buf instanceof Uint8Array)) return fail('not bytes');
  if (buf.byteLength < 4) fail('too short');
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const headerLength = view.getUint32(0, true);
  if (4 + headerLength > buf.byteLength) fail('header runs past the end');
  let header: H;
  try {
    header = JSON.parse(new TextDecoder().decode(buf.subarray(4, 4 + headerLength)).replace(/\0+$/, '')) as H;
  } catch {
    return fail('header is not JSON');
  }
  if (header === null || typeof header !== 'object') fail('header is not an object');
  if (header.format !== format || header.version !== 1) fail(`not a version-1 ${format} file`);
  const n = Number.isInteger(header.dim) && header.dim > 0 ? rowsOf(header) : undefined;
  if (n === undefined || !Number.isInteger(n) || n <= 0) return fail('bad dim or rows');
  const d = header.dim;
  const scalesAt = 4 + headerLength;
  if (scalesAt % 4 !== 0) fail('header not padded to 4 bytes');
  const valuesAt = scalesAt + 4 * n;
  if (valuesAt + n * d !== buf.byteLength) fail(`expected ${valuesAt + n * d} bytes, found ${buf.byteLength}`);
  // copy: the buffer's offset need not be aligned for a Float32Array view
  const scales = new Float32Array(new Uint8Array(buf.subarray(scalesAt, valuesAt)).buffer);
  const values = new Int8Array(buf.buffer, buf.byteOffset + valuesAt, n * d);
  for (let i = 0; i < n; i++) {
    if (!int8ScaleFits(scales[i])) fail(`row ${i} has a scale that is not finite`);
  }
  return { header, scales, values };
}
