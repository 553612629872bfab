/**
 * Values given for several parameters at once: numbers "respectively", ordinal series ("first …,
 * second …"), and words coordinated by "and"; and positions and counts said in words: "the second
 * item", one result for a superlative ("the best").
 */
import { type Doc, type Span, tokenAt } from '../extract.js';
import { lookupTable } from '../lexicon.js';
import { type ParamInfo } from '../schema.js';
import { STOP_WORDS, type Token, stem } from '../text.js';
import { SERIES_SCORES } from './data/scores/series.js';
import { WEAK_PARTS } from './data/words.js';
import { adverbLike, itemBoundary } from './items.js';
import { RESULT_COUNT_PARTS, numberFor } from './numbers.js';
import { type Cand } from './types.js';

/**
 * Plain-word lists joined by "and"/"or" ("chicken and mushrooms", "a, b, c and d"), each item of
 * at most three words. The item after the conjunction runs to the next function word or mark; the
 * items before it are cut at commas, and the first one is no longer than the last (so "uses chicken
 * and mushrooms" gives chicken, mushrooms). Scored low (series.wordList): nothing ties the list to the
 * parameter but its type.
 */
export function coordinatedWords(p: ParamInfo, doc: Doc): Cand[] {
  const out: Cand[] = [];
  const toks = doc.tokens;
  for (let k = 1; k < toks.length - 1; k++) {
    if (toks[k].lower !== 'and' && toks[k].lower !== 'or') continue;
    // the last item: up to three words after the conjunction ("also" skipped)
    let r = k + 1;
    if (toks[r]?.lower === 'also') r++;
    // an article after the conjunction ("a human and a chimp")
    if (['a', 'an', 'the'].includes(toks[r]?.lower ?? '')) r++;
    const last: Token[] = [];
    while (
      r < toks.length &&
      last.length < 3 &&
      !itemBoundary(toks[r]) &&
      (last.length === 0 || /^[\s-]*$/.test(doc.text.slice(toks[r - 1].end, toks[r].start)))
    )
      last.push(toks[r++]);
    if (last.length === 0) continue;
    // earlier items, right to left: cut at commas; the first item no longer than the last
    const items: Token[][] = [];
    let cur: Token[] = [];
    let i = k - 1;
    if (!/^\s*,?\s*$/.test(doc.text.slice(toks[i].end, toks[k].start))) continue;
    for (; i >= 0; i--) {
      const t = toks[i];
      if (itemBoundary(t)) break;
      const gap = doc.text.slice(t.end, toks[i + 1].start);
      if (/,/.test(gap) && cur.length > 0 && i + 1 !== k) {
        items.unshift(cur);
        cur = [];
      } else if (!/^[\s-]*$/.test(gap) && i + 1 !== k) break;
      if (cur.length >= 3) break;
      cur.unshift(t);
    }
    if (cur.length > 0) items.unshift(items.length === 0 ? cur.slice(-last.length) : cur);
    if (items.length === 0) continue;
    const all = [...items, last];
    const start = all[0][0].start;
    const end = last[last.length - 1].end;
    const value = all.map((it) => doc.text.slice(it[0].start, it[it.length - 1].end));
    out.push({ param: p, value, score: SERIES_SCORES.wordList.v, ranges: [[start, end]], kind: 'word-list' });
  }
  return out;
}

/** Runs of two or more numbers separated only by commas/"and" (written series), in text order. */
export function allSeries(doc: Doc, nums: Span[]): Span[][] {
  const out: Span[][] = [];
  let cur: Span[] = [];
  for (const s of nums) {
    const prev = cur[cur.length - 1];
    // only ", ", " and ", " or " or "/" between the numbers of a series
    // (a unit word may follow each number: "6cm and 10cm")
    const gap = doc.text.slice(prev ? prev.end : 0, s.start).replace(/^\s?[\p{L}°]{1,12}(?=\s*(,|and\b|or\b))/u, '');
    if (prev && /^\s*(,\s*(and\s+)?|\s*and\s+|\s*or\s+|\/)\s*$/.test(gap)) cur.push(s);
    else {
      if (cur.length >= 2) out.push(cur);
      cur = [s];
    }
  }
  if (cur.length >= 2) out.push(cur);
  return out;
}

