// Places of a request: "Boston, MA", "Paris, France", known city names, nicknames, airport codes, CJK city names.
import { letterDigitRuns } from '../text.js';
import { US_CITIES, CITY_NICKNAMES, US_STATE_CODES, US_STATES, WORLD_CITIES, WORLD_COUNTRY_NAMES } from '../lexicon.js';
import { AIRPORT_CITIES, CITY_WORDS, CJK_CITIES } from '../data/places.js';
import { titleCase } from './names.js';
import { type Span, push } from './spans.js';

/** A character of the scripts that write words together (Han, Hangul, kana). */
const CJK_CHAR = /[\p{sc=Han}\p{sc=Hangul}\p{sc=Hiragana}\p{sc=Katakana}]/u;

let KNOWN_CITIES: [key: string, city: string, first: string][] | undefined;
/**
 * The city names findPlaces looks for, in its order (US cities, nicknames, the other world
 * cities), each with its written form and its first word (its leading run of letters and digits;
 * '' when it starts with neither). Built once: rebuilding it would take half of each request's analysis.
 */
function knownCities(): [key: string, city: string, first: string][] {
  KNOWN_CITIES ??= [
    ...[...US_CITIES.keys()].map((c): [string, string] => [c, titleCase(c)]),
    ...Object.entries(CITY_NICKNAMES),
    ...[...WORLD_CITIES.keys()].filter((c) => !US_CITIES.has(c)).map((c): [string, string] => [c, titleCase(c)]),
  ].map(([key, city]) => [key, city, /^[\p{L}\p{N}]+/u.exec(key)?.[0] ?? '']);
  return KNOWN_CITIES;
}

let CITIES_BY_FIRST: { byFirst: Map<string, number[]>; noFirst: number[] } | undefined;
/**
 * Places in knownCities() of the names by first word, and of those with none: the names a text
 * can hold as whole words are those whose first word is one of its words.
 */
function citiesByFirst(): { byFirst: Map<string, number[]>; noFirst: number[] } {
  if (CITIES_BY_FIRST === undefined) {
    const byFirst = new Map<string, number[]>();
    const noFirst: number[] = [];
    knownCities().forEach(([, , first], i) => {
      if (first === '') noFirst.push(i);
      else {
        const at = byFirst.get(first);
        if (at === undefined) byFirst.set(first, [i]);
        else at.push(i);
      }
    });
    CITIES_BY_FIRST = { byFirst, noFirst };
  }
  return CITIES_BY_FIRST;
}

/**
 * The known cities findPlaces tries for a text, each once, in knownCities() order: every one
 * where `words` (the text's words, repeats allowed) is undefined, else those whose first word is
 * among `words` and those with no first word.
 */
function citiesToTry(words: readonly string[] | undefined): [key: string, city: string, first: string][] {
  const all = knownCities();
  if (words === undefined) return all;
  const { byFirst, noFirst } = citiesByFirst();
  const places = [...noFirst];
  // (a first word's cities are taken once, however often the text repeats it)
  const taken = new Set<string>();
  for (const w of words) {
    const at = byFirst.get(w);
    if (at === undefined || taken.has(w)) continue;
    taken.add(w);
    places.push(...at);
  }
  return places.sort((x, y) => x - y).map((i) => all[i]);
}

/** A word that makes a name a venue's, not a place's: "Hotel Paradise", "Louvre Museum", "Grand Hyatt Resort". */
const VENUE_WORD =
  /\b(?:Hotel|Motel|Inn|Resort|Hostel|Museum|Gallery|Restaurant|Cafe|Café|Bistro|Bar|Pub|Theater|Theatre|Cinema|Cinemas|Stadium|Arena|Mall|Hospital|Clinic|University|College|School|Church|Cathedral|Temple|Library|Zoo|Aquarium|Casino)\b/;

