/**
 * Values given for several parameters at once: numbered parameters and a written series of
 * numbers, and words coordinated by "and".
 */
import { type Doc, type Span } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { type Token } from '../text.js';
import { SERIES_SCORES } from './data/scores/series.js';
import { itemBoundary } from './items.js';
import { numberFor } from './numbers.js';
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

/** The position a parameter's name gives it among numbered siblings: num1 -> [num, 1], second_side -> [side, 2]. */
function ordinalName(p: ParamInfo): [string, number] | undefined {
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
  for (const p of params) {
    const o = ordinalName(p);
    if (!o || p.enumValues) continue;
    if (p.type === 'integer' || p.type === 'number') groups.set(o[0], [...(groups.get(o[0]) ?? []), p]);
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