/**
 * "base and height are 6 and 10" / "the length and width of 5 and 3": names listed together,
 * then as many values in the same order -> strong pairs.
 */
export function respectively(params: ParamInfo[], doc: Doc): Cand[] {
  const out: Cand[] = [];
  const numeric = params.filter((p) => (p.type === 'integer' || p.type === 'number') && !p.enumValues);
  if (numeric.length < 2) return out;
  const nums = doc.spans.filter((s) => s.kind === 'number' && !s.word);
  for (const series of allSeries(doc, nums)) {
    const first = tokenAt(doc, series[0].start);
    // names listed within the 10 tokens before the series, each matched to one parameter
    const listed: { p: ParamInfo; idx: number }[] = [];
    for (let i = Math.max(0, first - 10); i < first; i++) {
      const t = doc.tokens[i];
      const p = numeric.find(
        (q) => !listed.some((l) => l.p === q) && q.anchors.some((a, k) => a === t.stem && !WEAK_PARTS.has(q.parts[k] ?? a)),
      );
      if (p) listed.push({ p, idx: i });
    }
    if (listed.length !== series.length) continue;
    // the names must be joined by commas/"and" only
    let joined = true;
    for (let k = 1; k < listed.length; k++) {
      const between = doc.text.slice(doc.tokens[listed[k - 1].idx].end, doc.tokens[listed[k].idx].start);
      // only commas, "and"/"&" and "the" between two listed names
      if (!/^[\s,]*(and|&)?[\s,]*(the\s+)?$/i.test(between)) joined = false;
    }
    if (!joined) continue;
    listed.forEach((l, k) => {
      const v = numberFor(series[k], l.p, l.p.type as 'integer' | 'number');
      if (v !== undefined)
        out.push({
          param: l.p,
          value: v,
          score: SERIES_SCORES.respectively.v,
          ranges: [[series[k].start, series[k].end]],
          kind: 'respectively',
        });
    });
  }
  return out;
}

/** The position a parameter's name gives it among numbered siblings: num1 -> [num, 1], second_side -> [side, 2]. */
export function ordinalName(p: ParamInfo): [string, number] | undefined {
  const words = ['first', 'second', 'third', 'fourth', 'fifth'];
  const m = /^(.*?)[_-]?(\d)$/.exec(p.name);
  if (m && m[1] !== '') return [m[1].toLowerCase(), Number(m[2])];
  // option_one, option_two
  const last = ['one', 'two', 'three', 'four', 'five'].indexOf(p.parts[p.parts.length - 1] ?? '');
  if (last >= 0 && p.parts.length > 1) return [p.parts.slice(0, -1).join('_'), last + 1];
  const k = words.indexOf(p.parts[0] ?? '');
  if (k >= 0 && p.parts.length > 1) return [p.parts.slice(1).join('_'), k + 1];
  return undefined;
}

/**
 * Numbered parameters (num1, num2; side1..side3; first_value, second_value) and a written series
 * of exactly as many numbers ("40 and 50", "5 units, 4 units and 3 units"): the values in order.
 */