/** Extracts places: "Boston, MA", "Paris, France", known city names (any case), nicknames (LA, NYC). */
export function findPlaces(text: string, spans: Span[]): void {
  const lower = text.toLowerCase();
  const propers = spans.filter((s) => s.kind === 'proper');
  // "<Proper>, <Proper or state code>" -> place with region
  for (const p of propers) {
    const rest = text.slice(p.end);
    // ", CA" / ", California" / ", Tamil Nadu" / ", UK"
    const r = /^,\s*([A-Z]{2}\b|[A-Z][\p{L}]+(?:\s[A-Z][\p{L}]+)?)/u.exec(rest);
    // (a venue's name before its city is no city: "Hotel Paradise, Las Vegas"; a town whose name
    // holds such a word is, before its state or country: "College Station, TX", "Bar Harbor, ME")
    const venue =
      r !== null &&
      VENUE_WORD.test(p.text) &&
      !US_CITIES.has(p.text.toLowerCase()) &&
      !WORLD_CITIES.has(p.text.toLowerCase()) &&
      !US_STATE_CODES.has(r[1]) &&
      US_STATES[r[1].toLowerCase()] === undefined &&
      !WORLD_COUNTRY_NAMES.has(r[1].toLowerCase());
    if (r && !venue) {
      const region = r[1];
      const key = p.text.toLowerCase();
      const country = US_CITIES.has(key) ? undefined : WORLD_CITIES.get(key);
      push(spans, { kind: 'place', start: p.start, end: p.end + r[0].length, text: `${p.text}, ${region}`, city: p.text, region, country });
    }
  }
  // known US cities and nicknames, any case, as whole words
  // (a key can be found as a whole word only where its first word is one of the text's words: the
  // others are not tried, and those tried are in the same order, so the same places are read)
  // (text with a surrogate pair is scanned for every key: the whole-word test below reads one UTF-16
  // unit, so an astral letter right before a name counts as no letter there, and as one in a run)
  const words = /[\ud800-\udfff]/.test(lower) ? undefined : letterDigitRuns(lower);
  for (const [key, city] of citiesToTry(words)) {
    let from = 0;
    for (;;) {
      const at = lower.indexOf(key, from);
      if (at < 0) break;
      from = at + key.length;
      const before = at === 0 ? ' ' : lower[at - 1];
      const after = lower[at + key.length] ?? ' ';
      // whole words only
      if (/[\p{L}\p{N}]/u.test(before) || /[\p{L}\p{N}]/u.test(after)) continue;
      const raw = text.slice(at, at + key.length);
      // two-letter nicknames must be written in capitals ("LA", not "la"), and "CHI" ("tai chi");
      // other short ones are no English word ("nyc", "atl")
      if ((key.length <= 2 || key === 'chi') && raw !== raw.toUpperCase()) continue;
      // "washington" alone is ambiguous with the state; needs capital W; a city whose name is a
      // common word needs its capital too ("nice attractions", "reading list")
      // (but "nice, france": the city's own country after it says it is the city)
      const ownCountry = WORLD_CITIES.get(key)?.[0].toLowerCase();
      if (
        (key === 'washington' || CITY_WORDS.has(key)) &&
        raw[0] !== raw[0].toUpperCase() &&
        !(ownCountry !== undefined && lower.slice(at + key.length).startsWith(`, ${ownCountry}`))
      )
        continue;
      let end = at + key.length;
      let region: string | undefined;
      // an explicit region written after the city
      const r = /^,?\s*([A-Z]{2}\b|[A-Z][\p{L}]+(?:\s[A-Z][\p{L}]+)?)/u.exec(text.slice(end));
      // (a world city's region after a comma, or its own country without one: "Manchester United"
      // is no place in a country called United)
      const own = WORLD_CITIES.get(key);
      const worldRegion =
        own !== undefined &&
        /^[A-Z]/.test(r?.[1] ?? '') &&
        (r![0].trimStart().startsWith(',') || own.some((c) => c.toLowerCase() === r![1].toLowerCase()));
      if (r && (US_STATE_CODES.has(r[1]) || US_STATES[r[1].toLowerCase()] !== undefined || worldRegion)) {
        region = r[1];
        end += r[0].length;
      }
      const country = US_CITIES.has(key) ? undefined : WORLD_CITIES.get(key);
      // (a city written with capitals keeps them: "Washington DC", not "Washington Dc"; a nickname
      // gives the city's own name: "NYC" → "New York City")
      const written = key === city.toLowerCase() && /^\p{Lu}/u.test(raw) && raw.split(/\s+/).every((w) => /^\p{Lu}/u.test(w)) ? raw : city;
      push(spans, { kind: 'place', start: at, end, text: text.slice(at, end), city: written, region, country });
    }
  }
  // a city written in Chinese, Japanese or Korean ("上海目前的天气", "서울 날씨"): those scripts
  // run words together, so the name is found anywhere in the text; it stands for the city the
  // lexicon knows (its English name and country)
  // (only as a word of its own, told by what follows it: the end, a mark, other text, 市 的 and
  // words of weather, time, travel or joining; not 上海路, 巴黎世家, 香港脚, 上海银行, 深圳北京路)
  const cjk: { at: number; name: string; key: string }[] = [];
  for (const [name, key] of CJK_CITIES) {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
      const after = text.slice(at + name.length);
      if (!(
        after === '' ||
        !CJK_CHAR.test(after[0]) ||
        /^(?:市|的|天气|天氣|今|明|后|後|昨|现在|現在|目前|最近|和|与|與|、|到|出发|出發|飞|飛|去|有|是|怎|什么|什麼|附近)/u.test(after)
      ))
        continue;
      cjk.push({ at, name, key });
    }
  }
  // (in the order written: "上海和北京的天气" is Shanghai first)
  for (const { at, name, key } of cjk.sort((x, y) => x.at - y.at)) {
    const country = WORLD_CITIES.get(key);
    if (country === undefined || spans.some((o) => o.kind === 'place' && o.start < at + name.length && at < o.end)) continue;
    push(spans, { kind: 'place', start: at, end: at + name.length, text: name, city: titleCase(key), country });
  }
  // a major airport's code written for its city ("I am travelling to LAX")
  for (const m of text.matchAll(/\b([A-Z]{3})\b/g)) {
    const city = AIRPORT_CITIES[m[1]];
    if (city === undefined || spans.some((o) => o.kind === 'place' && o.start <= m.index && o.end >= m.index + 3)) continue;
    push(spans, { kind: 'place', start: m.index, end: m.index + 3, text: m[1], city, airport: m[1] });
  }
}
