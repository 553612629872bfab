/**
 * Maps a request (and its context) onto a tool's JSON Schema: finds typed spans in the text,
 * scores every (parameter, span) pair by type fit and by how close the parameter's name (or a
 * unit it asks for) is written to the value, and assigns greedily, best pair first. Never
 * invents a value: a required parameter with no evidence is reported missing.
 */
import { analyze, tokenAt, parseListLiteral, type Doc, type Span, type DateValue, type TimeValue } from './extract.js';
import { paramsOf, isObj, resolveType, propertiesOf, requiredOf, type ParamInfo, type ParamType } from './schema.js';
import { STOP_WORDS, squash, stem, splitIdentifier, editDistance, contentStems, tokenize, letterDigitRuns, type Token } from './text.js';
import {
  CURRENCIES,
  LEADING_WORDS,
  lookupTable,
  MONTHS,
  NUMBER_WORDS,
  US_CITIES,
  US_STATES,
  US_STATE_CODES,
  WORLD_CITIES,
} from './lexicon.js';
import { US_PLACES } from './us-places.js';
import type { MapperTool } from './types.js';

/** How one argument was found (feeds the confidence). */
export interface ArgEvidence {
  score: number;
  kind: string;
}

/** Full mapping result with per-argument evidence. */
export interface DetailedMapping {
  arguments: Record<string, unknown>;
  missingArguments: string[];
  filledRatio: number;
  evidence: Record<string, ArgEvidence>;
  /** salient spans (numbers, quoted, urls, e-mails, paths, dates) no parameter took */
  unusedSalient: number;
  /** the text of those spans that some parameter could take (a number where one is numeric…), in request order, at most MAX_UNUSED_SHOWN; none when the call leaves out nothing it could have used */
  unusedValues: string[];
  /**
   * Parameters whose value the request joins to another one no argument took ("AAPL and MSFT"
   * for a ticker, "the entity Alice and the entity Bob" for names): the call would do half of it.
   */
  coordinated: string[];
  /** salient spans in the text */
  salient: number;
  /** required parameters of the schema */
  requiredCount: number;
  /** character ranges of the text that mapped values took */
  covered: [number, number][];
  /** optional parameters whose name is written in the request but that got no value */
  mentionedUnfilled: number;
  /** arguments found by the less reliable means (bare names, phrases, order, whole request) */
  weakKinds: number;
  /** parameters in the schema */
  paramCount: number;
  /**
   * Dates the request writes in figures ("2023-05-12", "04/07/2023") sent in the order written
   * (+1 each) or in another order (−1 each; year first or last), summed and clamped to [−1, 1];
   * 0 where the request writes no date in figures, or writes dates in both orders. Of two tools that take the same call, the one whose format is the
   * user's needs no rewriting (a selection feature).
   */
  datesAsWritten: number;
}

/** Options of the argument mapper. */
export interface MapArgumentsOptions {
  /** "today" for relative dates and dates written without a year (default: the current date) */
  now?: Date;
}

/** A possible value for one parameter. */
interface Cand {
  param: ParamInfo;
  value: unknown;
  score: number;
  ranges: [number, number][];
  kind: string;
}

/**
 * A string value that is another parameter's name written as the label of a value ("The song_id
 * is …" gives no device_id "song_id"), not a value. Enum values are values whatever they spell
 * (group_by "campaign_id"), and so is a name not followed by "is"/"="/":" ("sort by created_at").
 */
function namesSibling(c: Cand, doc: Doc): boolean {
  if (typeof c.value !== 'string' || c.param.enumValues || !/[_A-Z]/.test(c.value.slice(1)) || c.ranges.length !== 1) return false;
  const v = squash(c.value);
  return (
    c.param.siblings.some((x) => squash(x) === v) &&
    /^['"”’]?\s*(?:is|was|=|:)(?=\s|$)/i.test(doc.text.slice(c.ranges[0][1], c.ranges[0][1] + 8))
  );
}

/** Lowest candidate score that fills a required parameter (an optional one needs 0.5). */
const REQUIRED_MIN_SCORE = 0.2;

/** Minimum score of a value for a parameter needed unless another is given (ParamInfo.eitherOr). */
const EITHER_OR_MIN_SCORE = 0.35;

/** Words that may sit between a parameter's name and its value ("rate of 5", "name is 'x'", "port: 80"). */
const LINK_WORDS = new Set([
  'is',
  'are',
  'of',
  'be',
  'as',
  'to',
  'at',
  'for',
  'named',
  'called',
  'titled',
  'the',
  'a',
  'an',
  'equal',
  'equals',
  'set',
  'with',
  'about',
  'around',
  'approximately',
  'roughly',
  'value',
  'should',
  'will',
  'would',
  'like',
  'by',
  'in',
  'on',
  'my',
  'its',
  'their',
  'his',
  'her',
  'our',
  'your',
  'it',
  'being',
  'was',
  'amount',
  'total',
  'exactly',
  'use',
  'using',
  'and',
  // comparisons between a name and its bound ("rating higher than 4.1", "price of at most $50")
  'than',
  'least',
  'most',
  'higher',
  'greater',
  'more',
  'less',
  'lower',
  'above',
  'below',
  'over',
  'under',
  'minimum',
  'maximum',
  'not',
  'no',
]);

/** Name parts too generic to anchor a value on their own. */
const WEAK_PARTS = new Set([
  'value',
  'type',
  'data',
  'info',
  'information',
  'number',
  'num',
  'no',
  'list',
  'string',
  'param',
  'input',
  'output',
  'flag',
  'is',
  'has',
  'include',
  'enable',
  'use',
  'default',
  'option',
  'mode',
  'new',
  'current',
  'get',
  'set',
  'the',
  'of',
  'for',
  'to',
  'in',
  'on',
  'at',
  'by',
  'with',
  'and',
  'or',
  'a',
  'an',
  'max',
  'min',
  'total',
  'id',
  'ids',
  'name',
  'names',
  'count',
  'amount',
  'level',
  'details',
  'detail',
  'specific',
  'desired',
  'target',
  'given',
  'per',
  'from',
  'item',
  'items',
  'key',
  'specified',
  'user',
]);

/** Unit words (singular stems) a description may ask for and a number may carry. */
const UNIT_STEMS = new Set([
  'year',
  'month',
  'week',
  'day',
  'dai',
  'hour',
  'minut',
  'second',
  'millisecond',
  'meter',
  'metr',
  'kilomet',
  'km',
  'mile',
  'kg',
  'kilogram',
  'gram',
  'pound',
  'lb',
  'lbs',
  'feet',
  'foot',
  'inch',
  'cm',
  'centimet',
  'mm',
  'millimet',
  'celsiu',
  'fahrenheit',
  'kelvin',
  'dollar',
  'usd',
  'percent',
  'degre',
  'liter',
  'litr',
  'ml',
  'gallon',
  'ounc',
  'oz',
  'mph',
  'kmh',
  'hz',
  'hertz',
  'watt',
  'volt',
  'amp',
  'ohm',
  'joul',
  'newton',
  'pascal',
  'atm',
  'atmospher',
  'bar',
  'mol',
  'mole',
  'byte',
  'kb',
  'mb',
  'gb',
  'tb',
  'pixel',
  'px',
  'bpm',
  'calori',
  'kcal',
  'ton',
  'tonn',
  'acr',
  'hectar',
  'sqft',
  'squar',
  'peopl',
  'person',
  'guest',
  'adult',
  'child',
  'ticket',
  'room',
  'night',
  'seat',
  'passeng',
  'decim',
  'digit',
  'point',
  'game',
  'time',
  'item',
  'result',
  'page',
  'sampl',
  'trial',
  'success',
  'step',
  'unit',
  'share',
  'coin',
  'card',
  'player',
  'team',
  'member',
  'employe',
  'student',
  'stori',
  'floor',
  'bedroom',
  'bathroom',
  'bed',
  'bath',
  'travel',
  'travell',
  'individu',
  'particip',
  'attende',
  'star',
  'rate',
  'rating',
  'score',
  'm',
  's',
  'h',
  'g',
  'c',
  'f',
  'k',
]);

/** Negation words before a flag's name ("without trip protection", "no pets"). */
const NEGATIONS = new Set([
  'no',
  'not',
  'without',
  "don't",
  'dont',
  'never',
  'exclude',
  'excluding',
  "doesn't",
  "isn't",
  "won't",
  'non',
  'nor',
  "aren't",
  "shouldn't",
  'neither',
  'disable',
  'disabled',
  'skip',
  'w/o',
  'avoid',
  'except',
  'off',
  'false',
  'lacking',
]);

/** Synonyms for flag name parts ("kids" in a name, "children" in a request). */
const FLAG_SYNONYMS: Record<string, string[]> = lookupTable({
  kid: ['child', 'children', 'famili', 'kid'],
  child: ['kid', 'children', 'famili'],
  pet: ['pet', 'dog', 'cat'],
  free: ['free', 'no entri fee', 'complimentari'],
  privat: ['privat', 'secret', 'hidden'],
  detail: ['detail', 'detailed', 'in-depth', 'thorough'],
  refund: ['refund'],
  live: ['live'],
  wifi: ['wifi', 'wi-fi', 'internet'],
  smoke: ['smoke', 'smoking'],
  veget: ['vegetarian', 'vegan'],
  share: ['share', 'shared'],
  laundri: ['laundri', 'washer'],
  garag: ['garag', 'park'],
  park: ['park', 'garag'],
  direct: ['direct', 'nonstop'],
  return: ['return', 'round'],
});

/** Phrases that say what a flag name part says ("both men and women" for unisex). */
const FLAG_PHRASES: Record<string, RegExp> = lookupTable({
  unisex: /\b(?:both\s+)?(?:men\s+and\s+women|women\s+and\s+men|males?\s+and\s+females?|genders)\b/i,
  // ("no entry fee" says free; its "no" is no negation of it)
  // (not "with or without an entry fee", not "no entry fee waivers")
  free: /(?<!\bor\s{1,3})\b(?:no|without(?:\s+an?)?)\s+(?:entry|entrance|admission)\s+(?:fees?|charges?)\b(?!\s+(?:waivers?|refunds?|discounts?))|\bfree\s+(?:of\s+charge|to\s+enter)\b/i,
});

/** Quiet default of the current date (UTC, day precision). */
function todayUtc(): Date {
  const n = new Date();
  return new Date(Date.UTC(n.getUTCFullYear(), n.getUTCMonth(), n.getUTCDate()));
}

/** Zero-pads to 2 digits. */
function p2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Fills a missing year from the reference date. */
function withYear(d: DateValue, today: Date): Required<Pick<DateValue, 'y' | 'm' | 'd'>> {
  return { y: d.y ?? today.getUTCFullYear(), m: d.m, d: d.d };
}

/** Formats a date the way a parameter's description asks (ISO 8601 by default); date-times add the time. */
function formatDate(d: DateValue, p: ParamInfo, today: Date, time?: TimeValue): string {
  const { y, m, d: day } = withYear(d, today);
  // (a year written with three or five Ys is a slip for four: "MM-DD-YYY")
  const want = p.description.toUpperCase().replace(/(?<![A-Z])Y{3}(?!Y)|(?<![A-Z])Y{5}(?!Y)/g, 'YYYY');
  let base: string;
  // which order the description's example asks for
  // the order written in words: "(month-day-year)", "in day/month/year format"
  const words = /\b(MONTH|DAY|YEAR)([-/.])(MONTH|DAY)\2(YEAR|DAY)\b/.exec(want);
  if (words && words[1] !== 'YEAR' && new Set([words[1], words[3], words[4]]).size === 3) {
    const part = (w: string): string => (w === 'MONTH' ? p2(m) : w === 'DAY' ? p2(day) : String(y));
    base = `${part(words[1])}${words[2]}${part(words[3])}${words[2]}${part(words[4])}`;
  } else if (/MM\/DD\/YYYY/.test(want)) base = `${p2(m)}/${p2(day)}/${y}`;
  else if (/DD\/MM\/YYYY/.test(want)) base = `${p2(day)}/${p2(m)}/${y}`;
  else if (/DD-MM-YYYY/.test(want)) base = `${p2(day)}-${p2(m)}-${y}`;
  // (each test below matches that literal pattern in the upper-cased description)
  else if (/MM-DD-YYYY/.test(want)) base = `${p2(m)}-${p2(day)}-${y}`;
  else if (/YYYY\/MM\/DD/.test(want)) base = `${y}/${p2(m)}/${p2(day)}`;
  else if (/YYYY\.MM\.DD/.test(want)) base = `${y}.${p2(m)}.${p2(day)}`;
  else if (/YYYYMMDD/.test(want)) base = `${y}${p2(m)}${p2(day)}`;
  else base = `${y}-${p2(m)}-${p2(day)}`;
  // the description's format names a time part ("HH:MM", "T", "ISO 8601 date-time")
  const fmtHasTime = /HH/.test(want) || /\bDATE-?TIME\b|TIMESTAMP/.test(want);
  if (!(p.semantic === 'datetime' || (time && fmtHasTime))) return base;
  if (!time && !fmtHasTime) return base;
  const t = time ?? { h: 0, mi: 0 };
  // seconds unless the format is exactly "HH:MM" (not followed by ":SS")
  const withSec = !/HH:MM(?!:)/.test(want) || /HH:MM:SS/.test(want);
  const tt = withSec ? `${p2(t.h)}:${p2(t.mi)}:${p2(t.s ?? 0)}` : `${p2(t.h)}:${p2(t.mi)}`;
  // a "T" between date and time in the example ("YYYY-MM-DDTHH:MM:SS"); a trailing "Z" for UTC
  const tSep = /DDTHH|\dT\d|ISO.?8601/.test(want) || !/HH/.test(want);
  // (not where the zone is given apart: "Timezone is not included and should be specified
  // separately", or a time-zone parameter beside it; the time is then the zone's local time)
  // (a description that says the time is in UTC keeps its Z)
  const zoneApart =
    !/\bUTC\b/.test(want) &&
    (/\bTIME\s?ZONE\b[^.]{0,40}\b(?:NOT INCLUDED|SEPARATELY)\b/.test(want) || p.siblings.some((n) => /^(?:time_?zone|tz)$/i.test(n)));
  const z = !zoneApart && /SSZ|:\d\dZ\b|\bZ\b.*UTC|UTC.*\bZ\b/.test(want) ? 'Z' : '';
  return `${base}${tSep ? 'T' : ' '}${tt}${z}`;
}

/** A description's format of a date range: one date format twice, joined by "to" or a dash ("formatted as 'YYYY-MM-DD to YYYY-MM-DD'"). */
const DATE_RANGE_FORMAT = /\b([YMD]{2,4}([-/.])[YMD]{2,4}\2[YMD]{2,4})(\s*(?:to|-|–)\s*)\1\b/i;

/**
 * A text parameter whose description formats it as a date range ('YYYY-MM-DD to YYYY-MM-DD')
 * takes two dates the request joins by "to", "until", "through", "and" or a dash, each in that
 * format, joined as the description joins them ("from 2023.10.1 to 2023.10.7" →
 * "2023-10-01 to 2023-10-07").
 */
function dateRangeCandidates(p: ParamInfo, doc: Doc): Cand[] {
  if (p.type !== 'string' || p.enumValues) return [];
  const fmt = DATE_RANGE_FORMAT.exec(p.description);
  if (!fmt) return [];
  const dates = doc.spans.filter((s) => s.kind === 'date' && s.date !== undefined).sort((a, b) => a.start - b.start);
  const out: Cand[] = [];
  // (each date formatted as one date of the range's format)
  const one = { ...p, description: fmt[1] };
  for (let i = 0; i + 1 < dates.length; i++) {
    const [a, b] = [dates[i], dates[i + 1]];
    if (b.start < a.end || !/^\s*(?:to|until|till|through|thru|and|-|–)\s*$/i.test(doc.text.slice(a.end, b.start))) continue;
    out.push({
      param: p,
      value: `${formatDate(a.date!, one, doc.today)}${fmt[3]}${formatDate(b.date!, one, doc.today)}`,
      score: 0.9,
      ranges: [[a.start, b.end]],
      kind: 'date-range',
    });
  }
  return out;
}

/**
 * A bare clock-time format among a date-time description's examples: "'HH:MM'" or "'HH:MM:SS'"
 * quoted alone, or "HH:MM" listed after a comma or "or" (not the time part of "YYYY-MM-DD HH:MM").
 * Where both are listed, "HH:MM" is the form a time alone is written in (BFCL's answers do so).
 */
const BARE_TIME_FORMAT = /(?:['"`]|(?:,|\bor)\s+)(HH:MM(?::SS)?)(?![:\w])(?:['"`]|\s*(?:,|or\b|\)|$))/gi;

/** The bare clock-time form a date-time description takes ("HH:MM" over "HH:MM:SS"), if any. */
function bareTimeFormat(description: string): string | undefined {
  const forms = [...description.matchAll(BARE_TIME_FORMAT)].map((m) => m[1].toUpperCase());
  return forms.includes('HH:MM') ? 'HH:MM' : forms[0];
}

/**
 * Words that put a time on some day or relative to something else ("at 4pm next week", "9pm on my
 * birthday", "30 minutes before my 9am meeting", "move my 6am alarm to 6:30"): a time alone is then
 * no date-time.
 */
const DAY_WORDS =
  /\b(?:days?|weeks?|weekends?|months?|years?|eve|birthday|anniversary|holiday|christmas|before|after|tonight|morning|afternoon|evening|next|this|every|daily|weekly|from|until|till|move|change|reschedule|postpone|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i;

/**
 * "<value> as the|my|their… <name>" for a string parameter whose name's last word ends the phrase
 * (special → "black as their special request"): the quoted text right before "as", else the one
 * word (no function word, no number).
 */
function asNamedCandidates(p: ParamInfo, doc: Doc): Cand[] {
  const last = p.parts[p.parts.length - 1];
  if (last === undefined || last.length < 3 || WEAK_PARTS.has(last)) return [];
  const out: Cand[] = [];
  // (from "as" itself, after a space: a pattern opening with \s+ is tried at every space of a long
  // run and reads the run to its end each time)
  const re = new RegExp(
    `(?<=\\s)as\\s+(?:the|my|their|his|her|its|our|your|a|an)\\s+(?:[\\p{L}-]+\\s+){0,2}?${last.replace(/[^\p{L}\p{N}]/gu, '')}s?\\b`,
    'giu',
  );
  for (const m of doc.text.matchAll(re)) {
    const before = doc.text.slice(0, m.index).trimEnd();
    const quoted = doc.spans.find((sp) => sp.kind === 'quoted' && sp.end === before.length);
    if (quoted) {
      out.push({ param: p, value: quoted.text, score: 0.6, ranges: [[quoted.start, quoted.end]], kind: 'as-named' });
      continue;
    }
    // (one word right after a verb of having or choosing: "who has black as their special request";
    // not "billing@acme.com as the sender", "my work address as", "treat the outage as")
    const w =
      /(?:^|\s)(?:has|have|had|with|wants?|wanted|chose|choose|picked|pick|use|uses|used|set|sets|prefer|prefers|preferred)\s+([\p{L}][\p{L}'’-]*)$/iu.exec(
        before,
      );
    if (!w || STOP_WORDS.has(w[1].toLowerCase()) || NOT_A_NAME.has(w[1].toLowerCase())) continue;
    out.push({ param: p, value: w[1], score: 0.55, ranges: [[before.length - w[1].length, before.length]], kind: 'as-named' });
  }
  return out;
}

/** Last name parts of a parameter that says what something is for (an alarm's purpose). */
const PURPOSE_PARTS: ReadonlySet<string> = new Set(['purpose', 'reason']);

/** Formats a time of day ("HH:MM" unless the description asks for seconds or 12-hour). */
function formatTime(t: TimeValue, p: ParamInfo): string {
  const want = p.description.toUpperCase();
  // "HH:MM:SS" asks for seconds
  if (/HH:MM:SS/.test(want)) return `${p2(t.h)}:${p2(t.mi)}:${p2(t.s ?? 0)}`;
  // an example written as an hour and "am"/"pm" ("e.g. 3pm", "like 9 AM") asks for that form:
  // "3pm", or "3:30pm" where the time has minutes
  // (not where the description writes the clock's form: "HH:MM", "24-hour", "24h")
  const example = /(?<!\bnot\s+)\b(?:e\.g\.?,?|such as|for example,?)\s*['"]?\d{1,2}(\s?)(am|pm|AM|PM)\b/.exec(p.description);
  if (example && !/HH:MM|24[- ]?h(?:ou)?r?s?\b/i.test(p.description)) {
    const h12 = t.h % 12 === 0 ? 12 : t.h % 12;
    const ampm = t.h < 12 ? 'am' : 'pm';
    return `${h12}${t.mi ? `:${p2(t.mi)}` : ''}${example[1]}${example[2] === example[2].toUpperCase() ? ampm.toUpperCase() : ampm}`;
  }
  // a 12-hour clock: "AM"/"PM" or "12-hour" in the description, unless it asks for a 24-hour
  // clock ("in 24-hour format 'HH:MM' (e.g., '13:45' for 1:45 PM)")
  if (!/24[- ]HOUR/.test(want) && /\b(AM|PM)\b|HH:MM (AM|PM)|12[- ]HOUR/.test(want)) {
    const h12 = t.h % 12 === 0 ? 12 : t.h % 12;
    return `${p2(h12)}:${p2(t.mi)} ${t.h < 12 ? 'AM' : 'PM'}`;
  }
  return `${p2(t.h)}:${p2(t.mi)}`;
}

/** Does the description ask for "City, State" (US state codes)? */
function wantsState(p: ParamInfo): boolean {
  // "City, State", "city and state", or an example like 'Berkeley, CA'
  // (the example's code is matched case-sensitively: "…, or 'Indore'" holds no state code)
  // (or a lower-case state code inside a quoted example: 'austin, tx')
  const quotedLower = [...p.description.matchAll(/'[^',]{1,40}, ([a-z]{2})'/g)].some((m) => US_STATE_CODES.has(m[1].toUpperCase()));
  return (
    (/city,\s*state|city and state|state abbreviat/i.test(p.description) || /, [A-Z]{2}['")\s,.]/.test(p.description) || quotedLower) &&
    !/city,\s*country/i.test(p.description.slice(0, 60))
  );
}

/** Does the description ask for "City, Country"? */
function wantsRegion(p: ParamInfo): boolean {
  // "City, Country" / "City, State" / "city and state" / example with a comma
  return /city,\s*(state|country|province)|city and (state|country)|'[A-Z][\w\s]+, [A-Z][\w\s]+'/i.test(p.description);
}

/** Formats a place for a parameter: the city, plus the state or country where the description asks for one. */
function formatPlace(s: Span, p: ParamInfo): string {
  const city = s.city ?? s.text;
  let region = s.region;
  // (an address asked for as 'Street, City' without its state: "…, Palo Alto, CA" → "…, Palo Alto")
  if (s.address) return /'street,\s*city'/i.test(p.description) ? s.text.replace(/,\s*[A-Z]{2}(?:\s+\d{5}(?:-\d{4})?)?\s*$/, '') : s.text;
  // an airport's code as written, unless the parameter asks for a city ("LAX" for origin_airport
  // or a cab's pickup; "Los Angeles, CA" for a house's city)
  if (
    s.airport &&
    (/\b(?:airports?|iata)\b/i.test(`${p.parts.join(' ')} ${p.description}`) || !/\bcity\b/i.test(`${p.parts.join(' ')} ${p.description}`))
  )
    return s.airport;
  // a separate state/country parameter takes the region: this one gets the city alone
  if (p.parts.includes('city') && p.siblings.some((x) => /state|country|region|province/i.test(x))) return city;
  const state = wantsState(p);
  if (!state && !wantsRegion(p)) return city;
  // an example such as 'Paris, FR' (a two-letter code that is no US state) asks for country codes;
  // so do examples that all end in two-letter codes ('Austin, TX', 'New York, NY') where the
  // region written is the city's own country ("Paris, France" → "Paris, FR", "London, England" →
  // "London, UK")
  // (the format's own words, 'City, State', are no example)
  const examples = [...p.description.matchAll(/'[A-Z][\w ]+, ([A-Z]{2}|[A-Z][a-z]+(?: [A-Z][a-z]+)?)'/g)]
    .map((m) => m[1])
    .filter((c) => !/^(?:State|Country|Region|Province)$/.test(c));
  // (not where the description names countries, "'City, Country'": those are written out)
  // ('UK' is how the United Kingdom is written among full names too, 'London, UK' beside 'Paris,
  // France': no sign of ISO codes, which write it GB)
  const codes = (): boolean =>
    /country code/i.test(p.description) ||
    examples.some((c) => /^[A-Z]{2}$/.test(c) && !US_STATE_CODES.has(c) && c !== 'UK') ||
    (examples.length > 0 &&
      examples.every((c) => /^[A-Z]{2}$/.test(c)) &&
      !examples.includes('UK') &&
      !/\bcountr(?:y|ies)\b/i.test(p.description));
  if (region) {
    if (state && US_STATES[region.toLowerCase()]) region = US_STATES[region.toLowerCase()];
    // the country written out where codes are asked for ("Nairobi, Kenya" -> "Nairobi, KE")
    else if (
      s.country &&
      (region.toLowerCase() === s.country[0].toLowerCase() || (COUNTRY_ALIASES[s.country[1]] ?? []).includes(region.toLowerCase())) &&
      codes()
    )
      region = countryCode(s.country, p);
    // the United Kingdom or one of its nations written out is 'UK' as a country is written in
    // 'City, Country' ("London, England" → "London, UK"), unless the description writes a name
    else if (
      s.country?.[1] === 'GB' &&
      COUNTRY_ALIASES.GB.concat(UK_ABBREVIATIONS).includes(region.toLowerCase()) &&
      !/england|kingdom|britain|scotland|wales/i.test(p.description)
    )
      region = 'UK';
    return `${city}, ${region}`;
  }
  // (a smaller US place of the gazetteer too, which holds no world city's name: Paris is France's)
  const st = US_CITIES.get(city.toLowerCase()) ?? US_PLACES.get(city.toLowerCase());
  if (st) return exampleSpelling(`${city}, ${st}`, p);
  if (s.country) return `${city}, ${codes() ? countryCode(s.country, p) : s.country[0]}`;
  return city;
}

/**
 * "New York City, NY" for a parameter whose description's example is 'New York, NY': the
 * example's spelling of that very place (the city's own name is New York).
 */
function exampleSpelling(value: string, p: ParamInfo): string {
  // (New York City only, whose city is New York: Kansas City is no Kansas)
  return value === 'New York City, NY' && p.description.includes("'New York, NY'") ? 'New York, NY' : value;
}

/**
 * A country's code as a place parameter's description writes codes: "UK" for the United Kingdom
 * where its example does ('London, UK'); and, where the description takes states too and shows no
 * ISO country code ('Paris, FR'), the country's name in place of a code that is also a US state's
 * ("Toronto, Canada", not "Toronto, CA": California).
 */
function countryCode(country: readonly [string, string], p: ParamInfo): string {
  const [name, code] = country;
  // ("UK" where the description's example writes it, or where its examples are all US state codes)
  // (not where ISO alpha-2 codes are asked for: "Use ISO 3166-1 alpha-2 country codes" is GB)
  if (code === 'GB' && !/\balpha-?2\b/i.test(p.description) && (/, UK\b/.test(p.description) || !/, GB\b/.test(p.description))) return 'UK';
  // (a description that asks for country codes gets codes: "e.g. 'Toronto, CA' or 'Berlin, DE'")
  if (/country\s+codes?\b/i.test(p.description)) return code;
  const examples = [...p.description.matchAll(/'[A-Z][\w ]+, ([A-Z]{2})'/g)].map((m) => m[1]);
  const takesStates = /\bstates?\b/i.test(p.description) || examples.some((c) => US_STATE_CODES.has(c));
  const isoExample = examples.some((c) => !US_STATE_CODES.has(c) && c !== 'UK');
  if (takesStates && !isoExample && US_STATE_CODES.has(code)) return name;
  return code;
}

/** Token index range [first, last] of a character range. */
function tokRange(doc: Doc, start: number, end: number): [number, number] {
  const a = tokenAt(doc, start);
  let b = a;
  while (b + 1 < doc.tokens.length && doc.tokens[b + 1].start < end) b++;
  return [a, b];
}

/** Positions (token indices) where a parameter's name is written, with a weight per match. */
/** What anchorHits reads of a parameter's name (the same for every request), by parameter. */
const ANCHOR_WORDS = new WeakMap<
  ParamInfo,
  { strong: string[]; weak: string[]; firstPart: string; long: string[]; namesPeople: boolean; reviewScore: boolean }
>();

function anchorWords(p: ParamInfo): {
  strong: string[];
  weak: string[];
  firstPart: string;
  long: string[];
  namesPeople: boolean;
  reviewScore: boolean;
} {
  let w = ANCHOR_WORDS.get(p);
  if (w !== undefined) return w;
  const strong = p.anchors.filter((a, i) => !WEAK_PARTS.has(p.parts[i] ?? a) && a.length > 1 && !STOP_WORDS.has(a));
  w = {
    strong,
    weak: p.anchors.filter((a) => !strong.includes(a) && a.length > 1),
    firstPart: p.parts.length > 0 ? stem(p.parts[0]) : '',
    // long name parts, for misspellings ("acceleeration"): one edit away, both at least 7 letters
    // (not numbered names: "temperature1" is one edit from every "temperature")
    long: p.parts.filter((x, i) => x.length >= 7 && !/\d$/.test(x) && strong.includes(p.anchors[i])),
    // (a word that counts the same things as a strong name part: "passengers" for number_of_seats,
    // "guests" for adults)
    namesPeople: strong.some((a) => UNIT_CANON[a] === 'person'),
    // (a review's or user's score is a rating: "a review score of 4.7" for avg_rating; not a credit
    // score for an interest rate)
    reviewScore: p.parts.includes('rating') || p.parts.includes('ratings'),
  };
  ANCHOR_WORDS.set(p, w);
  return w;
}

function anchorHits(p: ParamInfo, doc: Doc): { idx: number; w: number }[] {
  const out: { idx: number; w: number }[] = [];
  const { strong, weak, firstPart, long, namesPeople, reviewScore } = anchorWords(p);
  const siblingNames = siblingNameStems(p);
  for (const t of doc.tokens) {
    // (a word of the name that, with the word before it, writes another parameter's name is mostly
    // that one's: "the meta title as '…'" names MetaTitle more than Title)
    if (siblingNames.length > 0 && t.index > 0) {
      const prev = doc.tokens[t.index - 1].stem;
      const sibling = siblingNames.find((n) => n.parts[0] === prev && n.parts[1] === t.stem);
      if (
        sibling &&
        !(p.required && !sibling.required) &&
        !p.anchors.includes(prev) &&
        (strong.includes(t.stem) || weak.includes(t.stem))
      ) {
        out.push({ idx: t.index, w: 0.3 });
        continue;
      }
    }
    if (strong.includes(t.stem)) out.push({ idx: t.index, w: 1 });
    else if (namesPeople && UNIT_CANON[t.stem] === 'person') out.push({ idx: t.index, w: 0.8 });
    else if (reviewScore && t.stem === 'score' && /^(review|user|customer|guest|star)s?$/.test(doc.tokens[t.index - 1]?.lower ?? ''))
      out.push({ idx: t.index, w: 0.8 });
    else if (weak.includes(t.stem)) out.push({ idx: t.index, w: t.stem === firstPart && p.anchors.length === 1 ? 0.8 : 0.5 });
    else if (t.lower.length >= 7 && long.some((x) => Math.abs(x.length - t.lower.length) <= 1 && editDistance(t.lower, x, 1) <= 1))
      out.push({ idx: t.index, w: 0.9 });
  }
  return out;
}

/**
 * Stems of the parts of the other parameters' names, for those of two parts ("MetaTitle" → meta,
 * titl), and whether each is required. A name word written as such a name's second part is mostly
 * that parameter's: it anchors this one at 0.3 only, unless this one is required and that one is
 * not ("run a web search query 'best pizza'" still fills the required query).
 */
const SIBLING_NAME_STEMS = new WeakMap<ParamInfo, { parts: string[]; required: boolean }[]>();
function siblingNameStems(p: ParamInfo): { parts: string[]; required: boolean }[] {
  let out = SIBLING_NAME_STEMS.get(p);
  if (out === undefined) {
    const required = new Set(p.requiredSiblings);
    out = p.siblings
      .map((n) => ({ parts: splitIdentifier(n).map((w) => stem(w.toLowerCase())), required: required.has(n) }))
      .filter((x) => x.parts.length === 2);
    SIBLING_NAME_STEMS.set(p, out);
  }
  return out;
}

/** Comparison words before a value, by the side of the bound they set. */
const LOWER_BOUND =
  /\b(?:over|above|more\s+than|higher\s+than|greater\s+than|at\s+least|no\s+less\s+than|not\s+less\s+than|min(?:imum)?(?:\s+of)?|from)\s*$/i;
const UPPER_BOUND =
  /\b(?:under|below|less\s+than|lower\s+than|fewer\s+than|at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|max(?:imum)?(?:\s+of)?|within)\s*$/i;

/**
 * Does the comparison written right before a value set the other side of the bound the parameter
 * is? A parameter is a lower bound when its name says min/minimum/lower/from/at-least, an upper
 * bound when it says max/maximum/upper/limit; others take either.
 */
function boundClash(p: ParamInfo, doc: Doc, s: Span): boolean {
  const lower = p.parts.some((x) => /^(min|minimum|lower|least|floor)$/.test(x));
  const upper = p.parts.some((x) => /^(max|maximum|upper|most|ceiling|limit)$/.test(x));
  if (lower === upper) return false;
  const before = doc.text.slice(Math.max(0, s.start - 24), s.start).replace(/[$€£¥]\s*$/, '');
  // ("within $300,000 to $400,000": the word bounds the range, whose first number is its low end)
  if (lower && /\bwithin\s*$/i.test(before) && /^\s*(?:to|-|–|and)\s*[$€£¥]?\s*\d/i.test(doc.text.slice(s.end, s.end + 12))) return false;
  return lower ? UPPER_BOUND.test(before) : LOWER_BOUND.test(before);
}

/** Gap in tokens between two positions, not counting link words. */
function linkGap(doc: Doc, from: number, to: number): number {
  let gap = 0;
  // prepositions half-count: "cuisine in Seattle" links less than "cuisine: Thai"
  for (let i = from + 1; i < to; i++) gap += !LINK_WORDS.has(doc.tokens[i].lower) ? 1 : WEAK_LINKS.has(doc.tokens[i].lower) ? 0.5 : 0;
  return gap;
}

/** Link words that only weakly tie a name to the value after it. */
const WEAK_LINKS = new Set([
  'in',
  'on',
  'at',
  'for',
  'by',
  'with',
  'to',
  'and',
  'about',
  'around',
  'like',
  'higher',
  'greater',
  'more',
  'less',
  'lower',
  'above',
  'below',
  'over',
  'under',
  'not',
  'no',
]);

/** Nouns after "ID" that make it a thing, not a label: an ID card, an id number, the id scanner. */
const ID_NOUNS = new Set([
  'card',
  'cards',
  'number',
  'numbers',
  'scanner',
  'scan',
  'badge',
  'photo',
  'check',
  'verification',
  'document',
  'documents',
  'field',
  'column',
  'format',
  'type',
  'of',
  'is',
  'was',
]);

/**
 * An identifier written as the one word right after "with id" (or "id:"/"id #" after no other
 * noun), ending a phrase ("Reschedule my appointment with id dentist to …" → dentist): not a
 * state's code after a comma ("Boise, ID"), not a noun that makes "ID" a thing ("ID card", "id
 * number"), not a function word.
 */
function wordAfterId(p: ParamInfo, doc: Doc): Cand[] {
  const out: Cand[] = [];
  for (const t of doc.tokens) {
    if (t.lower !== 'id' || /,\s*$/.test(doc.text.slice(Math.max(0, t.start - 3), t.start))) continue;
    const v = doc.tokens[t.index + 1];
    if (!v || !/^\s*[:#]?\s*$/.test(doc.text.slice(t.end, v.start)) || STOP_WORDS.has(v.lower) || ID_NOUNS.has(v.lower)) continue;
    // (written as a label: "with id X", or "id: X" / "id #X" after no other noun; "patient id
    // 5521", "Face ID enabled", "the ID printer" are another thing's id or no label at all)
    const before = doc.tokens[t.index - 1]?.lower;
    if (before !== 'with' && !(/^\s*[:#]/.test(doc.text.slice(t.end, v.start)) && (before === undefined || ID_DETERMINERS.has(before))))
      continue;
    const next = doc.tokens[v.index + 1];
    // (the word ends its phrase: punctuation, the request's end, or a preposition)
    const rest = doc.text.slice(v.end, v.end + 2);
    if (
      next !== undefined &&
      !/^\s*[.,;:!?)]/.test(rest) &&
      !WEAK_LINKS.has(next.lower) &&
      !['please', 'and', 'so', 'then'].includes(next.lower)
    )
      continue;
    out.push({ param: p, value: v.text, score: 0.55, ranges: [[v.start, v.end]], kind: 'id-word' });
  }
  return out;
}

/** Words right before an address that name it as a host ("the IP 10.0.0.5", "server '…'", "at …"). */
const HOST_CUE = /\b(?:ip|ip\s+address|ipv4|host|hostname|server|address|domain|at|on|via)\s*(?:is\s+|of\s+|:\s*)?['"`]?$/i;

/** Placeholders of a URL template that name its host. */
const HOST_PLACEHOLDER = /^(?:ip|ip_?address|host|hostname|server|server_?ip|domain)$/i;

/**
 * A URL template whose only placeholders name its host ('https://{ip}/sedgeapi/v1/…'), written
 * in the request or quoted in the parameter's description, filled with the one IP address (or,
 * for a host name, the one bare domain) the request writes outside the template. Nothing where
 * the request gives no host, or more than one.
 */
function urlTemplates(p: ParamInfo, doc: Doc): Cand[] {
  const templates: { text: string; range?: [number, number] }[] = [];
  for (const s of doc.spans) if (s.kind === 'url' && /\{\w+\}/.test(s.text)) templates.push({ text: s.text, range: [s.start, s.end] });
  for (const m of p.description.matchAll(/['"`]((?:https?|wss?|ftp):\/\/[^'"`\s]*\{\w+\}[^'"`\s]*)['"`]/gi)) templates.push({ text: m[1] });
  const out: Cand[] = [];
  // (not where another parameter takes the address: "Block 203.0.113.7 on the firewall")
  if (
    templates.length === 0 ||
    p.siblings.some((n) =>
      /(?:^|[_-])(?:ip|ips|host|hostname|address|addr|domain|target|subnet|version|firmware)(?:$|[_-])/i.test(splitIdentifier(n).join('_')),
    )
  )
    return out;
  for (const t of templates) {
    const holes = [...t.text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (!holes.every((h) => HOST_PLACEHOLDER.test(h))) continue;
    // (a host the request names as one: "the IP 10.0.0.5", "the IP address '…'", "host …",
    // "server …", "at/on …"; not a range, "10.0.0.0/24")
    const outside = (s: Span) =>
      (!t.range || s.end <= t.range[0] || s.start >= t.range[1]) &&
      HOST_CUE.test(doc.text.slice(Math.max(0, s.start - 24), s.start)) &&
      !/^\/\d/.test(doc.text.slice(s.end, s.end + 2));
    const ips = [...new Set(doc.spans.filter((s) => s.kind === 'id' && IPV4.test(s.text) && outside(s)).map((s) => s.text))];
    const hosts =
      ips.length > 0
        ? ips
        : holes.every((h) => !/^ip/i.test(h))
          ? [...new Set(doc.spans.filter((s) => s.kind === 'url' && !/[/{]/.test(s.text) && outside(s)).map((s) => s.text))]
          : [];
    if (hosts.length !== 1) continue;
    const host = doc.spans.find((s) => s.text === hosts[0] && outside(s))!;
    // (a template the request writes outranks itself taken as written, placeholder and all)
    out.push({
      param: p,
      value: t.text.replace(/\{\w+\}/g, hosts[0]),
      score: t.range ? 1.6 : 0.9,
      ranges: t.range ? [t.range, [host.start, host.end]] : [[host.start, host.end]],
      kind: 'url-template',
    });
  }
  return out;
}

/** Is there sentence punctuation (. ; ? !) between two character offsets? */
function clauseBreak(doc: Doc, a: number, b: number): boolean {
  // sentence-ending punctuation followed by a space
  return /[.;?!]\s|\n/.test(doc.text.slice(a, b));
}

/** Bonus for a span written right after (or before) the parameter's name. */
function anchorBonus(p: ParamInfo, doc: Doc, s: Span, hits: { idx: number; w: number }[]): number {
  if (hits.length === 0) return 0;
  const [a, b] = tokRange(doc, s.start, s.end);
  let best = 0;
  for (const h of hits) {
    // (a name more than 12 words away anchors nothing: skipped before counting the words between,
    // which made long requests with many mentions of the name quadratic)
    if (h.idx < a - 12 || h.idx > b + 12) continue;
    if (h.idx >= a && h.idx <= b) {
      // the name is inside the span ("Premier League" for "league")
      best = Math.max(best, (s.kind === 'proper' || s.kind === 'quoted' ? 0.35 : 0.1) * h.w);
      continue;
    }
    if (h.idx < a) {
      if (clauseBreak(doc, doc.tokens[h.idx].end, s.start)) continue;
      const gap = linkGap(doc, h.idx, a);
      const v = gap === 0 ? 0.7 : gap <= 0.5 ? 0.55 : gap <= 1 ? 0.45 : gap <= 1.5 ? 0.35 : gap <= 2 ? 0.28 : gap <= 4 ? 0.12 : 0;
      best = Math.max(best, v * h.w);
    } else {
      if (clauseBreak(doc, s.end, doc.tokens[h.idx].start)) continue;
      const gap = linkGap(doc, b, h.idx);
      const v = gap === 0 ? 0.6 : gap <= 0.5 ? 0.4 : gap <= 1 ? 0.3 : gap <= 2 ? 0.12 : 0;
      best = Math.max(best, v * h.w);
    }
  }
  return best;
}

/** Stems of unit words a parameter asks for (from its name and description). */
function unitStemsOf(p: ParamInfo): ReadonlySet<string> {
  let out = UNIT_STEMS_OF.get(p);
  if (out === undefined) UNIT_STEMS_OF.set(p, (out = readUnitStems(p)));
  return out;
}

/** unitStemsOf's cache: the units of a parameter depend on its name and description alone. */
const UNIT_STEMS_OF = new WeakMap<ParamInfo, ReadonlySet<string>>();

function readUnitStems(p: ParamInfo): Set<string> {
  const out = new Set<string>();
  for (const a of p.anchors) if (UNIT_STEMS.has(a) && a.length > 1) out.add(canonUnit(a));
  // the denominator of a rate ("meters/second", "miles per hour", "m/s^2") is no unit the value
  // is written in: "5 seconds" is no velocity
  const per = rateDenominators(p);
  for (const d of p.descStems) if (UNIT_STEMS.has(d) && d.length > 1 && !per.has(canonUnit(d))) out.add(canonUnit(d));
  return out;
}

/**
 * A number written with a unit of time, length or mass ("3 days", "5 km") that the parameter
 * neither names nor describes (`units`: unitStemsOf(p)). (Not a count of things: "25 shares", "4 guests" may be a string
 * quantity's value.)
 */
function foreignUnit(s: Span, p: ParamInfo, units: ReadonlySet<string>): boolean {
  const us = unitStem(s.unit);
  return us !== undefined && DIMENSIONS.some((d) => d.has(us)) && !units.has(us) && !p.anchors.some((a) => canonUnit(a) === us);
}

/** rateDenominators per parameter (computed once: it reads the whole description). */
const RATE_DENOMINATORS = new WeakMap<ParamInfo, Set<string>>();

/** Unit stems a parameter's description divides by ("hour" of "duplications per hour", "second" of "meters/second"). */
function rateDenominators(p: ParamInfo): Set<string> {
  const cached = RATE_DENOMINATORS.get(p);
  if (cached) return cached;
  const per = new Set<string>();
  RATE_DENOMINATORS.set(p, per);
  for (const m of p.description.matchAll(/(?:([a-z]+)\s?\/\s?|\bper\s+)([a-z]+)/gi)) {
    const u = unitStem(m[2]);
    // (units of one kind either side of "/" are alternatives: "in hours/minutes")
    if (u && !(m[1] !== undefined && sameDimension(unitStem(m[1]), u))) per.add(u);
  }
  return per;
}

/** Units of time (canonical stems): a frequency is counted per one of them. */
const TIME_UNITS: ReadonlySet<string> = new Set(['second', 'minut', 'hour', 'day', 'week', 'month', 'year', 'millisecond']);

/** Units of length (canonical stems). */
const LENGTH_UNITS: ReadonlySet<string> = new Set(['meter', 'km', 'cm', 'mm', 'mile', 'feet', 'foot', 'inch', 'yard']);

/** Units of time, length and mass (canonical stems), to tell "hours/minutes" (either) from "meters/second" (a rate). */
const DIMENSIONS: readonly ReadonlySet<string>[] = [TIME_UNITS, LENGTH_UNITS, new Set(['kg', 'gram', 'pound', 'ounc', 'ton'])];

/** A span's unit that makes it an area: "square" (feet, meters…), "sq", an exponent 2, acres, hectares. */
const AREA_UNIT = /^(?:square|sq|acres?|hectares?|ha)$|\^2$|²$/i;

/** A parameter measured as an area: its name is "area", its description says "area in/of" or "square" and a unit of length ("Radius in miles of the search area" is no area). */
const AREA_PARAM =
  /^area\b|\barea\s+(?:in|of)\b|\bsquare\s+(?:feet|foot|meters?|metres?|miles?|km|kilomet(?:er|re)s?|inch(?:es)?|yards?|units?)\b|\bsq\.?\s*(?:ft|m|km|mi)\b|\bacres?\b|\bhectares?\b/i;

/** Whether two unit stems measure the same kind of quantity. */
function sameDimension(a: string | undefined, b: string): boolean {
  return a !== undefined && DIMENSIONS.some((d) => d.has(a) && d.has(b));
}

/** Unit stems that name the same thing ("people" for "adults", "bedroom" for "beds"). */
const UNIT_CANON: Record<string, string> = lookupTable({
  peopl: 'person',
  adult: 'person',
  guest: 'person',
  passeng: 'person',
  travel: 'person',
  travell: 'person',
  individu: 'person',
  seat: 'person',
  member: 'person',
  particip: 'person',
  attende: 'person',
  bedroom: 'bed',
  bathroom: 'bath',
  ticket: 'ticket',
  night: 'night',
  star: 'rate',
  rate: 'rate',
  score: 'rate',
  kilomet: 'km',
  kilometr: 'km',
  metr: 'meter',
  centimet: 'cm',
  millimet: 'mm',
  kilogram: 'kg',
  pound: 'pound',
  lb: 'pound',
  minut: 'minut',
  min: 'minut',
  sec: 'second',
  hr: 'hour',
  yr: 'year',
  celsiu: 'celsiu',
  fahrenheit: 'fahrenheit',
  // the stemmer writes "day"/"days" as "dai"
  dai: 'day',
  // tosses, flips, rolls and attempts are trials; heads are a coin's successes
  toss: 'trial',
  flip: 'trial',
  roll: 'trial',
  attempt: 'trial',
  head: 'success',
});

/** Canonical unit stem. */
function canonUnit(u: string): string {
  return UNIT_CANON[u] ?? u;
}

/** Normalises a unit as written ("kms", "kilometers", "km") to a stem comparable with UNIT_STEMS. */
function unitStem(u: string | undefined): string | undefined {
  const raw = unitStemRaw(u);
  return raw === undefined ? undefined : canonUnit(raw);
}

/** Unit stem before canonicalisation. */
function unitStemRaw(u: string | undefined): string | undefined {
  if (!u) return undefined;
  // a trailing exponent ("m^2") is dropped
  const w = u.replace(/\^\d$/, '').toLowerCase();
  const alias: Record<string, string> = {
    yrs: 'year',
    yr: 'year',
    mins: 'minut',
    min: 'minut',
    secs: 'second',
    sec: 'second',
    hrs: 'hour',
    hr: 'hour',
    kms: 'km',
    kilometres: 'kilomet',
    kilometers: 'kilomet',
    metres: 'meter',
    meters: 'meter',
    kgs: 'kg',
    lbs: 'pound',
    lb: 'pound',
    '°c': 'celsiu',
    '°f': 'fahrenheit',
    '°': 'degre',
    $: 'dollar',
    '€': 'euro',
    '£': 'pound',
    '¥': 'yen',
    ms: 'millisecond',
    m: 'meter',
    ft: 'feet',
    in: 'inch',
    g: 'gram',
    gr: 'gram',
    grams: 'gram',
    h: 'hour',
    s: 'second',
  };
  return alias[w] ?? stem(w);
}

/** Factor of each SI prefix, and the base units (lower-case symbols, as spans keep them) each may prefix here. */
const SI_PREFIXES: Record<string, { factor: number; bases: string[] }> = lookupTable({
  p: { factor: 1e-12, bases: ['f', 'h', 's', 'g', 'm', 'l', 'a', 'v'] },
  n: { factor: 1e-9, bases: ['f', 'h', 's', 'g', 'm', 'l', 'a', 'v'] },
  µ: { factor: 1e-6, bases: ['f', 'h', 's', 'g', 'm', 'l', 'a', 'v'] },
  u: { factor: 1e-6, bases: ['f', 'h', 's', 'g', 'm', 'l', 'a', 'v'] },
  // (not milli- before hz, w or j: the text's case is gone, and "MHz", "MW", "MJ" are mega)
  m: { factor: 1e-3, bases: ['f', 'h', 's', 'g', 'm', 'l', 'a', 'v'] },
  c: { factor: 1e-2, bases: ['m', 'l'] },
  k: { factor: 1e3, bases: ['m', 'g', 'j', 'w', 'hz', 'v', 'a', 'pa'] },
});

/** The word for each base unit symbol, as a description names it. */
const SI_BASE_WORDS: Record<string, string> = lookupTable({
  f: 'farads?',
  h: 'henr(?:y|ies|ys)',
  s: 'seconds?',
  g: 'grams?',
  m: 'met(?:er|re)s?',
  l: 'lit(?:er|re)s?',
  a: 'amp(?:ere)?s?',
  v: 'volts?',
  j: 'joules?',
  w: 'watts?',
  hz: 'hertz',
  pa: 'pascals?',
});

/**
 * A number written with an SI-prefixed unit ("100µF", "50mH", "5 km") in the base unit the
 * parameter's description asks for ("in farads (F)", "in henries", "in meters"): 100µF → 0.0001.
 * Unchanged when the description names no base unit, or names a prefixed one itself
 * ("in kilometers", "in milliseconds").
 */
function siScaled(v: number, unit: string | undefined, p: ParamInfo): number {
  if (!unit || unit.length < 2) return v;
  const prefix = SI_PREFIXES[unit[0]];
  const base = unit.slice(1);
  if (!prefix || !prefix.bases.includes(base)) return v;
  const word = SI_BASE_WORDS[base];
  const d = p.description.toLowerCase();
  if (!new RegExp(`\\b${word}\\b`).test(d)) return v;
  if (new RegExp(`\\b(?:pico|nano|micro|milli|centi|kilo|mega|giga)-?${word}\\b`).test(d)) return v;
  return Number((v * prefix.factor).toPrecision(12));
}

/** Seconds in each unit of time a number may carry (by unit stem). */
const SECONDS_IN: Record<string, number> = lookupTable({ millisecond: 0.001, second: 1, minut: 60, hour: 3600, day: 86400, week: 604800 });

/**
 * A duration written in one unit of time ("3 minutes") in the one unit the parameter's
 * description asks for ("Length in seconds" → 180). Unchanged where the description names no
 * unit of time, or the value's own; months and years are not converted (their length varies).
 */
function timeScaled(v: number, unit: string | undefined, p: ParamInfo, after = ''): number {
  const from = unitStem(unit);
  if (from === undefined || SECONDS_IN[from] === undefined) return v;
  // (not a point in time, "Unix timestamp in seconds"; not one part of "1 hour 30 minutes")
  if (/\b(?:timestamp|epoch|unix)\b/i.test(`${p.parts.join(' ')} ${p.description}`)) return v;
  if (/^\s*(?:and\s+|,\s*)?\d+\s*(?:milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?)\b/i.test(after)) return v;
  const m =
    /\b(?:in|as|of)\s+(milliseconds?|seconds?|minutes?|hours?|days?|weeks?)\b|\((?:in\s+)?(milliseconds?|seconds?|minutes?|hours?|days?|weeks?)\)/i.exec(
      p.description,
    );
  const to = m ? unitStem((m[1] ?? m[2]).toLowerCase()) : undefined;
  if (to === undefined || to === from || SECONDS_IN[to] === undefined) return v;
  // (one unit of time only: "Duration in hours/minutes" takes either)
  const named = new Set(
    [...p.description.matchAll(/\b(milliseconds?|seconds?|minutes?|hours?|days?|weeks?)\b/gi)].map((x) => unitStem(x[1].toLowerCase())),
  );
  if (named.size !== 1) return v;
  return Number(((v * SECONDS_IN[from]) / SECONDS_IN[to]).toPrecision(12));
}

/** An angle measured in radians (a parameter's name and description). */
const RADIANS = /\b(?:radians?|rad)\b/i;

/** "Four decimal places", "2 decimal places", "rounded to 3 decimals": the precision an angle computed from pi is given at. */
const DECIMAL_PLACES = /\b(\d{1,2}|one|two|three|four|five|six|seven|eight)\s+decimal(?:\s+places?|s)\b/i;

/** A number span converted for a numeric parameter (percent handling, integer check); undefined if it does not fit. */
function numberFor(s: Span, p: ParamInfo, type: 'integer' | 'number'): number | undefined {
  if (s.num === undefined) return undefined;
  let v = timeScaled(siScaled(s.num, s.unit, p), s.unit, p, s.after);
  if (s.percent && type === 'number') {
    const d = p.description.toLowerCase();
    const name = p.parts.join(' ');
    // "as a decimal", "0.05 for 5%", rates and yields -> fraction; "percentage"/"in percent" -> as written
    const asFraction =
      /decimal|fraction|e\.g\.,? 0\.\d|0\.\d+ for|between 0 and 1|0 to 1/.test(d) ||
      (/\b(rate|yield|return|ratio|probability|growth|confidence|significance|alpha)\b/.test(name + ' ' + d) && !/percent(age)?\b/.test(d));
    if (asFraction) v = Math.round((v / 100) * 1e12) / 1e12;
  }
  // a multiple of pi ("from 0 to 2 pi") for an angle in radians, at the precision its description
  // states ("Four decimal places": 6.2832); a number before "pi" is no angle elsewhere ("30 Pi
  // Kappa Alpha members", "4 pi boards")
  if ((s.unit === 'pi' || s.unit === 'π') && type === 'number' && RADIANS.test(`${p.parts.join(' ')} ${p.description}`)) {
    v *= Math.PI;
    const places = DECIMAL_PLACES.exec(p.description);
    const n = places ? Number(places[1]) || NUMBER_WORDS[places[1].toLowerCase()] : undefined;
    if (n !== undefined && n >= 0 && n <= 12) v = Number(v.toFixed(n));
  }
  if (type === 'integer' && !Number.isInteger(v)) return undefined;
  // a percent is no count ("makes 70% of free throws" is no number of successes)
  if (s.percent && p.parts.some((x) => /^(num|number|count|successes|trials|attempts|items|times)$/.test(x))) return undefined;
  // a probability is at most 1 (a percent is read as a fraction above)
  if (p.parts.includes('probability') && v > 1) return undefined;
  // a calendar part named in the singular takes only values it can have ("month" 2022 is no month)
  const cal = CALENDAR_RANGES[p.parts[p.parts.length - 1] ?? ''];
  if (cal && (v < cal[0] || v > cal[1])) return undefined;
  return v;
}

/**
 * Bonus for a value written after "set/change/update/make ... <the parameter's last name part>
 * to": the request sets that parameter ("set the starting level to 5" for starting_level).
 */
function setToBonus(p: ParamInfo, doc: Doc, s: Span): number {
  const last = p.parts[p.parts.length - 1];
  if (last === undefined || last.length < 3) return 0;
  const before = doc.lower.slice(Math.max(0, s.start - 60), s.start);
  const m =
    /\b(?:set|change|update|make|adjust|increase|decrease|raise|lower|reduce|switch|turn)\b[^.;,!?]{0,40}?\b([a-z]+)\s+(?:to|=|at)\s*$/.exec(
      before,
    );
  return m && stem(m[1]) === stem(last) ? 0.4 : 0;
}

/** A frequency word after (or before) the verbs of one kind of frequency ("compounded quarterly", "monthly payments"). */
function frequencyPattern(verbs: string): RegExp {
  return new RegExp(
    `\\b(?:${verbs})\\s+(annually|yearly|semi-?annually|biannually|quarterly|monthly|bi-?weekly|fortnightly|weekly|daily|continuously)\\b|\\b(annual|yearly|semi-?annual|quarterly|monthly|weekly|daily)\\s+(?:${verbs})\\b`,
    'gi',
  );
}
/** How often payments are made, for a count of payments. */
const PAYMENT_FREQUENCY = frequencyPattern('paid|payments?|repaid');
/** How often interest is compounded, for any other count of times per period. */
const COMPOUNDING_FREQUENCY = frequencyPattern('compounded|compounding|applied');

/** Times a year of a frequency word (compounding, payments). */
const FREQUENCY_PER_YEAR = lookupTable<number>({
  annually: 1,
  yearly: 1,
  annual: 1,
  semiannually: 2,
  semiannual: 2,
  biannually: 2,
  quarterly: 4,
  monthly: 12,
  biweekly: 26,
  fortnightly: 26,
  weekly: 52,
  daily: 365,
});

/**
 * "Rename X to Y", "change the title from X to Y": the value after "to" is the new one, for a
 * parameter described as new ("The new name for the website"); the one before it is not.
 */
function renameBonus(p: ParamInfo, doc: Doc, s: Span): number {
  if (!/\bnew\b/i.test(p.description) && !p.parts.includes('new')) return 0;
  const sentence =
    doc.text
      .slice(0, s.start)
      .split(/[.!?]\s/)
      .pop() ?? '';
  if (!/\b(rename|renaming|change|switch|update|move|retitle)\b/i.test(sentence)) return 0;
  if (/\b(?:to|into|as)\s*["'‘“]?$/i.test(sentence)) return 0.3;
  return /\bto\s+["'‘“]?\S/i.test(doc.text.slice(s.end, s.end + 12)) ? -0.2 : 0;
}

/**
 * Does a text hold a content word that is neither the tool's (its name and description, given as
 * stems) nor the parameter's (its name and description)? "Echo back a message" holds none for
 * echo's message ("Echoes back the input"; "Message to echo").
 */
function saysMore(text: string, p: ParamInfo, toolWords: ReadonlySet<string>): boolean {
  // (a question always asks something; the parameter's description counts up to its examples:
  // "The question, e.g. about weather or sports" leaves "What's the weather?" its own)
  if (/\?\s*$/.test(text)) return true;
  const own = new Set(contentStems(definitionOf(p.description)));
  return contentStems(text).some((w) => !toolWords.has(w) && !own.has(w) && !p.anchors.includes(w));
}

/** A description up to its examples or list ("e.g.", "such as", "like", "including", a parenthesis or a colon). */
function definitionOf(description: string): string {
  return description.split(/\be\.g\.|\bsuch as\b|\blike\b|\bincluding\b|[(:]/i)[0] ?? '';
}

/** Plural nouns for the values a request gives: a number before one counts them ("two numbers"). */
const VALUE_NOUNS = /^(?:numbers|values|integers|ints|floats|decimals|operands|inputs|arguments|args|terms|numerals|figures)$/;

/** Stems of the nouns for values that any numeric parameter's description may use of itself. */
const GENERIC_VALUE_STEMS: ReadonlySet<string> = new Set(
  ['numbers', 'values', 'integers', 'ints', 'floats', 'decimals', 'figures'].map((w) => stem(w)),
);

/**
 * Does a number count the values a request gives ("the sum of two numbers a and b") rather than
 * give one, for parameter `p`? Not where `p` counts or is measured in that noun ("60 terms" for a
 * loan's term in months, "up to 4 arguments" for max_args) or is named as a count (size, n, k,
 * count, quantity, num…, max…, min…).
 */
function countsValues(s: Span, p: ParamInfo): boolean {
  if (s.unit === undefined || !VALUE_NOUNS.test(s.unit)) return false;
  // (a description's own "number" or "value" says what the parameter is, not what it counts: "First number")
  const u = stem(s.unit);
  const measured = !GENERIC_VALUE_STEMS.has(u) && (p.anchors.includes(u) || p.descStems.has(u));
  return !measured && !p.parts.some((x) => /^(?:n|k|count|size|quantity|num|number|max|min|limit|total)$/.test(x));
}

/** An IPv4 address, with a port or not. */
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?$/;
/** Words of a parameter that holds an IP address. */
const IP_PARAM = /\b(ip|ips|ipv4|host|hostname|server|address|addr|endpoint|gateway|dns|node)\b/i;

/** A span inside a longer proper name ("World War 2", "Blade Runner 2049", "Hall 2024"): part of a name, no value of its own. */
function insideName(doc: Doc, start: number, end: number): boolean {
  return doc.spans.some((o) => o.kind === 'proper' && o.start <= start && o.end >= end && o.end - o.start > end - start);
}

/** Per parameter: the stems of what it counts, from its description ("Number of events to return" → ["event"]; none: []). */
const COUNTED_NOUN = new WeakMap<ParamInfo, string[]>();

/** Words that end the phrase after a number: the noun counted must come before them. */
const COUNT_NOUN_BREAK = new Set([
  'with',
  'and',
  'or',
  'of',
  'being',
  'is',
  'are',
  'was',
  'were',
  'for',
  'in',
  'on',
  'to',
  'from',
  'by',
  'at',
  'than',
  'per',
  'each',
]);

/** Name parts of a parameter that says how many results to return. */
const RESULT_COUNT_PARTS = /^(num|number|count|limit|max|top|n|k|results|size)$/;

/**
 * Bonus for a number that counts what an integer parameter counts: followed within four words
 * by the noun its description counts ("Number of events" ← "ten major historical events"), or
 * written after "top"/"first"/"best" for a parameter of how many results ("the top three").
 */
function countBonus(p: ParamInfo, doc: Doc, s: Span): number {
  if (insideName(doc, s.start, s.end)) return 0;
  let nouns = COUNTED_NOUN.get(p);
  if (nouns === undefined) {
    // (the phrase's second word too: "The number of hotel rooms to reserve" counts rooms)
    // (the second word only where the phrase ends with it: "Number of child car seats" counts no cars)
    const m =
      /\b(?:number|count|amount) of (?:the )?(\w+)(?: (\w+)(?= (?:to|for|in|on|of|that|which|per|and|or|with|from|by|at|is|are)\b|[.,;:)]|$))?|\bhow many (\w+)(?: (\w+)(?= (?:to|for|in|on|of|that|which|per|and|or|with|from|by|at|is|are)\b|[.,;:)]|$))?/i.exec(
        p.description,
      );
    const counted = (w: string | undefined): boolean =>
      w !== undefined &&
      !STOP_WORDS.has(w.toLowerCase()) &&
      !COUNT_NOUN_BREAK.has(w.toLowerCase()) &&
      !/^(results?|items?|times?|records?|entries|values?)$/i.test(w);
    const first = m?.[1] ?? m?.[3];
    const second = m?.[2] ?? m?.[4];
    nouns = counted(first) ? [stem(first!.toLowerCase()), ...(counted(second) ? [stem(second!.toLowerCase())] : [])] : [];
    COUNTED_NOUN.set(p, nouns);
  }
  const at = tokenAt(doc, s.end - 1);
  if (nouns.length > 0 && at >= 0) {
    for (let k = at + 1; k < Math.min(doc.tokens.length, at + 5); k++) {
      // (only words that describe the noun between: "50 with extroverted members" counts no members)
      if (/[.,;:!?]/.test(doc.text.slice(doc.tokens[k - 1].end, doc.tokens[k].start)) || COUNT_NOUN_BREAK.has(doc.tokens[k].lower)) break;
      if (nouns.includes(doc.tokens[k].stem)) return 0.4;
    }
  }
  const before = tokenAt(doc, s.start) - 1;
  if (before >= 0 && /^(top|first|best)$/.test(doc.tokens[before].lower) && p.parts.some((x) => RESULT_COUNT_PARTS.test(x))) return 0.45;
  return 0;
}

/** The request writes more than one four-digit year ("between 2010 and 2015", "2019 or 2020"). */
function severalYears(doc: Doc): boolean {
  return doc.spans.filter((o) => o.kind === 'number' && /^(1\d|20)\d\d$/.test(o.text)).length > 1;
}

/** A parameter that holds a year: its last name part is "year" ("year", "release_year", "startYear"). */
function yearParam(p: ParamInfo): boolean {
  return p.parts[p.parts.length - 1] === 'year';
}

/**
 * A year written with an apostrophe ("songs from '19") for a parameter named year, as a number or
 * (for a string parameter) its digits: the nearest such year not more than one year after the
 * reference date. Only after "from", "in", "of", "since", "circa", "around" or "the" ("the word
 * '99 in the title" is no year).
 */
function apostropheYears(p: ParamInfo, doc: Doc): Cand[] {
  if (!yearParam(p)) return [];
  const out: Cand[] = [];
  const now = doc.today.getUTCFullYear();
  for (const m of doc.text.matchAll(/\b(?:from|in|of|since|circa|around|the)\s+['’](\d{2})\b(?!['’\w])/gi)) {
    const yy = Number(m[1]);
    const y = 2000 + yy <= now + 1 ? 2000 + yy : 1900 + yy;
    const at = m.index + m[0].length - 3;
    out.push({ param: p, value: p.type === 'string' ? String(y) : y, score: 0.5, ranges: [[at, at + 3]], kind: 'number' });
  }
  return out;
}

/** Ranges of calendar parts, by a parameter's last name part. */
const CALENDAR_RANGES: Record<string, [number, number]> = lookupTable({ month: [1, 12], day: [1, 31], hour: [0, 23], minute: [0, 59] });

/** Per request: each enum value's match (enumScore), shared by every parameter and candidate tool that offers the value. */
const ENUM_SCORES = new WeakMap<Doc, Map<string, { score: number; start: number; end: number }>>();
/** Most enum values whose match is kept per request (a stream of odd schemas cannot grow it without end). */
const ENUM_SCORES_LIMIT = 20_000;

/**
 * Matches one enum value against the text; returns a score in [0,1] and where. Memoised per
 * request: a 20,000-character request against five required enums of 60 values takes under 55 ms
 * a call, against 50-270 ms (median 111 ms) when each parameter matches each value again and each
 * value squashes the whole text (tools/mapper/hostile-input.bench.ts).
 */
function enumScore(value: string, doc: Doc): { score: number; start: number; end: number } {
  let memo = ENUM_SCORES.get(doc);
  if (!memo) ENUM_SCORES.set(doc, (memo = new Map()));
  let r = memo.get(value);
  if (r === undefined) {
    r = enumScoreOnce(value, doc);
    if (memo.size >= ENUM_SCORES_LIMIT) memo.clear();
    memo.set(value, r);
  }
  return r;
}

/** Per request: its tokens indexed for enumScoreOnce (computed once, shared by every enum value). */
interface TokenIndex {
  /** the first token of each distinct lower-case form, in text order */
  distinct: Token[];
  /** token positions by lower-case form and by stem, in text order */
  byLower: Map<string, number[]>;
  byStem: Map<string, number[]>;
  /** the text squashed (squash), for the squashed match; made on first use */
  squashed?: string;
}
const TOKEN_INDEX = new WeakMap<Doc, TokenIndex>();

/** The request's token index (built on first use). */
function tokenIndex(doc: Doc): TokenIndex {
  let ix = TOKEN_INDEX.get(doc);
  if (!ix) {
    ix = { distinct: [], byLower: new Map(), byStem: new Map() };
    doc.tokens.forEach((t, i) => {
      let l = ix!.byLower.get(t.lower);
      if (!l) {
        ix!.byLower.set(t.lower, (l = []));
        ix!.distinct.push(t);
      }
      l.push(i);
      let st = ix!.byStem.get(t.stem);
      if (!st) ix!.byStem.set(t.stem, (st = []));
      st.push(i);
    });
    TOKEN_INDEX.set(doc, ix);
  }
  return ix;
}

/** Positions, in text order, where a token's stem is `stemOf` or its lower-case form is `lower`. */
function positionsOf(ix: TokenIndex, stemOf: string, lower: string): number[] {
  const a = ix.byStem.get(stemOf) ?? [];
  const b = ix.byLower.get(lower) ?? [];
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

/** Temperature scales by their Chinese names (simplified and traditional). */
const CJK_SCALES: Readonly<Record<string, readonly string[]>> = lookupTable({ celsius: ['摄氏', '攝氏'], fahrenheit: ['华氏', '華氏'] });

/**
 * IANA zones an abbreviation written in capitals stands for (tz database abbreviations, and the
 * US zones' two-letter forms). Left out: abbreviations zones in unrelated places share (CST: US
 * Central and China; IST: India, Israel, Ireland), MST (Denver, or Phoenix all year) and GMT,
 * which is UTC as often as London.
 */
const TIME_ZONE_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = lookupTable({
  EST: ['America/New_York', 'America/Toronto', 'America/Detroit'],
  EDT: ['America/New_York', 'America/Toronto', 'America/Detroit'],
  ET: ['America/New_York'],
  CDT: ['America/Chicago'],
  CT: ['America/Chicago'],
  MDT: ['America/Denver'],
  MT: ['America/Denver'],
  PST: ['America/Los_Angeles', 'America/Vancouver'],
  PDT: ['America/Los_Angeles', 'America/Vancouver'],
  PT: ['America/Los_Angeles'],
  AKST: ['America/Anchorage'],
  HST: ['Pacific/Honolulu'],
  BST: ['Europe/London'],
  CET: ['Europe/Paris', 'Europe/Berlin', 'Europe/Madrid', 'Europe/Rome', 'Europe/Amsterdam'],
  CEST: ['Europe/Paris', 'Europe/Berlin', 'Europe/Madrid', 'Europe/Rome', 'Europe/Amsterdam'],
  JST: ['Asia/Tokyo'],
  KST: ['Asia/Seoul'],
  HKT: ['Asia/Hong_Kong'],
  SGT: ['Asia/Singapore'],
  AEST: ['Australia/Sydney', 'Australia/Melbourne'],
  AEDT: ['Australia/Sydney', 'Australia/Melbourne'],
});

/** IANA zones of a region's name written before "time" ("Eastern time"). */
const TIME_ZONE_REGIONS: Readonly<Record<string, readonly string[]>> = lookupTable({
  eastern: TIME_ZONE_ABBREVIATIONS.EST,
  central: TIME_ZONE_ABBREVIATIONS.CDT,
  mountain: TIME_ZONE_ABBREVIATIONS.MDT,
  pacific: TIME_ZONE_ABBREVIATIONS.PST,
});

/** An enum value's words, their stems and its squashed form (valueWords). */
interface ValueWords {
  words: readonly string[];
  stems: readonly string[];
  squashed: string;
}
/** Enum values' words, by value (bounded like ENUM_SCORES: values repeat across requests and tools). */
const VALUE_WORDS = new Map<string, ValueWords>();
/**
 * Longest value VALUE_WORDS keeps, so it holds at most ENUM_SCORES_LIMIT × this many characters
 * of values (about 12 MB at worst; the eval corpus's longest enum value has 100 characters, most
 * far fewer).
 */
const VALUE_WORDS_MAX_CHARS = 64;

/** A value's words (splitIdentifier), their stems and its squashed form: made once per value (up to VALUE_WORDS_MAX_CHARS), not per request. */
function valueWords(value: string): ValueWords {
  let r = VALUE_WORDS.get(value);
  if (r === undefined) {
    const words = splitIdentifier(value);
    r = { words, stems: words.map((w) => stem(w)), squashed: squash(value) };
    if (value.length <= VALUE_WORDS_MAX_CHARS) {
      if (VALUE_WORDS.size >= ENUM_SCORES_LIMIT) VALUE_WORDS.clear();
      VALUE_WORDS.set(value, r);
    }
  }
  return r;
}

/** enumScore without the memo (scans distinct words and indexed positions, not every token for every value). */
function enumScoreOnce(value: string, doc: Doc): { score: number; start: number; end: number } {
  const ix = tokenIndex(doc);
  // a language code ("fr", "es-ES", "zh_CN") written as the language's English name
  const code = LANGUAGE_CODE.exec(value);
  const names = code ? LANGUAGE_NAMES[code[1].toLowerCase()] : undefined;
  if (names) for (const t of ix.distinct) if (names.includes(t.lower)) return { score: 0.8, start: t.start, end: t.end };
  // a temperature scale written in Chinese ("摄氏度", "華氏"), where the other is not written too
  // ("用华氏而不是摄氏", "把100华氏度转换成摄氏度" say both)
  // (a table of no prototype: an enum value "constructor" finds nothing)
  const scale = CJK_SCALES[value.toLowerCase()];
  if (
    scale &&
    !Object.entries(CJK_SCALES).some(([other, words]) => other !== value.toLowerCase() && words.some((w) => doc.text.includes(w)))
  ) {
    for (const w of scale) {
      const at = doc.text.indexOf(w);
      if (at >= 0) return { score: 0.8, start: at, end: at + w.length };
    }
  }
  // an IANA time zone ("Europe/London", "America/New_York") named by its city ("London time")
  const tz = /^(?:Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/(?:[A-Za-z_]+\/)?([A-Za-z_]+)$/.exec(value);
  if (tz) {
    const city = tz[1].toLowerCase().split('_');
    for (const i of ix.byLower.get(city[0]) ?? []) {
      if (i + city.length <= doc.tokens.length && city.every((w, j) => doc.tokens[i + j].lower === w))
        return { score: 0.75, start: doc.tokens[i].start, end: doc.tokens[i + city.length - 1].end };
    }
    // or by an abbreviation written in capitals ("4pm EST"; a two-letter one, "9:00 PT", right
    // after a clock time only; never one with an offset, "GMT+5:30") or a region's name before
    // "time" ("Pacific time"): weaker than a city the request names ("Berlin? CET I think")
    for (const t of ix.distinct) {
      const zone =
        TIME_ZONE_ABBREVIATIONS[t.text] ?? (/^\s+time\b/i.test(doc.text.slice(t.end, t.end + 6)) ? TIME_ZONE_REGIONS[t.lower] : undefined);
      if (zone === undefined || !zone.includes(value) || /^\s*[+-−]\s*\d/.test(doc.text.slice(t.end, t.end + 3))) continue;
      // (an abbreviation only right after a clock time, "4pm EST", "9:00 PT": "the PST archive",
      // "SGT Miller", "the HST return" name no zone)
      if (/^[A-Z]+$/.test(t.text) && !/(?:\d:\d\d|\d\s*[ap]\.?m\.?)\s*$/i.test(doc.text.slice(Math.max(0, t.start - 12), t.start)))
        continue;
      return { score: 0.7, start: t.start, end: t.end };
    }
  }
  const { words, stems, squashed: sq } = valueWords(value);
  if (words.length === 0) return { score: 0, start: -1, end: -1 };
  const toks = doc.tokens;
  // contiguous phrase match on stems
  for (const i of positionsOf(ix, stems[0], words[0])) {
    if (i + stems.length > toks.length) break;
    let ok = true;
    for (let j = 0; j < stems.length; j++)
      if (toks[i + j].stem !== stems[j] && toks[i + j].lower !== words[j]) {
        ok = false;
        break;
      }
    if (ok) {
      const written = toks[i].text;
      // a stop word, or a short all-lower-case word as written ("in", "on"), is weak evidence
      const common = stems.length === 1 && (STOP_WORDS.has(words[0]) || (words[0].length <= 2 && /^[a-z]+$/.test(written)));
      // (the words as written outrank a shared stem: "Anime" is "Anime", not "Animation")
      const asWritten = words.every((w, j) => toks[i + j].lower === w);
      return { score: common ? 0.35 : asWritten ? 0.92 : 0.9, start: toks[i].start, end: toks[i + stems.length - 1].end };
    }
  }
  // every word, in order, written with the same stem or the same first six letters ("Family
  // Counseling" for "Family Counselor"): the value in another form of its last word
  if (stems.length >= 2) {
    const like = (t: Token | undefined, j: number): boolean =>
      t !== undefined &&
      (t.stem === stems[j] ||
        t.lower === words[j] ||
        (words[j].length >= 6 && t.lower.length >= 6 && t.lower.slice(0, 6) === words[j].slice(0, 6)));
    for (const i of positionsOf(ix, stems[0], words[0]))
      if (stems.every((_, j) => like(toks[i + j], j))) return { score: 0.85, start: toks[i].start, end: toks[i + stems.length - 1].end };
  }
  // squashed match ("e-mail" vs "email", "Sci-fi" vs "scifi")
  if (sq.length >= 4) {
    ix.squashed ??= squash(doc.text);
    const at = ix.squashed.indexOf(sq);
    if (at >= 0) return { score: 0.75, start: -1, end: -1 };
  }
  // near spelling of a single long word
  if (stems.length === 1 && words[0].length >= 5) {
    // (a function word is no misspelling: "would" is not "World")
    for (const t of ix.distinct)
      if (t.lower.length >= 4 && !STOP_WORDS.has(t.lower) && editDistance(t.lower, words[0], 1) <= 1)
        return { score: 0.6, start: t.start, end: t.end };
  }
  // all content words present, not contiguous
  const content = stems.filter((s, i) => !STOP_WORDS.has(words[i]));
  if (content.length >= 2) {
    const have = content.filter((c) => ix.byStem.has(c)).length;
    if (have === content.length) return { score: 0.6, start: -1, end: -1 };
  }
  // abbreviation of consecutive words ("Sci-fi" for "science fiction"): each enum word starts the next token
  if (words.length >= 2 && words[0].length >= 2) {
    // (the positions of every word that starts like the first, in text order)
    const starts = ix.distinct
      .filter((t) => t.lower.startsWith(words[0]))
      .flatMap((t) => ix.byLower.get(t.lower)!)
      .sort((x, y) => x - y);
    for (const i of starts) {
      if (i + words.length > toks.length) break;
      let ok = true;
      for (let j = 0; j < words.length; j++)
        if (!(toks[i + j].lower.startsWith(words[j]) && words[j].length >= 2)) {
          ok = false;
          break;
        }
      // (as strong as a near spelling once weighed: an optional enum takes it on its own)
      if (ok) return { score: 0.7, start: toks[i].start, end: toks[i + words.length - 1].end };
    }
  }
  // verbs that name the same action ("remove" for "delete")
  if (words.length === 1) {
    const syn = ENUM_SYNONYMS[words[0]];
    if (syn)
      for (const t of ix.distinct) if (syn.includes(t.lower) || syn.includes(t.stem)) return { score: 0.55, start: t.start, end: t.end };
  }
  // a long single word sharing its first 5 letters with a token ("Comedy"/"comic" no; "counselor"/"counseling" yes)
  if (words.length <= 2) {
    const key = words[words.length - 1];
    if (key.length >= 6)
      for (const t of ix.distinct)
        if (t.lower.length >= 6 && t.lower.slice(0, 6) === key.slice(0, 6))
          return { score: words.length === 1 ? 0.5 : 0.45, start: t.start, end: t.end };
  }
  // part of a multi-word value
  if (content.length >= 2) {
    const have = content.filter((c) => (ix.byStem.get(c) ?? []).some((i) => !STOP_WORDS.has(toks[i].lower))).length;
    if (have > 0) return { score: 0.3 * (have / content.length), start: -1, end: -1 };
  }
  return { score: 0, start: -1, end: -1 };
}

/**
 * A required enum that no value matches in full, read from one word of a multi-word value that
 * no other value has, written right beside a word of the parameter's own name or description:
 * "a Family Therapist" for "Family Counselor" among "Psychologist", "Family Counselor",
 * "Psychiatrist" (described as "the type of therapist"); "the turing project" for project_name
 * "turing-machine". Undefined unless exactly one value has such a word in the request: a word
 * alone says too little ("the first available flight" is no "First Class", "my family trip" no
 * "Family Suite"). Weak evidence (kind 'enum-partial'): it fills a required parameter only.
 */
function distinctiveEnumWord(p: ParamInfo, doc: Doc): { value: string; start: number; end: number } | undefined {
  const { allWords, distinct } = enumWords(p.enumValues!);
  // words that say what the parameter is: its name's and its description's content words
  const own = (st: string, lower: string): boolean =>
    !STOP_WORDS.has(lower) && !allWords.has(st) && (p.anchors.includes(st) || p.descStems.has(st));
  // (beside it: only spaces or a hyphen between, "family therapist", "turing project")
  const beside = (tk: Token, nb: Token | undefined): boolean =>
    nb !== undefined &&
    own(nb.stem, nb.lower) &&
    /^[\s-]*$/.test(nb.index < tk.index ? doc.text.slice(nb.end, tk.start) : doc.text.slice(tk.end, nb.start));
  // (or standing alone for the value after a determiner, at the end of its clause: "using my
  // debit." for "debit card"; not "my family trip", where it only qualifies the next word)
  // (after a word of using it: "using my debit." — not "to grow my business.", "visiting my family.")
  const alone = (tk: Token): boolean =>
    ['my', 'the', 'a', 'an', 'your', 'our', 'his', 'her', 'their'].includes(doc.tokens[tk.index - 1]?.lower ?? '') &&
    ['using', 'use', 'with', 'via', 'through', 'by', 'from', 'on'].includes(doc.tokens[tk.index - 2]?.lower ?? '') &&
    /^\s*(?:$|[.,;!?])/.test(doc.text.slice(tk.end));
  let found: { value: string; start: number; end: number } | undefined;
  for (const { value, words } of distinct) {
    for (const w of words) {
      const t = doc.tokens.find(
        (tk) =>
          tk.stem === w &&
          !STOP_WORDS.has(tk.lower) &&
          (beside(tk, doc.tokens[tk.index - 1]) || beside(tk, doc.tokens[tk.index + 1]) || alone(tk)),
      );
      if (!t) continue;
      if (found && found.value !== value) return undefined;
      found = { value, start: t.start, end: t.end };
    }
  }
  return found;
}

/** An enum's words as distinctiveEnumWord reads them (enumWords). */
interface EnumWords {
  /** the stems of every content word of every string value */
  allWords: ReadonlySet<string>;
  /** each string value of two content words or more (no DONTCARE), in order, with its stems no other value has */
  distinct: readonly { value: string; words: readonly string[] }[];
}
/**
 * Per enum (its values' array, the schema's own): its words (enumWords), read once. Like
 * paramsOf's cache, it takes a schema as immutable (a snapshot's is): an enum edited in place
 * keeps its first reading.
 */
const ENUM_WORDS = new WeakMap<readonly unknown[], EnumWords>();

/**
 * The part of distinctiveEnumWord that reads the enum alone, made once per enum: each string
 * value's content words (three letters or more, no stop word) as stems, and those no other value
 * has. Finding them is quadratic in the enum's words, so done per request it would make a large
 * enum costly on every request.
 */
function enumWords(values: readonly unknown[]): EnumWords {
  const cached = ENUM_WORDS.get(values);
  if (cached) return cached;
  const strs = values.filter((v): v is string => typeof v === 'string');
  const wordsOf = strs.map((v) =>
    splitIdentifier(v)
      .filter((w) => w.length >= 3 && !STOP_WORDS.has(w))
      .map((w) => stem(w)),
  );
  const count = new Map<string, number>();
  for (const ws of wordsOf) for (const w of new Set(ws)) count.set(w, (count.get(w) ?? 0) + 1);
  const distinct: { value: string; words: string[] }[] = [];
  strs.forEach((value, i) => {
    if (wordsOf[i].length < 2 || DONTCARE.has(value.toLowerCase())) return;
    const words = wordsOf[i].filter((w) => count.get(w) === 1);
    if (words.length > 0) distinct.push({ value, words });
  });
  const out: EnumWords = { allWords: new Set(count.keys()), distinct };
  ENUM_WORDS.set(values, out);
  return out;
}

/** An ISO 639-1 language code, optionally with a region ("fr", "es-ES", "zh_CN"). */
// two letters, then optionally "-" or "_" and two more
const LANGUAGE_CODE = /^([a-z]{2})(?:[-_][a-z]{2})?$/i;

/** English names of common languages by ISO 639-1 code (lower case). */
const LANGUAGE_NAMES: Record<string, string[]> = lookupTable({
  en: ['english'],
  fr: ['french'],
  es: ['spanish'],
  de: ['german'],
  it: ['italian'],
  pt: ['portuguese'],
  zh: ['chinese', 'mandarin'],
  ja: ['japanese'],
  ko: ['korean'],
  ru: ['russian'],
  ar: ['arabic'],
  hi: ['hindi'],
  nl: ['dutch'],
  sv: ['swedish'],
  pl: ['polish'],
  tr: ['turkish'],
  el: ['greek'],
  he: ['hebrew'],
  vi: ['vietnamese'],
  th: ['thai'],
  uk: ['ukrainian'],
  id: ['indonesian'],
});

/** Every language name of LANGUAGE_NAMES. */
const LANGUAGE_WORDS: ReadonlySet<string> = new Set(Object.values(LANGUAGE_NAMES).flat());

/** Words that name the same action or value as a one-word enum value. */
const ENUM_SYNONYMS: Record<string, string[]> = lookupTable({
  delete: ['remove', 'erase', 'drop', 'cancel', 'clear'],
  add: ['create', 'new', 'remember', 'insert', 'append'],
  update: ['change', 'modify', 'edit', 'rename', 'switch'],
  create: ['add', 'new', 'make'],
  remove: ['delete', 'erase'],
  get: ['fetch', 'retrieve', 'show', 'find'],
  list: ['show', 'all'],
  start: ['begin', 'launch', 'on'],
  stop: ['end', 'halt', 'off'],
  high: ['strong', 'strongest', 'maximum', 'max', 'top'],
  low: ['weak', 'weakest', 'minimum', 'min', 'gentle'],
  mid: ['medium', 'middle', 'moderate'],
  medium: ['mid', 'moderate', 'average'],
  asc: ['ascending', 'increasing'],
  desc: ['descending', 'decreasing'],
  true: ['yes'],
  false: ['no'],
  celsius: ['centigrade'],
  metric: ['celsius'],
  imperial: ['fahrenheit'],
  buy: ['purchase', 'purchasing', 'own'],
  rent: ['rental', 'renting', 'lease', 'leasing'],
});

/** Name parts and description words of a parameter that holds a genre or a kind of work. */
const GENRE_PARAM = /\b(?:genre|genres|category|categories|type|kind|style)\b/i;
/** … a kind of event. */
const EVENT_PARAM = /\bevents?\b/i;
/** … an urgency or priority. */
const URGENCY_PARAM = /\b(?:urgency|urgent|priority|severity|importance)\b/i;

/**
 * Genres, kinds and levels by the other word a request uses for them ("a funny movie", "some
 * cartoon films", "Hillbilly songs", "a Toto concert", "it's urgent"): a word that names one such
 * value only, as strong as a near spelling, for a parameter of that domain (`param` tested on its
 * name and description). `not` lists words after which the word means something else ("comic
 * book", "drama series", "urgent care").
 */
const VALUE_SYNONYMS: Record<string, { words: string[]; param: RegExp; not?: string[] }> = lookupTable({
  comedy: {
    words: ['funny', 'comic', 'comedic', 'humorous', 'hilarious'],
    param: GENRE_PARAM,
    not: ['book', 'books', 'strip', 'strips', 'con'],
  },
  animation: { words: ['cartoon', 'cartoons', 'animated'], param: GENRE_PARAM },
  horror: {
    words: ['scary', 'spooky', 'frightening', 'ghost', 'ghosts'],
    param: GENRE_PARAM,
    not: ['town', 'towns', 'writer', 'writers', 'kitchen', 'kitchens'],
  },
  romance: { words: ['romantic'], param: GENRE_PARAM },
  country: { words: ['hillbilly'], param: GENRE_PARAM },
  documentary: { words: ['documentaries'], param: GENRE_PARAM },
  theater: {
    words: ['drama', 'plays', 'broadway', 'musical', 'musicals'],
    param: EVENT_PARAM,
    not: ['series', 'show', 'shows', 'tv', 'film', 'films', 'movie', 'movies', 'instrument', 'instruments'],
  },
  music: { words: ['concert', 'concerts', 'gig', 'gigs'], param: EVENT_PARAM },
  high: { words: ['urgent', 'urgently'], param: URGENCY_PARAM, not: ['care'] },
  pool: {
    words: ['shared', 'carpool'],
    param: /\b(?:ride|rides|cab|taxi|carpool)\b/i,
    not: ['kitchen', 'kitchens', 'office', 'offices', 'space', 'spaces', 'room', 'rooms', 'bathroom'],
  },
});

/** Words before which "plays" is a verb ("the team that plays", "he plays"), not theater plays. */
const PLAYS_AS_VERB = new Set([
  'that',
  'who',
  'which',
  'he',
  'she',
  'it',
  'team',
  'band',
  'one',
  'also',
  'still',
  'never',
  'often',
  'usually',
  'and',
]);

/**
 * An enum value written as the other word a request uses for it (VALUE_SYNONYMS): not after a
 * negation ("not scary"), not inside a name of several capitalised words ("Ghost Rider"), not
 * before a word that makes it something else ("comic book"), and "plays" only as a noun.
 */
function valueSynonym(value: string, p: ParamInfo, doc: Doc): { score: number; start: number; end: number } | undefined {
  const syn = VALUE_SYNONYMS[value.toLowerCase()];
  if (!syn || !syn.param.test(`${p.parts.join(' ')} ${p.description}`)) return undefined;
  for (const t of doc.tokens) {
    if (!syn.words.includes(t.lower)) continue;
    const prev = doc.tokens[t.index - 1];
    const next = doc.tokens[t.index + 1];
    const negated = (x: Token | undefined): boolean =>
      x !== undefined && (NEGATIONS.has(x.lower) || x.lower === 'nothing' || /n't$/.test(x.lower));
    if (negated(prev) || negated(doc.tokens[t.index - 2])) continue;
    if (next && syn.not?.includes(next.lower)) continue;
    if (t.lower === 'plays' && prev && PLAYS_AS_VERB.has(prev.lower)) continue;
    // (a capitalised word beside another capitalised one, mid-sentence, is part of a name)
    if (
      /^\p{Lu}/u.test(t.text) &&
      ((prev && /^\p{Lu}/u.test(prev.text) && !/[.!?]\s*$/.test(doc.text.slice(0, t.start))) || (next && /^\p{Lu}/u.test(next.text)))
    )
      continue;
    if (doc.spans.some((sp) => sp.kind === 'quoted' && sp.start <= t.start && sp.end >= t.end)) continue;
    return { score: 0.7, start: t.start, end: t.end };
  }
  return undefined;
}

/** Enum values meaning "no preference". */
const DONTCARE = new Set(['dontcare', 'any', 'all', 'none', 'default', 'unspecified', 'either', 'no preference', 'auto']);

/** Flag-like evidence for a boolean parameter: true/false when its name words are written, undefined otherwise. */
function flagEvidence(p: ParamInfo, doc: Doc): { value: boolean; score: number; start: number; end: number } | undefined {
  const generic = new Set([
    'is',
    'has',
    'include',
    'includ',
    'enable',
    'flag',
    'use',
    'with',
    'show',
    'allow',
    'onli',
    'only',
    'get',
    'should',
    'can',
    'do',
    'need',
    'want',
    'requir',
    'option',
    'mode',
    'filter',
    'the',
    'of',
    'for',
    'to',
    'and',
    'in',
    'on',
    'a',
    'are',
    'be',
    'set',
    'return',
    'fetch',
    'if',
    'whether',
    'by',
    'at',
    'visibl',
    'entri',
    'good',
    'allow',
    'avail',
    'support',
    'data',
    'add',
    'info',
    'inform',
    'consid',
    'account',
    'appli',
  ]);
  const salient = p.anchors.filter((a) => !generic.has(a) && a.length > 2);
  if (salient.length === 0) return undefined;
  let found = 0;
  let neg = false;
  let first = -1;
  let last = -1;
  for (const a of salient) {
    const forms = new Set([a, ...(FLAG_SYNONYMS[a] ?? []).map((f) => stem(f))]);
    let t = doc.tokens.find((tk) => forms.has(tk.stem));
    let phrase = false;
    if (!t && FLAG_PHRASES[a]) {
      const ph = FLAG_PHRASES[a].exec(doc.text);
      if (ph) {
        t = doc.tokens[tokenAt(doc, ph.index)];
        phrase = true;
      }
    }
    if (!t) continue;
    found++;
    if (first < 0 || t.start < first) first = t.start;
    last = Math.max(last, t.end);
    if (phrase) continue;
    // a negation up to 5 words before, in the same clause ("no garage or in-unit laundry", "no need for a garage"),
    // 4 more across each "or"/"nor" that joins the word to others ("I don't care about garage or in-unit laundry";
    // not "and": "I don't need a pool and need a garage")
    let reach = 5;
    for (let k = t.index - 1; k >= 0 && k >= t.index - reach; k--) {
      if (/[.;,!?]|\bbut\b/i.test(doc.text.slice(doc.tokens[k].end, doc.tokens[k + 1].start)) || doc.tokens[k].lower === 'but') break;
      if (['or', 'nor'].includes(doc.tokens[k].lower)) {
        // "... and I have laundry": a new clause with its own subject ends the negation's reach
        if (['i', 'we', 'you', 'he', 'she', 'they', 'it', "i'm", "i've", "we're"].includes(doc.tokens[k + 1]?.lower ?? '')) break;
        reach = Math.min(reach + 4, 14);
      }
      // a negation word, or any word ending in "n't"
      if (NEGATIONS.has(doc.tokens[k].lower) || /n't$/.test(doc.tokens[k].lower)) {
        neg = true;
        break;
      }
    }
  }
  if (found === 0) return undefined;
  // indifference says neither ("I don't mind if it has a garage or not", "with or without a
  // garage", "parking either way"): no value. Within the flag's own clause (ended by punctuation,
  // "but", "whether" or "and" before a new subject): "don't mind"/"don't care"/"not concerned"
  // before the flag's word, "or not"/"either way"/"doesn't matter" within six words after it
  // (not "whether … or not", which is about what follows), "with or without" right before it
  // (read within CLAUSE_REACH characters either side: the markers count only near the word)
  const head = doc.text.slice(Math.max(0, first - CLAUSE_REACH), first);
  let cut = 0;
  for (const b of head.matchAll(CLAUSE_BOUNDARY)) cut = b.index + b[0].length;
  const before = head.slice(cut);
  const tail = doc.text.slice(last, last + CLAUSE_REACH);
  const end = tail.search(CLAUSE_BOUNDARY_ONE);
  const after = (end < 0 ? tail : tail.slice(0, end)).split(/\s+/).slice(0, 7).join(' ');
  if (
    INDIFFERENT_BEFORE.test(before) ||
    (INDIFFERENT_AFTER.test(after) && !/\bwhether\b/i.test(after)) ||
    /\bwith\s+or\s+without\s+(?:\S+\s+){0,2}$/i.test(before)
  )
    return undefined;
  const score = found === salient.length ? 0.6 : 0.4;
  return { value: !neg, score, start: first, end: last };
}

/** What ends a clause around a flag's word: punctuation, "but", "whether", "and" before a new subject. */
const CLAUSE_BOUNDARY = /[.!?\n,;]|\b(?:but|whether|and\s+(?:i|we|you|it|they)(?:['’](?:m|d|ve))?)\b/gi;
/** CLAUSE_BOUNDARY for a first-match search. */
const CLAUSE_BOUNDARY_ONE = new RegExp(CLAUSE_BOUNDARY.source, 'i');
/** Characters either side of a flag's word that its indifference markers are read in. */
const CLAUSE_REACH = 200;

/** Words before a flag's word that leave its choice open: "don't mind (if)", "don't care about", "not concerned about". */
const INDIFFERENT_BEFORE =
  /\b(?:(?:do|does|did)\s*n[o'’]?t\s+(?:mind|care)|dont\s+(?:mind|care)|not\s+(?:too\s+)?(?:concerned|bothered|fussed))\b/i;
/** Words after a flag's word that leave its choice open: "or not", "either way", "doesn't matter". */
const INDIFFERENT_AFTER = /\b(?:or\s+not|either\s+way|doesn['’]?t\s+matter|does\s+not\s+matter)\b/i;

/**
 * A chain's or brand's name without the kind of business the parameter names at its end ("Hilton
 * Hotel" → "Hilton" for hotel_chain, "Subway Restaurants" → "Subway" for restaurant_chain). Other
 * parameters keep the name as written ("Hilton Hotel" for hotel_name).
 */
function chainName(value: string | undefined, p: ParamInfo): string | undefined {
  if (value === undefined || !p.parts.some((x) => CHAIN_PARTS.has(x))) return value;
  const m = /^(.+?)\s+(\p{L}+)$/u.exec(value.trim());
  if (!m) return value;
  const last = m[2].toLowerCase().replace(/s$/, '');
  return p.parts.some((x) => !CHAIN_PARTS.has(x) && x.replace(/s$/, '') === last) ? m[1] : value;
}

/** Name parts of a parameter for a chain or brand of businesses. */
const CHAIN_PARTS: ReadonlySet<string> = new Set(['chain', 'brand', 'franchise']);

/** Converts a span into a string value for a string parameter (format-aware). */
function stringFor(s: Span, p: ParamInfo, doc: Doc): string | undefined {
  switch (s.kind) {
    case 'date':
      return s.date ? formatDate(s.date, p, doc.today) : s.text;
    case 'time':
      return s.time ? formatTime(s.time, p) : s.text;
    case 'place':
      return isoCountry(formatPlace(s, p), p);
    case 'number':
      return s.text;
    case 'list':
      return undefined;
    default:
      return isoCountry(s.text, p);
  }
}

/** Last name parts of a musical key parameter. */
const MUSIC_KEY_PARTS = new Set(['key', 'tonic', 'musical_key', 'key_signature', 'scale_key', 'root_note']);
/** Last name parts of a colour parameter. */
const COLOR_PARTS = new Set(['color', 'colour', 'colors', 'colours']);
/** Colour names (basic English colour terms and common shades), written lower-case as the value. */
const COLOR_WORDS = new Set([
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'purple',
  'violet',
  'pink',
  'brown',
  'black',
  'white',
  'gray',
  'grey',
  'cyan',
  'magenta',
  'gold',
  'silver',
  'navy',
  'teal',
  'beige',
  'maroon',
  'turquoise',
  'indigo',
  'lavender',
  'burgundy',
  'olive',
  'crimson',
  'ivory',
  'khaki',
  'coral',
  'charcoal',
]);

/** Words after a colour word that make it part of a name of something else ("orange juice", "white wine", "brown rice"). */
const NOT_COLOUR_BEFORE = new Set([
  'juice',
  'wine',
  'rice',
  'tea',
  'oil',
  'bean',
  'beans',
  'pepper',
  'peppers',
  'bread',
  'sugar',
  'chocolate',
  'cheese',
  'meat',
  'onion',
  'onions',
  'tequila',
  'rum',
  'beer',
  'grape',
  'grapes',
  'salmon',
  'tuna',
  'curry',
  'sauce',
  'cabbage',
  'lentils',
  'card',
  'cards',
  'belt',
  'house',
  'friday',
  'sea',
  'cross',
  'pages',
  'paper',
  'collar',
  'list',
  'hat',
  'box',
  'light',
  'lights',
  'flag',
  'carpet',
  'medal',
  'mine',
  'screen',
  'hole',
  'dwarf',
  'giant',
  'blood',
  'tape',
  'water',
  'bottle',
  'seal',
  'mail',
]);

/**
 * Colour words of a request that name a colour: never inside a capitalised name ("Red Hot Chili
 * Peppers", "Black Friday"), nor negated ("not black", "except white"), nor before a noun they
 * name a kind of ("orange juice"); none when two different colours are written ("red or blue"),
 * or when the parameter's pattern refuses the word ("^#[0-9a-f]{6}$").
 */
function colourWords(doc: Doc, p: ParamInfo): Token[] {
  const pattern = typeof p.schema['pattern'] === 'string' ? safeRegExp(p.schema['pattern']) : undefined;
  const found: Token[] = [];
  for (const tk of doc.tokens) {
    if (!COLOR_WORDS.has(tk.lower)) continue;
    if (insideName(doc, tk.start, tk.end)) continue;
    const next = doc.tokens[tk.index + 1];
    if (next && NOT_COLOUR_BEFORE.has(next.lower) && /^\s+$/.test(doc.text.slice(tk.end, next.start))) continue;
    const prev = doc.text.slice(Math.max(0, tk.start - 16), tk.start).toLowerCase();
    if (/\b(not|no|except|without|but)\s+(?:\w+\s+)?$/.test(prev) || /n't\s+(?:\w+\s+)?$/.test(prev)) continue;
    if (pattern !== undefined && !pattern.test(tk.lower)) continue;
    found.push(tk);
  }
  return new Set(found.map((t) => t.lower)).size === 1 ? found.slice(0, 1) : [];
}

/** A schema's pattern as a RegExp, or undefined when it does not compile. */
function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

/** Words before "ID" that leave it unqualified ("my ID", "the id"): the label then fits any id parameter. */
const ID_DETERMINERS = new Set(['my', 'the', 'his', 'her', 'their', 'our', 'your', 'its', 'an', 'a', 'and', 'with', 'is', 'this', 'that']);

/**
 * A number written after an identifier label, "ID is 1234", "id: 1234", "user ID 42", for an id
 * parameter: the label's qualifier, when there is one, must be a part of the parameter's name
 * ("user ID" fits user_id, not order_id). 'qualified' when it is, 'plain' for a bare "ID".
 */
function idLabelled(p: ParamInfo, doc: Doc, s: Span): false | 'plain' | 'qualified' {
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
  if (qualifier === undefined || ID_DETERMINERS.has(qualifier)) return 'plain';
  return qualifierNames(p, qualifier) ? 'qualified' : false;
}

/**
 * Does the word before an ID label name this parameter: a part of its name by stem ("user ID" for
 * user_id), or a part it shortens by three letters or more ("Web ID" for websiteId, "prod id" for
 * product_id; not "use ID" for user_id)?
 */
function qualifierNames(p: ParamInfo, qualifier: string): boolean {
  return p.parts.some(
    (part) =>
      stem(part) === stem(qualifier) || (qualifier.length >= 3 && part.length >= qualifier.length + 3 && part.startsWith(qualifier)),
  );
}

/** kindFit's scores: per semantic, the base score of each span kind (built once, not on each call). */
const KIND_FIT: Record<string, Partial<Record<Span['kind'], number>>> = {
  date: { date: 0.8, quoted: 0.2 },
  datetime: { date: 0.75, quoted: 0.2 },
  time: { time: 0.8, quoted: 0.2 },
  email: { email: 0.9, quoted: 0.3, proper: 0.25 },
  url: { url: 0.85, quoted: 0.35, id: 0.15 },
  path: { path: 0.85, quoted: 0.4, url: 0.2 },
  place: { place: 0.6, proper: 0.3, quoted: 0.35 },
  origin: { place: 0.55, proper: 0.3, quoted: 0.3, id: 0.1 },
  destination: { place: 0.55, proper: 0.3, quoted: 0.3, id: 0.1 },
  id: { id: 0.5, quoted: 0.5, number: 0.3, proper: 0.15, email: 0.25, url: 0.1 },
  name: { quoted: 0.5, proper: 0.4, id: 0.2, place: 0.2, email: 0.15 },
  text: { quoted: 0.55, proper: 0.15, id: 0.1 },
  generic: { quoted: 0.45, proper: 0.3, id: 0.25, place: 0.25, url: 0.25, email: 0.25, path: 0.25, number: 0.1 },
  country: { place: 0.3, proper: 0.4, quoted: 0.35 },
  language: { proper: 0.4, quoted: 0.35 },
  unit: { quoted: 0.3 },
  currency: { quoted: 0.3, id: 0.2 },
};

/** Base score of a span kind for a string parameter of a given semantic. */
function kindFit(kind: Span['kind'], p: ParamInfo): number {
  return KIND_FIT[p.semantic]?.[kind] ?? 0;
}

/** Phrase written right after the parameter's name ("crime of theft", "content - go to gym", "named Bob"). */
function anchoredPhrases(p: ParamInfo, doc: Doc, hits: { idx: number; w: number }[]): Cand[] {
  const out: Cand[] = [];
  const boundary = new Set([
    'and',
    'with',
    'for',
    'in',
    'on',
    'at',
    'from',
    'to',
    'by',
    'that',
    'which',
    'who',
    'please',
    'using',
    'where',
    'when',
    'while',
    'but',
    'or',
    'so',
    'then',
    'if',
    'also',
    'into',
    'as',
    'via',
    'about',
  ]);
  const long = p.semantic === 'text';
  for (const h of hits) {
    if (h.w < 0.8) continue;
    let i = h.idx + 1;
    // a relative clause between the name and its "is": "the product I ordered is …", "the hotel
    // that we booked was …" (a pronoun and one verb, then is/was)
    const rel = RELATIVE_CLAUSE.exec(doc.text.slice(doc.tokens[h.idx].end, doc.tokens[h.idx].end + 40));
    const relEnd = rel ? doc.tokens[h.idx].end + rel[0].length : -1;
    if (rel) while (i < doc.tokens.length && doc.tokens[i].start < relEnd) i++;
    const afterRel = i;
    // skip link words right after the name: "is", "of", "named", ...
    while (
      i < doc.tokens.length &&
      ['is', 'of', 'be', 'as', 'named', 'called', 'titled', 'the', 'a', 'an', 'should', 'will', 'to', 'set'].includes(
        doc.tokens[i].lower,
      ) &&
      i - afterRel <= 3
    )
      i++;
    if (i >= doc.tokens.length) continue;
    // (after a relative clause only a thing is the value: "is a pair of sneakers", not "was
    // terrible", "is broken", "was cancelled")
    if (
      rel &&
      !(
        ['a', 'an', 'the', 'my', 'our', 'his', 'her', 'their', 'this', 'that', 'called', 'named'].includes(
          doc.tokens[i - 1]?.lower ?? '',
        ) ||
        /^[\p{Lu}\d"'#“‘]/u.test(doc.text.slice(doc.tokens[i].start - (/["'“‘]/.test(doc.text[doc.tokens[i].start - 1] ?? '') ? 1 : 0)))
      )
    )
      continue;
    const between = rel ? ' is ' + doc.text.slice(relEnd, doc.tokens[i].start) : doc.text.slice(doc.tokens[h.idx].end, doc.tokens[i].start);
    // the skipped link words removed from the gap
    const stripped = between.replace(/\b(is|of|be|as|named|called|titled|the|a|an|should|will|to|set)\b/gi, '');
    // only spaces, ":", "=", "-" (and the skipped words) between name and value
    if (!/^[\s:=\-–—"']*$/.test(stripped)) continue;
    // an explicit link: "is", "named", "called", "titled", ":", "=", "-"
    // ("the format of YYYY": a format's "of" names it)
    const explicit =
      /\b(is|named|called|titled|should be|will be|set to)\b|[:=\-–—]/i.test(between) ||
      (doc.tokens[h.idx].stem === 'format' && /^\s+of\s+$/i.test(between));
    if (!explicit && !/\bof\b/i.test(between) && !p.required) continue;
    const start = doc.tokens[i].start;
    let j = i;
    while (j + 1 < doc.tokens.length && j - i < (long ? 15 : 5)) {
      const gap = doc.text.slice(doc.tokens[j].end, doc.tokens[j + 1].start);
      // stop at punctuation other than spaces, hyphens and apostrophes
      if (!/^[\s'’-]*$/.test(gap)) break;
      if (!long && boundary.has(doc.tokens[j + 1].lower)) break;
      j++;
    }
    const first = doc.tokens[i].lower;
    // (a phrase may start with a digit)
    if (STOP_WORDS.has(first) && !/^\d/.test(first) && !long) continue;
    const end = doc.tokens[j].end;
    const text = doc.text.slice(start, end);
    // (one word that says when, how or which, not what: "Cancel my order immediately.", "the
    // repository online.", "the project details.")
    if (
      i === j &&
      (NOT_A_NAME.has(first) || /^[a-z]+ly$/.test(doc.tokens[i].text) || /^(?:tomorrow|yesterday|tonight|summary)$/.test(first))
    )
      continue;
    // (nor a preposition and a pronoun alone: "echo a message for me")
    if (/^(?:for|to|with|from|about|at|by|of|on)\s+(?:me|us|him|her|them|it|you)$/i.test(text)) continue;
    out.push({ param: p, value: text, score: (explicit ? 0.45 : 0.3) + 0.15 * h.w, ranges: [[start, end]], kind: 'phrase' });
  }
  return out;
}

/** A relative clause after a parameter's name that ends in its "is": " I ordered is", " that we booked was". */
const RELATIVE_CLAUSE =
  /^\s+(?:that\s+|which\s+)?(?:i|we|you|they|he|she)\s+\p{L}+(?:ed|ght|nt|ew|ame|ot|ad|id|ade)\s+(?:is|was|are|were)\b/iu;

/** English words that never begin a shell command written after "command" ("command prompt", "the command to ..."). */
const NOT_COMMAND_START = new Set([
  'prompt',
  'line',
  'to',
  'that',
  'which',
  'for',
  'in',
  'on',
  'of',
  'and',
  'or',
  'is',
  'if',
  'will',
  'should',
  'please',
  'the',
  'a',
  'an',
  'it',
  'this',
  'set',
  'do',
  'does',
  'did',
  'you',
  'i',
  'we',
  'they',
  'he',
  'she',
  'are',
  'was',
  'were',
  'be',
  'been',
  'can',
  'could',
  'would',
  'must',
  'may',
  'might',
  'has',
  'have',
  'had',
]);

/** Longest command read after a keyword (bounds the work on long lines). */
const COMMAND_MAX = 300;

/**
 * A command written out for a command parameter: "using the command echo %time%", "with the exact
 * command shutdown /s /t 0", "the instruction del \"x.lnk\"": everything after the word
 * "command"/"instruction" (and an optional ":"), verbatim, to the end of the line. Only for
 * parameters whose name says command, cmd, instruction or script.
 */
function commandCandidates(p: ParamInfo, doc: Doc): Cand[] {
  if (!p.parts.some((x) => /^(command|commands|cmd|instruction|instructions|script)$/.test(x))) return [];
  const out: Cand[] = [];
  const re = new RegExp(`\\b(?:command|cmd|instruction)s?(?:\\s+line)?\\s*:?[ \\t]+([^\\n]{1,${COMMAND_MAX}})`, 'gi');
  let m: RegExpExecArray | null;
  while ((m = re.exec(doc.text)) !== null) {
    // the next search starts right after this keyword: a later "command" may hold the value
    re.lastIndex = m.index + m[0].length - m[1].length;
    // a line longer than any command is prose, not a command
    if (m[1].length === COMMAND_MAX && m.index + m[0].length < doc.text.length && doc.text[m.index + m[0].length] !== '\n') continue;
    let value = m[1].trim();
    const first = value
      .split(/\s+/)[0]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+$/u, '');
    if (NOT_COMMAND_START.has(first)) continue;
    // a closing sentence mark that is not part of the command ("... /t 0." / "...?")
    value = value.replace(/\s*[?!]+$/, '').replace(/(?<=[\w"')])\.$/, '');
    if (value === '') continue;
    const start = m.index + m[0].length - m[1].length + (m[1].length - m[1].trimStart().length);
    out.push({ param: p, value, score: 0.95, ranges: [[start, start + value.length]], kind: 'command' });
  }
  // "using the echo %date% command", "use docker ps to find out": a command of two or more words,
  // or one holding a symbol (a lone word such as "the echo command" is no whole command)
  const around = [
    /\b(?:using|use|with|run|via)\s+the\s+([^\n]{1,200}?)\s+command\b/gi,
    /\buse\s+([^\n]{1,200}?)(?=\s+to\b|\s*[.!?]?\s*$)/gi,
  ];
  for (const re2 of around) {
    while ((m = re2.exec(doc.text)) !== null) {
      const value = m[1].trim();
      const first = value.split(/\s+/)[0].toLowerCase();
      if (value === '' || NOT_COMMAND_START.has(first) || /^(command|cmd|tools?|it|this|that|my|your)$/i.test(first)) continue;
      if (!/\s|[^\p{L}]/u.test(value)) {
        // a lone command word and the one URL or path the request gives ("open huggingface using
        // the start command and through the link: https://huggingface.co" → start https://…)
        const targets = doc.spans.filter((sp) => sp.kind === 'url' || sp.kind === 'path');
        if (re2 === around[0] && targets.length === 1)
          out.push({
            param: p,
            value: `${value} ${targets[0].text}`,
            score: 0.72,
            ranges: [[targets[0].start, targets[0].end]],
            kind: 'command',
          });
        // and a lone printing command with the words to print before it ("say hi using the echo
        // command" → "echo hi")
        // (only "say" or "print" right before a short plain phrase in the same sentence, nothing a
        // shell would read otherwise, and no description of a value: "print the current user" is
        // no text to echo)
        const said =
          re2 === around[0] && PRINT_COMMANDS.has(value.toLowerCase())
            ? /(?:^|[.!?]\s+|\b(?:please|just|then|and)\s+)(?:say|print)\s+([\p{L}\p{N}][\p{L}\p{N} ]{0,40}?)\s+$/iu.exec(
                doc.text.slice(0, m.index),
              )
            : null;
        if (said && said[1].split(/\s+/).length <= 5 && !/^(?:the|my|your|a|an|this|that|these|those|our|its|me|how|what)\b/i.test(said[1]))
          out.push({ param: p, value: `${value} ${said[1]}`, score: 0.72, ranges: [[said.index, m.index + m[0].length]], kind: 'command' });
        continue;
      }
      // "use X to ...": ordinary English ("use caution when ...", "use less memory", "use Windows,
      // restart ...") holds a function word or a comma; a command rarely does
      if (re2 !== around[0] && (/,/.test(value) || value.split(/\s+/).some((w) => STOP_WORDS.has(w.toLowerCase())))) continue;
      const start = m.index + m[0].indexOf(m[1]);
      // (above a part of it read alone: "start microsoft.windows.camera:" over the identifier in it)
      out.push({ param: p, value, score: 0.72, ranges: [[start, start + value.length]], kind: 'command' });
    }
  }
  return out;
}

/** Shell commands that print their arguments. */
const PRINT_COMMANDS: ReadonlySet<string> = new Set(['echo', 'printf', 'print', 'write-host', 'write-output']);

/** Does the description quote at least two example values, all of them words ("'melting', 'freezing'")? */
function valuesAreWords(p: ParamInfo): boolean {
  const quoted = [...p.description.matchAll(/['"‘“]([^'"’”\n]{1,30})['"’”]/g)].map((m) => m[1]);
  // (a clock's form counts as a word: '12h' or '24h')
  return quoted.length >= 2 && quoted.every((q) => /^[\p{L}][\p{L} _-]*$/u.test(q) || /^\d{1,2}\s?h$/i.test(q));
}

/**
 * The word values a description quotes as choices, when it quotes two or more and all are words
 * ("Mode of analysis, e.g. 'static' or 'dynamic'" → static, dynamic); none otherwise.
 */
function describedValues(p: ParamInfo): string[] {
  if (!valuesAreWords(p)) return [];
  // choices, not examples: "'static' or 'dynamic'", "one of", "either", "can be", "options", "possible values"
  if (!/['"’”]\s*,?\s*or\s*['"‘“]|\b(one of|either|can be|options?|possible values|allowed values|valid values)\b/i.test(p.description))
    return [];
  return [...new Set([...p.description.matchAll(/['"‘“]([^'"’”\n]{1,30})['"’”]/g)].map((m) => m[1]))];
}

/** Where `word` (lower case) is written as a whole word or phrase in `lower`, or -1. */
function wordAt(lower: string, word: string): number {
  if (word === '') return -1;
  let from = 0;
  for (;;) {
    const at = lower.indexOf(word, from);
    if (at < 0) return -1;
    const before = at === 0 ? '' : lower[at - 1];
    const after = lower[at + word.length] ?? '';
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return at;
    from = at + 1;
  }
}

/** Example values a description lists ("e.g., sculpture", "such as 'Berkeley, CA'", "Possible values: a, b"). */
function descriptionExamples(p: ParamInfo): string[] {
  const out: string[] = [];
  const d = p.description;
  // a marker, then the list up to the end of the sentence or bracket
  // (a marker is a word of its own: "categories" holds no "eg")
  const re =
    /\b(?:e\.g\.?,?|eg\.?|such as|for example,?|for instance,?|like|examples?:|possible values(?: are)?:?|options(?: are)?:?|one of:?|either|include|includes|including|values:|can be|could be|may be)(?![a-z])\s*:?\s*([^.;()\n]+)/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(d)) !== null) {
    // items are separated by commas, slashes, "or", "and", "etc"; quotes around an item are dropped
    for (const raw of m[1].split(/,|\/|\bor\b|\band\b|\betc\b/)) {
      const item = raw
        .trim()
        .replace(/^['"`]+|['"`]+$/g, '')
        .trim();
      // short plain phrases only (no digits, no format patterns)
      if (item && item.split(/\s+/).length <= 4 && /^[\p{L}][\p{L}\s'&-]*$/u.test(item) && !/^(the|a|an)$/i.test(item)) out.push(item);
    }
  }
  return [...new Set(out)].slice(0, 30);
}

/** Description examples written in the request -> candidates. */
function exampleCandidates(p: ParamInfo, doc: Doc, hits: { idx: number; w: number }[]): Cand[] {
  const out: Cand[] = [];
  for (const ex of descriptionExamples(p)) {
    const m = enumScore(ex, doc);
    if (m.score < 0.75 || m.start < 0) continue;
    const written = doc.text.slice(m.start, m.end);
    out.push({
      param: p,
      value: written,
      score: 0.45 + anchorBonus(p, doc, { id: -1, kind: 'proper', start: m.start, end: m.end, text: written }, hits) * 0.4,
      ranges: [[m.start, m.end]],
      kind: 'example',
    });
  }
  return out;
}

/** "Type of the lawsuit", "Kind of instrument": the thing a type-like parameter's description says it is the type of. */
const TYPE_OF =
  /^\s*(?:the\s+)?(?:type|kind|category|style|class|genre|format|mode)\s+of\s+(?:the\s+|a\s+|an\s+)?(\p{L}{3,})\b(?!\s+(?:of|to|for)\b)/iu;

/**
 * Type-like parameters (room_type, cell_type): the word written before the named thing ("single
 * room", "human cell"). The thing is the name's part before the last; or the noun of a description
 * that starts "Type of the lawsuit", where one of the description's examples is written right
 * before it (case_type with examples 'IPR', 'Patent': "patent lawsuits" → patent).
 */
function modifierCandidates(p: ParamInfo, doc: Doc): Cand[] {
  const out: Cand[] = [];
  const parts = p.parts;
  if (
    ![
      'type',
      'kind',
      'category',
      'style',
      'class',
      'level',
      'mode',
      'format',
      'flavor',
      'genre',
      'size',
      'color',
      'colour',
      'material',
    ].includes(parts[parts.length - 1] ?? '')
  )
    return out;
  // the named thing: the name's part before the last ("room" of room_type), or for a one-word
  // name the thing its description names ("Type of the instrument" → instrument)
  const headWord = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  const own = headWord !== undefined && !STOP_WORDS.has(headWord) ? stem(headWord) : undefined;
  // the thing a description names ("Type of the lawsuit") counts only with one of the description's
  // examples before it: any word before it would make "a cheap instrument" a type "cheap"
  const described = TYPE_OF.exec(p.description);
  const named = described && !STOP_WORDS.has(described[1].toLowerCase()) ? stem(described[1].toLowerCase()) : undefined;
  if (own === undefined && named === undefined) return out;
  // (a description example written before the thing is the value as a whole: "a hip hop beat" is
  // "hip hop", not "hop")
  const examples = descriptionExamples(p)
    .map((ex) => enumScore(ex, doc))
    .filter((m) => m.score >= 0.75 && m.start >= 0);
  for (const t of doc.tokens) {
    if ((t.stem !== own && t.stem !== named) || t.index === 0) continue;
    const prev = doc.tokens[t.index - 1];
    const example = examples.find((m) => m.start <= prev.start && m.end >= prev.end && /^[\s-]*$/.test(doc.text.slice(m.end, t.start)));
    // ("commercial lawsuits excluded", "not patent lawsuits": ruled out)
    if (
      example &&
      (/^\s+(?:are\s+|is\s+)?(?:excluded|not\s+included|aside)\b/i.test(doc.text.slice(t.end, t.end + 24)) ||
        NEGATED_BEFORE.test(doc.text.slice(Math.max(0, example.start - 24), example.start)))
    )
      continue;
    if (example) {
      out.push({
        param: p,
        value: doc.text.slice(example.start, example.end),
        score: 0.55,
        ranges: [[example.start, example.end]],
        kind: 'modifier',
      });
      continue;
    }
    if (t.stem !== own) continue;
    // one plain word right before the head noun
    if (!/^\s+$/.test(doc.text.slice(prev.end, t.start)) && !/^-$/.test(doc.text.slice(prev.end, t.start))) continue;
    if (STOP_WORDS.has(prev.lower) || /\d/.test(prev.lower) || prev.lower.length < 3) continue;
    // (what powers or bases it, without the participle: "a gas-powered vehicle" → gas)
    const base = /^(\p{L}{2,})-(?:powered|fueled|fuelled)$/u.exec(prev.text);
    out.push({ param: p, value: base ? base[1] : prev.text, score: 0.55, ranges: [[prev.start, prev.end]], kind: 'modifier' });
  }
  return out;
}

/** Currency codes written in the text, in order. */
function currencyMentions(doc: Doc): { code: string; start: number; end: number }[] {
  const out: { code: string; start: number; end: number }[] = [];
  const keys = Object.keys(CURRENCIES).sort((a, b) => b.length - a.length);
  const taken: [number, number][] = [];
  for (const k of keys) {
    let from = 0;
    for (;;) {
      const at = doc.lower.indexOf(k, from);
      if (at < 0) break;
      from = at + k.length;
      const before = at === 0 ? ' ' : doc.lower[at - 1];
      const after = doc.lower[at + k.length] ?? ' ';
      // whole words only (symbols excepted)
      if (/\w/.test(k) && (/[\p{L}\p{N}]/u.test(before) || /[\p{L}]/u.test(after))) continue;
      if (taken.some(([a, b]) => at < b && a < at + k.length)) continue;
      taken.push([at, at + k.length]);
      out.push({ code: CURRENCIES[k], start: at, end: at + k.length });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Coerces a context value onto a parameter's type; undefined when it does not fit. */
function coerce(v: unknown, p: ParamInfo | { type: ReturnType<typeof resolveType>; enumValues?: unknown[] }): unknown {
  const t = p.type;
  if (v === null || v === undefined) return undefined;
  if (t === 'any') return v;
  if (t === 'string') {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return undefined;
  }
  if (t === 'integer' || t === 'number') {
    // a string holding just a (signed, decimal) number
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isFinite(n) || (t === 'integer' && !Number.isInteger(n))) return undefined;
    return n;
  }
  if (t === 'boolean') {
    if (typeof v === 'boolean') return v;
    // "true"/"yes"/"1" and "false"/"no"/"0"
    if (typeof v === 'string' && /^(true|yes|1)$/i.test(v.trim())) return true;
    if (typeof v === 'string' && /^(false|no|0)$/i.test(v.trim())) return false;
    return undefined;
  }
  if (t === 'array') return Array.isArray(v) ? v : undefined;
  if (t === 'object') return isObj(v) ? v : undefined;
  return v;
}

/** Finds a context field for a parameter by name (exact, snake/camel variants, singular/plural). */
function contextField(ctx: Record<string, unknown>, name: string): { key: string; value: unknown } | undefined {
  if (name in ctx) return { key: name, value: ctx[name] };
  const want = squash(name);
  // a trailing plural "s"
  const strip = (s: string): string => s.replace(/s$/, '');
  for (const [k, v] of Object.entries(ctx)) if (squash(k) === want) return { key: k, value: v };
  for (const [k, v] of Object.entries(ctx)) if (strip(squash(k)) === strip(want) && want.length > 2) return { key: k, value: v };
  return undefined;
}

/** Does a candidate's character range overlap a taken one? */
function clashes(ranges: [number, number][], taken: [number, number][]): boolean {
  return ranges.some(([a, b]) => a >= 0 && taken.some(([c, d]) => a < d && c < b));
}

/** Spans that carry a value a tool would need (used to spot leftovers). */
function isSalient(s: Span): boolean {
  return (
    (s.kind === 'number' && !s.word) ||
    s.kind === 'quoted' ||
    s.kind === 'url' ||
    s.kind === 'email' ||
    s.kind === 'path' ||
    s.kind === 'date' ||
    s.kind === 'list'
  );
}

/** A description saying the parameter assumes today when left out ("If not specified, the current date is assumed", "Defaults to today"). */
// (the current date itself: not "30 days before the current date", "one day after the current date",
// "the current date minus one day")
const TODAY_BY_DEFAULT =
  /\bif\s+(?:not|no\w*)\s+(?:\w+\s+){0,3}(?:specified|provided|given|set)\s*,?\s*(?:the\s+)?(?:current|today'?s)\s+date\s+(?:is\s+|will\s+be\s+)?(?:used|assumed|applied)\b|\b(?:defaults?\s+(?:is\s+|to\s+)?|by\s+default\s*,?\s*)(?:the\s+)?(?:current\s+date|today'?s\s+date|today)\b(?!\s*(?:minus|plus|[-+]))/i;

/** Whether a date span says "today" (a relative date that is the reference day; a date written out is sent as written). */
function isToday(s: Span, doc: Doc): boolean {
  const d = s.date;
  return (
    d !== undefined &&
    d.relative === true &&
    d.y === doc.today.getUTCFullYear() &&
    d.m === doc.today.getUTCMonth() + 1 &&
    d.d === doc.today.getUTCDate()
  );
}

/** Whether a parameter is the start or the end of a range (from/to, check-in/check-out, min/max). */
function rangeRole(p: ParamInfo): 'start' | 'end' | undefined {
  const parts = p.parts;
  const j = parts.join(' ');
  // "check in" / "check out" written as separate parts
  if (/\bcheck ?in\b/.test(j)) return 'start';
  if (/\bcheck ?out\b/.test(j)) return 'end';
  if (
    parts.some((x) =>
      [
        'from',
        'start',
        'begin',
        'beginning',
        'min',
        'minimum',
        'lower',
        'low',
        'initial',
        'first',
        'since',
        'departure',
        'depart',
        'pickup',
        'origin',
        'outbound',
        'source',
        'starting',
        'earliest',
        'after',
      ].includes(x),
    )
  )
    return 'start';
  if (
    parts.some((x) =>
      [
        'to',
        'end',
        'until',
        'max',
        'maximum',
        'upper',
        'high',
        'final',
        'last',
        'return',
        'arrival',
        'dropoff',
        'destination',
        'ending',
        'latest',
        'before',
        'inbound',
        'target',
      ].includes(x),
    )
  )
    return 'end';
  return undefined;
}

/** Unit stems of money (unitStem of "$", "€", "dollars"…). */
const CURRENCY_UNIT_STEMS: ReadonlySet<string> = new Set(['dollar', 'euro', 'pound', 'yen', 'usd', 'eur', 'gbp', 'buck', 'rupe', 'yuan']);

/** Bonus for a value written after "from"/"to" (or "between ... and") that matches the parameter's range role. */
function rangeBonus(p: ParamInfo, doc: Doc, s: Span): number {
  const role = rangeRole(p);
  if (!role) return 0;
  const prevTok = tokenAt(doc, s.start) - 1;
  const prevWord = prevTok >= 0 ? doc.tokens[prevTok].lower : '';
  const startWords = ['from', 'between', 'since', 'starting', 'after', 'leaving', 'departing'];
  const endWords = ['to', 'until', 'till', 'through', 'thru', 'before', 'into'];
  // "between <x> and" right before the value: the value ends a range
  const betweenAnd = prevWord === 'and' && /between\s+[^,.;]{1,40}\s+and\s*$/i.test(doc.text.slice(Math.max(0, s.start - 60), s.start));
  // a number followed by "to" and another number opens a range ("within $300,000 to $400,000")
  // (an amount of money, or of a unit the parameter is measured in: "2 to 4 bathrooms" is no budget)
  const us = unitStem(s.unit);
  const opensRange =
    s.kind === 'number' &&
    /^\s*(?:to|–|\s-)\s*[$€£¥]?\s*\d/i.test(doc.text.slice(s.end, s.end + 12)) &&
    us !== undefined &&
    (CURRENCY_UNIT_STEMS.has(us) || unitStemsOf(p).has(us));
  if (role === 'start') return startWords.includes(prevWord) || opensRange ? 0.3 : endWords.includes(prevWord) || betweenAnd ? -0.2 : 0;
  return endWords.includes(prevWord) || betweenAnd ? 0.3 : startWords.includes(prevWord) ? -0.2 : 0;
}

/** Words before a name that say which role it plays ("songs by X", "directed by X", "starring X"). */
/** Name parts of a parameter for the people acting in a film. */
const CAST_ROLE = /\b(cast|actor|actors|starring|star|stars|actress)\b/;

/** Name parts of a parameter for the title of a work (a song, a book, a film). */
const WORK_TITLE = /\b(track|song|title|book|movie|film|poem|novel|painting|artwork)\b/;

/** Roles written after a name ("X as the director") and the parameter names they fill. */
const ROLE_NOUNS: Record<string, RegExp> = lookupTable({
  director: /\b(director|directed)\b/,
  filmmaker: /\b(director|directed)\b/,
  author: /\bauthor\b/,
  singer: /\b(singer|artist|performer|vocalist)\b/,
  composer: /\bcomposer\b/,
  actor: CAST_ROLE,
  actress: CAST_ROLE,
  star: CAST_ROLE,
  lead: CAST_ROLE,
  producer: /\bproducer\b/,
});

/** What is played, heard or streamed. */
const PLAY_CUE = /\b(?:play|hear|listen to|stream)\s*$/i;

const ROLE_CUES: [RegExp, RegExp][] = [
  // [words right before the value, parameter name parts that take it]
  [/\bdirected by\s*$/i, /\b(director|directed|filmmaker)\b/],
  [
    /\b(?:featuring|features|feature|featured|starring|stars|starred by|acted by|actor|actress|with (?:the )?(?:actor|actress)|with)\s*$/i,
    CAST_ROLE,
  ],
  [/\b(?:written by|authored by|author)\s*$/i, /\b(author|writer|by)\b/],
  // (not "acted by"/"starred by": those name the cast)
  [
    /(?:(?<!\b(?:acted|starred)\s+)\bby|from artist|from the artist|from the band|sung by|performed by)\s*$/i,
    /\b(artist|artists|band|singer|composer|author|creator|performer|musician|by|writer|director)\b/,
  ],
  [/\b(?:album)\s*$/i, /\balbum\b/],
  // what is played is a track ("play 'Bohemian Rhapsody'", "listen to Yellow"), not its artist
  [PLAY_CUE, /\b(track|song|title|tune)\b/],
  [/\b(?:at|in)\s*(?:the\s*)?$/i, /\b(theater|theatre|venue|restaurant|hotel|museum|store|shop|cinema|stadium)\b/],
  // the maker of a product: "piano from Yamaha", "a laptop made by Dell", "the Switch by Nintendo"
  // ("from" a shop is no brand: "headphones from Walmart"; so only a manufacturer or maker is "from")
  [/\b(?:by|made\s+by|manufactured\s+by|built\s+by)\s*$/i, /\b(manufacturer|maker|brand|make|producer)\b/],
  [/\bfrom\s*$/i, /\b(manufacturer|maker)\b/],
];

/** Name parts of a parameter for who makes a product. */
const MAKER_ROLE = /\b(manufacturer|maker|brand|make|producer)\b/;

/** Bonus for a name written after a role cue that matches the parameter. */
function cueBonus(p: ParamInfo, doc: Doc, s: Span): number {
  // (an opening quote between the cue and the name is no gap: "by 'Alec Benjamin'")
  const before = doc.text.slice(Math.max(0, s.start - 30), s.start).replace(/\s*['"“‘]$/, '');
  const joined = p.parts.join(' ');
  const isPlace = doc.spans.some((o) => o.kind === 'place' && o.start <= s.start && o.end >= s.end);
  for (const [cue, who] of ROLE_CUES) {
    // "at/in <name>" names a venue, not the city it is in
    if (isPlace && cue.source.includes('at|in')) continue;
    // (a place is no cast member: "a movie that features New York City")
    // (what is played is a title when quoted, or when its maker follows: "Play Hello by Adele")
    if (cue === PLAY_CUE && s.kind !== 'quoted' && !/^\s+by\s+\p{Lu}/u.test(doc.text.slice(s.end, s.end + 6))) continue;
    // (a country is no maker: "leather shoes from Italy")
    if (
      cue.test(before) &&
      who.test(joined) &&
      !(isPlace && CAST_ROLE.test(joined)) &&
      !(MAKER_ROLE.test(joined) && (isPlace || KNOWN_COUNTRIES.has(s.text.toLowerCase())))
    )
      return 0.3;
  }
  // the role written after the name, for the parameter of that very role: "with Jim Henson as
  // the director" (not a composer or a writer)
  const asRole = /^['"”’]?\s+as\s+(?:the\s+|a\s+|an\s+|my\s+)?(\p{L}+)/u.exec(doc.text.slice(s.end, s.end + 30));
  const roleParam = asRole ? ROLE_NOUNS[asRole[1].toLowerCase()] : undefined;
  if (roleParam && roleParam.test(joined)) return 0.3;
  // an artist's music: "Madonna's music" (only "music": "Frozen's songs", "Motown's hits",
  // "Spotify's new music" are a film's, a label's, a service's)
  if (/^['’]s\s+music\b/i.test(doc.text.slice(s.end, s.end + 12)) && /\b(artist|artists|band|singer|musician|performer)\b/.test(joined))
    return 0.3;
  // a role written after the name: "the movie that Joey Fatone acted in"
  if (
    !isPlace &&
    /^\s+(?:acted|starred|stars|appears|appeared|plays|played)\b/i.test(doc.text.slice(s.end, s.end + 16)) &&
    CAST_ROLE.test(joined)
  )
    return 0.3;
  // a name written after "by" is the maker, not a title ("the new book by Stephen King")
  if (/\bby\s*$/i.test(before) && WORK_TITLE.test(joined) && !/\b(?:author|artist|by|maker|creator|composer|director)\b/.test(joined))
    return -0.3;
  // a work's title written before "by" its maker: "'Narrated For You' by 'Alec Benjamin'"
  // (a quoted title only: an unquoted one may be cut short, "Let It Be" read as "Be")
  if (s.kind === 'quoted' && /^['"”’]?\s+by\s+\S/i.test(doc.text.slice(s.end, s.end + 12)) && WORK_TITLE.test(joined)) return 0.3;
  return 0;
}

/** Rank of a parameter among the numeric parameters of its object (set by mapObject). */
const NUMERIC_RANK = new WeakMap<ParamInfo, number>();

/** Rank of a parameter among numeric siblings (-1 when unknown). */
function numericRank(p: ParamInfo): number {
  return NUMERIC_RANK.get(p) ?? -1;
}

/** Per numeric parameter measured in one kind of unit (DIMENSIONS index d): its rank r among its siblings measured in that kind. */
const DIMENSION_RANK = new WeakMap<ParamInfo, { d: number; r: number }>();

/** The one kind of unit (DIMENSIONS index) a parameter is measured in, or -1 (none, several, or an area). */
function paramDimension(p: ParamInfo): number {
  if (AREA_PARAM.test(`${p.parts.join(' ')} ${p.description}`)) return -1;
  const units = [...unitStemsOf(p)];
  const ds = DIMENSIONS.map((set, i) => (units.some((u) => set.has(u)) ? i : -1)).filter((i) => i >= 0);
  return ds.length === 1 && rateDenominators(p).size === 0 ? ds[0] : -1;
}

/** Per request: each plain number written with a unit of time, length or mass, with its kind and rank among the numbers of that kind. */
const DIMENSION_RANKS = new WeakMap<Doc, Map<Span, { d: number; r: number }>>();

/** A number span's kind of unit and its rank among the request's numbers of that kind (undefined: no such unit). */
function dimensionRank(doc: Doc, s: Span): { d: number; r: number } | undefined {
  let ranks = DIMENSION_RANKS.get(doc);
  if (!ranks) {
    ranks = new Map();
    const seen = DIMENSIONS.map(() => 0);
    // (not where dimensions write the unit once: "18 x 24 inches" — the plain reading order holds)
    if (
      /\d\s*(?:x|×|by)\s*\d/i.test(doc.text) &&
      doc.spans.some(
        (o) =>
          o.kind === 'number' &&
          !o.word &&
          (o.unit === undefined || /^(?:x|×)$/i.test(o.unit)) &&
          /^\s*(?:x|×|by)?\s*\d/i.test(doc.text.slice(o.end, o.end + 8)),
      )
    ) {
      DIMENSION_RANKS.set(doc, ranks);
      return undefined;
    }
    for (const o of doc.spans
      .filter((x) => x.kind === 'number' && !x.word && x.unit !== undefined && !AREA_UNIT.test(x.unit))
      .sort((a, b) => a.start - b.start)) {
      const u = unitStem(o.unit);
      const d = u === undefined ? -1 : DIMENSIONS.findIndex((set) => set.has(u));
      if (d >= 0) ranks.set(o, { d, r: seen[d]++ });
    }
    DIMENSION_RANKS.set(doc, ranks);
  }
  return ranks.get(s);
}

/** Rank of a number span among the plain number spans of the text. */
function numberRank(doc: Doc, s: Span): number {
  if (s.word) return -2;
  let ranks = NUMBER_RANKS.get(doc);
  if (!ranks) {
    // once per request: each plain number's count of plain numbers that start before it (numbers
    // starting at the same place share a rank)
    const nums = doc.spans.filter((o) => o.kind === 'number' && !o.word).sort((a, b) => a.start - b.start);
    ranks = new Map();
    nums.forEach((o, i) => ranks!.set(o, i > 0 && nums[i - 1].start === o.start ? ranks!.get(nums[i - 1])! : i));
    NUMBER_RANKS.set(doc, ranks);
  }
  return ranks.get(s) ?? 0;
}

/** A sentence that asks for something ("Can you set a reminder for 7:00 AM?", "Wake me at 6:15"), not one that tells of something else ("My meeting starts at 2 PM"). */
const REQUEST_SENTENCE =
  /^\s*(?:(?:can|could|would|will)\s+you\b|please\b|set\b|wake\b|remind\b|schedule\b|book\b|make\s+it\b|put\s+it\b|start\b|call\b|i\s+(?:want|need|would\s+like)\s+(?:it|the\s+alarm|the\s+reminder)\b)/i;

/** The sentence (up to . ! ? or a line break) that holds an offset. */
function sentenceOf(doc: Doc, at: number): string {
  let a = at;
  while (a > 0 && !/[.!?\n]/.test(doc.text[a - 1])) a--;
  let b = at;
  while (b < doc.text.length && !/[.!?\n]/.test(doc.text[b])) b++;
  return doc.text.slice(a, b);
}

/** Rank of a parameter among the free string parameters of its object (set by mapObject). */
const TEXT_RANK = new WeakMap<ParamInfo, number>();

/** Rank of a quoted span among the request's quoted spans (in reading order). */
function quotedRank(doc: Doc, s: Span): number {
  return doc.spans.filter((o) => o.kind === 'quoted' && o.start < s.start).length;
}

/** Per request: the rank of each plain number span (numberRank). */
const NUMBER_RANKS = new WeakMap<Doc, Map<Span, number>>();

/** A negation right before a word (one word may come between): "not ironing", "no massage", "without a pool". */
const NEGATED_BEFORE = /\b(?:not|no|without|except|excluding|exclude)\s+(?:[\p{L}'’]+\s+)?$/iu;

/** Words of a code's meaning that do not tell codes apart ("1 for cleaning service"). */
const CODE_FILLER = new Set(['service', 'services', 'type', 'the', 'a', 'an', 'option', 'mode', 'category', 'province', 'city', 'only']);

/** One code a parameter's description explains ("'1' for cleaning"), as codeMeanings reads it. */
interface CodeMeaning {
  /** the code as written ("1") */
  code: string;
  /** the meaning's words as written, fillers left out ("cleaning"; "Group", "A") */
  written: string[];
  /** those words in lower case, and their stems */
  words: string[];
  stems: string[];
}
/** Per property schema: the codes its parameter's description explains (codeMeanings), with that description. */
const CODE_MEANINGS = new WeakMap<object, { description: string; meanings: readonly CodeMeaning[] }>();

/**
 * The numeric codes a parameter's description explains, in order, each code once: the part of
 * codeCandidates that reads the parameter alone, made once per parameter (a description is
 * bounded only by the schema's size, and every request of every candidate tool read it again).
 */
function codeMeanings(p: ParamInfo): readonly CodeMeaning[] {
  // (kept with the property's schema, so it lives as long as the snapshot that holds it; a copy
  // of p made with another description reads its own)
  const key: object | undefined = typeof p.schema === 'object' && p.schema !== null ? p.schema : undefined;
  const cached = key && CODE_MEANINGS.get(key);
  if (cached?.description === p.description) return cached.meanings;
  const re =
    /['"]?(\d{1,4})['"]?\s*(for|represents|means|stands for|corresponds to|refers to|to|is|=|:)\s+([\p{L}][\p{L} '-]{1,40}?)(?=\s*(?:[,.;)]|\band\b|\bor\b|$))/giu;
  const out: CodeMeaning[] = [];
  const seen = new Set<string>();
  let m: RegExpExecArray | null;
  while ((m = re.exec(p.description)) !== null) {
    // "N to ..." is a range, not a code, after "from"/"between" or before a quantity ("2 to many")
    if (
      m[2].toLowerCase() === 'to' &&
      (/\b(from|between)\s*['"]?$/i.test(p.description.slice(Math.max(0, m.index - 10), m.index)) ||
        /^(many|more|any|all|unlimited|infinity|infinite|max|maximum|several|few|none)\b/i.test(m[3]))
    )
      continue;
    // (a capital letter after a word labels it, "Group A", "Plan B": no article; it must be
    // written so, right after that word)
    const written = m[3]
      .split(/[\s-]+/)
      .filter((w, k) => w && ((k > 0 && /^[A-Z]$/.test(w)) || (!CODE_FILLER.has(w.toLowerCase()) && !STOP_WORDS.has(w.toLowerCase()))));
    const words = written.map((w) => w.toLowerCase());
    if (words.length === 0 || words.length > 4 || seen.has(m[1])) continue;
    seen.add(m[1]);
    out.push({ code: m[1], written, words, stems: words.map((w) => stem(w)) });
  }
  if (key !== undefined && cached === undefined) CODE_MEANINGS.set(key, { description: p.description, meanings: out });
  return out;
}

/** Per enum (its values' array): enumCodes' reading, made once. */
const ENUM_CODES = new WeakMap<readonly unknown[], ReadonlyMap<string, unknown> | null>();

/**
 * An enum of numbers or digit strings only, as its values by their written form (the first of
 * each: `find` by `String(v)`); undefined for any other enum. Made once per enum: with each code
 * searching the values, 2,000 codes against an enum of 2,000 numbers cost about 23 ms a request.
 */
function enumCodes(values: readonly unknown[]): ReadonlyMap<string, unknown> | undefined {
  let m = ENUM_CODES.get(values);
  if (m === undefined) {
    const numeric = values.every((v) => typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v)));
    const table = new Map<string, unknown>();
    if (numeric) for (const v of values) if (!table.has(String(v))) table.set(String(v), v);
    ENUM_CODES.set(values, (m = numeric ? table : null));
  }
  return m ?? undefined;
}

/**
 * Numeric codes a parameter's description explains ("'1' for cleaning, '2' for ironing",
 * "1 represents Bangkok"): the code whose meaning is written in the request, as a candidate.
 */
function codeCandidates(p: ParamInfo, doc: Doc, besideName = false): Cand[] {
  const codes = p.enumValues && p.enumValues.length > 0 ? enumCodes(p.enumValues) : undefined;
  if (!(p.type === 'integer' || p.type === 'number' || codes !== undefined) || !p.description) return [];
  const out: Cand[] = [];
  const ix = tokenIndex(doc);
  for (const { code, written, words, stems } of codeMeanings(p)) {
    const raw = codes !== undefined ? codes.get(code) : Number(code);
    if (raw === undefined) continue;
    const value = codes !== undefined ? raw : coerce(raw, p);
    if (value === undefined) continue;
    // each word's first token in the request (by stem or as written); a label letter, the token
    // right after its word's
    const at: (Token | undefined)[] = [];
    for (let j = 0; j < words.length; j++) {
      if (j > 0 && /^[A-Z]$/.test(written[j])) {
        const next = at[j - 1] && doc.tokens[at[j - 1]!.index + 1];
        at.push(next && next.text === written[j] ? next : undefined);
      } else at.push(doc.tokens[positionsOf(ix, stems[j], words[j])[0]]);
    }
    if (at.some((t) => t === undefined)) continue;
    // (a meaning the request rules out names no code: "cleaning, not ironing", "no massage")
    if (NEGATED_BEFORE.test(doc.text.slice(Math.max(0, at[0]!.start - 24), at[0]!.start))) continue;
    // (besideName: the meaning written before a word of the parameter's name, "ironing services"
    // for service_ids, "a double room" for room_ids; not "a single night")
    if (besideName && !p.anchors.includes(doc.tokens[at[at.length - 1]!.index + 1]?.stem ?? '')) continue;
    // a code names what the words name without using them up: "Bangkok" still fills a city
    // parameter; but a lettered label is the code's own name ("in Group B" is no district)
    const lettered = written.length > 1 && /^[A-Z]$/.test(written[written.length - 1]);
    out.push({ param: p, value, score: 0.75, ranges: lettered ? [[at[0]!.start, at[at.length - 1]!.end]] : [], kind: 'code' });
  }
  return out;
}

/** Seconds in one of each period word (months and years only convert into each other, below). */
const PERIOD_SECONDS: Record<string, number> = lookupTable({
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86400,
  week: 604800,
  fortnight: 1209600,
});

/**
 * One period written without a number ("the next week", "the past hour", "next month") for a
 * numeric parameter measured in a unit of time: the period in that unit (a week is 7 days, an hour
 * 3,600 seconds; months and years convert only into each other). Whole values only.
 */
function periodCandidates(p: ParamInfo, doc: Doc): Cand[] {
  // the unit of time the name says ("days", "timespan_seconds"), else the first the description says
  // (a plural name part: "year"/"month"/"day" alone name a calendar part, not a length of time; and
  // a description that measures the parameter in the unit, not one that only mentions it: "Max
  // results per day", "cached for a day")
  const word = /^(second|minute|hour|day|week|month|year)s$/;
  const fromName = p.parts.find((x) => word.test(x))?.replace(/s$/, '');
  const fromDesc = /\b(?:number of|in|how many|count of|amount of)\s+(second|minute|hour|day|week|month|year)s\b/i.exec(p.description)?.[1];
  const unit = (fromName ?? fromDesc)?.toLowerCase().replace(/s$/, '');
  if (!unit) return [];
  const out: Cand[] = [];
  // ("every hour", "each week", "a week", "per year" are rates, not lengths of time: left alone)
  const re = /\b(?:the\s+)?(?:next|past|last|coming|previous|upcoming|following)\s+(second|minute|hour|day|week|fortnight|month|year)\b/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(doc.text)) !== null) {
    const period = m[1].toLowerCase();
    // months and years convert exactly only into each other: a month or a year has no fixed
    // number of days, hours or seconds
    let v: number;
    if (unit === period) v = 1;
    else if (unit === 'month' && period === 'year') v = 12;
    else if (PERIOD_SECONDS[period] === undefined || PERIOD_SECONDS[unit] === undefined) continue;
    else v = PERIOD_SECONDS[period] / PERIOD_SECONDS[unit];
    if (!Number.isInteger(v) || v <= 0) continue;
    out.push({ param: p, value: v, score: 0.5, ranges: [[m.index, m.index + m[0].length]], kind: 'period' });
  }
  return out;
}

/** A number followed by a word for people ("3 people", "two adults", "a party of 4 persons"). */
const PEOPLE_AFTER = /^\s*(?:people|persons?|adults?|guests?|passengers?|travell?ers?|individuals?|pax)\b/i;

/** Does an integer parameter count people (adults, children, guests, passengers, seats, party size)? */
function countsPeople(p: ParamInfo): boolean {
  return (
    p.type === 'integer' &&
    p.parts.some((x) =>
      /^(adults?|child|children|kids?|people|persons?|guests?|passengers?|travell?ers?|seats?|occupants?|pax|party)$/.test(x),
    )
  );
}

/**
 * A party counted as the writer and others ("for myself and one other adult", "me and 3 friends")
 * for a parameter that counts people (not children): the others plus one.
 */
function selfAndOthers(p: ParamInfo, doc: Doc): Cand[] {
  if (!countsPeople(p) || p.parts.some((x) => /^(?:child|children|kids?)$/.test(x))) return [];
  const m =
    /\b(?:myself|me)\s+and\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:other\s+)?(?:adults?|people|persons?|friends?|guests?|others?|colleagues?|travell?ers?|passengers?)\b/i.exec(
      doc.text,
    );
  if (!m) return [];
  // (a total written gives way to nothing: "a party of 6 including me and 2 friends", "4 people";
  // and children counted too say the phrase is no total of the party)
  if (
    /\b(?:party|group|table|booking|reservation)\s+(?:of|for)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b|\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:people|persons|guests|adults|travell?ers|passengers)\b|\b(?:kids?|children|child|infants?|babies|baby)\b/i.test(
      doc.text.slice(0, m.index) + ' ' + doc.text.slice(m.index + m[0].length),
    )
  )
    return [];
  const n = /^\d+$/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS[m[1].toLowerCase()];
  if (n === undefined) return [];
  return [{ param: p, value: n + 1, score: 0.9, ranges: [[m.index, m.index + m[0].length]], kind: 'self-and-others' }];
}

/** The words after a number that count what this parameter counts: a children parameter counts children, any other counts people, adults, guests ... (never children). */
function peopleAfter(p: ParamInfo): RegExp {
  return p.parts.some((x) => /^(child|children|kids?)$/.test(x)) ? /^\s*(?:child|children|kids?)\b/i : PEOPLE_AFTER;
}

/** Names and abbreviations of the United States, lower-case. */
const US_NAMES: readonly string[] = ['usa', 'us', 'united states', 'america', 'u.s', 'u.s.', 'u.s.a', 'u.s.a.'];
/** Abbreviations of the United Kingdom, lower-case. */
const UK_ABBREVIATIONS: readonly string[] = ['uk', 'u.k', 'u.k.'];

/**
 * A country written by name for a country parameter that asks for ISO 3166-1 alpha-2 codes ("Use
 * ISO 3166-1 alpha-2 country codes", "the two-letter country code"): its code ("the UK" → GB).
 */
function isoCountry(value: string, p: ParamInfo): string {
  if (
    p.semantic !== 'country' ||
    !/\balpha-?2\b|\b(?:two|2)-letter\b/i.test(p.description) ||
    /\b(?:alpha-?3|numeric|three-letter|3-letter)\b|\bnot\b|n['’]t\b|\bnever\b|\bfull (?:country )?name\b/i.test(p.description)
  )
    return value;
  const code = COUNTRY_CODE_BY_NAME.get(value.toLowerCase());
  if (code === undefined) return value;
  // (in the case the description's examples write codes: "e.g. us, gb")
  return /['"(]\s?[a-z]{2}\s?['")]|\be\.g\.,?\s+[a-z]{2}\b/.test(p.description) && !/['"(]\s?[A-Z]{2}\s?['")]/.test(p.description)
    ? code.toLowerCase()
    : code;
}

/** Country names and codes the city lexicon knows, lower-case. */
const KNOWN_COUNTRIES: ReadonlySet<string> = new Set(
  [...WORLD_CITIES.values()]
    .flatMap(([name, code]) => [name.toLowerCase(), code.toLowerCase()])
    .concat(US_NAMES, UK_ABBREVIATIONS, ['england', 'scotland', 'wales']),
);

/**
 * Can the region written after a city fill this country/state parameter? A country parameter takes
 * no US state ("Austin, Texas") and, after a known world city, only that city's own country
 * ("Munich, Bavaria", "Paris, Tomorrow", "Paris, Jean"); a state/province/region parameter takes no
 * known country ("Lyon, France").
 */
function regionFits(country: boolean, s: Span): boolean {
  const region = s.region!.toLowerCase();
  const city = s.city?.toLowerCase() ?? '';
  if (!country) return !(s.region!.length > 2 && KNOWN_COUNTRIES.has(region));
  const own = WORLD_CITIES.get(city);
  if (own) return own[0].toLowerCase() === region || own[1].toLowerCase() === region || (COUNTRY_ALIASES[own[1]] ?? []).includes(region);
  if (US_CITIES.has(city)) return ['usa', 'us', 'united states', 'america'].includes(region);
  return !Object.hasOwn(US_STATES, region) && !(s.region!.length === 2 && US_STATE_CODES.has(s.region!));
}

/** Units of measure as written (lower case), plural or not: no value of a parameter that holds no unit. */
// (abbreviations only after a number, "25 MPG", "80 BPM": "an MG dealer" is a brand; no unit that
// is also a name, Pascal, Newton)
const PHYSICAL_UNITS: ReadonlySet<string> = new Set([
  'joule',
  'joules',
  'kelvin',
  'kelvins',
  'celsius',
  'fahrenheit',
  'hertz',
  'watt',
  'watts',
  'volt',
  'volts',
  'ohm',
  'ohms',
  'calories',
  'kcal',
  'decibels',
]);
const UNIT_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'mpg',
  'bpm',
  'hz',
  'khz',
  'mhz',
  'ghz',
  'kw',
  'kwh',
  'amp',
  'amps',
  'kpa',
  'atm',
  'mph',
  'kmh',
  'kph',
  'km',
  'kg',
  'mg',
  'mm',
  'cm',
  'ml',
  'kb',
  'mb',
  'gb',
  'tb',
  'db',
  'lbs',
  'oz',
]);

/** Cards of one rank or one suit in a standard 52-card deck, by the word for them. */
const CARDS_OF: Record<string, number> = lookupTable({
  ace: 4,
  aces: 4,
  king: 4,
  kings: 4,
  queen: 4,
  queens: 4,
  jack: 4,
  jacks: 4,
  heart: 13,
  hearts: 13,
  spade: 13,
  spades: 13,
  diamond: 13,
  diamonds: 13,
  club: 13,
  clubs: 13,
});

/**
 * Counts that a standard deck of cards and a standard die have, for a draw or a roll the request
 * describes without giving them: the deck's 52 cards for a total ("total_outcomes",
 * "total_cards"), the 4 cards of a rank or the 13 of a suit for the favourable ones
 * ("favorable_outcomes", "desired_cards", "success_outcomes", "event_outcomes"), the 6 sides of a
 * die ("sides_per_die"). Below a number the request writes for the same parameter ("a deck of 32
 * cards" keeps 32).
 */
function standardCounts(p: ParamInfo, doc: Doc): Cand[] {
  const out: Cand[] = [];
  const parts = p.parts;
  // (a standard deck only: not a tarot, pinochle or Uno deck, nor one with jokers)
  const cards =
    /\b(?:deck|cards?)\b/i.test(doc.text) &&
    /\b(?:draw|draws|drawing|drawn|pull|pulling|pick|picking|dealt)\b/i.test(doc.text) &&
    !/\b(?:tarot|pinochle|uno|jokers?|skat|euchre)\b/i.test(doc.text);
  if (cards) {
    // (a total of outcomes or cards, not an amount: "pay the total due")
    const total =
      (parts.includes('total') && parts.some((x) => /^(outcomes?|cards?|possible|events?|count|number)$/.test(x))) ||
      (parts.includes('deck') && parts.includes('size'));
    const favourable = parts.some((x) => /^(favorable|favourable|success|successes|successful|desired|event|target|winning)$/.test(x));
    const sized = doc.spans.some((x) => x.kind === 'number' && /^cards?$/.test(x.unit ?? ''));
    if (total && !favourable && !sized) out.push({ param: p, value: 52, score: 0.35, ranges: [], kind: 'standard-count' });
    if (favourable) {
      // (one plain rank or suit: not "a red king", "a face card", "an ace or a king", "not drawing a king")
      const named = doc.tokens.filter((t) => CARDS_OF[t.lower] !== undefined);
      const qualified =
        named.some((t) => /^(red|black|face|royal|court)$/.test(doc.tokens[t.index - 1]?.lower ?? '')) ||
        /\bface\s+cards?\b|\bnot\s+(?:draw|drawing|get|getting|pick|picking)\b/i.test(doc.text);
      if (named.length === 1 && !qualified) {
        const t = named[0];
        out.push({ param: p, value: CARDS_OF[t.lower], score: 0.5, ranges: [[t.start, t.end]], kind: 'standard-count' });
      }
    }
  }
  // (a plain die: not a "d20", an "8-sided die" or a die of N sides)
  if (
    /\b(?:dice|die)\b/i.test(doc.text) &&
    !/\bd\d+\b|\d+[- ]sided|\bsides?\b/i.test(doc.text) &&
    parts.some((x) => /^(sides|faces)$/.test(x))
  )
    out.push({ param: p, value: 6, score: 0.35, ranges: [], kind: 'standard-count' });
  return out;
}

/**
 * The number of days or nights between the request's two dates, for an integer parameter that
 * counts the days or nights of a stay ("length of the stay in number of days", nights,
 * num_nights): "from August 15th to August 17th" → 2. Only where exactly two full dates are
 * written, the second after the first, and no count of days or nights.
 */
function stayLength(p: ParamInfo, doc: Doc): Cand[] {
  // (the length of a stay, a trip or a rental: not days of flexibility or of notice)
  if (
    p.type !== 'integer' ||
    !/\b(?:nights?|days?)\b/i.test(`${p.parts.join(' ')} ${p.description}`) ||
    !p.parts.some((x) => /^(length|nights?|days?|duration|stay)$/.test(x)) ||
    /\b(?:flexib|remind|before|notice|advance|ahead|buffer)/i.test(`${p.parts.join(' ')} ${p.description}`)
  )
    return [];
  const dates = doc.spans.filter((x) => x.kind === 'date' && x.date?.y !== undefined && x.start >= 0).sort((x, y) => x.start - y.start);
  if (dates.length !== 2 || doc.spans.some((x) => x.kind === 'number' && /^(nights?|days?)$/.test(x.unit ?? ''))) return [];
  // (a stay's own range: "from August 15th to August 17th", "2024-05-03 - 2024-05-07"; not two
  // dates of different things, a passport's expiry, a return to the office)
  if (!/^\s*(?:,\s*)?(?:to|until|till|through|thru|-|–)\s*(?:the\s+)?$/i.test(doc.text.slice(dates[0].end, dates[1].start))) return [];
  const [a, b] = dates.map((x) => Date.UTC(x.date!.y!, x.date!.m - 1, x.date!.d));
  const n = Math.round((b - a) / 86_400_000);
  if (n < 1 || n > 366) return [];
  return [{ param: p, value: n, score: 0.5, ranges: [], kind: 'stay-length' }];
}

/** Words after a country's adjective that are about the country ("German history"), not a style or a cuisine. */
const COUNTRY_TOPICS: ReadonlySet<string> = new Set([
  'history',
  'government',
  'economy',
  'culture',
  'politics',
  'army',
  'military',
  'president',
  'presidents',
  'election',
  'elections',
  'law',
  'laws',
  'constitution',
  'gdp',
  'population',
  'census',
  'parliament',
  'king',
  'kings',
  'monarchs',
  'monarchy',
  'empire',
  'war',
  'wars',
  'revolution',
  'independence',
  'border',
  'borders',
  'currency',
  'embassy',
  'citizens',
  'citizenship',
  'visa',
  'prime',
  'capital',
  'states',
  'provinces',
  'regions',
]);

/** Countries by the adjective written for them (lower case): "German history" → Germany. */
const DEMONYMS: Record<string, string> = lookupTable({
  german: 'Germany',
  french: 'France',
  italian: 'Italy',
  spanish: 'Spain',
  japanese: 'Japan',
  chinese: 'China',
  british: 'United Kingdom',
  american: 'United States',
  russian: 'Russia',
  indian: 'India',
  mexican: 'Mexico',
  canadian: 'Canada',
  australian: 'Australia',
  brazilian: 'Brazil',
  korean: 'South Korea',
  dutch: 'Netherlands',
  swedish: 'Sweden',
  greek: 'Greece',
  turkish: 'Turkey',
  egyptian: 'Egypt',
  irish: 'Ireland',
  polish: 'Poland',
  portuguese: 'Portugal',
  argentine: 'Argentina',
  argentinian: 'Argentina',
  swiss: 'Switzerland',
  austrian: 'Austria',
  norwegian: 'Norway',
  danish: 'Denmark',
  finnish: 'Finland',
  thai: 'Thailand',
  vietnamese: 'Vietnam',
  israeli: 'Israel',
  nigerian: 'Nigeria',
});

/** Other names of countries by ISO 3166 code, lower case ("London, United Kingdom", "Seoul, Korea"). */
const COUNTRY_ALIASES: Record<string, string[]> = lookupTable({
  GB: ['united kingdom', 'great britain', 'britain', 'england', 'scotland', 'wales', 'northern ireland'],
  AE: ['uae', 'emirates'],
  KR: ['korea', 'republic of korea'],
  CZ: ['czechia'],
  NL: ['holland', 'the netherlands'],
  RU: ['russian federation'],
  CN: ['prc', "people's republic of china"],
  VN: ['viet nam'],
});

/** Every name of COUNTRY_ALIASES. */
const COUNTRY_ALIAS_NAMES: ReadonlySet<string> = new Set(Object.values(COUNTRY_ALIASES).flat());

/** ISO 3166-1 alpha-2 codes of the country names the lexicon knows (and their other names), by lower-case name. */
const COUNTRY_CODE_BY_NAME: ReadonlyMap<string, string> = new Map([
  ...[...WORLD_CITIES.values()].map(([name, code]): [string, string] => [name.toLowerCase(), code]),
  ...Object.entries(COUNTRY_ALIASES).flatMap(([code, names]) => names.map((n): [string, string] => [n, code])),
  ...US_NAMES.map((n): [string, string] => [n, 'US']),
  ...UK_ABBREVIATIONS.map((n): [string, string] => [n, 'GB']),
]);

/**
 * Words that rule out what follows them within three words ("exclude any that are", "except",
 * "other than", "but not"; not after "nothing": "I eat nothing other than vegan food"), or within
 * one for "no longer" ("I no longer fly economy"; not "I no longer eat meat so vegetarian").
 */
const EXCLUDED_BEFORE =
  /(?:\b(?:exclud(?:e|es|ed|ing)|but\s+not|rather\s+than|instead\s+of)|(?<!\b(?:nothing|none|no\s+one|nobody)\s+)\b(?:except|other\s+than))\b(?:\s+[\p{L}'’]+){0,3}\s*$|\bno\s+longer(?:\s+[\p{L}'’]+)?\s*$/iu;

/** "from 0 to 100", "between 3 and 100", "range of 3 to 100", "a minimum of 3 and a maximum of 100": a numeric parameter's stated range. */
function statedRange(p: ParamInfo): { min?: number; max?: number } {
  const d = p.description;
  const pair =
    /\b(?:from|between|range\s+of|ranging\s+from|range\s+from)\s+(-?\d+(?:\.\d+)?)\s*(?:\([^)]{0,30}\)\s*)?(?:to|and|-)\s+(-?\d+(?:\.\d+)?)/i.exec(
      d,
    );
  if (pair) return { min: Number(pair[1]), max: Number(pair[2]) };
  const min = /\bminimum\s+(?:of|is|value\s+(?:of|is))\s+(-?\d+(?:\.\d+)?)/i.exec(d);
  const max = /\bmaximum\s+(?:of|is|value\s+(?:of|is))\s+(-?\d+(?:\.\d+)?)/i.exec(d);
  return { min: min ? Number(min[1]) : undefined, max: max ? Number(max[1]) : undefined };
}

const RANGE_TOP = /^(?:full|max|maximum|highest|loudest)$/i;
const RANGE_BOTTOM = /^(?:min|minimum|lowest)$/i;

/**
 * The end of a parameter's stated range asked for in words: "at full volume", "max entries per
 * page", "the volume at maximum" → the range's top ("ranging from 0 (mute) to 100") ; "minimum
 * volume" → its bottom. The word must stand right before the parameter's name (one word may come
 * between) or right after it ("volume at the minimum").
 */
function rangeEndCandidates(p: ParamInfo, doc: Doc, hits: { idx: number; w: number }[]): Cand[] {
  if (hits.length === 0) return [];
  const range = statedRange(p);
  if (range.min === undefined && range.max === undefined) return [];
  const out: Cand[] = [];
  for (const h of hits) {
    if (h.w < 0.8) continue;
    // (asked for: "at full volume", "to max brightness", "with the maximum entries per page" (one
    // word may come between), or "volume at/to (the) maximum"; not "full brightness hurts my eyes",
    // "the lowest temperature that still gives variety")
    const after = /^\s+(?:at|to|on)\s+(?:the\s+|its\s+)?$/i.test(doc.text.slice(doc.tokens[h.idx].end, doc.tokens[h.idx + 3]?.start ?? 0))
      ? doc.tokens[h.idx + 3]
      : undefined;
    const asked = (t: Token | undefined): Token | undefined =>
      t !== undefined && /\b(?:at|to|on|with|in)\s+(?:the\s+|its\s+|a\s+)?$/i.test(doc.text.slice(Math.max(0, t.start - 12), t.start))
        ? t
        : undefined;
    const near = [asked(doc.tokens[h.idx - 1]), asked(doc.tokens[h.idx - 2]), after].filter((t): t is Token => t !== undefined);
    const around = (re: RegExp): Token | undefined =>
      near.find(
        (t) => re.test(t.lower) && !clauseBreak(doc, Math.min(t.start, doc.tokens[h.idx].start), Math.max(t.end, doc.tokens[h.idx].end)),
      );
    const top = range.max !== undefined ? around(RANGE_TOP) : undefined;
    const bottom = range.min !== undefined ? around(RANGE_BOTTOM) : undefined;
    const word = top ?? bottom;
    const v = top ? range.max : bottom ? range.min : undefined;
    if (word === undefined || v === undefined || (p.type === 'integer' && !Number.isInteger(v))) continue;
    // (a number written in the same sentence says how much: "at the max volume my neighbour
    // allows, which is 60")
    const sentence = sentenceOf(doc, word.start);
    if (/\d/.test(sentence)) continue;
    out.push({ param: p, value: v, score: 0.6, ranges: [[word.start, word.end]], kind: 'range-end' });
  }
  return out;
}

/**
 * Whether a prepared request offers a value of an enum parameter as candidatesFor reads it: a
 * candidate it could fill the parameter with when required (score at least REQUIRED_MIN_SCORE).
 * That is enumScore's rules (the value's words or stems, a squashed form, one edit away, the
 * first six letters, an abbreviation, a language or time-zone name, part of a multi-word value),
 * a synonym, a numeral as a number, or a distinctive word of one value, so it can count a value
 * the request does not write ("table" in "cable"). Values meaning no preference ("all", "none",
 * "auto", DONTCARE) and boolean-like string enums ("true"/"false") are not counted when written,
 * though the mapper fills some of them elsewhere. The head reranker's requiredUnmet reads it
 * (head-rerank.ts).
 */
export function enumValueOffered(p: ParamInfo, doc: Doc): boolean {
  return candidatesFor(p, doc).some((c) => c.score >= REQUIRED_MIN_SCORE);
}

/** Candidate values for one parameter. */
/** What every value-kind module reads of a parameter, computed once per parameter and request. */
interface ParamContext {
  /** the parameter's type, 'any' read as 'string' */
  type: Exclude<ParamType, 'any'>;
  /** where the parameter's name is written in the request (anchorHits) */
  hits: { idx: number; w: number }[];
  /** unit stems the parameter asks for (unitStemsOf) */
  units: ReadonlySet<string>;
}

/**
 * One kind of value the mapper proposes for a parameter (numbers, dates, places, enum values,
 * identifiers, arrays …): which parameters it serves, and the scored candidate values it reads
 * from the prepared request.
 */
interface ValueKindModule {
  /** short name (traces which module proposed a value) */
  readonly name: string;
  /** Whether the module proposes values for this parameter. */
  serves(p: ParamInfo, ctx: ParamContext): boolean;
  /** Appends scored candidate values to `out`, which holds what the modules before it proposed. */
  propose(p: ParamInfo, doc: Doc, ctx: ParamContext, out: Cand[]): void;
  /** 'last': no module after it is consulted; 'alone': its candidates replace the earlier ones, and none after it is consulted */
  readonly ends?: 'last' | 'alone';
}

/** Consults the modules in order for one parameter. */
function proposeAll(kinds: readonly ValueKindModule[], p: ParamInfo, doc: Doc): Cand[] {
  const ctx: ParamContext = { type: p.type === 'any' ? 'string' : p.type, hits: anchorHits(p, doc), units: unitStemsOf(p) };
  const out: Cand[] = [];
  for (const k of kinds) {
    if (!k.serves(p, ctx)) continue;
    if (k.ends === 'alone') {
      const own: Cand[] = [];
      k.propose(p, doc, ctx, own);
      return own;
    }
    k.propose(p, doc, ctx, out);
    if (k.ends === 'last') return out;
  }
  return out;
}

/** Every parameter. */
const every = (): boolean => true;
/** A parameter with enum values (an array's enum is its items'). */
const enumParam = (p: ParamInfo, ctx: ParamContext): boolean =>
  p.enumValues !== undefined && p.enumValues.length > 0 && ctx.type !== 'array';
/** A parameter of no declared type. */
const untypedParam = (p: ParamInfo): boolean => p.type === 'any';
/** An integer or number parameter. */
const numericParam = (_p: ParamInfo, ctx: ParamContext): boolean => ctx.type === 'integer' || ctx.type === 'number';
/** A boolean parameter. */
const booleanParam = (_p: ParamInfo, ctx: ParamContext): boolean => ctx.type === 'boolean';
/** An array parameter. */
const arrayParam = (_p: ParamInfo, ctx: ParamContext): boolean => ctx.type === 'array';
/** An object parameter. */
const objectParam = (_p: ParamInfo, ctx: ParamContext): boolean => ctx.type === 'object';
/** A string parameter. */
const stringParam = (_p: ParamInfo, ctx: ParamContext): boolean => ctx.type === 'string';

const CODES_KIND: ValueKindModule = {
  name: 'codes',
  serves: every,
  propose(p, doc, ctx, out) {
    out.push(...codeCandidates(p, doc));
  },
};

const ENUMS_KIND: ValueKindModule = {
  name: 'enums',
  serves: enumParam,
  ends: 'last',
  propose(p, doc, ctx, out) {
    const { hits } = ctx;
    if (!p.enumValues) return; // (enumParam)
    // enum parameters: choose among the enum values
    const strs = p.enumValues.filter((v): v is string => typeof v === 'string');
    // an enum spelled as booleans ("True"/"False"/"dontcare"...) with a "True"
    const boolLike =
      strs.length > 0 && strs.every((s) => /^(true|false|dontcare|any|none|yes|no)$/i.test(s)) && strs.some((s) => /^true$/i.test(s));
    if (boolLike) {
      const f = flagEvidence(p, doc);
      if (f) {
        // the enum's "True" / "False" spelling
        const want = f.value ? strs.find((s) => /^true$/i.test(s)) : strs.find((s) => /^false$/i.test(s));
        if (want !== undefined) out.push({ param: p, value: want, score: f.score + 0.1, ranges: [], kind: 'flag' });
      }
      return;
    }
    for (const v of p.enumValues) {
      if (typeof v === 'string') {
        if (DONTCARE.has(v.toLowerCase())) continue;
        let { score, start, end } = enumScore(v, doc);
        if (score === 0) ({ score, start, end } = valueSynonym(v, p, doc) ?? { score, start, end });
        // a numeral value ("4" of star ratings) written as a number or a number word ("four-star"),
        // or a year written with an apostrophe ("from the '19" for "2019")
        if (score === 0 && /^\d+$/.test(v)) {
          // (a count of what the parameter counts, too: "two smoking rooms" for "The number of
          // hotel rooms"; not a number joined to the word it measures, "a three-star hotel")
          for (const sp of doc.spans)
            if (sp.kind === 'number' && sp.num === Number(v))
              out.push({
                param: p,
                value: v,
                score:
                  0.3 + Math.max(anchorBonus(p, doc, sp, hits) * 0.6, /^-\p{L}/u.test(doc.text.slice(sp.end)) ? 0 : countBonus(p, doc, sp)),
                ranges: [[sp.start, sp.end]],
                kind: 'enum',
              });
          for (const c of apostropheYears(p, doc)) if (String(c.value) === v) out.push({ ...c, value: v, kind: 'enum' });
          continue;
        }
        if (p.semantic === 'currency' && score === 0) {
          const cm = currencyMentions(doc).find((c) => c.code.toLowerCase() === v.toLowerCase());
          if (cm) ({ score, start, end } = { score: 0.7, start: cm.start, end: cm.end });
        }
        // (a value the request rules out is none: "exclude any that are completed", "other than economy")
        if (score > 0 && start >= 0 && EXCLUDED_BEFORE.test(doc.text.slice(Math.max(0, start - 40), start))) continue;
        if (score > 0) {
          const bonus = start >= 0 ? anchorBonus(p, doc, { id: -1, kind: 'proper', start, end, text: v }, hits) * 0.3 : 0;
          // of two values matched where they are written, the longer one ("Premium Economy" over "Economy")
          const longer = start >= 0 ? 0.01 * Math.min(4, doc.text.slice(start, end).trim().split(/\s+/).length - 1) : 0;
          // (a word inside a longer quoted value claims no text of it: "news" of "Find a recent news
          // article" is the source and leaves the quote whole for the query)
          const quotedIn =
            start >= 0 &&
            doc.spans.some((o) => o.kind === 'quoted' && o.start <= start && o.end >= end && o.end - o.start > end - start + 2);
          out.push({
            param: p,
            value: v,
            score: Math.min(1, score * 0.8 + bonus + longer),
            ranges: start >= 0 && !quotedIn ? [[start, end]] : [],
            kind: 'enum',
          });
        }
      } else if (typeof v === 'number') {
        for (const s of doc.spans)
          if (s.kind === 'number' && s.num === v)
            out.push({ param: p, value: v, score: 0.5 + anchorBonus(p, doc, s, hits) * 0.5, ranges: [[s.start, s.end]], kind: 'enum' });
      } else if (typeof v === 'boolean') {
        const f = flagEvidence(p, doc);
        if (f && f.value === v) out.push({ param: p, value: v, score: f.score, ranges: [], kind: 'flag' });
      }
    }
    // two of its values written, one changed into the other ("switch my order from pizza to a
    // BURGER", "salad instead of soup"): the one asked for, unless the parameter names the old one
    // (where a verb of change is written: "sort from newest to oldest" is an order, "translate from
    // English to French" names both ends)
    const written = out.filter((c) => c.kind === 'enum' && c.ranges.length === 1);
    if (
      new Set(written.map((c) => c.value)).size >= 2 &&
      rangeRole(p) !== 'start' &&
      !p.parts.some((x) => /^(?:old|current|previous|original)$/.test(x)) &&
      !/\b(?:source|original|current|existing|of the (?:document|text|file|input))\b/i.test(p.description) &&
      CHANGE_VERB.test(doc.text)
    ) {
      for (const c of written) {
        const before = doc.text.slice(Math.max(0, c.ranges[0][0] - 16), c.ranges[0][0]);
        if (/\b(?:from|instead\s+of|rather\s+than|replace)\s+(?:an?\s+|the\s+|my\s+)?$/i.test(before)) c.score -= 0.08;
        else if (/\b(?:to|into)\s+(?:an?\s+|the\s+|some\s+)?$/i.test(before)) c.score += 0.04;
      }
    }
    if (p.required && !out.some((c) => c.score >= REQUIRED_MIN_SCORE)) {
      const partial = distinctiveEnumWord(p, doc);
      if (partial)
        out.push({
          param: p,
          value: partial.value,
          score: REQUIRED_MIN_SCORE + 0.05,
          ranges: [[partial.start, partial.end]],
          kind: 'enum-partial',
        });
    }
  },
};

const UNTYPED_KIND: ValueKindModule = {
  name: 'untyped',
  serves: untypedParam,
  ends: 'last',
  propose(p, doc, ctx, out) {
    // untyped parameters: numbers stay numbers, everything else is a string
    out.push(...candidatesFor({ ...p, type: 'number' }, doc));
    out.push(...candidatesFor({ ...p, type: 'string' }, doc).filter((c) => c.kind !== 'number'));
  },
};

const NUMBERS_KIND: ValueKindModule = {
  name: 'numbers',
  serves: numericParam,
  ends: 'last',
  propose(p, doc, ctx, out) {
    const { hits, type: t, units } = ctx;
    if (t !== 'integer' && t !== 'number') return; // (numericParam)
    // (a parameter that measures an area: read once, not per number)
    const measuresArea = AREA_PARAM.test(`${p.parts.join(' ')} ${p.description}`);
    for (const s of doc.spans) {
      if (s.kind !== 'number') continue;
      const v = numberFor(s, p, t);
      if (v === undefined) continue;
      // a bound of the other side is no value of a minimum or maximum ("a price over 500" is no
      // max_price; "a rating lower than 3" no min_rating)
      if (boundClash(p, doc, s)) continue;
      // a count of the values themselves is none of them ("the sum of two numbers a and b", "the
      // 2 values 10 and 32"), unless the parameter counts them ("generate two random numbers")
      if (countsValues(s, p) && countBonus(p, doc, s) <= 0) continue;
      let score = 0.15 + anchorBonus(p, doc, s, hits);
      const us = unitStem(s.unit);
      if (us && units.has(us)) score += 0.45;
      else if (us && (p.anchors.some((a) => canonUnit(a) === us) || [...p.descStems].some((d) => canonUnit(d) === us))) score += 0.3;
      else if (us && UNIT_STEMS.has(us) && us.length > 2 && units.size > 0) score -= 0.15;
      // a count of the unit the parameter divides by is no value of it ("for 6 hours" is no rate per hour)
      if (us && rateDenominators(p).has(us)) score -= 0.3;
      // an area ("400 square feet", "20 m^2") for a parameter that measures one ("The area in square
      // feet that one gallon of paint can cover"), and a plain length for none of those
      if (s.unit !== undefined && AREA_UNIT.test(s.unit)) score += measuresArea ? 0.3 : 0;
      else if (measuresArea && us !== undefined && LENGTH_UNITS.has(us)) score -= 0.3;
      if (s.word) score -= 0.15;
      // range ends: "from 2010 to 2015", "between 3 and 5"
      score += rangeBonus(p, doc, s);
      // ties go to the reading order: n-th number to the n-th numeric parameter
      // (among numbers with units of one kind, the n-th of them to the n-th parameter measured in
      // that kind: "a wall of 30 feet by 12 feet … 400 square feet per gallon" gives length 30 and
      // height 12 though the area parameter comes first)
      const pd = DIMENSION_RANK.get(p);
      const sd = pd === undefined ? undefined : dimensionRank(doc, s);
      if (pd !== undefined && sd !== undefined && pd.d === sd.d) score += pd.r === sd.r ? 0.03 : 0;
      else if (numericRank(p) === numberRank(doc, s)) score += 0.03;
      // a number inside a date, time, quoted span, identifier, path or URL is rarely the value
      const inside = doc.spans.find(
        (o) =>
          o !== s &&
          ['date', 'time', 'id', 'path', 'url', 'email', 'quoted', 'list'].includes(o.kind) &&
          o.start <= s.start &&
          o.end >= s.end,
      );
      if (inside) score -= inside.kind === 'date' && p.parts.some((x) => /^(year|month|day)s?$/.test(x)) ? 0 : 0.4;
      // a coordinate's hemisphere names its axis: N/S a latitude, E/W a longitude
      if (s.hemi) {
        const lat = p.parts.some((x) => /^lat(itude)?$/.test(x));
        const lon = p.parts.some((x) => /^(lon|lng|long|longitude)$/.test(x));
        if ((lat && (s.hemi === 'N' || s.hemi === 'S')) || (lon && (s.hemi === 'E' || s.hemi === 'W'))) score += 0.6;
        else if (lat || lon) score -= 0.3;
      }
      // a head count ("for three people", "4 guests") for a parameter that counts people
      if (countsPeople(p) && peopleAfter(p).test(doc.text.slice(s.end, s.end + 24))) score += 0.45;
      // "a ride for 2.", "a table for four?" (not children): the party's size
      // (after a thing that is booked, and a party's size only: not "make it for 6", "for 2025")
      else if (
        countsPeople(p) &&
        !p.parts.some((x) => /^(child|children|kids?)$/.test(x)) &&
        v >= 1 &&
        v <= 20 &&
        /\b(?:ride|table|room|rooms|reservation|booking|cab|taxi|car|seats?|tickets?|house|apartment|tour|trip|flight)\s+for\s+$/i.test(
          doc.text.slice(Math.max(0, s.start - 20), s.start),
        ) &&
        /^\s*(?:$|[.,;!?])/.test(doc.text.slice(s.end)) &&
        !s.unit
      )
        score += 0.35;
      // "set the starting level to 5", "change the volume to 30"
      score += setToBonus(p, doc, s);
      // a count of the things the parameter counts: "ten major historical events" for "Number of
      // events to return"; "the top three plants" for num_results
      const counted = countBonus(p, doc, s);
      // (a count written as a word loses nothing then: "ten events" is as clear as "10 events")
      score += counted + (counted > 0 && s.word ? 0.15 : 0);
      // a year written as one ("from 2022") for a parameter named year
      // (not a number inside a name, "Blade Runner 2049", nor one of several years: "between 2010 and 2015")
      if (
        yearParam(p) &&
        !s.word &&
        !s.unit &&
        Number.isInteger(v) &&
        v >= 1000 &&
        v <= 2999 &&
        /^\d{4}$/.test(s.text) &&
        !insideName(doc, s.start, s.end) &&
        !severalYears(doc)
      )
        score += 0.35;
      out.push({ param: p, value: v, score, ranges: [[s.start, s.end]], kind: 'number' });
    }
    out.push(...positionCandidates(p, doc));
    // a rating written as a fraction of its scale ("above 4/5", "4.5 out of 5") for a rating
    if (p.parts.some((x) => /^(?:rate|rating|ratings|score|stars?)$/.test(x))) {
      // (of the parameter's own scale: out of 5 unless the description states another, "1-10",
      // "0 to 100", "out of 10"; "8/10" is no rating of a 1-5 scale)
      const stated = /\b[01]\s*(?:-|–|to)\s*(5|10|100)\b|\bout\s+of\s+(5|10|100)\b/i.exec(p.description);
      const scale = stated ? Number(stated[1] ?? stated[2]) : 5;
      for (const m of doc.text.matchAll(/(?<![\d.])(\d{1,2}(?:\.\d)?)\s*(?:\/|out\s+of)\s*(5|10|100)(?![\d.])/g)) {
        if (Number(m[2]) !== scale || Number(m[1]) > scale) continue;
        const v = p.type === 'integer' && !Number.isInteger(Number(m[1])) ? undefined : Number(m[1]);
        if (v !== undefined)
          out.push({ param: p, value: v, score: 0.6, ranges: [[m.index, m.index + m[0].length]], kind: 'rating-fraction' });
      }
    }
    out.push(...selfAndOthers(p, doc));
    out.push(...apostropheYears(p, doc));
    out.push(...periodCandidates(p, doc));
    out.push(...rangeEndCandidates(p, doc, hits));
    // an hour of the day written as a time, for an integer hour in 24-hour form ("opens until at
    // least 11 PM" → 23 for operating_hours "in 24 hour format")
    // (a clock's hour only: "24 hour format/clock"; and a time said of opening or closing:
    // "open until 11 PM" for a closing hour, not "open until 2 AM" for an opening hour)
    if (
      p.type === 'integer' &&
      /\bhours?\b/i.test(`${p.parts.join(' ')} ${p.description}`) &&
      /\b24[- ]?hour\s+(?:format|clock)\b|\b(?:closing|opening)\s+time\b/i.test(p.description)
    ) {
      const times = doc.spans.filter((x) => x.kind === 'time' && x.time && x.time.mi === 0);
      const opening = /\bopen(?:ing)?\b/i.test(p.parts.join(' ')) && !/\bclos/i.test(`${p.parts.join(' ')} ${p.description}`);
      const said = times.length === 1 ? doc.text.slice(Math.max(0, times[0].start - 40), times[0].start) : '';
      const fits = opening
        ? /\b(?:opens?|opening|from)\b[^.?!]{0,30}$/i.test(said) && !/\b(?:until|till)\b[^.?!]{0,20}$/i.test(said)
        : /\b(?:until|till|close|closes|closing|open|opens)\b[^.?!]{0,30}$/i.test(said);
      if (times.length === 1 && fits)
        out.push({ param: p, value: times[0].time!.h, score: 0.55, ranges: [[times[0].start, times[0].end]], kind: 'hour' });
    }
    // counts every standard deck of cards and die has ("drawing a king from a deck" → 4 of 52)
    out.push(...standardCounts(p, doc));
    // the days or nights between the two dates of a stay ("August 15th to August 17th" → 2)
    out.push(...stayLength(p, doc));
    // how often, for a count per unit of time ("duplicates every hour" → 1 per hour, "twice a
    // day" → 2 per day, "3 times per week" → 3)
    out.push(...perUnitCounts(p, doc));
    // an initial velocity or speed of a body that starts at rest ("started from rest", "initially
    // at rest", "dropped from 100 m"): 0, unless the request gives an initial value of its own
    if (INITIAL_MOTION.test(p.name) && !/\binitial(?:ly)?\s+(?:velocit|speed)/i.test(doc.text)) {
      // (a drop or a release says nothing of the start where a speed is written: "released at 60 m/s")
      const m =
        STARTS_AT_REST.exec(doc.text) ??
        (doc.spans.some((x) => x.kind === 'number' && SPEED_UNIT.test(doc.text.slice(x.end, x.end + 12))) ? null : DROPPED.exec(doc.text));
      if (m) out.push({ param: p, value: 0, score: 0.6, ranges: [[m.index, m.index + m[0].length]], kind: 'at-rest' });
    }
    // a compounding or payment frequency written as a word ("compounded quarterly" → 4 a year)
    // for a count of times per year or period
    if (
      /\b(?:times|periods?)\b[^.]{0,40}\b(?:per|a|each)\s+(?:year|unit period|unit time|time period|period)\b|\bper[_ ]year\b/i.test(
        p.description,
      ) ||
      /per_year$/.test(p.name)
    ) {
      // payments for a payment count, compounding for the rest; one frequency only ("compounded
      // annually vs compounded monthly", "compounded continuously" give nothing)
      const re = /\bpay/i.test(p.name + ' ' + p.description) ? PAYMENT_FREQUENCY : COMPOUNDING_FREQUENCY;
      const said = [...doc.text.matchAll(re)].map((m) => ({ m, word: (m[1] ?? m[2]).toLowerCase().replace('-', '') }));
      const distinct = new Set(said.map((h) => h.word));
      const times = distinct.size === 1 ? FREQUENCY_PER_YEAR[said[0].word] : undefined;
      if (times !== undefined && !/\bnot\s+(?:\w+\s+)?$/i.test(doc.text.slice(Math.max(0, said[0].m.index - 12), said[0].m.index))) {
        const m = said[0].m;
        out.push({ param: p, value: times, score: 0.7, ranges: [[m.index, m.index + m[0].length]], kind: 'frequency' });
      }
    }
    // a month written by name for a month number ("February 2022" -> 2); "may" only capitalised
    if (p.parts[p.parts.length - 1] === 'month') {
      for (const tk of doc.tokens) {
        const n = MONTHS[tk.lower];
        if (n !== undefined && (tk.lower !== 'may' || tk.text === 'May') && (tk.lower.length > 3 || /^\p{Lu}/u.test(tk.text)))
          out.push({
            param: p,
            value: n,
            score: 0.6 + anchorBonus(p, doc, { id: -1, kind: 'proper', start: tk.start, end: tk.end, text: tk.text }, hits) * 0.3,
            ranges: [[tk.start, tk.end]],
            kind: 'month',
          });
      }
    }
    // a date for year/month/day integers
    if (p.parts.some((x) => x === 'year')) {
      for (const s of doc.spans)
        if (s.kind === 'date' && s.date?.y !== undefined && !s.date.relative)
          out.push({ param: p, value: s.date.y, score: 0.3 + anchorBonus(p, doc, s, hits), ranges: [[s.start, s.end]], kind: 'date-part' });
    }
  },
};

const FLAGS_KIND: ValueKindModule = {
  name: 'flags',
  serves: booleanParam,
  ends: 'last',
  propose(p, doc, ctx, out) {
    const f = flagEvidence(p, doc);
    if (f) out.push({ param: p, value: f.value, score: f.score, ranges: [], kind: 'flag' });
  },
};

const ARRAYS_KIND: ValueKindModule = {
  name: 'arrays',
  serves: arrayParam,
  ends: 'alone',
  propose(p, doc, ctx, out) {
    const { hits } = ctx;
    out.push(...arrayCandidates(p, doc, hits));
  },
};

const OBJECTS_KIND: ValueKindModule = {
  name: 'objects',
  serves: objectParam,
  ends: 'alone',
  propose() {
    // (an object is mapped field by field: mapObject)
  },
};

const TRANSLATETEXT_KIND: ValueKindModule = {
  name: 'translateText',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // the text to translate: "Translate Hello, how are you? from English to French" → "Hello, how are you?"
    if (p.semantic === 'text') {
      const m =
        /\btranslate\s+(?:the\s+(?:text|sentence|phrase|word)\s*:?\s*)?(.{1,400}?)\s+(?:from\s+\p{L}+\s+)?(?:to|into)\s+(\p{L}+)\s*[.!?]?\s*$/iu.exec(
          doc.text,
        );
      const value = m?.[1].replace(/^["'“‘]|["'”’]$/g, '').trim();
      // (into a language by name; not "the menu", "it", "my bio": those name the text, they are not it)
      const isLanguage = m !== null && LANGUAGE_WORDS.has(m[2].toLowerCase());
      if (m && value && isLanguage && !/^(?:the|a|an|this|that|these|those|it|them|my|your|our|his|her|their)\b/i.test(value)) {
        const at = m.index + m[0].indexOf(m[1]);
        out.push({ param: p, value, score: 0.75, ranges: [[at, at + m[1].length]], kind: 'translate-text' });
      }
    }
  },
};

const DESCRIBEDVALUE_KIND: ValueKindModule = {
  name: 'describedValue',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { type: t } = ctx;
    // a value the description quotes as one of the choices ("e.g. 'static' or 'dynamic'") written
    // in the request as a word of its own: like an enum's value
    // (only one of the choices written, and next to a word of the parameter's name or of its
    // description before the choices: "dynamic analysis" for "Mode of analysis"; "a private copy of
    // the public repo", "from small to large" and "I am new here" give nothing)
    if (t === 'string' && !(p.enumValues && p.enumValues.length > 0)) {
      const choices = describedValues(p);
      // (a one-word choice also by its stem: "detail information" for 'detailed')
      const byStem = (v: string): { at: number; end: number } | undefined => {
        if (!/^\p{L}+$/u.test(v) || v.length < 4) return undefined;
        // (and the one word is the start of the other: Porter stems "generate" and "general" alike)
        const lower = v.toLowerCase();
        const st = stem(lower);
        const tk = doc.tokens.find((x) => x.stem === st && x.lower.length >= 4 && (lower.startsWith(x.lower) || x.lower.startsWith(lower)));
        return tk && { at: tk.start, end: tk.end };
      };
      // (a clock's form written out: "24 hour" or "24-hour" for '24h')
      const hours = (v: string): { at: number; end: number } | undefined => {
        const h = /^(\d{1,2})\s?h$/i.exec(v);
        const m = h ? new RegExp(`(?<![\\d.])${h[1]}[- ]?hours?\\b`, 'i').exec(doc.text) : null;
        return m ? { at: m.index, end: m.index + m[0].length } : undefined;
      };
      const found = choices
        .map((v) => {
          const at = wordAt(doc.lower, v.toLowerCase());
          return at >= 0 ? { v, at, end: at + v.length } : { v, ...(byStem(v) ?? hours(v) ?? { at: -1, end: -1 }) };
        })
        .filter((x) => x.at >= 0);
      if (found.length === 1) {
        const { v, at, end } = found[0];
        const head = new Set([...p.anchors, ...contentStems(p.description.split(/['"‘“]/)[0] ?? '')]);
        const i = tokenAt(doc, at);
        const j = tokenAt(doc, end - 1);
        // (or asked for as a form: "in the form of dictionary", "as a list")
        const near =
          [doc.tokens[i - 1], doc.tokens[j + 1]].some(
            (tk) => tk !== undefined && head.has(tk.stem) && !choices.some((d) => d.toLowerCase() === tk.lower),
          ) || /\b(?:form|format|shape)\s+of\s+(?:an?\s+)?$/i.test(doc.text.slice(Math.max(0, at - 20), at));
        if (near) out.push({ param: p, value: v, score: 0.6, ranges: [[at, end]], kind: 'described-value' });
      }
    }
  },
};

const MUSICKEY_KIND: ValueKindModule = {
  name: 'musicKey',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // a musical key for a key parameter: "C major", "C# minor", "C sharp major" -> "C", "C#"
    // (only where the description speaks of music: an API key or a dictionary key takes no "A major")
    if (
      MUSIC_KEY_PARTS.has(p.parts.join('_')) &&
      /\b(music|musical|scale|chord|note|notes|tonic|melody|song|major|minor|signature)\b/i.test(p.description)
    ) {
      for (const m of doc.text.matchAll(/\b([A-G])(#|♯|b|♭|\s+sharp|\s+flat)?\s+(?:major|minor|maj|min)\b/g)) {
        const acc = m[2] === undefined ? '' : /#|♯|sharp/.test(m[2]) ? '#' : 'b';
        out.push({
          param: p,
          value: m[1] + acc,
          score: 0.65,
          ranges: [[m.index, m.index + m[1].length + (m[2]?.length ?? 0)]],
          kind: 'music-key',
        });
      }
      // (the mode written first: "a major C scale", "in minor F sharp")
      for (const m of doc.text.matchAll(/\b(?:major|minor)\s+([A-G])(#|♯|b(?![a-z])|♭|[\s-]+sharp|[\s-]+flat)?(?![\w#♯♭-])/g)) {
        const acc = m[2] === undefined ? '' : /#|♯|sharp/.test(m[2]) ? '#' : 'b';
        const start = m.index + m[0].indexOf(m[1]);
        out.push({
          param: p,
          value: m[1] + acc,
          score: 0.6,
          ranges: [[start, start + m[1].length + (m[2]?.length ?? 0)]],
          kind: 'music-key',
        });
      }
    }
  },
};

const MONTHNAME_KIND: ValueKindModule = {
  name: 'monthName',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { hits, type: t } = ctx;
    // a month written by name for a month string ("in December" → "December"), where no date holds it
    // ("may" only capitalised; "March 8th" is a date, not a month)
    if (t === 'string' && !p.enumValues && p.parts[p.parts.length - 1] === 'month') {
      for (const tk of doc.tokens) {
        const n = MONTHS[tk.lower];
        if (n === undefined || (tk.lower === 'may' && tk.text !== 'May') || (tk.lower.length <= 3 && !/^\p{Lu}/u.test(tk.text))) continue;
        if (doc.spans.some((sp) => sp.kind === 'date' && sp.start <= tk.start && sp.end >= tk.end && sp.date?.d !== undefined)) continue;
        out.push({
          param: p,
          value: tk.text[0].toUpperCase() + tk.text.slice(1).toLowerCase(),
          score: 0.6 + anchorBonus(p, doc, { id: -1, kind: 'proper', start: tk.start, end: tk.end, text: tk.text }, hits) * 0.3,
          ranges: [[tk.start, tk.end]],
          kind: 'month',
        });
      }
    }
  },
};

const FORMULA_KIND: ValueKindModule = {
  name: 'formula',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { type: t } = ctx;
    // a chemical formula for a parameter described as one ("Glucose (C6H12O6)" → C6H12O6 for "The
    // molecular formula of the compound"); element symbols with at least one count
    if (
      t === 'string' &&
      !p.enumValues &&
      /\bformula\b/i.test(p.description) &&
      /\b(?:chemical|molecular|compound|molecule|substance)\b/i.test(`${p.parts.join(' ')} ${p.description}`)
    ) {
      for (const m of doc.text.matchAll(/(?<![\w-])((?:[A-Z][a-z]?\d{0,3}){2,})(?![\w-])/g)) {
        if (/\d/.test(m[1]) && [...m[1].matchAll(/([A-Z][a-z]?)\d*/g)].every((e) => ELEMENT_SYMBOLS.has(e[1])))
          out.push({ param: p, value: m[1], score: 0.65, ranges: [[m.index, m.index + m[1].length]], kind: 'formula' });
      }
    }
  },
};

const DATEFORMAT_KIND: ValueKindModule = {
  name: 'dateFormat',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { type: t } = ctx;
    // a date format asked for in the format's own letters ("Put it in the format of YYYY",
    // "format: DD/MM/YYYY") for a format parameter
    if (t === 'string' && !p.enumValues && p.parts[p.parts.length - 1] === 'format') {
      for (const m of doc.text.matchAll(
        /\bformat(?:\s+of)?\s*:?\s*['"]?((?:YYYY|YY|MM|DD|HH|mm|ss)(?:[-/.: ]?(?:YYYY|YY|MM|DD|HH|mm|ss))*)['"]?(?![\w-])/g,
      )) {
        const start = m.index + m[0].indexOf(m[1]);
        out.push({ param: p, value: m[1], score: 0.6, ranges: [[start, start + m[1].length]], kind: 'format' });
      }
    }
  },
};

const DETAILOF_KIND: ValueKindModule = {
  name: 'detailOf',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { type: t } = ctx;
    // which detail of a thing is asked ("Find the size of the sculpture" for "The specific detail
    // wanted about the sculpture"): the one word before "of the <thing>"
    if (
      t === 'string' &&
      !p.enumValues &&
      /^(?:detail|details|attribute|aspect|property|field|characteristic)$/.test(p.parts[p.parts.length - 1] ?? '')
    ) {
      const thing = /\b(?:about|of)\s+(?:the|a|an)\s+(\p{L}{3,})\b/iu.exec(p.description)?.[1];
      const m = thing ? new RegExp(`\\bthe\\s+(\\p{L}{3,})\\s+of\\s+(?:the|a|an|this|that|my)\\s+${thing}\\b`, 'iu').exec(doc.text) : null;
      if (
        m &&
        !/^(?:details?|information|info|data|name|title|rest|value|part|parts|end|top|bottom|side|front|back|middle|remainder|number|type|kind|state|whole|half|edge|center|centre)$/i.test(
          m[1],
        )
      ) {
        const start = m.index + m[0].indexOf(m[1]);
        out.push({ param: p, value: m[1], score: 0.55, ranges: [[start, start + m[1].length]], kind: 'detail-of' });
      }
    }
  },
};

const ASNAMED_KIND: ValueKindModule = {
  name: 'asNamed',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { type: t } = ctx;
    // a value written as the parameter's own ("who has black as their special request", "use
    // 'Plus' as the ride type"): the word or quoted text right before "as <determiner> <name>"
    if (t === 'string' && !p.enumValues) out.push(...asNamedCandidates(p, doc));
  },
};

const DATERANGE_KIND: ValueKindModule = {
  name: 'dateRange',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { type: t } = ctx;
    if (t === 'string' && !p.enumValues) out.push(...dateRangeCandidates(p, doc));
  },
};

const PURPOSE_KIND: ValueKindModule = {
  name: 'purpose',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { type: t } = ctx;
    // what an alarm or reminder is for, for a purpose parameter: the clause after "reminding me
    // to" ("Set an Alarm for 11PM reminding me to brush my teeth"), or after "to" right behind the
    // time it is set for ("an alarm for 2023-04-02 07:30:00 to wake me up for a meeting")
    if (t === 'string' && !p.enumValues && PURPOSE_PARTS.has(p.parts[p.parts.length - 1] ?? '')) {
      const clauseAt = (at: number): { value: string; end: number } | undefined => {
        const m =
          /^\s*(\p{L}[\p{L}'’]*(?:(?:[ \t]+|(?<=\b(?:Dr|Mr|Mrs|Ms|St|Prof))\.[ \t]+)[\p{L}'’]+){0,9})[ \t]*(?=$|[.?!;\n]|,\s+(?:and|but|please)\b)/u.exec(
            doc.text.slice(at),
          );
        if (!m || /^(?:\d|the\s+\d)/.test(m[1])) return undefined;
        return { value: m[1], end: at + m[0].length };
      };
      for (const m of doc.text.matchAll(/\bremind(?:ing|er)?\s+(?:me|us|him|her|them)\s+to\b/gi)) {
        const c = clauseAt(m.index + m[0].length);
        if (c) out.push({ param: p, value: c.value, score: 0.65, ranges: [[m.index + m[0].length, c.end]], kind: 'purpose' });
      }
      // (the "to" path only for an alarm's or a reminder's purpose, a clause that starts with a
      // lower-case word other than a possessive, a time or an alarm's setting: "at 5pm to Maria",
      // "on 2024-05-01 to my credit card", "for 7am to noon", "for 6:30 to go off every day" are none)
      if (/\b(?:alarm|reminder|wake)/i.test(`${p.parts.join(' ')} ${p.description}`)) {
        for (const sp of doc.spans) {
          if (sp.kind !== 'time' && sp.kind !== 'date') continue;
          const after =
            /^\s+to\s+(?!\d)(?=\p{Ll})(?!(?:my|your|his|her|their|our|the|a|an|noon|midnight|half|quarter|go\s+off|ring|repeat|vibrate|snooze|sound|play)\b)/iu.exec(
              doc.text.slice(sp.end),
            );
          const c = after ? clauseAt(sp.end + after[0].length) : undefined;
          if (c && !/\b(?:from|move|change|reschedule)\b/i.test(doc.text.slice(Math.max(0, sp.start - 40), sp.start)))
            out.push({ param: p, value: c.value, score: 0.6, ranges: [[sp.end + after![0].length, c.end]], kind: 'purpose' });
        }
      }
    }
  },
};

const COLOUR_KIND: ValueKindModule = {
  name: 'colour',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { hits } = ctx;
    // a colour word for a colour parameter ("a small green bird", "in red")
    if (COLOR_PARTS.has(p.parts[p.parts.length - 1] ?? '')) {
      for (const tk of colourWords(doc, p))
        out.push({
          param: p,
          value: tk.lower,
          score: 0.6 + anchorBonus(p, doc, { id: -1, kind: 'proper', start: tk.start, end: tk.end, text: tk.text }, hits) * 0.3,
          ranges: [[tk.start, tk.end]],
          kind: 'color',
        });
    }
  },
};

const CURRENCY_KIND: ValueKindModule = {
  name: 'currency',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    if (p.semantic === 'currency') {
      const cms = currencyMentions(doc);
      // name words of the currency converted into
      const later = /\b(to|target|destination|quote|into|output|desired)\b/.test(p.parts.join(' '));
      // codes written after "to"/"into" somewhere: the target, whatever amount is written with them
      // elsewhere ("Convert my EUR to USD, I need at least 100 USD" converts from EUR)
      const severalCodes = new Set(cms.map((x) => x.code)).size > 1;
      const targets = new Set(
        cms
          .filter((c) => {
            const k = tokenAt(doc, c.start) - 1;
            return k >= 0 && ['to', 'into'].includes(doc.tokens[k].lower);
          })
          .map((c) => c.code),
      );
      cms.forEach((c, i) => {
        let posScore = cms.length === 1 ? 0.6 : later ? (i === cms.length - 1 ? 0.6 : 0.35) : i === 0 ? 0.6 : 0.35;
        // the currency written with the amount ("500 US dollars", "$200") is the one converted from
        const withAmount = doc.spans.some(
          (n) =>
            n.kind === 'number' &&
            ((n.end <= c.start && /^\s*$/.test(doc.text.slice(n.end, c.start))) ||
              (n.start >= c.end && /^\s*$/.test(doc.text.slice(c.end, n.start)) && c.end - c.start === 1)),
        );
        const prevTok = tokenAt(doc, c.start) - 1;
        const prevWord = prevTok >= 0 ? doc.tokens[prevTok].lower : '';
        const toWord = ['to', 'into', 'in', 'for'].includes(prevWord) && !withAmount;
        // (the amount outweighs the order: "How many Canadian dollars can I get for 500 US dollars?" converts from USD)
        if (cms.length > 1) posScore += later ? (toWord ? 0.25 : withAmount ? -0.2 : 0) : withAmount ? 0.3 : toWord ? -0.2 : 0;
        if (!later && !toWord && targets.has(c.code) && severalCodes) posScore -= 0.3;
        out.push({ param: p, value: c.code, score: posScore, ranges: [[c.start, c.end]], kind: 'currency' });
      });
    }
  },
};

const BARETIME_KIND: ValueKindModule = {
  name: 'bareTime',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { hits } = ctx;
    // a time alone for a date-time parameter whose description also takes a bare clock time
    // ("such as 'YYYY-MM-DD HH:MM:SS', 'HH:MM:SS', 'HH:MM'"), where the request writes no date
    const bareTime = p.semantic === 'datetime' ? bareTimeFormat(p.description) : undefined;
    if (bareTime !== undefined && !doc.spans.some((o) => o.kind === 'date') && !DAY_WORDS.test(doc.text)) {
      for (const s of doc.spans) {
        if (s.kind !== 'time' || !s.time) continue;
        const t = s.time;
        const value = bareTime === 'HH:MM:SS' ? `${p2(t.h)}:${p2(t.mi)}:${p2(t.s ?? 0)}` : `${p2(t.h)}:${p2(t.mi)}`;
        out.push({ param: p, value, score: 0.7 + anchorBonus(p, doc, s, hits) * 0.3, ranges: [[s.start, s.end]], kind: 'time' });
      }
    }
  },
};

const SPANS_KIND: ValueKindModule = {
  name: 'spans',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { hits, units } = ctx;
    for (const s of doc.spans) {
      let fit = kindFit(s.kind, p);
      // an IPv4 address for a parameter that holds one ("ip", "host", "server address")
      if (s.kind === 'id' && IPV4.test(s.text) && IP_PARAM.test(`${p.parts.join(' ')} ${p.description}`)) fit = Math.max(fit, 0.5) + 0.3;
      if (fit <= 0) continue;
      let value = chainName(stringFor(s, p, doc), p);
      // a kind or type without the participle of what powers or bases it ("gas-powered" → gas)
      const powered =
        value !== undefined && /^(?:type|kind|category|class)$/.test(p.parts[p.parts.length - 1] ?? '')
          ? /^(\p{L}{2,})-(?:powered|fueled|fuelled)$/u.exec(value)
          : null;
      if (powered) value = powered[1];
      if (value === undefined || value.trim() === '') continue;
      // a city is no country ("the weather in Beijing and Guangzhou" for city and country: the
      // second city is no country); a place written with its country gives that by its region
      if (
        p.semantic === 'country' &&
        (s.kind === 'place' || s.kind === 'proper') &&
        (s.city !== undefined || US_CITIES.has(value.toLowerCase()) || WORLD_CITIES.has(value.toLowerCase())) &&
        !KNOWN_COUNTRIES.has(value.toLowerCase()) &&
        !COUNTRY_ALIAS_NAMES.has(value.toLowerCase())
      )
        continue;
      let ab = anchorBonus(p, doc, s, hits);
      // an identifier labelled as one ("My user ID is 123456789", "id is 1234") for an id parameter
      // (a label that names the parameter, "Web ID is 1234" for websiteId, outweighs a name written
      // next to another value: 'Rename website "Frank"')
      if (s.kind === 'number') {
        const label = idLabelled(p, doc, s);
        if (label) ab = Math.max(ab, label === 'qualified' ? 1.2 : 0.5);
      }
      // a bare number for a string parameter only right next to the parameter's name ("port 5432", "ID 7890")
      // (and never where the description lists the values as words: "Can be 'melting', 'freezing'")
      // (nor a quantity of a unit the parameter does not measure: "a city view for 3 days" is no view "3")
      if (s.kind === 'number' && (ab < 0.45 || valuesAreWords(p) || foreignUnit(s, p, units))) continue;
      // (nor a count written in words for an identifier: "a pair of sneakers" holds no order ID)
      if (s.kind === 'number' && s.word && p.semantic === 'id') continue;
      // (nor a number that is only part of a quoted value, identifier, path or address: "office-network-001")
      if (
        s.kind === 'number' &&
        doc.spans.some(
          (o) =>
            o !== s &&
            (o.kind === 'quoted' || o.kind === 'id' || o.kind === 'path' || o.kind === 'url' || o.kind === 'email') &&
            o.start <= s.start &&
            o.end >= s.end &&
            o.end - o.start > s.end - s.start,
        )
      )
        continue;
      let score = fit + ab * (s.kind === 'date' || s.kind === 'time' ? 0.5 : 1);
      // places after "from"/"to": origin vs destination
      const prev = tokenAt(doc, s.start) - 1;
      const prevWord = prev >= 0 ? doc.tokens[prev].lower : '';
      if (p.semantic === 'origin' && ['from', 'leaving', 'departing'].includes(prevWord)) score += 0.35;
      if (p.semantic === 'destination' && ['to', 'into', 'reach', 'towards'].includes(prevWord)) score += 0.35;
      if ((p.semantic === 'origin' && prevWord === 'to') || (p.semantic === 'destination' && prevWord === 'from')) score -= 0.3;
      // (the same in Chinese, written right before the place: 从/從 from; 到 去 往 飞 to)
      const cue = s.start > 0 ? doc.text[s.start - 1] : '';
      const cjkCue = cue !== '' && '从從'.includes(cue) ? 'origin' : cue !== '' && '到去往飞飛'.includes(cue) ? 'destination' : undefined;
      if (cjkCue !== undefined && (p.semantic === 'origin' || p.semantic === 'destination')) score += cjkCue === p.semantic ? 0.35 : -0.3;
      if (s.kind === 'proper' || s.kind === 'quoted') score += cueBonus(p, doc, s) + renameBonus(p, doc, s);
      // a city is no name of a hotel, restaurant or venue ("Book me a room in Berkeley" for place_name
      // described as "the name of the hotel")
      if (
        s.kind === 'place' &&
        !s.address &&
        /\bname\s+of\s+(?:the\s+|a\s+)?(?:hotel|restaurant|venue|accommodation|business|store|shop|museum|theater|theatre|property)\b/i.test(
          p.description,
        )
      )
        score -= 0.3;
      // a street address for a parameter that asks for one, over a business's name beside it ("to
      // China Station Restaurant, 123 Beijing Street, San Francisco")
      if (s.kind === 'place' && s.address && /\b(?:address|street)\b/i.test(p.description)) score += 0.2;
      // (the business's name, written right before its address, is no address)
      if (
        s.kind === 'proper' &&
        /\b(?:address|street)\b/i.test(p.description) &&
        doc.spans.some((o) => o.kind === 'place' && o.address && /^\s*,\s*$/.test(doc.text.slice(s.end, o.start)))
      )
        score -= 0.5;
      // a name whose contact is written right after it is that contact's owner, not the value
      // ("to Amelia's email amelia@example.com": the address is whom the money goes to)
      // (not for a parameter whose name says name, or whose description asks for a name and no
      // identifier, account or address; nor where another parameter takes the address)
      if (
        s.kind === 'proper' &&
        !p.parts.includes('name') &&
        (!/\bnames?\b/i.test(p.description) || /\b(?:identifier|id|e-?mail|account|username|handle)\b/i.test(p.description)) &&
        !p.siblings.some((n) => /e-?mail|url|link|handle|username/i.test(n)) &&
        doc.spans.some(
          (o) =>
            (o.kind === 'email' || o.kind === 'url') &&
            o.start > s.end &&
            /^['’]s\s+(?:e-?mail(?:\s+address)?|address|handle|account|username|profile)\s*(?:is\s+|:\s*)?$/i.test(
              doc.text.slice(s.end, o.start),
            ),
        )
      )
        score -= 0.3;
      // a name that is only part of a quoted value is not the value ("America" of 'America/Los_Angeles')
      if (
        (s.kind === 'proper' || s.kind === 'place') &&
        doc.spans.some((o) => o.kind === 'quoted' && o.start <= s.start && o.end >= s.end && o.end - o.start > s.end - s.start)
      )
        score -= 0.3;
      // ties go to the reading order: the n-th quoted value to the n-th free string parameter
      // (only where the quotes touch Chinese or Korean text, whose labels the rules cannot read;
      // elsewhere the words around the quotes decide: "'Capital of France?' 'Paris'")
      if (
        s.kind === 'quoted' &&
        /[\p{sc=Han}\p{sc=Hangul}\p{sc=Hiragana}\p{sc=Katakana}]/u.test(doc.text.slice(Math.max(0, s.start - 2), s.end + 2)) &&
        TEXT_RANK.get(p) === quotedRank(doc, s)
      )
        score += 0.06;
      const placeLike = p.semantic === 'place' || p.semantic === 'origin' || p.semantic === 'destination';
      if (placeLike && (s.kind === 'proper' || s.kind === 'place') && ['in', 'at', 'near', 'around', 'from', 'to', 'of'].includes(prevWord))
        score += 0.2;
      // (a US state or a country written alone is a place too: "theft in California")
      // (alone: not the party of a case, "Texas v. Johnson")
      const regionName =
        s.kind === 'proper' &&
        (Object.hasOwn(US_STATES, value.toLowerCase()) || (value.length > 3 && KNOWN_COUNTRIES.has(value.toLowerCase()))) &&
        !/^\s+(?:v\.?|vs\.?|versus)\s/i.test(doc.text.slice(s.end, s.end + 10));
      const isPlace =
        s.kind === 'place' ||
        regionName ||
        (s.kind === 'proper' && doc.spans.some((o) => o.kind === 'place' && o.start <= s.start && o.end >= s.end));
      if (regionName && placeLike) score += 0.15;
      // (a state or country is no county, district or subdistrict)
      if (regionName && areaKind(p) !== undefined && areaKind(p) !== 'province') continue;
      // a place named only to compare ("Broadway shows like the ones in New York") is no place of the request
      // ("like" as a verb, "I like", "would like", compares nothing)
      if (
        isPlace &&
        /(?<!\b(?:i|we|you|they|he|she|would|'d|really|also|to|do|don't|feel|feels|felt|look|looks|sounds)\s+)\b(?:like|unlike|than|such\s+as|similar\s+to)\b(?:\s+\S+){0,3}\s+$/i.test(
          doc.text.slice(Math.max(0, s.start - 40), s.start),
        )
      )
        score -= 0.25;
      // a place another parameter's description names ("'1' for Bangkok" of province_id) is no
      // district or subdistrict ("in Bangkok, specifically in the Lat Phrao district")
      if (isPlace && SUBCITY_AREAS.has(areaKind(p) ?? '') && namedBySibling(p, s)) continue;
      // a place that only opens a longer name is part of that name ("Manchester" of "Manchester United")
      if (
        s.kind === 'place' &&
        doc.spans.some(
          (o) => o.kind === 'proper' && o.start === s.start && o.end > s.end && /^\s+\p{Lu}/u.test(doc.text.slice(s.end, o.end)),
        )
      )
        score -= 0.3;
      // and where a sibling parameter takes names, neither the longer name nor its first words are a
      // place ("Manchester United" for a location beside team_name: the team's name)
      if (placeLike && p.siblings.some((x) => /(?:^|_)name$/i.test(x))) {
        if (s.kind === 'proper' && doc.spans.some((o) => o.kind === 'place' && o.start === s.start && o.end < s.end)) score -= 0.2;
        if (
          s.kind === 'place' &&
          doc.spans.some(
            (o) => o.kind === 'proper' && o.start === s.start && o.end > s.end && /^\s+\p{Lu}/u.test(doc.text.slice(s.end, o.end)),
          )
        )
          score -= 0.2;
      }
      if (!placeLike && isPlace && p.semantic !== 'country' && p.semantic !== 'generic') score -= 0.15;
      if (!placeLike && isPlace && p.semantic === 'generic' && ['in', 'near', 'around'].includes(prevWord)) score -= 0.15;
      if (s.kind === 'date' || s.kind === 'time' || s.kind === 'place' || s.kind === 'proper') score += rangeBonus(p, doc, s);
      if (s.kind === 'date' && s.date?.relative) score -= 0.2;
      if (s.kind === 'date' && s.date?.y === undefined) score -= 0.05;
      // today's date for an optional parameter whose description says today is what it assumes
      // ("If not specified, the current date is assumed"): nothing to send
      // (a date parameter, with no clock time written: "today at 3:30pm" is a time to send)
      if (
        s.kind === 'date' &&
        !p.required &&
        p.semantic === 'date' &&
        isToday(s, doc) &&
        !doc.spans.some((o) => o.kind === 'time') &&
        TODAY_BY_DEFAULT.test(p.description)
      )
        continue;
      // a datetime parameter takes a time written next to the date
      if (s.kind === 'date' && p.semantic === 'datetime' && s.date) {
        // (or in another sentence where the request writes one date and one time only: "… for a
        // meeting 2023-12-1. Can you set it for 7:00 AM?")
        const times = doc.spans.filter((o) => o.kind === 'time');
        const tm =
          times
            .filter((o) => !clauseBreak(doc, Math.min(o.end, s.end), Math.max(o.start, s.start)))
            .sort((x, y) => Math.abs(x.start - s.start) - Math.abs(y.start - s.start))[0] ??
          (times.length === 1 &&
          doc.spans.filter((o) => o.kind === 'date').length === 1 &&
          REQUEST_SENTENCE.test(sentenceOf(doc, times[0].start))
            ? times[0]
            : undefined);
        if (tm?.time) {
          out.push({
            param: p,
            value: formatDate(s.date, p, doc.today, tm.time),
            score: score + 0.05,
            ranges: [
              [s.start, s.end],
              [tm.start, tm.end],
            ],
            kind: 'datetime',
          });
          continue;
        }
      }
      // a country parameter: a country's name (or another name of it) over any other name ("GDP
      // data for United States"); codes of two letters only where written in capitals
      // (names only: a two-letter code may be something else, "IT", "AR", California's "CA")
      // (the text as written: an ISO code the value was turned into, "IT", is too short to tell)
      if (
        p.semantic === 'country' &&
        (s.kind === 'proper' || s.kind === 'id') &&
        s.text.length > 2 &&
        (KNOWN_COUNTRIES.has(s.text.toLowerCase()) || COUNTRY_ALIAS_NAMES.has(s.text.toLowerCase()))
      )
        score += 0.25;
      // a country's name is the country parameter's, not another text parameter's ("the top cases in
      // constitutional law in China": China is the country, not the field of law)
      else if (
        !['country', 'place', 'origin', 'destination'].includes(p.semantic) &&
        (s.kind === 'proper' || s.kind === 'place') &&
        (KNOWN_COUNTRIES.has(value.toLowerCase()) || COUNTRY_ALIAS_NAMES.has(value.toLowerCase())) &&
        p.siblings.some((x) => /(?:^|[_-])(?:country|nation)(?:_?name)?$/i.test(x))
      )
        score -= 0.3;
      // a name written with one kind of area is no value of a parameter of another kind ("Chiang
      // Mai Province" for sub_district_name or district_name)
      const ownKind = areaKind(p);
      if (ownKind !== undefined || /^(state|country|nation|region)$/.test(p.parts[p.parts.length - 1] ?? '')) {
        const writtenKind = (/(?:^|\s)(sub-?district|district|province|county|prefecture|borough|municipality|parish|canton)$/i.exec(
          value,
        ) ??
          /^\s+(sub-?district|district|province|county|prefecture|borough|municipality|parish|canton)\b/i.exec(
            doc.text.slice(s.end, s.end + 16),
          ))?.[1]
          .toLowerCase()
          .replace('-', '');
        if (writtenKind !== undefined && ownKind !== writtenKind) continue;
      }
      // (the adjective is no country: "German" gives Germany, above)
      if (p.semantic === 'country' && s.kind === 'proper' && DEMONYMS[value.toLowerCase()] !== undefined) score -= 0.3;
      // a dotted version ("2.7.3") is a value of a version only
      if (
        s.kind === 'id' &&
        /^\d+(?:\.\d+){2,3}$/.test(s.text) &&
        !IPV4.test(s.text) &&
        !/\b(?:version|release|build|v)\b/i.test(`${p.parts.join(' ')} ${p.description}`)
      )
        continue;
      // a unit of measure is no value of a parameter that holds no unit ("in Joules" is no substance,
      // "25 MPG" no fuel type, "80 BPM" no key)
      if (
        (s.kind === 'proper' || s.kind === 'id') &&
        (PHYSICAL_UNITS.has(value.toLowerCase()) ||
          (UNIT_ABBREVIATIONS.has(value.toLowerCase()) && /\d\s?$/.test(doc.text.slice(Math.max(0, s.start - 2), s.start)))) &&
        !p.parts.some((x) => /^units?$|^scale$|^format$/.test(x))
      )
        continue;
      // a version has a digit ("2.1.3", "v2"); a word is the name of what has the version ("the
      // 'Orion' version 2.1.3")
      if (p.parts[p.parts.length - 1] === 'version' && !/\d/.test(value)) score -= 0.5;
      fit = score;
      // an airport written with its code where the description asks for the code ("JFK Airport" -> "JFK")
      const iata = /\b(IATA|airport code)\b/i.test(p.description) ? /^([A-Z]{3})\s+(?:International\s+)?Airport$/.exec(value) : null;
      if (iata) {
        out.push({ param: p, value: iata[1], score: fit, ranges: [[s.start, s.end]], kind: s.kind });
        continue;
      }
      // a place whose region went to a sibling parameter ("Tokyo, Japan" -> city "Tokyo"): only the
      // city's characters are used, so the region stays free for the country/state parameter
      // (when the region fits such a sibling: "Austin, Texas" keeps "Texas" from a country parameter)
      const cityOnly =
        s.kind === 'place' &&
        s.region !== undefined &&
        s.city !== undefined &&
        value === s.city &&
        doc.text.startsWith(s.city, s.start) &&
        p.siblings.some((x) => /(?:^|[_-])(country|state|province|region)$/i.test(x) && regionFits(/country$/i.test(x), s));
      out.push({ param: p, value, score: fit, ranges: [[s.start, cityOnly ? s.start + s.city!.length : s.end]], kind: s.kind });
    }
  },
};

const REGION_KIND: ValueKindModule = {
  name: 'region',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { hits } = ctx;
    // the region written after a city ("London, UK", "Austin, Texas") for a country/state parameter
    // beside a city parameter
    const regionParam =
      /^(country|state|province|region)$/.test(p.parts[p.parts.length - 1] ?? '') && p.siblings.some((x) => /city/i.test(x));
    if (regionParam) {
      for (const s of doc.spans) {
        if (s.kind !== 'place' || s.region === undefined || s.address) continue;
        const at = s.end - s.region.length;
        if (doc.text.slice(at, s.end) !== s.region) continue;
        if (!regionFits(p.parts[p.parts.length - 1] === 'country', s)) continue;
        out.push({ param: p, value: s.region, score: 0.6 + anchorBonus(p, doc, s, hits) * 0.5, ranges: [[at, s.end]], kind: 'region' });
      }
    }
  },
};

const PHRASES_KIND: ValueKindModule = {
  name: 'phrases',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    const { hits } = ctx;
    if (p.semantic !== 'date' && p.semantic !== 'time' && p.semantic !== 'datetime' && p.semantic !== 'email' && p.semantic !== 'url') {
      out.push(...commandCandidates(p, doc));
      out.push(...anchoredPhrases(p, doc, hits));
      out.push(...exampleCandidates(p, doc, hits));
      out.push(...modifierCandidates(p, doc));
    } else if (p.semantic === 'date' && p.type === 'string' && !p.enumValues) {
      // a date parameter whose description gives words as examples takes those words as written
      // ("Date of the concert, e.g. this weekend, today, tomorrow, or date string": "this weekend")
      out.push(...exampleCandidates(p, doc, hits));
    }
  },
};

const WHOLEREQUEST_KIND: ValueKindModule = {
  name: 'wholeRequest',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // free text asked for the user's own words: the whole request (mapObject keeps it where it says
    // more than the tool and the parameter do: saysMore)
    if (
      p.semantic === 'text' &&
      p.required &&
      /\b(user'?s?|message|statement|utterance|input|question|query|request|sentence|text)\b/i.test(p.description + ' ' + p.parts.join(' '))
    ) {
      const whole = doc.text.split('\n')[0].trim();
      if (whole) out.push({ param: p, value: whole, score: 0.21, ranges: [], kind: 'whole' });
    }
  },
};

const AREA_KIND: ValueKindModule = {
  name: 'area',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // an administrative area written with its kind ("Chatuchak District", "Ton Pao Subdistrict",
    // "Orange County") for the parameter named by that kind: the name without the kind word
    out.push(...areaCandidates(p, doc));
  },
};

const MATH_KIND: ValueKindModule = {
  name: 'math',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // a function of x written in the request ("the derivative of 2x^2", "y=3x+2") for a function
    // or expression parameter
    out.push(...mathExpressions(p, doc));
  },
};

const WORDAFTERID_KIND: ValueKindModule = {
  name: 'wordAfterId',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // the one word written right after "id" for an identifier ("with id dentist")
    if (p.parts.includes('identifier') && p.type === 'string' && !p.enumValues) out.push(...wordAfterId(p, doc));
  },
};

const URLTEMPLATE_KIND: ValueKindModule = {
  name: 'urlTemplate',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // a URL template with its host left open ('https://{ip}/api/v1/summary'), in the description or
    // the request, filled with the one IP address or host name the request gives
    if (p.semantic === 'url' && p.type === 'string' && !p.enumValues) out.push(...urlTemplates(p, doc));
  },
};

const DEMONYM_KIND: ValueKindModule = {
  name: 'demonym',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // a country named by its adjective ("key events in German history" → Germany) for a country
    if (p.semantic === 'country' && p.type === 'string' && !p.enumValues) {
      for (const t of doc.tokens) {
        // (before a word about the country itself: "German history", not "an Irish pub", "Mexican food")
        const country = DEMONYMS[t.lower];
        if (country && /^\p{Lu}/u.test(t.text) && COUNTRY_TOPICS.has(doc.tokens[t.index + 1]?.lower ?? ''))
          out.push({ param: p, value: country, score: 0.45, ranges: [[t.start, t.end]], kind: 'demonym' });
      }
    }
  },
};

const LABELLEDID_KIND: ValueKindModule = {
  name: 'labelledId',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // an identifier of words written after its label at the end of a clause ("Use the prod id
    // iPhone 12", "prod id: V-neck sweate") for the id parameter the label names
    if (p.semantic === 'id' && p.type === 'string' && !p.enumValues) out.push(...labelledIdPhrase(p, doc));
  },
};

const APOSTROPHEYEAR_KIND: ValueKindModule = {
  name: 'apostropheYear',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // a year written with an apostrophe for a string year ("from the '19" → "2019")
    if (p.type === 'string' && !p.enumValues) out.push(...apostropheYears(p, doc));
  },
};

const MATERIAL_KIND: ValueKindModule = {
  name: 'material',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // what a thing is made of, for a material ("a sculpture made of marble")
    if (p.type === 'string' && !p.enumValues && p.parts[p.parts.length - 1] === 'material') {
      // (one or two words, up to a function word: "made of marble with a size of 3 feet" → marble)
      // (one word, or two where the second names a material, "oak wood"; not after "not": "made
      // of titanium priced under 500" → titanium)
      const m =
        /(?<!\bnot\s{1,3})\bmade\s+(?:out\s+)?of\s+(\p{L}+)(?:\s+(wood|steel|iron|glass|leather|stone|metal|fiber|fibre|plastic|cotton|silk|wool|marble|gold|silver))?\b/iu.exec(
          doc.text,
        );
      if (m && !STOP_WORDS.has(m[1].toLowerCase())) {
        const value = m[2] ? `${m[1]} ${m[2]}` : m[1];
        const at = m.index + m[0].length - value.length;
        out.push({ param: p, value, score: 0.55, ranges: [[at, at + value.length]], kind: 'material' });
      }
    }
  },
};

const ENDFROMDURATION_KIND: ValueKindModule = {
  name: 'endFromDuration',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // the end of a period given by its start and a duration ("22/3/2024 time 11.00 a.m. 2 hours" →
    // 2024-03-22 13:00:00 for an end date-time)
    out.push(...endFromDuration(p, doc));
  },
};

const CONVERSIONUNITS_KIND: ValueKindModule = {
  name: 'conversionUnits',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // the units of a conversion ("How many ounces in 2 pounds of butter?") for from/to unit parameters
    out.push(...conversionUnits(p, doc));
  },
};

const MEASUREDTHING_KIND: ValueKindModule = {
  name: 'measuredThing',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // the thing measured ("2 pounds of butter", "3 cups of flour") for an item or ingredient
    out.push(...measuredThing(p, doc));
  },
};

const KINDNAMED_KIND: ValueKindModule = {
  name: 'kindNamed',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // the name or identifier of a thing written beside the word for that thing ("the bandana
    // project", "project ID badae") for a parameter described as that thing's name or identifier
    out.push(...kindNamedCandidates(p, doc));
  },
};

const SEARCHPHRASE_KIND: ValueKindModule = {
  name: 'searchPhrase',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // a search term: the request without the words that only ask for a search or name the tool
    if (p.type === 'string' && p.parts.some((x) => /^(query|q|keyword|keywords|search|term|terms|phrase)$/.test(x))) {
      const phrase = searchPhrase(doc.text);
      if (phrase) out.push({ param: p, value: phrase, score: 0.3, ranges: [], kind: 'search-phrase' });
    }
  },
};

const TOPIC_KIND: ValueKindModule = {
  name: 'topic',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // what news or articles are about ("recent news articles that discuss artificial intelligence",
    // "top news involving Ji Sung Park") for a keyword or topic
    if (p.type === 'string' && !p.enumValues && p.parts.some((x) => /^(query|q|keyword|keywords|topic|topics|subject|term|terms)$/.test(x)))
      out.push(...topicPhrase(p, doc));
  },
};

/** Candidate values for one parameter: the value-kind modules in order (see VALUE_KINDS). */
function candidatesFor(p: ParamInfo, doc: Doc): Cand[] {
  return proposeAll(VALUE_KINDS, p, doc);
}

/** The value-kind modules in the order they are consulted (the order breaks score ties: mapObject sorts stably). */
const VALUE_KINDS: readonly ValueKindModule[] = [
  CODES_KIND,
  ENUMS_KIND,
  UNTYPED_KIND,
  NUMBERS_KIND,
  FLAGS_KIND,
  ARRAYS_KIND,
  OBJECTS_KIND,
  TRANSLATETEXT_KIND,
  DESCRIBEDVALUE_KIND,
  MUSICKEY_KIND,
  MONTHNAME_KIND,
  FORMULA_KIND,
  DATEFORMAT_KIND,
  DETAILOF_KIND,
  ASNAMED_KIND,
  DATERANGE_KIND,
  PURPOSE_KIND,
  COLOUR_KIND,
  CURRENCY_KIND,
  BARETIME_KIND,
  SPANS_KIND,
  REGION_KIND,
  PHRASES_KIND,
  WHOLEREQUEST_KIND,
  AREA_KIND,
  MATH_KIND,
  WORDAFTERID_KIND,
  URLTEMPLATE_KIND,
  DEMONYM_KIND,
  LABELLEDID_KIND,
  APOSTROPHEYEAR_KIND,
  MATERIAL_KIND,
  ENDFROMDURATION_KIND,
  CONVERSIONUNITS_KIND,
  MEASUREDTHING_KIND,
  KINDNAMED_KIND,
  SEARCHPHRASE_KIND,
  TOPIC_KIND,
];

/** Name and description words of a parameter that holds a mathematical function or expression. */
const MATH_PARAM = /\b(?:func|function|functions|expression|equation|polynomial|formula)\b/i;

/** One term of a polynomial in x: an optional coefficient, x, an optional power; or a constant. */
// (spaces bounded: unbounded runs are quadratic on a digit before a long run of spaces)
const MATH_TERM = String.raw`(?:\d+(?:\.\d+)?\s{0,3}\*?\s{0,3}x(?:\s{0,3}(?:\^|\*\*)\s{0,3}\d+)?|x(?:\s{0,3}(?:\^|\*\*)\s{0,3}\d+)?|\d+(?:\.\d+)?)`;

/** A function of x as written: terms joined by + - * /, with an x that has a coefficient or power, or an operator. */
const MATH_EXPRESSION = new RegExp(
  String.raw`(?<![\w.^*])(?:[yf]\s{0,3}(?:\(\s{0,3}x\s{0,3}\))?\s{0,3}=\s{0,3})?(${MATH_TERM}(?:\s{0,3}[-+*/]\s{0,3}${MATH_TERM}){0,8})(?![\w^*]|\.\d)`,
  'g',
);

/** Function names and operators that make a polynomial only part of a larger expression. */
const MATH_BEFORE = /(?:[(/*^+-]|\b(?:sin|cos|tan|log|ln|exp|sqrt|e))\s{0,3}$/;
const MATH_AFTER = /^\s{0,3}(?:[(*/^=]|[-+]\s{0,3}[a-wyz(]|(?:sin|cos|tan|log|ln|exp|sqrt)\b)/i;

/**
 * Functions of x written in the request, for a parameter named or described as a function,
 * expression, equation or formula: "2x^2", "y=3x+2" → "3x+2", "f(x) = 3x^2" → "3x^2" (as
 * written, without "y =" or "f(x) ="). A plain number or a lone "x" is no function ("at x = 1"):
 * x must carry a coefficient or a power, or the expression an operator. Numbered parameters take
 * them in reading order (function1 the first, function2 the second). Strong (0.8): the numbers
 * inside belong to the function, not to other parameters.
 */
function mathExpressions(p: ParamInfo, doc: Doc): Cand[] {
  if (p.type !== 'string' || p.enumValues || !MATH_PARAM.test(`${p.parts.join(' ')} ${p.description}`)) return [];
  const found: { text: string; start: number; end: number }[] = [];
  for (const m of doc.text.matchAll(MATH_EXPRESSION)) {
    const expr = m[1];
    // x with a power, or an operator: "2x" alone is a factor ("make it 2x bigger")
    if (!/x/.test(expr) || !/x\s{0,3}(?:\^|\*\*)|[-+*/]/.test(expr)) continue;
    const start = m.index + m[0].length - expr.length;
    // only part of a larger expression: "sin(x) + 3x^2", "1/(x+1)", "e^(2x)", "2x + 3 = 11"
    if (
      MATH_BEFORE.test(doc.text.slice(Math.max(0, m.index - 8), m.index)) ||
      MATH_AFTER.test(doc.text.slice(start + expr.length, start + expr.length + 10))
    )
      continue;
    found.push({ text: expr, start, end: start + expr.length });
  }
  const nth = ordinalName(p)?.[1];
  return found.map((f, i) => ({
    param: p,
    value: f.text,
    score: 0.8 + (nth === i + 1 ? 0.05 : 0),
    ranges: [[f.start, f.end]],
    kind: 'math',
  }));
}

/**
 * The end of a period for an end date-time parameter (rangeRole 'end', a date-time), where the
 * request gives one date, one clock time and one duration in hours or minutes ("on March 23 at
 * 3:00 p.m. for 2 hours" → 17:00): the start plus the duration, in the parameter's format. Only
 * within the same day.
 */
function endFromDuration(p: ParamInfo, doc: Doc): Cand[] {
  if (p.semantic !== 'datetime' || rangeRole(p) !== 'end') return [];
  const dates = doc.spans.filter((x) => x.kind === 'date' && x.date && x.start >= 0);
  const times = doc.spans.filter((x) => x.kind === 'time' && x.time);
  const durations = doc.spans.filter((x) => x.kind === 'number' && !x.word && /^(hours?|hrs?|minutes?|mins?)$/i.test(x.unit ?? ''));
  if (dates.length !== 1 || times.length !== 1 || durations.length !== 1) return [];
  const minutes = /^h/i.test(durations[0].unit!) ? durations[0].num! * 60 : durations[0].num!;
  const total = times[0].time!.h * 60 + times[0].time!.mi + minutes;
  if (!Number.isInteger(minutes) || minutes <= 0 || total >= 24 * 60) return [];
  const value = formatDate(dates[0].date!, p, doc.today, { h: Math.floor(total / 60), mi: total % 60 });
  return [{ param: p, value, score: 0.5, ranges: [[durations[0].start, durations[0].end]], kind: 'end-from-duration' }];
}

/**
 * An identifier written after an ID label and ending its clause, for an id parameter whose name
 * the label's qualifier names ("prod id" for product_id, by stem or as a shortening): "Use the
 * prod id iPhone 12" → "iPhone 12". One to three words, at least one with a digit or a capital
 * inside it or a hyphen, so that words ("the id is wrong") are not taken.
 */
/** Words that end an id written after its label: adverbs and nouns of the request around it ("u-42 again", "C-7781 info"). */
const ID_TAIL_STOP = new Set([
  'now',
  'again',
  'asap',
  'please',
  'today',
  'tomorrow',
  'yesterday',
  'info',
  'information',
  'details',
  'detail',
  'data',
  'status',
  'thanks',
  'i',
]);

function labelledIdPhrase(p: ParamInfo, doc: Doc): Cand[] {
  const out: Cand[] = [];
  for (const m of doc.text.matchAll(
    /\b(\p{L}+)\s+(?:id|ID|Id)\s*(?::|=|#|is\s+)?\s*((?:[^\s.,;!?]+)(?:\s+[^\s.,;!?]+){0,2})\s*(?=$|[.,;!?])/gu,
  )) {
    if (!qualifierNames(p, m[1].toLowerCase())) continue;
    // (a quoted value is the quoted span's: "user ID 'user-456'")
    if (/^['"‘“`]/.test(m[2]) || !m[2].split(/\s+/).some((w) => /\d|\p{Ll}\p{Lu}|-/u.test(w))) continue;
    // the words after the first: up to a function word or an adverb ("u-42 again", "abc-123 I
    // think"); after a first word with a digit only words with a digit or a capital ("iPhone 12",
    // not "C-7781 info"), after one without any word ("V-neck sweate")
    const words = m[2].split(/\s+/);
    const kept = [words[0]];
    for (const w of words.slice(1)) {
      const lw = w.toLowerCase();
      if (STOP_WORDS.has(lw) || ID_TAIL_STOP.has(lw) || /ly$/.test(lw) || (/\d/.test(words[0]) && !/\d|\p{Lu}/u.test(w))) break;
      kept.push(w);
    }
    const value = kept.join(' ');
    const at = m.index + m[0].lastIndexOf(m[2]);
    // (above the first word of it read alone as an id after the same label: "prod id: V-neck
    // sweate" is "V-neck sweate", not "V-neck")
    out.push({ param: p, value, score: 0.9, ranges: [[at, at + value.length]], kind: 'labelled-id' });
  }
  return out;
}

/** Measurement words by their plural (and irregular) forms: the singular each one is sent as. */
const MEASURE_UNITS: Readonly<Record<string, string>> = (() => {
  const out: Record<string, string> = Object.create(null);
  for (const u of [
    'teaspoon',
    'tablespoon',
    'cup',
    'ounce',
    'pound',
    'gram',
    'kilogram',
    'milligram',
    'liter',
    'litre',
    'milliliter',
    'millilitre',
    'gallon',
    'quart',
    'pint',
    'inch',
    'yard',
    'mile',
    'meter',
    'metre',
    'kilometer',
    'kilometre',
    'centimeter',
    'centimetre',
    'millimeter',
    'millimetre',
    'stone',
    'ton',
    'tonne',
    'acre',
    'hectare',
    'celsius',
    'fahrenheit',
    'kelvin',
    'joule',
    'calorie',
    'kilocalorie',
    'byte',
    'kilobyte',
    'megabyte',
    'gigabyte',
    'terabyte',
  ]) {
    out[u] = u;
    out[/(?:ch|sh|s|x)$/.test(u) ? `${u}es` : `${u}s`] = u;
  }
  out['foot'] = 'foot';
  out['feet'] = 'foot';
  return out;
})();

/**
 * Kinds of measure: a conversion goes between units of one kind. Volumes and masses are one kind
 * (a kitchen converts "3 cups of flour" to grams by the ingredient's density).
 */
const MEASURE_KINDS: readonly ReadonlySet<string>[] = [
  new Set([
    'teaspoon',
    'tablespoon',
    'cup',
    'ounce',
    'liter',
    'litre',
    'milliliter',
    'millilitre',
    'gallon',
    'quart',
    'pint',
    'pound',
    'gram',
    'kilogram',
    'milligram',
    'stone',
    'ton',
    'tonne',
  ]),
  new Set([
    'inch',
    'foot',
    'yard',
    'mile',
    'meter',
    'metre',
    'kilometer',
    'kilometre',
    'centimeter',
    'centimetre',
    'millimeter',
    'millimetre',
  ]),
  new Set(['acre', 'hectare']),
  new Set(['celsius', 'fahrenheit', 'kelvin']),
  new Set(['joule', 'calorie', 'kilocalorie']),
  new Set(['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte']),
];

/**
 * The units of a conversion for parameters named from_unit / to_unit (or unit_from, source_unit,
 * target_unit…): the unit written after an amount, or after "from", is the one converted from;
 * the one after "how many" or "to"/"into" is the one converted to ("How many ounces in 2 pounds
 * of butter?", "convert 3 cups to milliliters"). Sent in the singular, lower case. Only where
 * the request writes exactly one unit of each role.
 */
function conversionUnits(p: ParamInfo, doc: Doc): Cand[] {
  if (p.type !== 'string' || p.enumValues || !p.parts.includes('unit')) return [];
  const role = p.parts.some((x) => /^(from|source|original|input|initial)$/.test(x))
    ? 'from'
    : p.parts.some((x) => /^(to|target|destination|output|desired|into)$/.test(x))
      ? 'to'
      : undefined;
  if (role === undefined) return [];
  const found: { unit: string; role: 'from' | 'to'; start: number; end: number }[] = [];
  for (const t of doc.tokens) {
    const unit = MEASURE_UNITS[t.lower];
    if (unit === undefined) continue;
    const prev = doc.tokens[t.index - 1];
    const prev2 = doc.tokens[t.index - 2];
    const afterAmount =
      prev !== undefined &&
      (/^\d+(?:[.,]\d+)?$/.test(prev.text) || NUMBER_WORDS[prev.lower] !== undefined || ['a', 'an', 'one'].includes(prev.lower));
    if (afterAmount || prev?.lower === 'from') found.push({ unit, role: 'from', start: t.start, end: t.end });
    else if (['to', 'into'].includes(prev?.lower ?? '') || (prev?.lower === 'many' && prev2?.lower === 'how'))
      found.push({ unit, role: 'to', start: t.start, end: t.end });
  }
  const mine = found.filter((f) => f.role === role);
  const other = found.filter((f) => f.role !== role);
  // a compound unit the result is asked in, ending the request ("… of Glucose in grams/mole"),
  // as written, for the unit converted into
  if (role === 'to' && mine.length === 0) {
    const m = /\bin\s+((?:[a-z]+\s*\/\s*[a-z]+)|(?:[a-z]+\s+per\s+[a-z]+))\s*(?:[.?!]\s*)?$/i.exec(doc.text.trim());
    if (m) {
      const start = m.index + m[0].indexOf(m[1]);
      return [{ param: p, value: m[1], score: 0.55, ranges: [[start, start + m[1].length]], kind: 'conversion-unit' }];
    }
  }
  if (mine.length !== 1 || other.length !== 1) return [];
  // (units of one kind only: cups to calories is no conversion)
  if (!MEASURE_KINDS.some((k) => k.has(mine[0].unit) && k.has(other[0].unit))) return [];
  return [{ param: p, value: mine[0].unit, score: 0.65, ranges: [[mine[0].start, mine[0].end]], kind: 'conversion-unit' }];
}

/**
 * A latitude and a longitude written with their labels ("latitude 37.87 and longitude -122.27",
 * "lat: 40.7, lon: -74.0") or their hemispheres ("33.86° S, 151.2° E"), for an array of numbers
 * whose name or description asks for coordinates or for latitude and longitude: [latitude,
 * longitude], the order that description gives (longitude first where it names that first).
 * Only where one of each is written.
 */
function coordinatePair(p: ParamInfo, doc: Doc): Cand[] {
  if (p.itemType !== 'number' && p.itemType !== 'integer') return [];
  const text = `${p.parts.join(' ')} ${p.description}`.toLowerCase();
  if (!/\bcoordinates?\b|\blat(?:itude)?\b[^.]{0,40}\blon(?:g|gitude)?\b|\blon(?:g|gitude)?\b[^.]{0,40}\blat(?:itude)?\b/.test(text))
    return [];
  // (one point only: not a box of four values, and not where the object has another coordinates
  // parameter, "origin" and "destination", whose one of the two a single point would be)
  if (/\b(?:min|max|bounding|bbox|box)\b/.test(text)) return [];
  if (p.objectDescriptions.filter((d, i) => i !== p.order && /\bcoordinates?\b|\blat(?:itude)?\b[^.]{0,40}\blon/.test(d)).length > 0)
    return [];
  // the order the description first names them in ("GeoJSON order (longitude, latitude)")
  const latAt = text.search(/\blat(?:itude)?\b/);
  const lonAt = text.search(/\blon(?:g|gitude)?\b/);
  const lonFirst = lonAt >= 0 && (latAt < 0 || lonAt < latAt);
  const axisOf = (s: Span): 'lat' | 'lon' | undefined => {
    if (s.hemi) return s.hemi === 'N' || s.hemi === 'S' ? 'lat' : 'lon';
    // the label up to three words before the number ("latitude is around 13.08")
    const before = doc.text.slice(Math.max(0, s.start - 30), s.start).toLowerCase();
    const m = /\b(latitude|lat|longitude|lon|lng|long)\b(?:\s*[:=]\s*|\s+(?:is\s+|of\s+)?(?:about\s+|around\s+|approximately\s+)?)$/.exec(
      before,
    );
    return m ? (m[1].startsWith('lat') ? 'lat' : 'lon') : undefined;
  };
  const lat: Span[] = [];
  const lon: Span[] = [];
  for (const s of doc.spans) {
    if (s.kind !== 'number' || s.word) continue;
    const axis = axisOf(s);
    if (axis === 'lat' && Math.abs(s.num!) <= 90) lat.push(s);
    if (axis === 'lon' && Math.abs(s.num!) <= 180) lon.push(s);
  }
  if (lat.length !== 1 || lon.length !== 1) return [];
  // (both by label or both by hemisphere: "5.25 E or more near latitude 35.68" is no point)
  if (Boolean(lat[0].hemi) !== Boolean(lon[0].hemi)) return [];
  const value = lonFirst ? [lon[0].num!, lat[0].num!] : [lat[0].num!, lon[0].num!];
  return [
    {
      param: p,
      value,
      score: 0.7,
      ranges: [
        [lat[0].start, lat[0].end],
        [lon[0].start, lon[0].end],
      ],
      kind: 'coordinates',
    },
  ];
}

/** Name parts of a parameter for the thing an amount measures. */
const MEASURED_PARTS = new Set(['item', 'ingredient', 'food', 'substance', 'material', 'product', 'commodity']);

/**
 * The thing an amount of a unit measures, for a string parameter named for an item, ingredient,
 * food or substance: "2 pounds of butter" → "butter", "three cups of whole milk" → "whole milk"
 * (one or two words after "of", up to a function word or punctuation). Only where one such thing
 * is written.
 */
function measuredThing(p: ParamInfo, doc: Doc): Cand[] {
  if (p.type !== 'string' || p.enumValues || !p.parts.some((x) => MEASURED_PARTS.has(x))) return [];
  const found: Cand[] = [];
  for (const t of doc.tokens) {
    if (MEASURE_UNITS[t.lower] === undefined && !MEASURE_WORDS.has(t.lower)) continue;
    const prev = doc.tokens[t.index - 1];
    if (!prev || !(/^\d+(?:[.,]\d+)?$/.test(prev.text) || NUMBER_WORDS[prev.lower] !== undefined || ['a', 'an'].includes(prev.lower)))
      continue;
    if (doc.tokens[t.index + 1]?.lower !== 'of') continue;
    let words: Token[] = [];
    for (let k = t.index + 2; k < doc.tokens.length && words.length < 4; k++) {
      const w = doc.tokens[k];
      if (STOP_WORDS.has(w.lower) || !/^\s+$/.test(doc.text.slice(doc.tokens[k - 1].end, w.start))) break;
      words.push(w);
    }
    // (how it is prepared is no part of the thing: "chopped fresh basil" → "basil")
    while (words.length > 1 && (/^[a-z]+ed$/.test(words[0].text) || ['fresh', 'raw', 'frozen', 'ground'].includes(words[0].lower)))
      words = words.slice(1);
    if (words.length === 0) continue;
    const start = words[0].start;
    const end = words[words.length - 1].end;
    found.push({ param: p, value: doc.text.slice(start, end), score: 0.5, ranges: [[start, end]], kind: 'measured' });
  }
  // a physical property of the thing ("the boiling point and melting point of water", "the
  // density of iron"): the one or two words after "of"
  if (found.length === 0) {
    for (const m of doc.text.matchAll(PROPERTY_OF)) {
      const words = m[1].split(/\s+/);
      const cut = words.findIndex((w) => STOP_WORDS.has(w.toLowerCase()));
      const kept = (cut < 0 ? words : words.slice(0, cut)).slice(0, 2);
      if (kept.length === 0) continue;
      const start = m.index + m[0].length - m[1].length;
      const value = kept.join(' ');
      found.push({ param: p, value, score: 0.5, ranges: [[start, start + value.length]], kind: 'measured' });
    }
  }
  return found.length === 1 ? found : [];
}

/** The chemical elements' symbols: a formula is made of them ("C6H12O6"; not "MP3"). */
const ELEMENT_SYMBOLS: ReadonlySet<string> = new Set(
  'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og'.split(
    ' ',
  ),
);

/** A physical property written before "of" and the thing that has it ("melting point of water"). */
const PROPERTY_OF =
  /\b(?:(?:boiling|melting|freezing|flash)\s+points?|molar\s+mass|molecular\s+weight|specific\s+heat(?:\s+capacity)?|heat\s+capacity|viscosity|solubility|thermal\s+conductivity)\s+of\s+(?:the\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)/giu;

/** The thing a name or identifier parameter names, from its description ("The unique identifier of the project" → project). */
// (the thing's word is the first lower-case word after the article: "the name of the NFL player" → player)
const NAMED_KIND =
  /\b(?:[Ii]dentifier|[Ii][Dd]|[Nn]ame|[Tt]itle)\b(?:\s+\w+)?\s+(?:of|for)\s+(?:the|a|an)\s+(?:specific\s+|particular\s+)?(?:\p{Lu}\S*\s+){0,2}(\p{Ll}{3,})\b/u;

/** Words that say which one without naming it ("the new project", "the main branch"). */
const NOT_A_NAME = new Set([
  'new',
  'old',
  'current',
  'latest',
  'main',
  'first',
  'last',
  'same',
  'other',
  'whole',
  'entire',
  'specific',
  'following',
  'given',
  'next',
  'previous',
  'default',
  'existing',
  'particular',
  'above',
  'below',
  'said',
  'corresponding',
  'relevant',
  'right',
  'wrong',
  'only',
  'please',
  'now',
  'today',
  'thanks',
  'asap',
  'open',
  'closed',
  'big',
  'small',
  'large',
  'feature',
  'details',
  'detail',
  'info',
  'information',
  'status',
  'data',
  'online',
  'offline',
  'again',
  'too',
  'here',
  'there',
  'soon',
  'later',
  'urgent',
  'late',
  'early',
  'broken',
]);

/** Endings of adjectives, participles and adverbs ("pending", "weekly", "active", "cancelled"): words that say which one, not its name. */
const NOT_A_NAME_ENDING = /(?:ing|ed|ly|ive|al|ous|ful|less|able|ible|ic|ary|ent|ant)$/;

/**
 * A name or identifier written beside the word for the thing it names, for a string parameter
 * described as that thing's name or identifier ("The unique identifier of the project"): "the
 * bandana project" → "bandana"; "project ID badae" / "host agent zzwzee" → "badae" / "zzwzee"
 * (the word after the thing's word, with at most one word and an ID/name label between, ending
 * the clause). One word only, no function word, no word that only says which one ("the new
 * project"). Weak evidence (0.45): it fills a parameter that is needed, never an optional one.
 */
function kindNamedCandidates(p: ParamInfo, doc: Doc): Cand[] {
  if ((p.semantic !== 'id' && p.semantic !== 'name') || p.type !== 'string' || p.enumValues) return [];
  const m = NAMED_KIND.exec(p.description);
  if (!m) return [];
  const kind = stem(m[1].toLowerCase());
  const out: Cand[] = [];
  // (a plain lower-case word with an adjective's or adverb's ending is no name; one with a digit,
  // a capital, a hyphen or an underscore may be: "release-2", "Q3")
  const usable = (t: Token | undefined): t is Token =>
    t !== undefined &&
    !STOP_WORDS.has(t.lower) &&
    !NOT_A_NAME.has(t.lower) &&
    !/^\d+$/.test(t.text) &&
    t.lower.length >= 2 &&
    !(/^[a-z]+$/.test(t.text) && NOT_A_NAME_ENDING.test(t.text));
  const joined = (a: Token, b: Token): boolean => /^\s+$/.test(doc.text.slice(a.end, b.start));
  for (const t of doc.tokens) {
    // (the thing's word written in lower case: "the Louvre Museum", "Pope Innocent III" are names of their own)
    if (t.stem !== kind || t.text !== t.lower) continue;
    // "the bandana project": a determiner, one word, the thing's word
    const before = doc.tokens[t.index - 1];
    const det = doc.tokens[t.index - 2];
    if (
      usable(before) &&
      det &&
      ['the', 'my', 'our', 'your', 'this', 'that'].includes(det.lower) &&
      joined(det, before) &&
      joined(before, t) &&
      !doc.spans.some((s) => s.kind === 'number' && s.start <= before.start && s.end >= before.end)
    ) {
      out.push({ param: p, value: before.text, score: 0.45, ranges: [[before.start, before.end]], kind: 'kind-named' });
    }
    // "project ID badae", "host agent zzwzee": the thing's word, at most one word and a label, then the value ending its clause
    let k = t.index + 1;
    if (
      doc.tokens[k] &&
      !['id', 'name', 'identifier'].includes(doc.tokens[k].lower) &&
      !STOP_WORDS.has(doc.tokens[k].lower) &&
      /^[a-z]{3,}$/.test(doc.tokens[k].text) &&
      doc.tokens[k + 1] &&
      joined(doc.tokens[k - 1], doc.tokens[k])
    )
      k++;
    if (doc.tokens[k] && ['id', 'name', 'identifier'].includes(doc.tokens[k].lower) && joined(doc.tokens[k - 1], doc.tokens[k])) k++;
    const v = doc.tokens[k];
    if (k > t.index + 1 || (v && usable(v))) {
      if (
        usable(v) &&
        joined(doc.tokens[k - 1], v) &&
        /^\s*(?:$|[.,;!?)]|(?:for|in|and|with|please|from|on)\b)/i.test(doc.text.slice(v.end))
      ) {
        out.push({ param: p, value: v.text, score: 0.45, ranges: [[v.start, v.end]], kind: 'kind-named' });
      }
    }
  }
  return out;
}

/** What a request for news, articles or information is about: the words after "about", "involving", "that discuss"… */
const TOPIC =
  /\b(?:news|articles?|information|info|stories|posts|papers|reports?|headlines)\b[^.?!\n]{0,40}?\b(?:about|regarding|involving|concerning|mentioning|discussing|on\s+the\s+topic\s+of|related\s+to|that\s+(?:discuss|mention|cover|concern)(?:e?s)?)\s+((?:[\p{L}\p{N}'’-]+\s+){0,5}[\p{L}\p{N}'’-]+)/giu;

/** Words that end a topic: what follows them says where, when or how, not what. */
const TOPIC_END = new Set([
  'and',
  'in',
  'from',
  'for',
  'with',
  'published',
  'since',
  'over',
  'during',
  'within',
  'this',
  'today',
  'yesterday',
  'last',
  'please',
  'that',
  'which',
  'on',
  'at',
  'by',
  'to',
  'or',
  'but',
  'so',
  'then',
  'limit',
  'sorted',
  'written',
  'made',
  'taken',
  'given',
  'shown',
  'held',
  'found',
  'seen',
  'done',
  'sent',
  'told',
  'built',
  'won',
  'lost',
]);

/**
 * The topic of a request for news, articles or information, for a keyword or topic parameter:
 * "recent news articles that discuss artificial intelligence" → "artificial intelligence", "top
 * news involving Ji Sung Park. Can you…" → "Ji Sung Park" (at most six words, up to punctuation or
 * a word that says where, when or how). Weak (0.35): it fills a needed parameter.
 */
function topicPhrase(p: ParamInfo, doc: Doc): Cand[] {
  for (const m of doc.text.matchAll(TOPIC)) {
    const words = m[1].split(/\s+/);
    // a question or the user's own thing is no topic ("news about what happened…", "information
    // about my subscription")
    if (/^(?:what|how|why|when|where|who|whether|if|my|our|your|his|her|their|its|me|us)$/i.test(words[0])) continue;
    let cut = words.findIndex((w, i) => TOPIC_END.has(w.toLowerCase()) || (i > 0 && /^[a-z]{3,}ed$/.test(w)));
    // "AI and machine learning": an "and" that joins two topics up to the phrase's end stays
    if (
      cut > 0 &&
      words[cut].toLowerCase() === 'and' &&
      words.slice(cut + 1).every((w) => !TOPIC_END.has(w.toLowerCase()) && !/^[a-z]{3,}ed$/.test(w))
    )
      cut = -1;
    const kept = (cut >= 0 ? words.slice(0, cut) : words).filter((w, i) => !(i === 0 && /^(?:the|a|an)$/i.test(w)));
    if (kept.length === 0 || kept.every((w) => STOP_WORDS.has(w.toLowerCase()))) continue;
    const phraseEnd = m.index + m[0].length;
    // a list of topics ("about Apple, Google and Microsoft") is no one keyword
    if (cut < 0 && /^\s*,/.test(doc.text.slice(phraseEnd))) continue;
    const value = kept.join(' ');
    const start = m.index + m[0].length - m[1].length + m[1].indexOf(kept[0]);
    return [{ param: p, value, score: 0.35, ranges: [[start, start + value.length]], kind: 'topic' }];
  }
  return [];
}

/**
 * The subject of a search request: the first line without a leading "search for" / "find" /
 * "look up" / "play" (and "song" after "play") or "who is" / "what is" / "tell me about" before a
 * short subject, a clause that names the tool ("using your tools",
 * "with the web search tool", "trigger the web search function; ..."), or asks for a format ("and
 * respond in json"). Undefined when nothing was taken off (the whole request is its own candidate).
 */
function searchPhrase(text: string): string | undefined {
  const line = text.split('\n')[0].trim();
  let q = line;
  // "trigger the web search function; where is beijing"
  const at = q.indexOf(';');
  if (at > 0 && at < 200 && /\b(?:tools?|function|search)\b/i.test(q.slice(0, at))) q = q.slice(at + 1).trim();
  // (every repetition bounded: on long runs of commas or spaces unbounded ones are quadratic)
  q = q.replace(
    /[,\s]{1,4}(?:(?:and|then|finally)\s{1,4}){0,3}(?:respond|reply|answer|return|give\s(?:it|me))\b[^.?!]{0,80}\bjson\b.*$/i,
    '',
  );
  q = q.replace(
    /[,\s]{1,4}(?:(?:and|then|finally)\s{1,4}){0,3}(?:using|use|with|via|through|by)\s{1,4}(?:(?:the|your|a|my)\s{1,4})?(?:[\w-]{1,40}\s{1,4}){0,3}?(?:tools?|function|engine|api)\b.*$/i,
    '',
  );
  const played = /^(?:please\s+)?play\s+/i.test(q);
  q = q.replace(/^(?:please\s+)?(?:search(?:\s+(?:for|about))?|find|look\s+up|lookup|google|play)\s+/i, '');
  // a question about one named subject of at most 6 words: "who is ji sung park?", "what is imjin
  // war", "tell me about X" (not "what is the population of Tokyo", "what is it", "what is AAPL
  // trading at")
  const subject = /^(?:(?:who|what)\s+(?:is|are|was|were)|tell\s+me\s+(?:more\s+)?about)\s+(\S+(?:\s+\S+){0,5})\s*[?.!]*$/i.exec(q);
  if (
    subject &&
    !/^(?:the|a|an|it|its|he|she|they|them|you|your|i|me|my|this|that|these|those|there|here|we|us|our|his|her|their)\b/i.test(
      subject[1],
    ) &&
    !/\b(?:at|in|on|of|for|to|with|about|from|by|up|doing|trading|happening|going)$/i.test(subject[1].replace(/[?.!]+$/, ''))
  )
    q = subject[1];
  if (played) q = q.replace(/\s{1,10}(?:song|track|video|music)$/i, '');
  q = trimEnd(q.replace(/^[\s"'“‘]+/, ''), /[\s"'”’.?!,;:]/);
  // (a phrase that cuts a quoted span in two is no search: "run a web search query 'best pizza"; the quote is a candidate of its own)
  if (/(?:^|\s)['"“‘][^'"”’]*$/.test(q)) return undefined;
  return q !== '' && q !== trimEnd(line, /[\s.?!]/) ? q : undefined;
}

/**
 * `text` without the characters at its end that `char` matches (one character at a time: a regular
 * expression anchored at the end is quadratic on a long run of them before a last word).
 */
function trimEnd(text: string, char: RegExp): string {
  let e = text.length;
  while (e > 0 && char.test(text[e - 1])) e--;
  return text.slice(0, e);
}

/** Converts a list literal's items onto the item schema; undefined when an item does not fit. */
function coerceItems(items: unknown[], p: ParamInfo): unknown[] | undefined {
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
  const out: Cand[] = coordinatePair(p, doc);
  const it = p.itemType ?? 'any';
  for (const s of doc.spans) {
    if (s.kind !== 'list' || !s.items) continue;
    const items = coerceItems(s.items, p);
    if (items) out.push({ param: p, value: items, score: 0.45 + anchorBonus(p, doc, s, hits), ranges: [[s.start, s.end]], kind: 'list' });
  }
  const en = p.items && Array.isArray(p.items['enum']) ? (p.items['enum'] as unknown[]) : undefined;
  if (en) {
    const found: { v: unknown; start: number; score: number; end: number }[] = [];
    for (const v of en) {
      if (typeof v !== 'string' || DONTCARE.has(v.toLowerCase())) continue;
      const m = enumScore(v, doc);
      if (m.score >= 0.6) found.push({ v, start: m.start, end: m.end, score: m.score });
    }
    if (found.length > 0) {
      found.sort((a, b) => a.start - b.start);
      out.push({
        param: p,
        value: found.map((f) => f.v),
        score: 0.55,
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
      if (m.score < 0.9 || m.start < 0) continue;
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
        score: 0.55,
        ranges: found.map((f) => [f.start, f.end] as [number, number]),
        kind: 'example-list',
      });
    }
  }
  const counted = countedItems(doc);
  if (counted.length > 0 && (it === 'integer' || it === 'number') && QUANTITY_PARTS.has(p.parts[p.parts.length - 1] ?? '')) {
    out.push({
      param: p,
      value: counted.map((c) => c.count),
      score: 0.7,
      ranges: counted.map((c) => [c.start, c.countEnd] as [number, number]),
      kind: 'counted-list',
    });
  }
  if (counted.length > 0 && (it === 'string' || it === 'any') && ITEM_PARTS.has(p.parts[p.parts.length - 1] ?? '')) {
    out.push({
      param: p,
      value: counted.map((c) => c.item),
      score: 0.7,
      ranges: counted.map((c) => [c.itemStart, c.end] as [number, number]),
      kind: 'counted-list',
    });
  }
  if (it === 'integer' || it === 'number') {
    // numeric codes the description explains, whose meanings the request writes before a word of
    // the name ("e.g., 1 for cleaning service, 2 for ironing service" and "provides ironing
    // services" → [2])
    const codes = codeCandidates(
      { ...p, type: it, enumValues: Array.isArray(p.items?.['enum']) ? (p.items['enum'] as unknown[]) : undefined },
      doc,
      true,
    );
    if (codes.length > 0) out.push({ param: p, value: codes.map((c) => c.value), score: 0.75, ranges: [], kind: 'code-list' });
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
          score: 0.35 + anchorBonus(p, doc, series[0], hits) * 0.6,
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
        score: 0.4,
        ranges: quoted.map((s) => [s.start, s.end] as [number, number]),
        kind: 'quoted-list',
      });
    // quoted values written as one list ("'Age', 'Income' and 'Education'"), when the request holds
    // other quoted values too: the run nearest the parameter's name
    if (quoted.length >= 3) {
      let qrun: Span[] = [];
      const flushQuoted = (): void => {
        if (qrun.length >= 2 && qrun.length < quoted.length) {
          out.push({
            param: p,
            value: qrun.map((s) => s.text),
            score: 0.45 + anchorBonus(p, doc, qrun[0], hits),
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
          score: 0.45 + anchorBonus(p, doc, run[0], hits),
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
      if (h.w < 0.8) continue;
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
          out.push({ param: p, value: items, score: 0.5, ranges: [[start, start + m[1].length]], kind: 'written-list' });
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
    for (const c of single) out.push({ ...c, value: [c.value], score: c.score - 0.1, kind: `single-${c.kind}` });
    // a run of quoted values or names joined by "and" / commas is the whole value: as strong as the
    // best single one of its items, and a little more ("the networks 'n1' and 'n2'" → ["n1", "n2"],
    // not ["n1"])
    for (const list of out) {
      if (!['quoted-list', 'quoted-run', 'name-list'].includes(list.kind) || (list.kind === 'quoted-list' && !joinedRun(doc, list.ranges)))
        continue;
      for (const c of single) {
        if (c.ranges.length !== 1 || !list.ranges.some((r) => r[0] === c.ranges[0][0] && r[1] === c.ranges[0][1])) continue;
        list.score = Math.max(list.score, c.score - 0.1 + 0.02);
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

/** Last name parts of a list of things ordered or bought ("items", "products", "dishes"). */
const ITEM_PARTS = new Set([
  'item',
  'items',
  'product',
  'products',
  'dish',
  'dishes',
  'food',
  'foods',
  'meal',
  'meals',
  'goods',
  'article',
  'articles',
  'groceries',
]);
/** Last name parts of the list of how many of each ("quantities", "qty", "counts"). */
const QUANTITY_PARTS = new Set(['quantity', 'quantities', 'qty', 'qtys', 'counts']);
/** Words that measure or hold an item ("three bottles of olive oil", "a five pound bag of rice"): dropped before "of". */
const MEASURE_WORDS = new Set([
  'bottle',
  'bottles',
  'bag',
  'bags',
  'box',
  'boxes',
  'can',
  'cans',
  'cup',
  'cups',
  'glass',
  'glasses',
  'pack',
  'packs',
  'packet',
  'packets',
  'piece',
  'pieces',
  'slice',
  'slices',
  'jar',
  'jars',
  'carton',
  'cartons',
  'loaf',
  'loaves',
  'bunch',
  'bunches',
  'pound',
  'pounds',
  'lb',
  'lbs',
  'kg',
  'kilo',
  'kilos',
  'gram',
  'grams',
  'ounce',
  'ounces',
  'oz',
  'liter',
  'liters',
  'litre',
  'litres',
  'gallon',
  'gallons',
  'dozen',
  'pair',
  'pairs',
  'plate',
  'plates',
  'bowl',
  'bowls',
  'serving',
  'servings',
  'portion',
  'portions',
  'case',
  'cases',
  'roll',
  'rolls',
  'bar',
  'bars',
  'order',
  'orders',
  'sack',
  'sacks',
  'tub',
  'tubs',
]);
/** Words that end an item's name ("five burgers from McDonald's", "two pizzas and ..."). */
const ITEM_STOP = new Set([
  'and',
  'or',
  'respectively',
  'from',
  'at',
  'in',
  'on',
  'for',
  'to',
  'with',
  'please',
  'each',
  'per',
  'that',
  'which',
  'by',
  'via',
  'using',
  'delivered',
  'plus',
  'under',
  'over',
  'below',
  'above',
  'between',
  'near',
  'within',
  'than',
  'like',
  'about',
  'into',
  'but',
]);
/** Heads that are not things one orders ("2 people", "3 nights"): such a count is no item. */
const NOT_ITEMS =
  /^(people|persons?|guests?|adults?|kids|children|nights?|days?|hours?|minutes?|weeks?|months?|years?|times|stars?|percent|more|of|the|them|it|pm|am|o'clock|things|items|ones|stuff|cheapest|best|top|most|least|largest|smallest)$/i;
/** A number right after one of these is a size, a rank, a range end or a label, not a count of things ordered ("size 10", "top 3", "3 to 5", "with 2 toppings", "at 7"). */
const NOT_COUNT_AFTER = new Set([
  'size',
  'number',
  'no',
  'room',
  'version',
  'model',
  'route',
  'page',
  'top',
  'first',
  'best',
  'last',
  'next',
  'past',
  'with',
  'per',
  'to',
  'at',
  'between',
  'than',
  'about',
  'around',
  'over',
  'under',
]);
/** A unit after a number makes it a size of one item ("a 12 inch pizza", "20 piece nuggets"), not a count. */
const SIZE_UNITS = /^(inch|inches|in|piece|pieces|pc|pcs|oz|ounce|ounces|cm|mm|gb|tb|ml|inch-|foot|feet|ft|litre|liter)$/i;
/** Adverbs of frequency and the unit each is "per" ("hourly" → once per hour). */
const PER_ADVERBS: Record<string, string> = lookupTable({
  hourly: 'hour',
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  yearly: 'year',
  annually: 'year',
});

/** A parameter that counts how often something happens ("duplication_frequency", "Number of times ... per hour"). */
const FREQUENCY_PARAM = /\b(?:frequency|frequencies|times|how often|occurrences|repetitions|sessions|count)\b/i;

/**
 * Counts per unit of time for a parameter that counts how often something happens per that unit
 * ("The frequency of duplication per hour"): "every hour" / "hourly" / "once an hour" 1, "twice a
 * day" 2, "three times per week" 3. Nothing for "every 2 hours" (a period, not a count per hour),
 * for a number that is part of a larger one ("12.50 an hour", "$85,500 a year"), or for a
 * parameter that is an amount or rate per unit ("Pay per hour", "Interest rate per year").
 * At most MAX_COUNTED_ITEMS matches are read.
 */
function perUnitCounts(p: ParamInfo, doc: Doc): Cand[] {
  if (!FREQUENCY_PARAM.test(`${p.parts.join(' ')} ${p.description}`)) return [];
  const per = [...rateDenominators(p)].filter((u) => TIME_UNITS.has(u));
  if (per.length === 0) return [];
  const out: Cand[] = [];
  const re =
    /(?<![\d.,$€£])\b(?:(once|twice|thrice|\d{1,3}(?![\d.,]\d)|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:times\s+)?(?:a|an|per|each|every)|every|each)\s+([a-z]+)\b|\b(hourly|daily|weekly|monthly|yearly|annually)\b/gi;
  let seen = 0;
  for (const m of doc.text.matchAll(re)) {
    if (++seen > MAX_COUNTED_ITEMS) break;
    const unit = m[3] ? PER_ADVERBS[m[3].toLowerCase()] : unitStem(m[2]);
    if (!unit || !per.includes(unit)) continue;
    const word = m[1]?.toLowerCase();
    const n =
      word === undefined
        ? 1
        : word === 'once'
          ? 1
          : word === 'twice'
            ? 2
            : word === 'thrice'
              ? 3
              : /^\d+$/.test(word)
                ? Number(word)
                : NUMBER_WORDS[word];
    if (!(n > 0)) continue;
    // (below what an optional parameter needs: "produced annually" says nothing of a yearly decrease)
    out.push({ param: p, value: n, score: 0.45, ranges: [[m.index, m.index + m[0].length]], kind: 'per-unit' });
  }
  return out;
}

/** Kinds of administrative area, as a parameter's name says them and as a request writes them after a name. */
const AREA_KINDS = ['subdistrict', 'district', 'province', 'county', 'prefecture', 'borough', 'municipality', 'parish', 'canton'] as const;

/** Areas smaller than a city. */
const SUBCITY_AREAS: ReadonlySet<string> = new Set(['subdistrict', 'district', 'borough']);

/**
 * The kind of administrative area a parameter's name is (district, district_name, districtName →
 * "district"; sub_district_name → "subdistrict"; county, province…); undefined for other names
 * (school_district is a school district's name, not an area's).
 */
function areaKind(p: ParamInfo): (typeof AREA_KINDS)[number] | undefined {
  const joined = p.parts.join('').replace(/name$/, '');
  return AREA_KINDS.find((k) => joined === k);
}

/** Whether another parameter's description names a place span's city ("'1' for Bangkok"). */
function namedBySibling(p: ParamInfo, s: Span): boolean {
  const city = (s.city ?? s.text).toLowerCase();
  if (city.length < 2) return false;
  const re = new RegExp(`(?<![\\p{L}])${city.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`, 'u');
  return p.objectDescriptions.some((d, i) => i !== p.order && re.test(d));
}

/**
 * A name written with the kind of area it is ("Bangkok, Chatuchak District", "in the Chatuchak
 * district", "Ton Pao Subdistrict") for a parameter named by that kind (district_name,
 * sub_district_name, province), without the kind word unless the description's examples write it
 * ('Chatuchak District'). "Sub-district"/"sub_district" are the
 * kind "subdistrict", so a district parameter never takes a subdistrict's name.
 */
function areaCandidates(p: ParamInfo, doc: Doc): Cand[] {
  const kind = areaKind(p);
  if (!kind) return [];
  const out: Cand[] = [];
  // (the kind word stays where the description's examples write it: 'Chatuchak District')
  const keepKind = new RegExp(`\\p{L}[ ]${kind === 'subdistrict' ? 'sub[- ]?district' : kind}['"’]`, 'iu').test(p.description);
  // (case-sensitive: the name's words are capitalised, the kind word may be either)
  // (words of at most 40 letters: unbounded ones are quadratic on a long run of capitals)
  if (!/district|province|county|prefecture|borough|municipality|parish|canton/i.test(doc.text)) return [];
  // ("St. Clair County": a word may end in a period)
  const re =
    /(\p{Lu}[\p{L}'’-]{0,40}\.?(?:[ ]\p{Lu}[\p{L}'’-]{0,40}\.?){0,3})[ ]((?:[Ss]ub[- ]?)?[Dd]istrict|[Pp]rovince|[Cc]ounty|[Pp]refecture|[Bb]orough|[Mm]unicipality|[Pp]arish|[Cc]anton)\b/gu;
  for (const m of doc.text.matchAll(re)) {
    if (m[2].toLowerCase().replace(/[- ]/, '') !== kind) continue;
    // a command or question word that opens the sentence is no part of the name ("Show Chatuchak
    // District listings", "Find Orange County records", "What County is …")
    let name = m[1];
    let at = m.index;
    // (LEADING_WORDS, at a sentence's start only: "in Will County" keeps its "Will")
    if (/(?:^|[.!?:\n]\s*)$/.test(doc.text.slice(Math.max(0, at - 3), at))) {
      const first = /^(\p{L}+)\s+/u.exec(name);
      if (first && LEADING_WORDS.has(first[1].toLowerCase())) {
        name = name.slice(first[0].length);
        at += first[0].length;
      } else if (LEADING_WORDS.has(name.toLowerCase())) continue;
    }
    // (above what a name or place next to the parameter's word scores: "Ton Pao Subdistrict" is
    // no district, though it holds the word)
    out.push({ param: p, value: keepKind ? `${name} ${m[2]}` : name, score: 1.3, ranges: [[at, m.index + m[0].length]], kind: 'area' });
  }
  return out;
}

/** A parameter for the initial velocity or speed of a moving body (initial_velocity, initialSpeed, v0). */
const INITIAL_MOTION = /^(?:initial[_ ]?(?:velocity|speed)|v_?0|u0?|start(?:ing)?[_ ]?(?:velocity|speed))$/i;
/** Words that say a body starts at rest: "from rest", "starts at rest", "initially at rest" (not "until it is at rest", "comes to rest"). */
const STARTS_AT_REST =
  /\bfrom\s+rest\b|\b(?:starts?|started|starting|begins?|began|initially|is\s+initially|was\s+initially)\s+(?:at|from)\s+rest\b/i;
/** Words that say a body falls from rest unless a speed is written: "dropped", "released", "free fall". */
const DROPPED = /\b(?:dropped|released)\b(?!\s+(?:with|at)\b)|\bfree[- ]?fall(?:s|ing)?\b/i;
/** A speed unit right after a number ("20 m/s", "60 km/h", "30 mph", "5 meters per second"). */
const SPEED_UNIT =
  /^\s?(?:m\/s|km\/h|kmh|kph|mph|ft\/s|fps|knots?|(?:meters?|metres?|kilometers?|kilometres?|miles?|feet)\s*(?:\/|per)\s*(?:s|sec|second|h|hr|hour))\b/i;

/** Most counted items read from one request. */
const MAX_COUNTED_ITEMS = 50;
/** Counts written as words, for counted items (number words from the lexicon, and "a"/"an" for one). */
const COUNT_WORD = new RegExp(
  `^(?:\\d{1,4}|a|an|${Object.keys(NUMBER_WORDS)
    .filter(
      (w) =>
        NUMBER_WORDS[w] >= 1 &&
        NUMBER_WORDS[w] <= 100 &&
        !['once', 'twice', 'thrice', 'solo', 'alone', 'single', 'couple', 'pair', 'dozen', 'hundred'].includes(w),
    )
    .join('|')})$`,
  'i',
);

/** One counted item: its name as written, how many, where its count starts and ends, where its name starts and ends. */
interface CountedItem {
  item: string;
  count: number;
  /** counted by "a"/"an" */
  article: boolean;
  start: number;
  countEnd: number;
  itemStart: number;
  end: number;
}

/** Counted items of a request, cached per request (see countedItems). */
const COUNTED = new WeakMap<Doc, CountedItem[]>();

/**
 * Things ordered with how many of each: "three bottles of olive oil and a five pound bag of rice"
 * → olive oil × 3, rice × 1; "two dozen eggs" → eggs × 24; "five 'burgers' and six 'chicken
 * wings'". The first run of counts each followed by an item name, the items joined by commas or
 * "and"; an item is at most four words, cut at a preposition or conjunction, with what measures
 * or holds it dropped before "of". "a"/"an" counts one only after another counted item. Names are
 * kept as written (plural included). Empty when the request holds no such run.
 */
function countedItems(doc: Doc): CountedItem[] {
  const cached = COUNTED.get(doc);
  if (cached) return cached;
  const toks = doc.tokens;
  const runs: CountedItem[][] = [];
  let run: CountedItem[] = [];
  let i = 0;
  while (i < toks.length) {
    const t = toks[i];
    const before = doc.text.slice(Math.max(0, t.start - 1), t.start);
    if (!COUNT_WORD.test(t.text)) {
      i++;
      continue;
    }
    // (nor a street address's house number: "'123 Maple Street, …'")
    if (
      /[$€£¥.\d-]/.test(before) ||
      (i > 0 && NOT_COUNT_AFTER.has(toks[i - 1].lower)) ||
      doc.spans.some((s) => s.address === true && s.start <= t.start && s.end >= t.end)
    ) {
      // a number that is no count ends the run
      if (run.length > 0) runs.push(run);
      run = [];
      i++;
      continue;
    }
    const article = /^an?$/i.test(t.text);
    let count = /^\d/.test(t.text) ? Number(t.text) : article ? 1 : NUMBER_WORDS[t.lower];
    let j = i + 1;
    if (toks[j]?.lower === 'dozen') {
      count *= 12;
      j++;
    }
    const words: { text: string; start: number; end: number }[] = [];
    while (
      j < toks.length &&
      words.length < 8 &&
      !ITEM_STOP.has(toks[j].lower) &&
      /^(?:[\s'"‘’“”]*|-)$/.test(doc.text.slice(toks[j - 1].end, toks[j].start))
    ) {
      words.push(toks[j]);
      j++;
    }
    // what measures or holds the item, before "of" ("five pound bag of rice" → "rice")
    const of = words.findIndex((w) => w.text.toLowerCase() === 'of');
    let head = words;
    if (of > 0 && words.slice(0, of).every((w) => MEASURE_WORDS.has(w.text.toLowerCase()) || COUNT_WORD.test(w.text)))
      head = words.slice(of + 1);
    const itemWords = head.filter((w) => w.text !== "'" && w.text !== '"');
    const gap = run.length > 0 ? doc.text.slice(run[run.length - 1].end, t.start) : '';
    const joined = run.length > 0 && /^['"‘’“”]?\s*(?:,\s*(?:and\s+)?|and\s+)$/i.test(gap);
    // (a size unit right after the count: "a 12 inch pizza" is one pizza)
    const ok =
      itemWords.length >= 1 &&
      itemWords.length <= 4 &&
      !NOT_ITEMS.test(itemWords[0].text) &&
      !(head === words && SIZE_UNITS.test(itemWords[0].text)) &&
      !/^\d/.test(itemWords[0].text);
    if (!ok) {
      if (run.length > 0) runs.push(run);
      run = [];
      i++;
      continue;
    }
    if (run.length > 0 && !joined) {
      runs.push(run);
      run = [];
    }
    const last = head[head.length - 1];
    const item = doc.text
      .slice(head[0].start, last.end)
      .replace(/^['"‘’“”]+|['"‘’“”]+$/g, '')
      .trim();
    if (run.length >= MAX_COUNTED_ITEMS) break;
    run.push({ item, count, article, start: t.start, countEnd: toks[j - words.length - 1].end, itemStart: head[0].start, end: last.end });
    i = j;
  }
  if (run.length > 0) runs.push(run);
  // the longest run (the first of equal ones) with a count written as a number ("a coffee" alone
  // counts nothing; "a large pizza and 2 cokes" does)
  const best = runs.filter((r) => r.some((c) => !c.article)).reduce<CountedItem[]>((a, b) => (b.length > a.length ? b : a), []);
  COUNTED.set(doc, best);
  return best;
}

/** Nouns that end in "-ly" (not adverbs). */
const LY_NOUNS = new Set([
  'family',
  'supply',
  'assembly',
  'butterfly',
  'anomaly',
  'monopoly',
  'italy',
  'reply',
  'ally',
  'jelly',
  'belly',
  'rally',
  'lily',
  'holly',
  'dolly',
  'bully',
  'fly',
  'july',
]);

/** An "-ly" adverb or a day word ("quickly", "easily", "today"): never a plain value word of a list or pair. */
function adverbLike(w: string): boolean {
  return (w.length >= 5 && w.endsWith('ly') && !LY_NOUNS.has(w)) || /^(today|tomorrow|yesterday|now|later|soon|again|too|well)$/.test(w);
}

/** Words that end a coordinated item when read away from "and": function words, adverbs, and numbers. */
function itemBoundary(t: Token): boolean {
  return STOP_WORDS.has(t.lower) || /^\d/.test(t.lower) || adverbLike(t.lower);
}

/**
 * Plain-word lists joined by "and"/"or" ("chicken and mushrooms", "a, b, c and d"), each item of
 * at most three words. The item after the conjunction runs to the next function word or mark; the
 * items before it are cut at commas, and the first one is no longer than the last (so "uses chicken
 * and mushrooms" gives chicken, mushrooms). Scored low (0.3): nothing ties the list to the
 * parameter but its type.
 */
function coordinatedWords(p: ParamInfo, doc: Doc): Cand[] {
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
    out.push({ param: p, value, score: 0.3, ranges: [[start, end]], kind: 'word-list' });
  }
  return out;
}

/** Runs of two or more numbers separated only by commas/"and" (written series), in text order. */
function allSeries(doc: Doc, nums: Span[]): Span[][] {
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
function respectively(params: ParamInfo[], doc: Doc): Cand[] {
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
      if (v !== undefined) out.push({ param: l.p, value: v, score: 1.1, ranges: [[series[k].start, series[k].end]], kind: 'respectively' });
    });
  }
  return out;
}

/** Superlatives that ask for the one first result ("the highest grossing bank"). */
const SUPERLATIVES =
  'best|top|highest|lowest|largest|biggest|smallest|most|least|cheapest|nearest|closest|greatest|richest|tallest|longest|shortest|oldest|newest';
/** "the <superlative>" anywhere in a request. */
const SUPERLATIVE_THE = new RegExp(String.raw`\bthe\s+(?:${SUPERLATIVES})\b`, 'gi');
/** "the <superlative> <noun phrase>", the phrase up to a word that ends it (its last word is the noun). */
const SUPERLATIVE_PHRASE = new RegExp(
  String.raw`(?<!\bof\s)\bthe\s+(?:single\s+)?(${SUPERLATIVES})\s+((?:[\p{L}'’-]+\s+){0,3}?[\p{L}'’-]+)(?=\s*(?:$|[.,;:!?]|\s(?:in|at|on|near|for|with|from|of|that|which|who|to|by|around|within|and|or|this|last|next)\b))`,
  'iu',
);

/**
 * One result asked for by a superlative and a singular noun ("Find the highest grossing bank in
 * the U.S" → top_n 1), for a count of results where the request writes no number but a year, of a
 * tool whose name holds that superlative (highest_grossing_banks). Not a plural ("the best
 * restaurants"), nor "one of the best", nor two superlatives.
 */
function singleBestCount(p: ParamInfo, doc: Doc, toolStems: ReadonlySet<string>): Cand[] {
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
  return [{ param: p, value: 1, score: 0.5, ranges: [], kind: 'single-best' }];
}

/** A verb that changes one value into another ("switch my order from pizza to a burger"); not "sort from newest to oldest", "translate from English to French". */
const CHANGE_VERB =
  /\b(?:switch(?:ed|ing)?|chang(?:e|ed|ing)|replac(?:e|ed|ing)|swap(?:ped|ping)?|upgrad(?:e|ed|ing)|downgrad(?:e|ed|ing)|instead\s+of|rather\s+than)\b/i;

/** Ordinal words and figures ("second", "3rd") by the position they give. */
const ORDINAL_POSITION: Readonly<Record<string, number>> = lookupTable({
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
function positionCandidates(p: ParamInfo, doc: Doc): Cand[] {
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
    out.push({ param: p, value: zeroBased ? n - 1 : n, score: 0.45, ranges: [[start, start + m[1].length]], kind: 'position' });
  }
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
function ordinalSeries(params: ParamInfo[], doc: Doc): Cand[] {
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
    out.push({ param: group[0], value: m[1], score: 0.6, ranges: [[at1, at1 + m[1].length]], kind: 'ordinal-words' });
    out.push({ param: group[1], value: m[2], score: 0.6, ranges: [[at2, at2 + m[2].length]], kind: 'ordinal-words' });
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
        out.push({ param: p, value: v, score: 1.05, ranges: [[series[0][i].start, series[0][i].end]], kind: 'respectively' });
    });
  }
  return out;
}

/** Per request: its explicit pairs (explicitPairs). */
const PAIRS = new WeakMap<Doc, Map<string, ExplicitPair>>();

/** Explicit "name=value" / "name: value" pairs written in the text, by squashed name. */
function explicitPairs(doc: Doc): Map<string, ExplicitPair> {
  const cached = PAIRS.get(doc);
  if (cached) return cached;
  const out = new Map<string, ExplicitPair>();
  PAIRS.set(doc, out);
  // identifier (from a word start, at most 64 characters: an unbounded one made this quadratic on
  // long words), "=" or ":", then a quoted string, a bracketed list, or a bare token run
  const re = /(?<![\w.])([A-Za-z_][\w.]{0,63})\s*(?:=|:)\s*("[^"]*"|'[^']*'|\[[^\]]*\]|-?[\w.@/+-]+)/g;
  const found: { key: string; keyStart: number; raw: string; start: number; end: number }[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(doc.text)) !== null)
    found.push({ key: squash(m[1]), keyStart: m.index, raw: m[2], start: m.index + m[0].length - m[2].length, end: m.index + m[0].length });
  found.forEach((f, i) => {
    if (out.has(f.key)) return;
    // a bare value runs on to the end of its phrase: up to the next pair's name, a comma, a
    // semicolon, a line break or a sentence end ("city: San Francisco, state: CA")
    let phraseEnd = f.end;
    let textEnd = f.end;
    if (!/^["'[]/.test(f.raw)) {
      const stop = i + 1 < found.length ? found[i + 1].keyStart : doc.text.length;
      const tail = doc.text.slice(f.end, stop);
      const cut = /[,;\n]|[.!?](?:\s|$)/.exec(tail);
      phraseEnd = f.end + (cut ? cut.index : tail.length);
      while (phraseEnd > f.end && /\s/.test(doc.text[phraseEnd - 1])) phraseEnd--;
      // free text keeps its commas ("body: Hi Bob, see you at noon")
      const textCut = /[;\n]|[.!?](?:\s|$)/.exec(tail);
      textEnd = f.end + (textCut ? textCut.index : tail.length);
      while (textEnd > f.end && /[\s,]/.test(doc.text[textEnd - 1])) textEnd--;
    }
    out.set(f.key, { raw: f.raw, start: f.start, end: f.end, phraseEnd, textEnd });
  });
  return out;
}

/** Parameters whose values are one token (a date, an e-mail address, an id…): a pair gives them its first token run only. */
const ONE_TOKEN_SEMANTICS: ReadonlySet<string> = new Set(['date', 'time', 'datetime', 'email', 'url', 'path', 'currency', 'id', 'unit']);

/** A value written as name=value or name: value: its first token run (start..end), and where the phrase it opens ends (end itself for a quoted value or a list). */
interface ExplicitPair {
  raw: string;
  start: number;
  end: number;
  phraseEnd: number;
  /** where a free text's phrase ends: like phraseEnd, but a comma does not end it */ textEnd: number;
}

/** Where a pair's phrase ends for a name, place or title: before a date or time span, or a joining "and"/"or"/"&" ("city: Paris and London"). */
function namedPhraseEnd(doc: Doc, pair: ExplicitPair, cutJoins: boolean): number {
  let end = pair.phraseEnd;
  for (const sp of doc.spans) if ((sp.kind === 'date' || sp.kind === 'time') && sp.start >= pair.end && sp.start < end) end = sp.start;
  // (a title or a name keeps its "and": "title: Tom and Jerry", "subject: Lunch and Dinner")
  const join = cutJoins ? /\s+(?:and|or|&|plus)\s+/i.exec(doc.text.slice(pair.end, end)) : null;
  if (join) end = pair.end + join.index;
  while (end > pair.end && /[\s,]/.test(doc.text[end - 1])) end--;
  // a dangling preposition or article before the cut ("Paris on" of "city: Paris on June 5")
  const tail = /\s+(?:on|at|in|for|by|from|to|the|a|an)$/i.exec(doc.text.slice(pair.end, end));
  if (tail) end = pair.end + tail.index;
  return end;
}

/** Converts an explicit pair's raw text onto a parameter. */
function pairValue(raw: string, p: ParamInfo): unknown {
  let v: unknown = raw;
  // quoted value: strip the quotes
  if (/^(['"]).*\1$/.test(raw)) v = raw.slice(1, -1);
  else if (raw.startsWith('[')) v = parseListLiteral(raw);
  // a bare (signed, decimal) number
  else if (/^-?\d+(\.\d+)?$/.test(raw)) v = Number(raw);
  // a literal true/false
  else if (/^(true|false)$/i.test(raw)) v = raw.toLowerCase() === 'true';
  if (p.type === 'string' && typeof v !== 'string') v = raw;
  if (p.type === 'array' && Array.isArray(v)) return coerceItems(v, p);
  return coerce(v, p);
}

/** A description's stated default converted onto the parameter (numbers, booleans, enum members, plain strings); undefined when it does not fit. */
function describedValue(raw: string, p: ParamInfo): unknown {
  // a date or time default written as a word ("Defaults to today") is no value in the asked format
  if ((p.semantic === 'date' || p.semantic === 'time' || p.semantic === 'datetime') && !/\d/.test(raw)) return undefined;
  let v: unknown = raw;
  if (p.type === 'integer' || p.type === 'number') v = Number(raw);
  else if (p.type === 'boolean') v = /^true$/i.test(raw) ? true : /^false$/i.test(raw) ? false : undefined;
  else if (p.type !== 'string') return undefined;
  const c = coerce(v, p);
  if (c === undefined || (typeof c === 'number' && !Number.isFinite(c))) return undefined;
  if (p.enumValues) return p.enumValues.find((e) => (typeof e === 'string' && typeof c === 'string' ? squash(e) === squash(c) : e === c));
  return c;
}

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
function mapObject(
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
} {
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
          evidence[p.name] = { score: 1, kind: 'context' };
          continue;
        }
        const v = coerce(f.value, p);
        if (v !== undefined && (!p.enumValues || p.enumValues.includes(v))) {
          setArg(args, p.name, v);
          evidence[p.name] = { score: 1, kind: 'context' };
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
        evidence[p.name] = { score: 0.95, kind: 'pair' };
        taken.push([pair.start, phrase ? phraseEnd : pair.end]);
        if (typeof ev === 'string') valueSpans.set(p.name, [pair.start, phrase ? phraseEnd : pair.end]);
        continue;
      }
    }
    pending.push(p);
  }
  // 2b. score every (parameter, value) pair and assign greedily
  let rank = 0;
  const perDimension = DIMENSIONS.map(() => 0);
  for (const p of params) {
    if ((p.type !== 'integer' && p.type !== 'number') || p.enumValues) continue;
    NUMERIC_RANK.set(p, rank++);
    const d = paramDimension(p);
    if (d >= 0) DIMENSION_RANK.set(p, { d, r: perDimension[d]++ });
  }
  let textRank = 0;
  for (const p of params) if (p.type === 'string' && !p.enumValues) TEXT_RANK.set(p, textRank++);
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
    const own = [...candidatesFor(p, doc), ...namedFolders(p, doc, toolStems), ...singleBestCount(p, doc, toolStems)]
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
  cands.push(...respectively(searched, doc));
  cands.push(...ordinalSeries(searched, doc));
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
        c.score = o.score + 0.01;
  }
  cands.sort((a, b) => b.score - a.score);
  const assigned = new Set<string>(Object.keys(args));
  for (const c of cands) {
    if (assigned.has(c.param.name)) continue;
    // (one of two parameters the description says are needed, one or the other, is nearly required)
    // (so is a property of a required object that marks none of its properties required: lenient)
    const min = c.param.required ? REQUIRED_MIN_SCORE : c.param.eitherOr || lenient ? EITHER_OR_MIN_SCORE : 0.5;
    if (c.score < min) continue;
    if (clashes(c.ranges, taken)) continue;
    setArg(args, c.param.name, c.value);
    if ((typeof c.value === 'string' || (Array.isArray(c.value) && c.value.every((v) => typeof v === 'string'))) && c.ranges.length > 0)
      valueSpans.set(c.param.name, [Math.min(...c.ranges.map((r) => r[0])), Math.max(...c.ranges.map((r) => r[1]))]);
    evidence[c.param.name] = { score: Math.min(1, c.score), kind: c.kind };
    assigned.add(c.param.name);
    for (const r of c.ranges) taken.push(r);
  }
  // 2c. a required text parameter no rule filled, with no default, takes the words that stand
  // where the tool's description puts it, between the same words ("ratings of an instrument from
  // a particular manufacturer": "ratings of piano from Yamaha"); a weak kind, so it rarely
  // carries a call on its own
  for (const p of searched) {
    if (
      assigned.has(p.name) ||
      !p.required ||
      p.type !== 'string' ||
      p.enumValues ||
      depth > 0 ||
      !SLOT_SEMANTICS.has(p.semantic) ||
      p.hasDefault ||
      p.describedDefault !== undefined
    )
      continue;
    const slot = descriptionSlot(toolDescription, p, doc) ?? descriptionSlot(p.description, p, doc);
    if (!slot || clashes([slot], taken)) continue;
    const v = doc.text.slice(slot[0], slot[1]);
    setArg(args, p.name, v);
    valueSpans.set(p.name, slot);
    evidence[p.name] = { score: 0.3, kind: 'slot' };
    assigned.add(p.name);
    taken.push(slot);
  }
  // 3. nested objects: map their own properties from the text the parameters above left
  for (const p of searched.filter((x) => x.type === 'object' && depth < 3)) {
    const subReq = requiredOf(p.schema);
    const sub = mapObject(p.schema, doc, undefined, taken, depth + 1, toolStems, p.required && subReq.length === 0);
    // (a lenient object needs two values, or one found by a clear cue: "2 to 4 bathrooms" leaves a
    // budget's max empty)
    const weakOne =
      p.required && subReq.length === 0 && Object.keys(sub.args).length === 1 && Object.values(sub.evidence).every((e) => e.score < 0.5);
    if (Object.keys(sub.args).length > 0 && sub.missing.length === 0 && !weakOne) {
      setArg(args, p.name, sub.args);
      const scores = Object.values(sub.evidence).map((e) => e.score);
      evidence[p.name] = { score: scores.length ? Math.min(...scores) : 0.3, kind: 'object' };
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
      evidence[p.name] = fitsInOrder ? { score: 0.5, kind: 'positional' } : { score: 0.2, kind: 'order' };
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
      evidence[p.name] = { score: 0.3, kind: 'schema-default' };
      assigned.add(p.name);
    } else if (described !== undefined) {
      setArg(args, p.name, described);
      evidence[p.name] = { score: 0.25, kind: 'described-default' };
      assigned.add(p.name);
    } else if (p.type === 'boolean') {
      setArg(args, p.name, false);
      evidence[p.name] = { score: 0.3, kind: 'flag-default' };
      assigned.add(p.name);
    } else if (p.enumValues) {
      const dc = p.enumValues.find((v) => typeof v === 'string' && DONTCARE.has(v.toLowerCase()));
      if (dc !== undefined) {
        setArg(args, p.name, dc);
        evidence[p.name] = { score: 0.3, kind: 'enum-default' };
        assigned.add(p.name);
      }
    }
  }
  const missing = params.filter((p) => p.required && !assigned.has(p.name)).map((p) => p.name);
  const mentionedUnfilled =
    depth === 0 ? searched.filter((p) => !p.required && !assigned.has(p.name) && anchorHits(p, doc).some((h) => h.w >= 1)).length : 0;
  // keep schema order
  const ordered: Record<string, unknown> = {};
  for (const p of params) if (Object.hasOwn(args, p.name)) setArg(ordered, p.name, args[p.name]);
  return { args: ordered, missing, evidence, mentionedUnfilled, valueSpans };
}

/** Determiners a description or request puts before a noun ("a", "the", "your"). */
const SLOT_DETERMINERS = new Set([
  'a',
  'an',
  'the',
  'this',
  'that',
  'these',
  'those',
  'some',
  'any',
  'one',
  'each',
  'my',
  'your',
  'their',
  'its',
  'his',
  'her',
  'our',
]);
/** Words with which a description says "whichever one you name" ("the specified namespace", "a particular manufacturer"). */
const SLOT_VAGUE = new Set([
  'specific',
  'specified',
  'particular',
  'given',
  'certain',
  'desired',
  'target',
  'provided',
  'selected',
  'chosen',
  'requested',
  'relevant',
  'corresponding',
  'respective',
  'input',
  'user',
  'new',
]);
/** Prepositions that open a description's slot ("of an instrument", "in the specified namespace"). */
const SLOT_PREPOSITIONS = new Set([
  'of',
  'in',
  'for',
  'from',
  'about',
  'on',
  'at',
  'with',
  'to',
  'by',
  'into',
  'within',
  'near',
  'during',
  'under',
  'over',
  'between',
  'among',
  'via',
  'as',
]);
/** Words that end a slot's value in the request (a preposition, a conjunction, a relative word, a copula). */
const SLOT_VALUE_END = new Set([
  ...SLOT_PREPOSITIONS,
  'and',
  'or',
  'but',
  'that',
  'which',
  'who',
  'where',
  'when',
  'is',
  'are',
  'was',
  'were',
  'please',
  'if',
  'so',
  'than',
  'then',
  'because',
  'while',
  'using',
  'based',
]);
/** Possessives: "in my area", "of your files" refer to something of the writer's without naming it. */
const SLOT_POSSESSIVES = new Set(['my', 'your', 'our', 'their', 'his', 'her', 'its']);
/** Nouns that stand for a value without being one ("the weather in the area", "the price of something"). */
const SLOT_GENERIC = new Set([
  'breakfast',
  'brunch',
  'lunch',
  'lunchtime',
  'dinner',
  'dinnertime',
  'supper',
  'night',
  'morning',
  'afternoon',
  'evening',
  'weekend',
  'noon',
  'midnight',
  'tonight',
  'later',
  'soon',
  'home',
  'work',
  'area',
  'place',
  'places',
  'location',
  'region',
  'thing',
  'things',
  'something',
  'anything',
  'everything',
  'stuff',
  'case',
  'way',
  'world',
  'one',
  'ones',
  'list',
  'lot',
  'bit',
  'kind',
  'sort',
  'moment',
  'time',
  'question',
  'request',
  'following',
  'future',
  'past',
  'meantime',
  'general',
  'detail',
  'details',
  'here',
  'there',
  'now',
  'today',
  'tomorrow',
  'yesterday',
  'same',
  'other',
  'others',
  'rest',
  'whole',
  'total',
  'average',
  'result',
  'results',
  'data',
  'info',
  'information',
]);
/** Words that say which one without naming it ("the current directory", "the latest version"). */
const SLOT_WHICH = new Set([
  'current',
  'same',
  'whole',
  'entire',
  'other',
  'following',
  'existing',
  'latest',
  'previous',
  'next',
  'last',
  'first',
  'main',
  'old',
  'right',
  'wrong',
  'usual',
]);
/** Kinds of parameter a description's slot may fill: names and plain text (paths, places, dates and identifiers have rules of their own). */
const SLOT_SEMANTICS: ReadonlySet<string> = new Set(['generic', 'name', 'text']);
/** Name parts that say nothing of what a parameter holds. */
const SLOT_EMPTY_PARTS = new Set(['name', 'id', 'type', 'valu', 'str']);
/** Tokenised descriptions, each token marked where punctuation separates it from the one before (bounded cache: descriptions repeat across requests). */
const slotTokenCache = new Map<string, SlotToken[]>();
/** The request's tokens so marked, once per request. */
const SLOT_REQUEST_TOKENS = new WeakMap<Doc, SlotToken[]>();
/** A token, marked `brk` when punctuation (not a quote) stands between it and the token before; the first always is. */
type SlotToken = Token & { brk: boolean };

/** Tokens of a text, each marked `brk` (SlotToken). */
function slotTokens(text: string, tokens: readonly Token[] = tokenize(text)): SlotToken[] {
  return tokens.map((x, i) => ({ ...x, brk: i === 0 || /[^\s'"’‘“”]/.test(text.slice(tokens[i - 1].end, x.start)) }));
}

/** A description's tokens (cached). */
function descriptionTokens(text: string): SlotToken[] {
  let out = slotTokenCache.get(text);
  if (!out) {
    out = slotTokens(text);
    if (slotTokenCache.size >= 5000) slotTokenCache.clear();
    slotTokenCache.set(text, out);
  }
  return out;
}

/** Where a description puts a parameter: the preposition before its slot, the content words just before that, the word right after the slot, and whether the slot says "whichever one you name" ("the specified namespace"). */
interface DescribedSlot {
  prep: string;
  before: Set<string>;
  closing: string | undefined;
  named: boolean;
}

/** The slots a description gives a parameter whose name's words are `head` (stems), in description order. */
function describedSlots(d: readonly SlotToken[], head: readonly string[]): DescribedSlot[] {
  const out: DescribedSlot[] = [];
  for (let j = 0; j + head.length <= d.length; j++) {
    if (!head.every((s, k) => d[j + k].stem === s && (k === 0 || !d[j + k].brk))) continue;
    let i = j;
    let named = false;
    while (i > 0 && !d[i].brk && (SLOT_DETERMINERS.has(d[i - 1].lower) || SLOT_VAGUE.has(d[i - 1].lower))) {
      i--;
      if (SLOT_VAGUE.has(d[i].lower)) named = true;
    }
    if (i === 0 || d[i].brk || !SLOT_PREPOSITIONS.has(d[i - 1].lower)) continue;
    const before = new Set<string>();
    for (let k = i - 2; k >= Math.max(0, i - 4); k--) {
      if (!STOP_WORDS.has(d[k].lower)) before.add(d[k].stem);
      if (d[k].brk) break;
    }
    const after = d[j + head.length];
    if (before.size > 0) out.push({ prep: d[i - 1].lower, before, closing: after && !after.brk ? after.lower : undefined, named });
  }
  return out;
}

/**
 * The request's words that stand where a description puts the parameter, between the same
 * words. The description names the parameter after a preposition, with a content word at most
 * three words before it ("ratings of an instrument from a particular manufacturer", "services
 * available in the specified namespace"); the request has that preposition with one of those
 * words before it, and then one to three words that either end at the word that follows the
 * slot in the description ("ratings of piano from Yamaha" → piano) or are followed by the
 * parameter's own head noun where the description leaves the name to the user or the value is
 * written as a name ("services are in the default namespace" for "in the specified namespace"
 * → default; "the Marketing team"; not "reviews of cheap hotels"). The value
 * stops at any function word or punctuation, and is none of: a possessive's ("in my area"), a
 * generic noun ("in the area"), a number, a date or time ("at noon for 4 people"), a word that
 * only says which ("the current directory"), nor the head of a longer phrase ("on the basis of
 * rating"). A slot the description ends, with nothing after it to match, fills nothing: else
 * "Find books by popularity" would give an author and "List pods in the cluster" a namespace
 * that way. Returns the value's character range in the request, or undefined.
 */
function descriptionSlot(description: string, p: ParamInfo, doc: Doc): [number, number] | undefined {
  if (!description) return undefined;
  const head = splitIdentifier(p.name)
    .map(stem)
    .filter((s) => !SLOT_EMPTY_PARTS.has(s));
  if (head.length === 0 || head.length > 3) return undefined;
  const slots = describedSlots(descriptionTokens(description), head);
  if (slots.length === 0) return undefined;
  let r = SLOT_REQUEST_TOKENS.get(doc);
  if (!r) SLOT_REQUEST_TOKENS.set(doc, (r = slotTokens(doc.text, doc.tokens)));
  const datedOrCounted = (start: number, end: number): boolean =>
    doc.spans.some((s) => ['date', 'time', 'number'].includes(s.kind) && s.start < end && start < s.end);
  for (const { prep, before, closing, named } of slots) {
    for (let a = 1; a < r.length - 1; a++) {
      if (r[a].lower !== prep) continue;
      let anchored = false;
      for (let k = a - 1; k >= Math.max(0, a - 3) && !anchored; k--) {
        anchored = before.has(r[k].stem);
        if (r[k].brk) break;
      }
      if (!anchored) continue;
      let b = a + 1;
      if (b < r.length && SLOT_POSSESSIVES.has(r[b].lower)) continue;
      while (b < r.length && !r[b].brk && SLOT_DETERMINERS.has(r[b].lower)) b++;
      if (b >= r.length || r[b].brk || SLOT_WHICH.has(r[b].lower)) continue;
      let e = b;
      while (
        e < r.length &&
        e - b < 4 &&
        (e === b || !r[e].brk) &&
        r[e].lower !== closing &&
        !STOP_WORDS.has(r[e].lower) &&
        !SLOT_VALUE_END.has(r[e].lower)
      )
        e++;
      let words = r.slice(b, e);
      const next = r[e];
      // the slot's closing word right after the value, or the parameter's head noun ending it
      const closed = closing !== undefined && next !== undefined && !next.brk && next.lower === closing;
      // (the head noun after a name: where the description leaves the name to the user, or the
      // value is written as a name; not a kind of it, "reviews of cheap hotels")
      const echoed = words.length > head.length && head.every((s, k) => words[words.length - head.length + k].stem === s);
      if (echoed) words = words.slice(0, words.length - head.length);
      if (echoed && !closed && !named && !words.every((w) => /^\p{Lu}|[\d_-]/u.test(doc.text.slice(w.start, w.end)))) continue;
      if ((!closed && !echoed) || words.length === 0 || words.length > 3) continue;
      // (a value that heads a longer noun phrase is no value: "on the basis of rating")
      if (next !== undefined && !next.brk && next.lower === 'of') continue;
      if (
        words.some(
          (w) =>
            SLOT_VAGUE.has(w.lower) ||
            SLOT_GENERIC.has(w.lower) ||
            SLOT_WHICH.has(w.lower) ||
            /^\d/.test(w.lower) ||
            Object.hasOwn(NUMBER_WORDS, w.lower),
        )
      )
        continue;
      const start = words[0].start;
      const end = words[words.length - 1].end;
      if (datedOrCounted(start, end)) continue;
      return [start, end];
    }
  }
  return undefined;
}

/** Words before "folder"/"directory" that say which one without naming it ("the new folder", "the current directory"). */
const NOT_A_FOLDER = new Set([
  'new',
  'current',
  'same',
  'this',
  'that',
  'parent',
  'whole',
  'entire',
  'other',
  'following',
  'given',
  'specified',
  'right',
  'correct',
  'wrong',
  'empty',
  'shared',
  'working',
  'home',
  'root',
  'my',
  'your',
  'our',
  'their',
  'his',
  'her',
  'its',
  'a',
  'an',
  'the',
  'one',
  'each',
  'every',
  'any',
  'some',
  'which',
  'what',
  'separate',
  'different',
  'specific',
  'temp',
  'temporary',
  'hidden',
]);

/**
 * A folder named in words, for the path of a tool that works on directories (a path parameter
 * named or described as a directory or folder, or any path of a tool whose name says directory or
 * folder: server-filesystem's list_directory, create_directory): "the notes folder", "a directory
 * called scratch", "make a folder named reports", "list files in notes/" → notes, scratch,
 * reports, notes. A word that only says which folder ("the new folder", "the current directory")
 * names none.
 */
function namedFolders(p: ParamInfo, doc: Doc, toolStems: ReadonlySet<string>): Cand[] {
  if (p.semantic !== 'path' || p.type !== 'string') return [];
  const dirParam = /\b(?:dir|directory|directories|folder|folders)\b/i.test(`${p.parts.join(' ')} ${p.description}`);
  if (!dirParam && !toolStems.has('directori') && !toolStems.has('dir') && !toolStems.has('folder')) return [];
  const out: Cand[] = [];
  const push = (name: string, start: number): void => {
    if (NOT_A_FOLDER.has(name.toLowerCase())) return;
    out.push({ param: p, value: name, score: 0.55, ranges: [[start, start + name.length]], kind: 'folder' });
  };
  for (const m of doc.text.matchAll(/\b(?:the|a|an|my|our|your)\s+([A-Za-z0-9_][\w.-]{0,63})\s+(?:folder|directory|dir)\b/gi))
    push(m[1], m.index + m[0].indexOf(m[1], m[0].indexOf(' ')));
  for (const m of doc.text.matchAll(/\b(?:folder|directory|dir)\s+(?:called|named|titled)\s+['"“‘]?([A-Za-z0-9_][\w.-]{0,63})/gi))
    push(m[1], m.index + m[0].length - m[1].length);
  for (const m of doc.text.matchAll(/(?<![\w/.~-])([A-Za-z0-9_][\w.-]{0,63})\/(?=\s|$|[?.,!;:)])/g)) push(m[1], m.index);
  return out;
}

/**
 * Is a candidate value nothing but words of the tool's own name ("Walmart" for
 * walmart.check_price's store_location)? Quoted spans (the user's own words) and enum values
 * are not. mapObject leaves an optional parameter whose best candidate is such a value out: the
 * value names the tool's subject, which the tool already serves. A required one keeps it: for get_tokyo_weather's
 * city, "Tokyo" is right, and dropping it let another place ("from Osaka") take its slot.
 */
function echoesToolName(c: Cand, toolStems: ReadonlySet<string>): boolean {
  if (typeof c.value !== 'string' || toolStems.size === 0 || c.kind.includes('quoted') || c.param.enumValues) return false;
  if (c.kind === 'modifier') return toolStems.has(stem(c.value.toLowerCase()));
  const words = letterDigitRuns(c.value.toLowerCase());
  return words.length > 0 && words.length <= 3 && words.every((w) => toolStems.has(stem(w)));
}

/** Is a value that repeats the tool's name still of its parameter's kind: a known place for a place parameter, or a language, country, currency or unit parameter's value? (The musical-scale modifier is not.) */
function echoFitsKind(c: Cand): boolean {
  if (c.kind === 'modifier' || typeof c.value !== 'string') return false;
  if (['language', 'country', 'currency', 'unit'].includes(c.param.semantic)) return true;
  if (!['place', 'origin', 'destination'].includes(c.param.semantic)) return false;
  const v = c.value.toLowerCase();
  return c.kind.includes('place') || v in US_STATES || US_CITIES.has(v) || WORLD_CITIES.has(v) || COUNTRY_ALIAS_NAMES.has(v);
}

/** Words that label a value rather than being one ("order ID is 123", "host IP 10.0.0.1", "component UUID AB10"). */
const LABEL_WORDS = new Set([
  'id',
  'ids',
  'ip',
  'api',
  'uuid',
  'guid',
  'url',
  'uri',
  'key',
  'code',
  'number',
  'no',
  'num',
  'name',
  'email',
  'sku',
  'isbn',
  'token',
  'serial',
]);

/**
 * A string candidate without the words that only label it: dropped when it is nothing but its
 * parameter's own name words or label words ("ID" for order_id), else a leading label word is cut
 * ("UUID AB1010CD" -> "AB1010CD"). Quoted spans are the user's own words and stay as written.
 */
/** The lower-case words of a parameter's name, by parameter (withoutLabel reads them for every candidate value). */
const OWN_WORDS = new WeakMap<ParamInfo, Set<string>>();

function withoutLabel(c: Cand): Cand[] {
  if (c.kind.includes('quoted')) return [c];
  let own = OWN_WORDS.get(c.param);
  if (own === undefined) OWN_WORDS.set(c.param, (own = new Set(splitIdentifier(c.param.name).map((w) => w.toLowerCase()))));
  const isLabel = (w: string): boolean => LABEL_WORDS.has(w.toLowerCase()) || own.has(w.toLowerCase());
  // a choice of the parameter's enum is kept whole or dropped, never cut: "Email Newsletter" is
  // that choice, not "Newsletter" after a label (cut, the value would leave the enum); a choice
  // of label words alone is no value ("no")
  if (c.param.enumValues && typeof c.value === 'string') return c.value.trim().split(/\s+/).every(isLabel) ? [] : [c];
  // a one-item list of a label word ("network ID" -> ["ID"]) is no value either
  if (Array.isArray(c.value) && c.value.length === 1 && typeof c.value[0] === 'string' && c.value[0].trim().split(/\s+/).every(isLabel))
    return [];
  // a list item opened by a label word loses it ("the items with IDs ITM456 and ITM789" → ITM456)
  if (Array.isArray(c.value) && c.value.every((v) => typeof v === 'string')) {
    const written = c.value as string[];
    // (only before an identifier: "Key West" and "Code Monkey" are names)
    const items = written.map((v) => {
      const words = v.trim().split(/\s+/);
      const rest = words.slice(1).join(' ');
      return words.length > 1 && LABEL_WORDS.has(words[0].toLowerCase()) && /\d/.test(rest) && /^[\w.-]+$/.test(rest) ? rest : v;
    });
    return items.some((v, i) => v !== written[i]) ? [{ ...c, value: items }] : [c];
  }
  if (typeof c.value !== 'string') return [c];
  const words = c.value.trim().split(/\s+/);
  if (words.every(isLabel)) return [];
  if (words.length > 1 && LABEL_WORDS.has(words[0].toLowerCase())) return [{ ...c, value: words.slice(1).join(' ') }];
  // a label glued to its value ("id:3", "sku=A-17")
  const glued = /^([A-Za-z]+)[:=]([^\s:=].*)$/.exec(c.value.trim());
  if (glued && LABEL_WORDS.has(glued[1].toLowerCase())) return [{ ...c, value: glued[2] }];
  return [c];
}

/** Evidence kinds that were right less often on dev (bare names, phrases, reading order, whole request, defaults). */
const WEAK_KINDS = new Set([
  'slot',
  'per-unit',
  'enum-partial',
  'proper',
  'phrase',
  'whole',
  'order',
  'id',
  'modifier',
  'object',
  'path',
  'flag-default',
  'enum-default',
  'schema-default',
  'described-default',
  'single-quoted',
  'single-proper',
  'single-id',
  'single-path',
  'single-example',
  'single-time',
  'datetime',
  'word-list',
]);

/**
 * The whole request as a value, without a first word that names the tool's own action: "Reverse
 * say hi" for reverse_input is "say hi" (the word asks for the tool; the rest is what it works on).
 */
function withoutToolVerb(c: Cand, toolStems: ReadonlySet<string>): Cand {
  if (c.kind !== 'whole' || typeof c.value !== 'string') return c;
  const m = /^(\p{L}+)[\s:,]+(\S[\s\S]*)$/u.exec(c.value);
  // (a tool named by two words or more; one named by one word where a short value follows, "echo
  // hi", and no verb in it says the word was its subject: "Echo chambers are dangerous" for a
  // tool named echo keeps its words)
  // (and a "that" after it: "Post that the launch went great" posts "the launch went great")
  const short =
    m !== null &&
    toolStems.size === 1 &&
    m[2].trim().split(/\s+/).length <= 4 &&
    !/^\S+\s+(?:is|are|was|were|has|have|had|can|could|will|would|should|do|does|did)\b/i.test(m[2]);
  return m && (toolStems.size >= 2 || short) && toolStems.has(stem(m[1].toLowerCase())) && !STOP_WORDS.has(m[1].toLowerCase())
    ? { ...c, value: m[2].replace(/^that\s+(?=\S)/i, '') }
    : c;
}

/** Stems of the words of a tool's name ("bfcl:musical_scale:56771ee8" → music, scale, …), cached. */
const TOOL_NAME_STEMS = new Map<string, ReadonlySet<string>>();
function toolNameStems(name: string): ReadonlySet<string> {
  let out = TOOL_NAME_STEMS.get(name);
  if (!out) {
    out = new Set(splitIdentifier(name).map((w) => stem(w.toLowerCase())));
    if (TOOL_NAME_STEMS.size > 10_000) TOOL_NAME_STEMS.clear();
    TOOL_NAME_STEMS.set(name, out);
  }
  return out;
}

/** Joins the request and a context string into one text; a context object is kept apart. */
function textOf(request: string, context?: Record<string, unknown> | string): { text: string; ctx?: Record<string, unknown> } {
  const req = typeof request === 'string' ? request : '';
  if (typeof context === 'string') return { text: context.trim() ? `${req}\n${context}` : req };
  if (isObj(context)) return { text: req, ctx: context };
  return { text: req };
}

/** Analyses request + context once (shared across candidate tools). */
export function prepare(
  request: string,
  context?: Record<string, unknown> | string,
  options: MapArgumentsOptions = {},
): { doc: Doc; ctx?: Record<string, unknown> } {
  const { text, ctx } = textOf(request, context);
  return { doc: analyze(text.slice(0, 20_000), options.now ?? todayUtc()), ctx };
}

/** Maps a prepared request onto a tool's schema, with evidence. */
export function mapPrepared(tool: MapperTool, doc: Doc, ctx?: Record<string, unknown>): DetailedMapping {
  const schema = isObj(tool.inputSchema) ? tool.inputSchema : { type: 'object', properties: {} };
  const taken: [number, number][] = [];
  const { args, missing, evidence, mentionedUnfilled, valueSpans } = mapObject(
    schema,
    doc,
    ctx,
    taken,
    0,
    toolNameStems(tool.name),
    false,
    tool.description ?? '',
  );
  const params = paramsOf(schema);
  const required = params.filter((p) => p.required);
  const filled = required.filter((p) => Object.hasOwn(args, p.name)).length;
  const salient = doc.spans.filter(isSalient);
  const unusedSpans = salient.filter((s) => !taken.some(([a, b]) => s.start < b && a < s.end));
  return {
    arguments: args,
    missingArguments: missing,
    filledRatio: required.length === 0 ? 1 : filled / required.length,
    evidence,
    unusedSalient: unusedSpans.length,
    // (a number inside an unused date is not listed again: "2024-05-01", not also "2024", "05", "01";
    // and only values of a kind some parameter takes: "I'm 30" is no value left out of a weather call)
    unusedValues: unusedSpans
      .filter(
        (sp) =>
          !unusedSpans.some((o) => o !== sp && o.start <= sp.start && o.end >= sp.end && o.end - o.start > sp.end - sp.start) &&
          params.some((p) => takesKind(p, sp.kind)),
      )
      .slice(0, MAX_UNUSED_SHOWN)
      .map((sp) => sp.text),
    coordinated: coordinatedValues(doc.text, valueSpans, taken),
    salient: salient.length,
    covered: taken,
    mentionedUnfilled,
    weakKinds: Object.values(evidence).filter((e) => WEAK_KINDS.has(e.kind)).length,
    requiredCount: required.length,
    paramCount: params.length,
    datesAsWritten: datesAsWritten(doc, args),
  };
}

/** A date written in figures: year, month and day with one separator ("2023-05-12", "04/07/2023", "2023.4.11"). */
const FIGURE_DATE = /^(?:\d{4}([-/.])\d{1,2}\1\d{1,2}|\d{1,2}([-/.])\d{1,2}\2\d{4})$/;

/** The order a date in figures is written in: year first, or year last. */
function figureOrder(text: string): 'ymd' | 'dmy' {
  return /^\d{4}/.test(text) ? 'ymd' : 'dmy';
}

/**
 * DetailedMapping.datesAsWritten of a mapping's top-level arguments: a date value in the order the
 * request writes its dates in (year first or year last; separators and zero padding aside) counts
 * as written.
 */
function datesAsWritten(doc: Doc, args: Record<string, unknown>): number {
  const orders = new Set(
    doc.spans.filter((s) => s.kind === 'date' && FIGURE_DATE.test(s.text.trim())).map((s) => figureOrder(s.text.trim())),
  );
  if (orders.size !== 1) return 0;
  const [written] = orders;
  let sum = 0;
  for (const v of Object.values(args)) {
    // (a four-digit year first or last: "10.0.0.5" is an address)
    if (typeof v !== 'string' || !/^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4})(?!\d)/.test(v)) continue;
    sum += figureOrder(v) === written ? 1 : -1;
  }
  return Math.max(-1, Math.min(1, sum));
}

/**
 * Sets one argument as an own property, whatever its name: a parameter named "__proto__" is an
 * argument like any other, not the object's prototype (a plain assignment would drop it and
 * report nothing missing).
 */
function setArg(args: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(args, name, { value, enumerable: true, writable: true, configurable: true });
}

/** Maps a request (and context) onto a tool's JSON Schema; never emits an argument outside the schema nor invents a required value. */
export function mapArguments(
  tool: MapperTool,
  request: string,
  context?: Record<string, unknown> | string,
  options: MapArgumentsOptions = {},
): { arguments: Record<string, unknown>; missingArguments: string[]; filledRatio: number } {
  try {
    const { doc, ctx } = prepare(request, context, options);
    const m = mapPrepared(tool, doc, ctx);
    return { arguments: m.arguments, missingArguments: m.missingArguments, filledRatio: m.filledRatio };
  } catch {
    const req = requiredOf(tool?.inputSchema);
    return { arguments: {}, missingArguments: req, filledRatio: req.length === 0 ? 1 : 0 };
  }
}

/**
 * What follows a value when the request joins another value to it: "and" or "&" (after an
 * optional comma), at most two lower-case words ("the entity"), then a capitalised word or a
 * number. A bare comma does not join ("Paris, France" is one place).
 */
const COORDINATED = /^\s*,?\s*(?:and|&)\s+(?:[a-z]+\s+){0,2}?(?!I\b|I['’])([A-Z][\w.'-]*|\d[\w.,:-]*)/;

/**
 * The same join written before the value: a capitalised word or a number, "and" or "&", at most
 * two lower-case words, then the value ("JNJ and AAPL" for a ticker that took AAPL).
 */
const COORDINATED_BEFORE = /(?:^|[^\w'’])((?!I\b)[A-Z][\w.'-]*|\d[\w.,:-]*)\s*,?\s*(?:and|&)\s+(?:[a-z]+\s+){0,2}$/;

/**
 * A list of codes or numbers joined by a comma or "or" ("AAPL, MSFT", "AAPL or MSFT"): read as
 * joined only when the value itself is a code or a number, since "Paris, France" is one place.
 */
const CODE_AFTER = /^\s*(?:,\s*(?:or\s+)?|or\s+)([A-Z]{2,}[A-Z0-9.]*|\d[\d.,:-]*)\b/;
const CODE_BEFORE = /(?:^|[^\w])([A-Z]{2,}[A-Z0-9.]*|\d[\d.,:-]*)\s*(?:,\s*(?:or\s+)?|\s+or\s+)$/;

/** Names of the parameters whose value the request joins to another value that no argument took (DetailedMapping.coordinated). */
function coordinatedValues(text: string, valueSpans: ReadonlyMap<string, [number, number]>, taken: readonly [number, number][]): string[] {
  const out: string[] = [];
  // a joined word that labels a value another argument took is no second value ("vector A [3, 2, 1]
  // and vector B [1, 2, 3]": B labels vector2's list)
  const free = (at: number, len: number): boolean => !taken.some(([a, b]) => a < at + len + 3 && at < b);
  for (const [name, [start, end]] of valueSpans) {
    const value = text.slice(start, end).trim();
    const code = /^(?:[A-Z]{2,}[A-Z0-9.]*|\d[\d.,:-]*)$/.test(value);
    const after = text.slice(end, end + 80);
    const before = text.slice(Math.max(0, start - 80), start);
    const fwd = COORDINATED.exec(after) ?? (code ? CODE_AFTER.exec(after) : null);
    if (fwd && free(end + fwd.index + fwd[0].length - fwd[1].length, fwd[1].length)) {
      out.push(name);
      continue;
    }
    const back = COORDINATED_BEFORE.exec(before) ?? (code ? CODE_BEFORE.exec(before) : null);
    if (back) {
      const at = start - before.length + back.index + back[0].indexOf(back[1]);
      if (!taken.some(([a, b]) => a < at + back[1].length && at < b)) out.push(name);
    }
  }
  return out;
}

/**
 * Could a parameter take a value of this span kind? Numbers go to numeric parameters (or lists of
 * numbers) and ids; dates to date and date-time parameters; quoted text to any free string; URLs,
 * e-mail addresses and paths to parameters of that kind or free strings; lists to arrays.
 */
function takesKind(p: ParamInfo, kind: string): boolean {
  const freeString = p.type === 'string' && !p.enumValues;
  switch (kind) {
    case 'number':
      return (
        p.type === 'integer' ||
        p.type === 'number' ||
        (p.type === 'array' && (p.itemType === 'integer' || p.itemType === 'number')) ||
        (freeString && p.semantic === 'id')
      );
    case 'date':
      return p.semantic === 'date' || p.semantic === 'datetime';
    case 'quoted':
      return freeString || (p.type === 'array' && p.itemType === 'string');
    case 'url':
    case 'email':
    case 'path':
      return (
        (freeString &&
          (p.semantic === kind ||
            p.semantic === 'generic' ||
            p.semantic === 'text' ||
            p.semantic === 'id' ||
            (kind === 'email' && p.semantic === 'name'))) ||
        (p.type === 'array' && p.itemType === 'string')
      );
    case 'list':
      return p.type === 'array';
    default:
      return true;
  }
}

/** Most unused request values a mapping lists (DetailedMapping.unusedValues). */
const MAX_UNUSED_SHOWN = 5;

/** Exposed for selection features: content stems of a text. */
export { contentStems };
