// Splitting a request into its clauses, for ToolIndex's clause guarantee
// (docs/decisions/search-clause-guarantee.md): a multi-step request ("Transfer $5000 to savings.
// And calculate the interest after 5 years") needs a tool for each step among the first hits.

/**
 * Words that open a new step of a request when they follow punctuation or "and" ("…, and then",
 * "and also", ". Finally,", "First,"). In the middle of a clause ("the first circle", "next
 * Friday", "then" in "more than then") they do not split.
 */
const STEP_MARKERS =
  /(^|[,.;:!?\u0001]\s*|(?<!\s)\s+and\s+)(?:and then|and also|then|also|additionally|after that|afterwards|after this|lastly|finally|first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth(?:ly)?|next|furthermore|moreover|besides)\b,?/gi;

/**
 * A numbered-list marker at the start of a line or after a colon ("1. ", "2) ", "(3) ", "1.2 ");
 * not a clock time's minutes ("at 10:00 AM": a colon after a digit opens no list).
 */
const LIST_MARKER = /(^|\n|(?<!\d):)[ \t]*\(?\d{1,2}(?:\.\d{1,2})*[.)]?[ \t]+(?=\S)/g;

/** The separator the splitter writes between clauses (a control character no request text holds). */
const SEP = '\u0001';

/**
 * A request split into its clauses, in order, each trimmed and non-empty: at sentence ends
 * (". ", "! ", "? "), semicolons, line breaks, numbered-list markers, and step words after
 * punctuation or "and" (STEP_MARKERS). Plain "and" does not split: "the GCD and the LCM of 12
 * and 18" is one step as often as two. A request without such a boundary is one clause.
 * @param request the request text (the caller bounds its length)
 */
export function splitClauses(request: string): string[] {
  let s = request.replaceAll(SEP, ' ');
  s = s.replace(LIST_MARKER, `$1 ${SEP} `);
  s = s.replace(/\r?\n+/g, ` ${SEP} `);
  s = s.replace(/([.!?])\s+/g, `$1 ${SEP} `);
  s = s.replace(/;/g, ` ${SEP} `);
  s = s.replace(STEP_MARKERS, ` ${SEP} `);
  return s
    .split(SEP)
    .map((c) => c.trim())
    .filter((c) => c !== '');
}