export function ordinalSeries(params: ParamInfo[], doc: Doc): Cand[] {
  const out: Cand[] = [];
  const groups = new Map<string, ParamInfo[]>();
  const words = new Map<string, ParamInfo[]>();
  for (const p of params) {
    const o = ordinalName(p);
    if (!o || p.enumValues) continue;
    if (p.type === 'integer' || p.type === 'number') groups.set(o[0], [...(groups.get(o[0]) ?? []), p]);
    else if (p.type === 'string' && p.semantic !== 'date' && p.semantic !== 'time' && p.semantic !== 'datetime')
      words.set(o[0], [...(words.get(o[0]) ?? []), p]);
  }
  // two numbered string parameters (color1, color2; species1, species2) and two plain lower-case
  // words joined by "and"/"or"/"vs" ("mix yellow and blue", "a human and a chimp"), the only such
  // pair in the request; names are left to the name rules
  for (const group of words.values()) {
    if (group.length !== 2) continue;
    group.sort((a, b) => ordinalName(a)![1] - ordinalName(b)![1]);
    if (ordinalName(group[0])![1] !== 1 || ordinalName(group[1])![1] !== 2) continue;
    // (not for dates or times: "between today and tomorrow" is no pair of values)
    if (/(?:^|_)(date|time|day|datetime|timestamp)$/.test(ordinalName(group[0])![0])) continue;
    let pairs = [...doc.text.matchAll(/\b([a-z][a-z-]+)\s+(?:and|or|vs\.?|versus)\s+(?:(?:an?|the)\s+)?([a-z][a-z-]+)\b/g)].filter(
      (m) => !STOP_WORDS.has(m[1]) && !STOP_WORDS.has(m[2]) && !adverbLike(m[1]) && !adverbLike(m[2]),
    );
    // several pairs: the one the parameters' own word follows ("yellow and blue colors")
    if (pairs.length > 1) {
      const base = stem(ordinalName(group[0])![0].split('_').pop() ?? '');
      pairs = pairs.filter((m) => stem(/^\s*([a-z]+)/i.exec(doc.text.slice(m.index! + m[0].length))?.[1] ?? '') === base);
    }
    if (pairs.length !== 1) continue;
    const m = pairs[0];
    const at1 = m.index!;
    const at2 = m.index! + m[0].length - m[2].length;
    out.push({
      param: group[0],
      value: m[1],
      score: SERIES_SCORES.ordinalWords.v,
      ranges: [[at1, at1 + m[1].length]],
      kind: 'ordinal-words',
    });
    out.push({
      param: group[1],
      value: m[2],
      score: SERIES_SCORES.ordinalWords.v,
      ranges: [[at2, at2 + m[2].length]],
      kind: 'ordinal-words',
    });
  }
  const nums = doc.spans.filter((s) => s.kind === 'number' && !s.word);
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => ordinalName(a)![1] - ordinalName(b)![1]);
    // positions 1..n with none missing
    if (group.some((p, i) => ordinalName(p)![1] !== i + 1)) continue;
    const series = allSeries(doc, nums).filter((x) => x.length === group.length);
    if (series.length !== 1) continue;
    group.forEach((p, i) => {
      const v = numberFor(series[0][i], p, p.type as 'integer' | 'number');
      if (v !== undefined)
        out.push({
          param: p,
          value: v,
          score: SERIES_SCORES.numberedSeries.v,
          ranges: [[series[0][i].start, series[0][i].end]],
          kind: 'respectively',
        });
    });
  }
  return out;
}

/** Superlatives that ask for the one first result ("the highest grossing bank"). */
export const SUPERLATIVES =
  'best|top|highest|lowest|largest|biggest|smallest|most|least|cheapest|nearest|closest|greatest|richest|tallest|longest|shortest|oldest|newest';

/** "the <superlative>" anywhere in a request. */
export const SUPERLATIVE_THE = new RegExp(String.raw`\bthe\s+(?:${SUPERLATIVES})\b`, 'gi');

/** "the <superlative> <noun phrase>", the phrase up to a word that ends it (its last word is the noun). */
export const SUPERLATIVE_PHRASE = new RegExp(
  String.raw`(?<!\bof\s)\bthe\s+(?:single\s+)?(${SUPERLATIVES})\s+((?:[\p{L}'’-]+\s+){0,3}?[\p{L}'’-]+)(?=\s*(?:$|[.,;:!?]|\s(?:in|at|on|near|for|with|from|of|that|which|who|to|by|around|within|and|or|this|last|next)\b))`,
  'iu',
);

