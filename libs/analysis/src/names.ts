// Tool-name structure shared by the search index and the eval's BM25 peer: qualified names and dotted segments.

// A content-hash or version-stamp segment of a qualified name ("10fae9e4"): 6+ hex digits with at least one digit.
const HASH_SEGMENT_RE = /^(?=[^\d]*\d)[0-9a-f]{6,}$/i;

/**
 * A qualified name split on ':' ("server:tool", "bfcl:math.factorial:10fae9e4"): `base` is the last
 * segment that is not a hash (the tool's own name), `qualifiers` the other non-hash segments.
 */
export function splitQualifiedName(name: string): { base: string; qualifiers: string[] } {
  const segs: string[] = [];
  for (const seg of name.split(':')) if (seg !== '' && !HASH_SEGMENT_RE.test(seg)) segs.push(seg);
  if (segs.length === 0) return { base: name, qualifiers: [] };
  return { base: segs[segs.length - 1], qualifiers: segs.slice(0, -1) };
}

/** Last segment of a dotted name ("math.factorial" → "factorial"), or undefined. */
export function lastSegment(name: string): string | undefined {
  const i = name.lastIndexOf('.');
  return i > 0 && i < name.length - 1 ? name.slice(i + 1) : undefined;
}
