/**
 * Scoring shared by the string value kinds: the base fit of each span kind (KIND_FIT), role cues
 * before a name ("songs by X", "directed by X"), and a span's text as a string value.
 */
import { type Doc, type Span } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { KNOWN_COUNTRIES } from './data/places.js';
import { ROLE_SCORES as R } from './data/scores/roles.js';
import { formatDate, formatTime } from './dates.js';
import { formatPlace, isoCountry } from './places.js';
import { type Score } from './scores.js';

/**
 * A chain's or brand's name without the kind of business the parameter names at its end ("Hilton
 * Hotel" → "Hilton" for hotel_chain, "Subway Restaurants" → "Subway" for restaurant_chain). Other
 * parameters keep the name as written ("Hilton Hotel" for hotel_name).
 */
export function chainName(value: string | undefined, p: ParamInfo): string | undefined {
  if (value === undefined || !p.parts.some((x) => CHAIN_PARTS.has(x))) return value;
  const m = /^(.+?)\s+(\p{L}+)$/u.exec(value.trim());
  if (!m) return value;
  const last = m[2].toLowerCase().replace(/s$/, '');
  return p.parts.some((x) => !CHAIN_PARTS.has(x) && x.replace(/s$/, '') === last) ? m[1] : value;
}

/** Name parts of a parameter for a chain or brand of businesses. */
const CHAIN_PARTS: ReadonlySet<string> = new Set(['chain', 'brand', 'franchise']);

/** Converts a span into a string value for a string parameter (format-aware). */
export function stringFor(s: Span, p: ParamInfo, doc: Doc): string | undefined {
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

/** kindFit's scores: per semantic, the base score of each span kind (built once, not on each call; `.v` read on each). */
const KIND_FIT: Record<string, Partial<Record<Span['kind'], Score>>> = {
  date: { date: R.dateForDate, quoted: R.quotedForDate },
  datetime: { date: R.dateForDatetime, quoted: R.quotedForDatetime },
  time: { time: R.timeForTime, quoted: R.quotedForTime },
  email: { email: R.emailForEmail, quoted: R.quotedForEmail, proper: R.properForEmail },
  url: { url: R.urlForUrl, quoted: R.quotedForUrl, id: R.idForUrl },
  path: { path: R.pathForPath, quoted: R.quotedForPath, url: R.urlForPath },
  place: { place: R.placeForPlace, proper: R.properForPlace, quoted: R.quotedForPlace },
  origin: { place: R.placeForOrigin, proper: R.properForOrigin, quoted: R.quotedForOrigin, id: R.idForOrigin },
  destination: { place: R.placeForDestination, proper: R.properForDestination, quoted: R.quotedForDestination, id: R.idForDestination },
  id: { id: R.idForId, quoted: R.quotedForId, number: R.numberForId, proper: R.properForId, email: R.emailForId, url: R.urlForId },
  name: { quoted: R.quotedForName, proper: R.properForName, id: R.idForName, place: R.placeForName, email: R.emailForName },
  text: { quoted: R.quotedForText, proper: R.properForText, id: R.idForText },
  generic: {
    quoted: R.quotedForGeneric,
    proper: R.properForGeneric,
    id: R.idForGeneric,
    place: R.placeForGeneric,
    url: R.urlForGeneric,
    email: R.emailForGeneric,
    path: R.pathForGeneric,
    number: R.numberForGeneric,
  },
  country: { place: R.placeForCountry, proper: R.properForCountry, quoted: R.quotedForCountry },
  language: { proper: R.properForLanguage, quoted: R.quotedForLanguage },
  unit: { quoted: R.quotedForUnit },
  currency: { quoted: R.quotedForCurrency, id: R.idForCurrency },
};

/** Base score of a span kind for a string parameter of a given semantic. */
export function kindFit(kind: Span['kind'], p: ParamInfo): number {
  return KIND_FIT[p.semantic]?.[kind]?.v ?? 0;
}

/** Words before a name that say which role it plays ("songs by X", "directed by X", "starring X"). */
/** Name parts of a parameter for the people acting in a film. */
const CAST_ROLE = /\b(cast|actor|actors|starring|star|stars|actress)\b/;

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
export function cueBonus(p: ParamInfo, doc: Doc, s: Span): number {
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
      return R.roleCueBefore.v;
  }
  return 0;
}
