/**
 * Value kind "places": a place formatted for a parameter ("City, State", "City, Country",
 * country codes), the region after a city, administrative areas.
 */
import { type Doc, type Span } from '../extract.js';
import { LEADING_WORDS, US_CITIES, US_STATES, US_STATE_CODES, WORLD_CITIES } from '../lexicon.js';
import { type ParamInfo } from '../schema.js';
import { AREA_KINDS, COUNTRY_ALIASES, COUNTRY_CODE_BY_NAME, KNOWN_COUNTRIES, UK_ABBREVIATIONS } from './data/places.js';
import { PLACE_SCORES } from './data/scores/places.js';
import { stringParam } from './dispatch.js';
import { type Cand, type ValueKindModule } from './types.js';

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
export function formatPlace(s: Span, p: ParamInfo): string {
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
  const st = US_CITIES.get(city.toLowerCase());
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

/**
 * A country written by name for a country parameter that asks for ISO 3166-1 alpha-2 codes ("Use
 * ISO 3166-1 alpha-2 country codes", "the two-letter country code"): its code ("the UK" → GB).
 */
export function isoCountry(value: string, p: ParamInfo): string {
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

/**
 * Can the region written after a city fill this country/state parameter? A country parameter takes
 * no US state ("Austin, Texas") and, after a known world city, only that city's own country
 * ("Munich, Bavaria", "Paris, Tomorrow", "Paris, Jean"); a state/province/region parameter takes no
 * known country ("Lyon, France").
 */
export function regionFits(country: boolean, s: Span): boolean {
  const region = s.region!.toLowerCase();
  const city = s.city?.toLowerCase() ?? '';
  if (!country) return !(s.region!.length > 2 && KNOWN_COUNTRIES.has(region));
  const own = WORLD_CITIES.get(city);
  if (own) return own[0].toLowerCase() === region || own[1].toLowerCase() === region || (COUNTRY_ALIASES[own[1]] ?? []).includes(region);
  if (US_CITIES.has(city)) return ['usa', 'us', 'united states', 'america'].includes(region);
  return !Object.hasOwn(US_STATES, region) && !(s.region!.length === 2 && US_STATE_CODES.has(s.region!));
}

/** Value kind "area": an administrative area written with its kind. */
export const AREA_KIND: ValueKindModule = {
  name: 'area',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // an administrative area written with its kind ("Chatuchak District", "Ton Pao Subdistrict",
    // "Orange County") for the parameter named by that kind: the name without the kind word
    out.push(...areaCandidates(p, doc));
  },
};

/**
 * The kind of administrative area a parameter's name is (district, district_name, districtName →
 * "district"; sub_district_name → "subdistrict"; county, province…); undefined for other names
 * (school_district is a school district's name, not an area's).
 */
export function areaKind(p: ParamInfo): (typeof AREA_KINDS)[number] | undefined {
  const joined = p.parts.join('').replace(/name$/, '');
  return AREA_KINDS.find((k) => joined === k);
}

/** Whether another parameter's description names a place span's city ("'1' for Bangkok"). */
export function namedBySibling(p: ParamInfo, s: Span): boolean {
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
    out.push({
      param: p,
      value: keepKind ? `${name} ${m[2]}` : name,
      score: PLACE_SCORES.areaWithKind.v,
      ranges: [[at, m.index + m[0].length]],
      kind: 'area',
    });
  }
  return out;
}
