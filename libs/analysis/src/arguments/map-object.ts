/**
 * mapObject: fills the parameters of one object level from context fields, explicit pairs and the
 * scored candidates of every parameter, best first, each span of text used once; then nested
 * objects and leftovers.
 */
import { type Doc, type Span } from '../extract.js';
import { type ParamInfo, isObj, paramsOf, propertiesOf, requiredOf } from '../schema.js';
import { contentStems, squash } from '../text.js';
import { anchorHits } from './anchors.js';
import { DONTCARE } from './data/enums.js';
import { MAP_OBJECT_SCORES } from './data/scores/map-object.js';
import { candidatesFor, runOptionsOf } from './dispatch.js';
import { echoFitsKind, echoesToolName, withoutLabel, withoutToolVerb } from './echoes.js';
import { carriedByJson, clashes, coerce, contextField, definitionOf, namesSibling, saysMore, setArg } from './map.js';
import { NUMERIC_RANK, countsValues, numberFor } from './numbers.js';
import { ONE_TOKEN_SEMANTICS, describedValue, explicitPairs, namedPhraseEnd, pairValue } from './pairs.js';
import { ordinalSeries } from './series.js';
import { tagged, traceOf } from './trace.js';
import { type ArgEvidence, type ArgTrace, type Cand, EITHER_OR_MIN_SCORE, REQUIRED_MIN_SCORE } from './types.js';

/**
 * Most parameters of one object level whose values mapObject looks for in the request: each costs
 * about 1 ms with a long request on a 2-core machine, so a tool of 5,000 properties would take 4.6 s a
 * request (unified_tool's MapRequest holds the service's one thread meanwhile). Parameters named in
 * the context or written as name=value are read whatever their number; required ones past the
 * limit are reported missing (or take their default). The eval corpus's largest schema has 28.
 */
export const MAX_SEARCHED_PARAMS = 128;

/** The first MAX_SEARCHED_PARAMS of a level's pending parameters, the required ones first; in schema order. */
function searchedParams(pending: ParamInfo[]): ParamInfo[] {
  if (pending.length <= MAX_SEARCHED_PARAMS) return pending;
  const keep = new Set<ParamInfo>();
  for (const p of pending) if (p.required && keep.size < MAX_SEARCHED_PARAMS) keep.add(p);
  for (const p of pending) if (!p.required && keep.size < MAX_SEARCHED_PARAMS) keep.add(p);
  return pending.filter((p) => keep.has(p));
}

/**
 * Maps the text/context onto an object schema's parameters (recursive for nested objects).
 * `lenient`: the object is required by its parent and marks none of its own properties required
 * ("budget": {min, max}), so its properties take values at the either-or threshold, not the
 * optional one: a required range is not left empty for want of a strong cue.
 */
