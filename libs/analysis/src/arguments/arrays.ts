/**
 * Value kind "arrays and nested objects": list literals and written lists for array parameters,
 * each item read as its item schema asks (objects are mapped field by field in map-object.ts).
 */
import { type Doc, type Span } from '../extract.js';
import { type ParamInfo, isObj } from '../schema.js';
import { anchorBonus } from './anchors.js';
import { DONTCARE } from './data/enums.js';
import { ITEM_PARTS } from './data/items.js';
import { ARRAY_SCORES } from './data/scores/arrays.js';
import { arrayParam, candidatesFor } from './dispatch.js';
import { enumScore } from './enum-match.js';
import { countedItems } from './items.js';
import { coerce } from './map.js';
import { descriptionExamples } from './phrases.js';
import { allSeries, coordinatedWords } from './series.js';
import { type Cand, type ValueKindModule } from './types.js';

/** Value kind "arrays": list values for an array parameter, in place of any code. */
export const ARRAYS_KIND: ValueKindModule = {
  name: 'arrays',
  serves: arrayParam,
  ends: 'alone',
  propose(p, doc, ctx, out) {
    const { hits } = ctx;
    out.push(...arrayCandidates(p, doc, hits));
  },
};

/** Converts a list literal's items onto the item schema; undefined when an item does not fit. */
export function coerceItems(items: unknown[], p: ParamInfo): unknown[] | undefined {
  const it = p.itemType ?? 'any';
  if (it === 'any') return items;
  const out: unknown[] = [];
  for (const x of items) {
    if (it === 'array' || it === 'object') {
      if (it === 'array' && Array.isArray(x)) out.push(x);
      else if (it === 'object' && isObj(x)) out.push(x);
      else return undefined;
      continue;
    }
    const c = coerce(x, { type: it });
    if (c === undefined) return undefined;
    out.push(c);
  }
  return out;
}

/** Candidate values for an array parameter: list literals, enum items, several spans of the item type, "a, b and c". */
function arrayCandidates(p: ParamInfo, doc: Doc, hits: { idx: number; w: number }[]): Cand[] {
  const out = listCandidates(p, doc, hits);
  // the description's examples found in a longer series the request writes are only part of it
  // ("prime ministers of Australia, Canada, and India" where the examples are Australia and India)
  const lists = out.filter((c) => c.kind !== 'example-list' && Array.isArray(c.value));
  return out.filter(
    (c) =>
      c.kind !== 'example-list' ||
      !lists.some(
        (l) =>
          (l.value as unknown[]).length > (c.value as unknown[]).length &&
          (c.value as unknown[]).every((v) => (l.value as unknown[]).includes(v)),
      ),
  );
}