/**
 * One result asked for by a superlative and a singular noun ("Find the highest grossing bank in
 * the U.S" → top_n 1), for a count of results where the request writes no number but a year, of a
 * tool whose name holds that superlative (highest_grossing_banks). Not a plural ("the best
 * restaurants"), nor "one of the best", nor two superlatives.
 */
export function singleBestCount(p: ParamInfo, doc: Doc, toolStems: ReadonlySet<string>): Cand[] {
  if (p.type !== 'integer' || !p.parts.some((x) => RESULT_COUNT_PARTS.test(x))) return [];
  // (a year is no count: "for year 2020")
  if (doc.spans.some((s) => s.kind === 'number' && !(s.num !== undefined && s.num >= 1900 && s.num <= 2099 && /^\d{4}$/.test(s.text))))
    return [];
  // the noun phrase after the superlative, up to a word that ends it: its last word is the noun
  const m = SUPERLATIVE_PHRASE.exec(doc.text);
  // (only a tool that ranks by that very measure: highest_grossing_banks for "the highest grossing
  // bank"; a search tool's result count is not asked to be 1 by "the best way to learn Rust")
  if (!m || !toolStems.has(stem(m[1].toLowerCase()))) return [];
  // (and only once: "the best phone and the best tablet" asks two)
  if (doc.text.match(SUPERLATIVE_THE)!.length > 1) return [];
  const noun = m[2].split(/\s+/).pop()?.toLowerCase() ?? '';
  if (noun === '' || (/s$/.test(noun) && !/(?:ss|us|is)$/.test(noun)) || /^(?:ones?|people|children|men|women|data|media)$/.test(noun))
    return [];
  return [{ param: p, value: 1, score: SERIES_SCORES.singleBest.v, ranges: [], kind: 'single-best' }];
}

/** Ordinal words and figures ("second", "3rd") by the position they give. */
export const ORDINAL_POSITION: Readonly<Record<string, number>> = lookupTable({
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
});

/**
 * A position written as an ordinal ("Remove the second item from my todo list", "the 3rd entry")
 * for an integer index or position parameter: the ordinal, less one where the description counts
 * from zero ("The zero-based index of the todo item"). Only "the <ordinal>" before a word for a
 * list's member (item, entry, task, row, tab, contact…), outside quotes: "the first time", "the
 * first name of…", "the second world war", "'review the first draft'" say no position.
 */
export function positionCandidates(p: ParamInfo, doc: Doc): Cand[] {
  if (p.type !== 'integer' || !p.parts.some((x) => /^(?:index|idx|position|pos)$/.test(x))) return [];
  const zeroBased = /\b(?:zero|0)[- ]?(?:based|indexed)\b|\bstarts?(?:ing)?\s+(?:at|from)\s+(?:0|zero)\b/i.test(p.description);
  const out: Cand[] = [];
  for (const m of doc.text.matchAll(
    /\bthe\s+(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|([1-9]|10)(?:st|nd|rd|th))\s+(?:one|item|entry|element|task|todo|to-do|row|line|record|tab|result|position|slot|card|note|reminder|contact|file|option|choice)s?\b/giu,
  )) {
    const n = m[2] !== undefined ? Number(m[2]) : ORDINAL_POSITION[m[1].toLowerCase()];
    if (n === undefined) continue;
    // (an ordinal inside a quoted value is its content: "Add 'review the first draft' to my list")
    if (doc.spans.some((sp) => sp.kind === 'quoted' && sp.start <= m.index && sp.end >= m.index + m[0].length)) continue;
    const start = m.index + m[0].indexOf(m[1]);
    // (weaker than a number written for it: "Mark item 3 as done, the second one I added")
    out.push({
      param: p,
      value: zeroBased ? n - 1 : n,
      score: SERIES_SCORES.ordinalPosition.v,
      ranges: [[start, start + m[1].length]],
      kind: 'position',
    });
  }
  return out;
}
