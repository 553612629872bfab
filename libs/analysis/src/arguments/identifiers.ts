/**
 * Identifiers and URLs: identifiers labelled in the request ("user ID 42").
 */
import { type Doc, type Span } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { ID_DETERMINERS } from './data/ids.js';

/** An IPv4 address, with a port or not. */
export const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?$/;

/** Words of a parameter that holds an IP address. */
export const IP_PARAM = /\b(ip|ips|ipv4|host|hostname|server|address|addr|endpoint|gateway|dns|node)\b/i;

/** A schema's pattern as a RegExp, or undefined when it does not compile. */
export function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

/**
 * A number written after a bare identifier label, "ID is 1234", "id: 1234", "my ID 42", for an id
 * parameter (a label with a qualifier, "user ID 42", may be another thing's: not read here).
 */
export function idLabelled(p: ParamInfo, doc: Doc, s: Span): boolean {
  if (p.semantic !== 'id') return false;
  const before = doc.text.slice(Math.max(0, s.start - 48), s.start);
  const m = /(?:^|[\s(,;.])(?:(\p{L}+)\s+)?(?:id|identifier)\s*(is|was|:|=|#)?\s*#?$/iu.exec(before);
  if (!m) return false;
  // the number ends its clause ("The ID is 5 digits long" gives no ID), or, written right after
  // the label, is the subject of what follows ("with employee id 123 is currently using")
  // (the latter only where it is the request's one number: "Order id 55 was shipped, refund order 66")
  if (
    !/^\s*(?:$|[.,;:!?)]|and\b|please\b)/i.test(doc.text.slice(s.end)) &&
    !(
      m[2] === undefined &&
      /^\s+(?:is|was|has|had|who|which)\b/i.test(doc.text.slice(s.end)) &&
      doc.spans.filter((o) => o.kind === 'number' && !o.word).length === 1
    )
  )
    return false;
  const qualifier = m[1]?.toLowerCase();
  return qualifier === undefined || ID_DETERMINERS.has(qualifier);
}