export function mapObject(
  schema: unknown,
  doc: Doc,
  ctx: Record<string, unknown> | undefined,
  taken: [number, number][],
  depth: number,
  toolStems: ReadonlySet<string> = new Set(),
  lenient = false,
  toolDescription = '',
): {
  args: Record<string, unknown>;
  missing: string[];
  evidence: Record<string, ArgEvidence>;
  mentionedUnfilled: number;
  valueSpans: Map<string, [number, number]>;
  /** only when tracing (MapArgumentsOptions.trace) */
  trace?: Record<string, ArgTrace>;
} {
  const tracing = runOptionsOf(doc)?.trace === true;
  // (what the trace reads: the candidate each argument took, and each nested object's own trace)
  const chosen = new Map<string, Cand>();
  const nested = new Map<string, Record<string, ArgTrace>>();
  // where in the text each string value taken from it lies (coordinatedValues reads around it)
  const valueSpans = new Map<string, [number, number]>();
  const params = paramsOf(schema);
  const args: Record<string, unknown> = {};
  const evidence: Record<string, ArgEvidence> = {};
  const pairs = explicitPairs(doc);
  // the tool's own words (its name and description up to its examples), which a whole request
  // must say more than: read only where a whole request is a candidate
  let toolWords: ReadonlySet<string> | undefined;
  const toolWordsOf = (): ReadonlySet<string> => (toolWords ??= new Set([...toolStems, ...contentStems(definitionOf(toolDescription))]));
  const pending: ParamInfo[] = [];
  for (const p of params) {
    // 1. the context object names it
    if (ctx) {
      const f = contextField(ctx, p.name);
      if (f) {
        if (p.type === 'object' && isObj(f.value)) {
          const sub = mapObject(p.schema, doc, f.value, taken, depth + 1, toolStems);
          setArg(args, p.name, { ...sub.args });
          evidence[p.name] = { score: MAP_OBJECT_SCORES.contextNamed.v, kind: 'context' };
          continue;
        }
        const v = coerce(f.value, p);
        if (v !== undefined && (!p.enumValues || p.enumValues.includes(v))) {
          setArg(args, p.name, v);
          evidence[p.name] = { score: MAP_OBJECT_SCORES.contextNamed.v, kind: 'context' };
          continue;
        }
      }
    }
    // 2. written as name=value
    const pair = pairs.get(squash(p.name));
    if (pair) {
      // a free-text string takes the whole phrase the pair opens ("body: See you at noon")
      const phrase = p.type === 'string' && !p.enumValues && !ONE_TOKEN_SEMANTICS.has(p.semantic) && pair.phraseEnd > pair.end;
      // a name, place or title phrase stops before a date or time, and before "and"/"or"/"&"
      // ("city: Paris tomorrow" is Paris; "ticker: AAPL and MSFT" is AAPL, and the joined value
      // is left for coordinatedValues); free text (body, message, query) keeps its whole phrase
      const phraseEnd = !phrase
        ? pair.phraseEnd
        : p.semantic === 'text'
          ? pair.textEnd
          : namedPhraseEnd(doc, pair, !/title|subject|name|company/i.test(p.name));
      const v = pairValue(phrase ? doc.text.slice(pair.start, phraseEnd) : pair.raw, p);
      if (
        v !== undefined &&
        (!p.enumValues || p.enumValues.some((e) => (typeof e === 'string' && typeof v === 'string' ? squash(e) === squash(v) : e === v)))
      ) {
        const ev = p.enumValues?.find((e) => typeof e === 'string' && typeof v === 'string' && squash(e) === squash(v)) ?? v;
        setArg(args, p.name, ev);
        evidence[p.name] = { score: MAP_OBJECT_SCORES.pairWritten.v, kind: 'pair' };
        taken.push([pair.start, phrase ? phraseEnd : pair.end]);
        if (typeof ev === 'string') valueSpans.set(p.name, [pair.start, phrase ? phraseEnd : pair.end]);
        continue;
      }
    }
    pending.push(p);
  }
  // 2b. score every (parameter, value) pair and assign greedily
  let rank = 0;
  for (const p of params) if ((p.type === 'integer' || p.type === 'number') && !p.enumValues) NUMERIC_RANK.set(p, rank++);
  const cands: Cand[] = [];
  // the parameters whose values are looked for in the text (searchedParams: at most
  // MAX_SEARCHED_PARAMS of a level, the required ones first)
  const searched = searchedParams(pending);
  // (a word before a parameter's head noun that only repeats the tool's own name is no value of
  // it: "the musical scale" for musical_scale's scale_type, "a hotel room" for hotel_booking's room_type)
  for (const p of searched) {
    if (p.type === 'object') continue;
    // a value that only repeats the tool's own name names the tool's subject: a place or language
    // of the parameter's own kind stays a value when the parameter is required ("Tokyo" for
    // get_tokyo_weather's city) and leaves an optional one out ("California" for
    // california_tax's state, rather than "Texas" from "I moved from Texas"); anything else is no
    // value of it ("Walmart" for walmart.check_price's store_location, "Netflix" for a title)
    const own = candidatesFor(p, doc)
      .flatMap((c) => withoutLabel(c))
      .map((c) => withoutToolVerb(c, toolStems))
      .filter(
        (c) =>
          !namesSibling(c, doc) &&
          !(echoesToolName(c, toolStems) && !echoFitsKind(c)) &&
          !(c.kind === 'whole' && !saysMore(String(c.value), p, toolWordsOf())),
      );
    if (
      !p.required &&
      own.length > 0 &&
      echoesToolName(
        own.reduce((a, c) => (c.score > a.score ? c : a)),
        toolStems,
      )
    )
      continue;
    cands.push(...own);
  }
  cands.push(...tagged(ordinalSeries(searched, doc), 'ordinalSeries', tracing));
  // a free text's phrase outranks the name it opens with ("body See you at noon": the body is
  // "See you at noon", not "See")
  for (const c of cands) {
    if (c.kind !== 'phrase' || c.param.semantic !== 'text' || c.ranges.length !== 1) continue;
    const [start, end] = c.ranges[0];
    for (const o of cands)
      if (
        o.param === c.param &&
        o.kind === 'proper' &&
        o.ranges.length === 1 &&
        o.ranges[0][0] === start &&
        o.ranges[0][1] < end &&
        o.score >= c.score
      )
        c.score = o.score + MAP_OBJECT_SCORES.phraseOverItsName.v;
  }
  cands.sort((a, b) => b.score - a.score);
  const assigned = new Set<string>(Object.keys(args));
  for (const c of cands) {
    if (assigned.has(c.param.name)) continue;
    // (one of two parameters the description says are needed, one or the other, is nearly required)
    // (so is a property of a required object that marks none of its properties required: lenient)
    const min = c.param.required
      ? REQUIRED_MIN_SCORE.v
      : c.param.eitherOr || lenient
        ? EITHER_OR_MIN_SCORE.v
        : MAP_OBJECT_SCORES.optionalMin.v;
    if (c.score < min) continue;
    if (clashes(c.ranges, taken)) continue;
    // (its text stays untaken, so the call is held back as leaving it out rather than run without it)
    if (!carriedByJson(c.value)) continue;
    setArg(args, c.param.name, c.value);
    if ((typeof c.value === 'string' || (Array.isArray(c.value) && c.value.every((v) => typeof v === 'string'))) && c.ranges.length > 0)
      valueSpans.set(c.param.name, [Math.min(...c.ranges.map((r) => r[0])), Math.max(...c.ranges.map((r) => r[1]))]);
    evidence[c.param.name] = { score: Math.min(1, c.score), kind: c.kind };
    if (tracing) chosen.set(c.param.name, c);
    assigned.add(c.param.name);
    for (const r of c.ranges) taken.push(r);
  }
  // 3. nested objects: map their own properties from the text the parameters above left
  for (const p of searched.filter((x) => x.type === 'object' && depth < 3)) {
    const subReq = requiredOf(p.schema);
    const sub = mapObject(p.schema, doc, undefined, taken, depth + 1, toolStems, p.required && subReq.length === 0);
    // (a lenient object needs two values, or one found by a clear cue: "2 to 4 bathrooms" leaves a
    // budget's max empty)
    const weakOne =
      p.required &&
      subReq.length === 0 &&
      Object.keys(sub.args).length === 1 &&
      Object.values(sub.evidence).every((e) => e.score < MAP_OBJECT_SCORES.lenientOneClearCue.v);
    if (Object.keys(sub.args).length > 0 && sub.missing.length === 0 && !weakOne) {
      setArg(args, p.name, sub.args);
      const scores = Object.values(sub.evidence).map((e) => e.score);
      evidence[p.name] = { score: scores.length ? Math.min(...scores) : MAP_OBJECT_SCORES.objectWithoutEvidence.v, kind: 'object' };
      if (sub.trace) nested.set(p.name, sub.trace);
      assigned.add(p.name);
    } else if (Object.keys(propertiesOf(p.schema)).length === 0 && !subReq.length) {
      // free-form object: nothing to map into
    }
  }
  // 5. numbers left over go to numeric required parameters in schema order
  const numericLeft = searched.filter(
    (p) => !assigned.has(p.name) && p.required && (p.type === 'integer' || p.type === 'number') && !p.enumValues,
  );
  if (numericLeft.length > 0) {
    // (a count of the values, "the sum of two numbers a and b", is none of them)
    const unclaimed = (s: Span): boolean =>
      s.kind === 'number' &&
      !numericLeft.every((q) => countsValues(s, q)) &&
      !clashes([[s.start, s.end]], taken) &&
      !doc.spans.some(
        (o) => o !== s && ['date', 'time', 'id', 'path', 'url', 'quoted', 'list'].includes(o.kind) && o.start <= s.start && o.end >= s.end,
      );
    let free = doc.spans.filter((s) => unclaimed(s) && !s.word);
    // (numbers written as words count too where the digits are too few: "each of my three friends
    // gave me 10 euros" onto a, b; not "one", which is mostly no number: "one quick question", "no
    // one knows", "BMI for one person weighing 70")
    if (free.length < numericLeft.length) {
      const all = doc.spans
        .filter((s) => unclaimed(s) && !(s.word && /^(?:an?\s+)?(?:one|single|alone|solo|myself)$/i.test(s.text.trim())))
        .sort((x, y) => x.start - y.start);
      if (all.length === numericLeft.length) free = all;
    }
    // two values for parameters described as the smaller and the larger one go by size
    if (free.length === 2 && numericLeft.length === 2) {
      const side = (p: ParamInfo): number =>
        /\b(?:smaller|lesser|lower|minimum)\s+(?:value|number|integer|one)\b/i.test(p.description)
          ? -1
          : /\b(?:larger|greater|bigger|higher|maximum)\s+(?:value|number|integer|one)\b/i.test(p.description)
            ? 1
            : 0;
      const [x, y] = free;
      if (
        side(numericLeft[0]) === -side(numericLeft[1]) &&
        side(numericLeft[0]) !== 0 &&
        x.num !== undefined &&
        y.num !== undefined &&
        x.num > y.num === side(numericLeft[0]) < 0
      )
        free = [y, x];
    }
    // exactly as many free numbers as unfilled numeric parameters, each fitting its parameter in
    // reading order ("add 17 and 25" onto a, b): a one-to-one positional fit, stronger than order alone
    const fitsInOrder =
      free.length === numericLeft.length &&
      numericLeft.every((p, i) => numberFor(free[i], p, p.type as 'integer' | 'number') !== undefined);
    for (const p of numericLeft) {
      const s = free.find((x) => numberFor(x, p, p.type as 'integer' | 'number') !== undefined && !clashes([[x.start, x.end]], taken));
      if (!s) continue;
      setArg(args, p.name, numberFor(s, p, p.type as 'integer' | 'number'));
      evidence[p.name] = fitsInOrder
        ? { score: MAP_OBJECT_SCORES.positionalFit.v, kind: 'positional' }
        : { score: MAP_OBJECT_SCORES.readingOrder.v, kind: 'order' };
      assigned.add(p.name);
      taken.push([s.start, s.end]);
    }
  }
  // 6. a required parameter with no evidence takes its schema default when it has one; else required
  //    flags are false and required enums may fall back to "no preference"
  for (const p of pending) {
    if (assigned.has(p.name) || !p.required) continue;
    const dflt = p.hasDefault ? coerce(p.defaultValue, p) : undefined;
    // a default the description states in words ("Default is 52"), when it fits the type and enum
    const described = dflt === undefined && p.describedDefault !== undefined ? describedValue(p.describedDefault, p) : undefined;
    if (dflt !== undefined && dflt !== null) {
      setArg(args, p.name, dflt);
      evidence[p.name] = { score: MAP_OBJECT_SCORES.schemaDefault.v, kind: 'schema-default' };
      assigned.add(p.name);
    } else if (described !== undefined) {
      setArg(args, p.name, described);
      evidence[p.name] = { score: MAP_OBJECT_SCORES.describedDefault.v, kind: 'described-default' };
      assigned.add(p.name);
    } else if (p.type === 'boolean') {
      setArg(args, p.name, false);
      evidence[p.name] = { score: MAP_OBJECT_SCORES.flagDefault.v, kind: 'flag-default' };
      assigned.add(p.name);
    } else if (p.enumValues) {
      const dc = p.enumValues.find((v) => typeof v === 'string' && DONTCARE.has(v.toLowerCase()));
      if (dc !== undefined) {
        setArg(args, p.name, dc);
        evidence[p.name] = { score: MAP_OBJECT_SCORES.enumNoPreference.v, kind: 'enum-default' };
        assigned.add(p.name);
      }
    }
  }
  const missing = params.filter((p) => p.required && !assigned.has(p.name)).map((p) => p.name);
  const mentionedUnfilled =
    depth === 0
      ? searched.filter(
          (p) => !p.required && !assigned.has(p.name) && anchorHits(p, doc).some((h) => h.w >= MAP_OBJECT_SCORES.mentionedNameMin.v),
        ).length
      : 0;
  // keep schema order
  const ordered: Record<string, unknown> = {};
  for (const p of params) if (Object.hasOwn(args, p.name)) setArg(ordered, p.name, args[p.name]);
  const trace = tracing ? traceOf(ordered, evidence, chosen, cands, nested, doc) : undefined;
  return { args: ordered, missing, evidence, mentionedUnfilled, valueSpans, ...(trace ? { trace } : {}) };
}
