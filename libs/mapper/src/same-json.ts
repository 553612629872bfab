/**
 * Equality of argument values as canonical JSON (RFC 8785, so key order does not matter). canonicalize
 * throws on what JSON text cannot hold canonically (a lone surrogate, which JSON context can carry as
 * "\ud800"; Infinity); such a value is compared by its JSON.stringify text instead, so a comparison
 * never fails the request.
 */
import canonicalize from 'canonicalize';

/** A value's canonical JSON text, or a text no canonical one equals when canonicalize refuses it. */
export function jsonKey(v: unknown): string | undefined {
  try {
    return canonicalize(v);
  } catch {
    return `\u0000${JSON.stringify(v)}`;
  }
}
