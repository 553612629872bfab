// The weighted terms a ToolIndex search scores: the request's own, the words it implies, and
// synonym, topic and translation expansions.
import { analyze, MAX_ANALYZED_CHARS, WHOLE_PREFIX } from './tokenize.js';
import { CJK_STOP_CHARS } from './stopwords.js';
import { PLACE_WORDS, readOperations, valueTypeTerms } from './value-types.js';
import { CJK_PAIR_RE, CJK_SINGLE_RE } from './doc-analysis.js';
import type { ResolvedOptions } from './tool-index-options.js';

/** What queryTerms reads of an index. */
export interface QueryTermSource {
  readonly termIds: ReadonlyMap<string, number>;
  readonly idf: Float64Array;
  readonly synonyms: ReadonlyMap<string, string[]>;
  readonly related: ReadonlyMap<string, string[]>;
  readonly translations: ReadonlyMap<string, string[]>;
  readonly opts: ResolvedOptions;
}

/** PLACE_WORDS as the analyzer reads them, once. */
const PLACE_TERMS: readonly string[] = PLACE_WORDS.flatMap((w) => analyze(w));

/**
 * The characters of a request's CJK bigram terms (`terms`, analyzed) that the catalog holds
 * (`known`) and the translation table translates (`translated`): read through their word, not
 * again alone.
 */
function cjkCoveredChars(
  terms: readonly string[],
  known: ReadonlyMap<string, number>,
  translated: ReadonlyMap<string, unknown>,
): Set<string> {
  const covered = new Set<string>();
  for (const t of terms) {
    if (t.length === 2 && known.has(t) && translated.has(t) && CJK_PAIR_RE.test(t)) {
      covered.add(t[0]);
      covered.add(t[1]);
    }
  }
  return covered;
}

/**
 * A run of 40 or more letters, digits, '+' and '=' holding a digit: encoded data, not words,
 * unless it is shaped like a camelCase identifier, where no two capitals stand together
 * ("getOrganizationBillingSummaryForFiscalYear2024" is a tool's name; "iVBORw0KGgoAAAANSUh…" is not).
 */
const BLOB_RE = /(?<![\w+=])(?=[A-Za-z+=]*\d)[A-Za-z0-9+=]{40,}(?![\w+=])/g;
const CAMEL_IDENTIFIER_RE = /^[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+)*$/;

/** Weighted query terms: own terms 1 (a lone CJK character less), the words it implies (`implied`, impliedToolWords), then synonym, topic and translation expansions; capped to maxQueryTerms. */
export function queryTerms(index: QueryTermSource, query: string, implied: readonly string[], places: boolean): Map<string, number> {
  const terms = new Map<string, number>();
  // an operation written between numbers ("394 times 213") means its words, in the operator's place
  const ops = readOperations(query.slice(0, MAX_ANALYZED_CHARS));
  if (ops.words.length > 0) query = ops.rest + query.slice(MAX_ANALYZED_CHARS);
  // an encoded blob (base64 data, a hash) is no words: split at its case changes it would fill
  // the query with fragments ("iVBORw0KGgo…" → vbo, rw0, ggo…) that crowd out the request's words
  query = query.replace(BLOB_RE, (m) => (CAMEL_IDENTIFIER_RE.test(m) ? m : ' '));
  let own = analyze(query);
  // a request made only of stop words ("do it", "who am I") is read with them, so a tool named by one is found
  if (own.length === 0) own = analyze(query, { stop: false });
  // a CJK character inside a two-character word of the query that the catalog holds and the
  // translation table translates (天 and 气 of 天气 → weather) is read through that word: counted
  // again alone it would give a tool written in the request's script 1 + 2 × cjkUnigramWeight for the
  // word, against translationWeight for a tool that says it in English. Words without a
  // translation (place names: 北京) keep their characters, which match 北京市 and the like.
  const covered = cjkCoveredChars(own, index.termIds, index.translations);
  for (const t of own) {
    if (t.length === 1 && CJK_SINGLE_RE.test(t)) {
      // a lone CJK character: weak evidence, and none at all for a function character or one the catalog's word covers
      if (!CJK_STOP_CHARS.has(t) && !covered.has(t)) terms.set(t, Math.max(terms.get(t) ?? 0, index.opts.cjkUnigramWeight));
    } else terms.set(t, 1);
  }
  // a value the request holds (a date, a clock time) stands for its type, which tools name as a parameter
  if (index.opts.valueTypeWeight > 0) {
    for (const t of valueTypeTerms(query.slice(0, MAX_ANALYZED_CHARS)))
      if ((terms.get(t) ?? 0) < index.opts.valueTypeWeight) terms.set(t, index.opts.valueTypeWeight);
  }
  // the tools the request implies ("…/apple.pptx" → presentation, slide; "list c drive" → execute, command)
  for (const w of implied)
    for (const t of analyze(w)) if ((terms.get(t) ?? 0) < index.opts.impliedWordWeight) terms.set(t, index.opts.impliedWordWeight);
  if (places) for (const t of PLACE_TERMS) if ((terms.get(t) ?? 0) < index.opts.placeWordWeight) terms.set(t, index.opts.placeWordWeight);
  for (const w of ops.words) for (const t of analyze(w)) terms.set(t, 1);
  const words = own.filter((t) => !t.startsWith(WHOLE_PREFIX));
  const tables = [
    [index.synonyms, index.opts.synonymWeight, index.opts.knownWordExpansionFactor],
    [index.related, index.opts.relatedWeight, index.opts.knownWordExpansionFactor],
    // a translation means the same thing: full weight, whether or not the corpus has the word
    [index.translations, index.opts.translationWeight, 1],
  ] as const;
  for (const [table, weight, knownFactor] of tables) {
    if (weight <= 0) continue;
    for (const t of words) {
      const w = index.termIds.has(t) ? weight * knownFactor : weight;
      for (const s of table.get(t) ?? []) {
        if ((terms.get(s) ?? 0) < w) terms.set(s, w);
      }
    }
  }
  if (terms.size > index.opts.maxQueryTerms) {
    const idf = (t: string): number => index.idf[index.termIds.get(t) ?? -1] ?? 0;
    const kept = [...terms.entries()]
      .filter(([t]) => index.termIds.has(t))
      .sort((a, b) => idf(b[0]) * b[1] - idf(a[0]) * a[1])
      .slice(0, index.opts.maxQueryTerms);
    return new Map(kept);
  }
  return terms;
}