/** Candidate lists for an array parameter (arrayCandidates without its last filter). */
function listCandidates(p: ParamInfo, doc: Doc, hits: { idx: number; w: number }[]): Cand[] {
  const out: Cand[] = [];
  const it = p.itemType ?? 'any';
  for (const s of doc.spans) {
    if (s.kind !== 'list' || !s.items) continue;
    const items = coerceItems(s.items, p);
    if (items)
      out.push({
        param: p,
        value: items,
        score: ARRAY_SCORES.listLiteralBase.v + anchorBonus(p, doc, s, hits),
        ranges: [[s.start, s.end]],
        kind: 'list',
      });
  }
  const en = p.items && Array.isArray(p.items['enum']) ? (p.items['enum'] as unknown[]) : undefined;
  if (en) {
    const found: { v: unknown; start: number; score: number; end: number }[] = [];
    for (const v of en) {
      if (typeof v !== 'string' || DONTCARE.has(v.toLowerCase())) continue;
      const m = enumScore(v, doc);
      if (m.score >= ARRAY_SCORES.enumItemMinMatch.v) found.push({ v, start: m.start, end: m.end, score: m.score });
    }
    if (found.length > 0) {
      found.sort((a, b) => a.start - b.start);
      out.push({
        param: p,
        value: found.map((f) => f.v),
        score: ARRAY_SCORES.enumItems.v,
        ranges: found.filter((f) => f.start >= 0).map((f) => [f.start, f.end] as [number, number]),
        kind: 'enum-list',
      });
    }
    return out;
  }
  // the description's examples written in the request as words of their own, for a list of
  // strings ("Special dietary requirements, e.g. vegan, gluten-free" and "a vegan menu" → ["vegan"])
  // (not for a list of things to leave out, and no example the request negates: "I'm not
  // vegan", "a cough but no fever", "hates museums", "do not require Excel")
  if (it === 'string' && !p.parts.some((x) => /^(exclude|excluded|excluding|exclusions?|avoid|without|except|blocked|banned)$/.test(x))) {
    const found: { v: string; start: number; end: number }[] = [];
    for (const ex of descriptionExamples(p)) {
      const m = enumScore(ex, doc);
      if (m.start < 0) continue;
      const before = doc.text.slice(Math.max(0, m.start - 30), m.start);
      if (/\b(?:not|no|never|without|except|hates?|dislikes?|avoid|don't|doesn't|isn't|aren't)\b(?:\s+\S+){0,5}\s*$/i.test(before))
        continue;
      found.push({ v: doc.text.slice(m.start, m.end), start: m.start, end: m.end });
    }
    if (found.length > 0) {
      found.sort((a, b) => a.start - b.start);
      out.push({
        param: p,
        value: found.map((f) => f.v),
        score: ARRAY_SCORES.describedExamples.v,
        ranges: found.map((f) => [f.start, f.end] as [number, number]),
        kind: 'example-list',
      });
    }
  }
  const counted = countedItems(doc);
  if (counted.length > 0 && (it === 'string' || it === 'any') && ITEM_PARTS.has(p.parts[p.parts.length - 1] ?? '')) {
    out.push({
      param: p,
      value: counted.map((c) => c.item),
      score: ARRAY_SCORES.countedItems.v,
      ranges: counted.map((c) => [c.itemStart, c.end] as [number, number]),
      kind: 'counted-list',
    });
  }
  if (it === 'integer' || it === 'number') {
    // numbers written as a series ("3, 5 and 8") near the parameter's name
    const nums = doc.spans.filter(
      (s) =>
        s.kind === 'number' &&
        !doc.spans.some(
          (o) => o !== s && ['date', 'time', 'id', 'list', 'quoted'].includes(o.kind) && o.start <= s.start && o.end >= s.end,
        ),
    );
    for (const series of allSeries(doc, nums)) {
      const vals = series.map((s) => s.num as number);
      if (it === 'number' || vals.every((v) => Number.isInteger(v))) {
        out.push({
          param: p,
          value: vals,
          score: ARRAY_SCORES.numberSeriesBase.v + anchorBonus(p, doc, series[0], hits) * ARRAY_SCORES.numberSeriesAnchorWeight.v,
          ranges: series.map((s) => [s.start, s.end] as [number, number]),
          kind: 'series',
        });
      }
    }
    return out;
  }
  if (it === 'string' || it === 'any') {
    const quoted = doc.spans.filter((s) => s.kind === 'quoted');
    if (quoted.length >= 2)
      out.push({
        param: p,
        value: quoted.map((s) => s.text),
        score: ARRAY_SCORES.quotedList.v,
        ranges: quoted.map((s) => [s.start, s.end] as [number, number]),
        kind: 'quoted-list',
      });
    // quoted values written as one list ("'Age', 'Income' and 'Education'"), when the request holds
    // other quoted values too: the run nearest the parameter's name (its score the name's bonus,
    // raised below to its best item's)
    if (quoted.length >= 3) {
      let qrun: Span[] = [];
      const flushQuoted = (): void => {
        if (qrun.length >= 2 && qrun.length < quoted.length) {
          out.push({
            param: p,
            value: qrun.map((s) => s.text),
            score: anchorBonus(p, doc, qrun[0], hits),
            ranges: qrun.map((s) => [s.start, s.end] as [number, number]),
            kind: 'quoted-run',
          });
        }
        qrun = [];
      };
      for (const s of quoted) {
        const prev = qrun[qrun.length - 1];
        // only ", ", " and ", " or " between the quoted values (the quote marks are outside the spans)
        if (
          prev &&
          joinedRun(doc, [
            [prev.start, prev.end],
            [s.start, s.end],
          ])
        )
          qrun.push(s);
        else {
          flushQuoted();
          qrun = [s];
        }
      }
      flushQuoted();
    }
    // names joined by commas/"and"/"vs": "Lakers and Clippers", "John, Paul and George"
    const propers = doc.spans.filter((s) => s.kind === 'proper');
    let run: Span[] = [];
    const flush = (): void => {
      // (as strong as its first name alone would be, and a little more: the list is the whole value)
      if (run.length >= 2)
        out.push({
          param: p,
          value: run.map((s) => s.text),
          score: ARRAY_SCORES.nameListBase.v + anchorBonus(p, doc, run[0], hits),
          ranges: run.map((s) => [s.start, s.end] as [number, number]),
          kind: 'name-list',
        });
      run = [];
    };
    for (const s of propers) {
      const prev = run[run.length - 1];
      // only ", ", " and ", " & ", " vs " between the names
      if (prev && /^\s*(,\s*(and\s+)?|\s*(and|&|vs\.?|versus|or)\s+)\s*$/i.test(doc.text.slice(prev.end, s.start))) run.push(s);
      else {
        flush();
        run = [s];
      }
    }
    flush();
    // a written list after the parameter's name: "tags: a, b and c"
    for (const h of hits) {
      if (h.w < ARRAY_SCORES.writtenListNameHitMin.v) continue;
      const after = doc.text.slice(doc.tokens[h.idx].end);
      // optional link words then "x, y and z" up to the end of the clause
      const m = /^\s*(?:(?:is|are|of|as|:|=|-|like|such as|including|include)\s*)*((?:[^,.;?!\n]+,\s*)+(?:and|or)?\s*[^,.;?!\n]+)/i.exec(
        after,
      );
      if (m) {
        // split on commas (with an optional "and"/"or") or a bare "and"/"or"; quotes around an item dropped
        const items = m[1]
          .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/)
          .map((x) => x.trim().replace(/^['"]|['"]$/g, ''))
          .filter((x) => x !== '');
        // (each item at most five words, split on whitespace)
        if (items.length >= 2 && items.every((x) => x.split(/\s+/).length <= 5)) {
          const start = doc.tokens[h.idx].end + m.index + (m[0].length - m[1].length);
          out.push({
            param: p,
            value: items,
            score: ARRAY_SCORES.writtenList.v,
            ranges: [[start, start + m[1].length]],
            kind: 'written-list',
          });
        }
      }
    }
    // a required list of plain words joined by "and" ("tomatoes and lettuce", "efficient,
    // organized, easy going and compassionate"): a weak fallback
    if (p.required && it === 'string') out.push(...coordinatedWords(p, doc));
    // a single value of the item kind -> one-element list
    const single = candidatesFor({ ...p, type: 'string', enumValues: undefined, schema: p.items ?? {}, semantic: p.semantic }, doc).filter(
      (c) => c.kind !== 'phrase' && c.kind !== 'described-value',
    );
    for (const c of single)
      out.push({ ...c, value: [c.value], score: c.score - ARRAY_SCORES.singleItemPenalty.v, kind: `single-${c.kind}` });
    // a run of quoted values or names joined by "and" / commas is the whole value: as strong as the
    // best single one of its items, and first of equals ("the networks 'n1' and 'n2'" → ["n1",
    // "n2"], not ["n1"])
    for (const list of out) {
      if (!['quoted-list', 'quoted-run', 'name-list'].includes(list.kind) || (list.kind === 'quoted-list' && !joinedRun(doc, list.ranges)))
        continue;
      for (const c of single) {
        if (c.ranges.length !== 1 || !list.ranges.some((r) => r[0] === c.ranges[0][0] && r[1] === c.ranges[0][1])) continue;
        list.score = Math.max(list.score, c.score - ARRAY_SCORES.singleItemPenalty.v);
      }
    }
  }
  return out;
}

/** What may stand between two values of one run: a comma, "and", "or" or "&" (quote marks aside). */
const RUN_JOIN = /^['"‘’“”]?\s*(,\s*(and\s+|or\s+)?|(and|or|&)\s+)['"‘’“”]?$/i;

/** Are the ranges one run, each joined to the next only by RUN_JOIN? */
function joinedRun(doc: Doc, ranges: [number, number][]): boolean {
  return ranges.every((r, i) => i === 0 || RUN_JOIN.test(doc.text.slice(ranges[i - 1][1], r[0])));
}

/** Heads that are not things one orders ("2 people", "3 nights"): such a count is no item. */
export const NOT_ITEMS =
  /^(people|persons?|guests?|adults?|kids|children|nights?|days?|hours?|minutes?|weeks?|months?|years?|times|stars?|percent|more|of|the|them|it|pm|am|o'clock|things|items|ones|stuff|cheapest|best|top|most|least|largest|smallest)$/i;
