/**
 * Value kind "spans": a typed span of the request (place, date, time, proper name, quoted text,
 * identifier, e-mail, URL, path) as the value of a string parameter, scored by type fit, by where
 * the parameter's name is written, and by place cues.
 */
import { tokenAt } from '../extract.js';
import { US_CITIES, US_STATES, WORLD_CITIES } from '../lexicon.js';
import { REQUEST_SENTENCE, anchorBonus, clauseBreak, rangeBonus, sentenceOf } from './anchors.js';
import { COUNTRY_ALIAS_NAMES, KNOWN_COUNTRIES, SUBCITY_AREAS } from './data/places.js';
import { SPAN_SCORES as S } from './data/scores/spans.js';
import { PHYSICAL_UNITS, UNIT_ABBREVIATIONS } from './data/units.js';
import { TODAY_BY_DEFAULT, formatDate, isToday } from './dates.js';
import { stringParam } from './dispatch.js';
import { valuesAreWords } from './enums.js';
import { IPV4, IP_PARAM, idLabelled } from './identifiers.js';
import { areaKind, namedBySibling, regionFits } from './places.js';
import { chainName, cueBonus, kindFit, stringFor } from './roles.js';
import { type Cand, type ParamContext, type ValueKindModule } from './types.js';
import { type DateValue, type Doc, type Span } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { foreignUnit } from './units.js';

/** Value kind "spans": every typed span of the request as a string value. */
export const SPANS_KIND: ValueKindModule = {
  name: 'spans',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    for (const s of doc.spans) {
      const c = spanCandidate(p, doc, s, ctx);
      if (c) out.push(c);
    }
  },
};

/** One span as a string value of a parameter, scored; undefined where it is none. */
function spanCandidate(p: ParamInfo, doc: Doc, s: Span, ctx: ParamContext): Cand | undefined {
  const read = spanValue(p, doc, s, ctx);
  if (!read) return undefined;
  const { fit, value, ab } = read;
  let score = fit + ab * (s.kind === 'date' || s.kind === 'time' ? S.dateAnchorShare.v : S.otherAnchorShare.v);
  score = cueScore(p, doc, s, score);
  // (the word before the span: "in", "at", "from" before a place)
  const prev = tokenAt(doc, s.start) - 1;
  const prevWord = prev >= 0 ? doc.tokens[prev].lower : '';
  const placed = placeScore(p, doc, s, value, prevWord, score);
  if (placed === undefined) return undefined;
  score = placed;
  if (s.kind === 'date' || s.kind === 'time' || s.kind === 'place' || s.kind === 'proper') score += rangeBonus(p, doc, s);
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
    return undefined;
  // a datetime parameter takes a time written next to the date
  if (s.kind === 'date' && p.semantic === 'datetime' && s.date) {
    const c = dateTimeCandidate(p, doc, s, s.date, score);
    if (c) return c;
  }
  const kinded = kindScore(p, doc, s, value, score);
  if (kinded === undefined) return undefined;
  score = kinded;
  // an airport written with its code where the description asks for the code ("JFK Airport" -> "JFK")
  const iata = /\b(IATA|airport code)\b/i.test(p.description) ? /^([A-Z]{3})\s+(?:International\s+)?Airport$/.exec(value) : null;
  if (iata) {
    return { param: p, value: iata[1], score, ranges: [[s.start, s.end]], kind: s.kind };
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
  return { param: p, value, score, ranges: [[s.start, cityOnly ? s.start + s.city!.length : s.end]], kind: s.kind };
}

/** The span's text as a string value, its type fit and its name bonus; undefined where it is no value of the parameter. */
function spanValue(p: ParamInfo, doc: Doc, s: Span, ctx: ParamContext): { fit: number; value: string; ab: number } | undefined {
  const { hits, units } = ctx;
  let fit = kindFit(s.kind, p);
  // an IPv4 address for a parameter that holds one ("ip", "host", "server address")
  if (s.kind === 'id' && IPV4.test(s.text) && IP_PARAM.test(`${p.parts.join(' ')} ${p.description}`))
    fit = Math.max(fit, S.ipv4FitFloor.v) + S.ipv4ForIpParam.v;
  if (fit <= 0) return undefined;
  let value = chainName(stringFor(s, p, doc), p);
  // a kind or type without the participle of what powers or bases it ("gas-powered" → gas)
  const powered =
    value !== undefined && /^(?:type|kind|category|class)$/.test(p.parts[p.parts.length - 1] ?? '')
      ? /^(\p{L}{2,})-(?:powered|fueled|fuelled)$/u.exec(value)
      : null;
  if (powered) value = powered[1];
  if (value === undefined || value.trim() === '') return undefined;
  // a city is no country ("the weather in Beijing and Guangzhou" for city and country: the
  // second city is no country); a place written with its country gives that by its region
  if (
    p.semantic === 'country' &&
    (s.kind === 'place' || s.kind === 'proper') &&
    (s.city !== undefined || US_CITIES.has(value.toLowerCase()) || WORLD_CITIES.has(value.toLowerCase())) &&
    !KNOWN_COUNTRIES.has(value.toLowerCase()) &&
    !COUNTRY_ALIAS_NAMES.has(value.toLowerCase())
  )
    return undefined;
  let ab = anchorBonus(p, doc, s, hits);
  // an identifier labelled as one ("id is 1234") for an id parameter
  if (s.kind === 'number' && idLabelled(p, doc, s)) ab = Math.max(ab, S.plainIdLabel.v);
  // a bare number for a string parameter only right next to the parameter's name ("port 5432", "ID 7890")
  // (and never where the description lists the values as words: "Can be 'melting', 'freezing'")
  // (nor a quantity of a unit the parameter does not measure: "a city view for 3 days" is no view "3")
  if (s.kind === 'number' && (ab < S.bareNumberAnchorCut.v || valuesAreWords(p) || foreignUnit(s, p, units))) return undefined;
  // (nor a count written in words for an identifier: "a pair of sneakers" holds no order ID)
  if (s.kind === 'number' && s.word && p.semantic === 'id') return undefined;
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
    return undefined;
  return { fit, value, ab };
}

/** A span's score after the cues around it: the role a name plays, a street address. */
function cueScore(p: ParamInfo, doc: Doc, s: Span, score: number): number {
  if (s.kind === 'proper' || s.kind === 'quoted') score += cueBonus(p, doc, s);
  // a street address for a parameter that asks for one ("to China Station Restaurant, 123 Beijing
  // Street, San Francisco")
  if (s.kind === 'place' && s.address && /\b(?:address|street)\b/i.test(p.description)) score += S.streetAddress.v;
  return score;
}

/** A span's score as a place (or no place) for the parameter; undefined where it is none of its values. */
function placeScore(p: ParamInfo, doc: Doc, s: Span, value: string, prevWord: string, score: number): number | undefined {
  const placeLike = p.semantic === 'place' || p.semantic === 'origin' || p.semantic === 'destination';
  if (placeLike && (s.kind === 'proper' || s.kind === 'place') && ['in', 'at', 'near', 'around', 'from', 'to', 'of'].includes(prevWord))
    score += S.placeAfterPlaceWord.v;
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
  // (a state or country is no county, district or subdistrict)
  if (regionName && areaKind(p) !== undefined && areaKind(p) !== 'province') return undefined;
  // a place another parameter's description names ("'1' for Bangkok" of province_id) is no
  // district or subdistrict ("in Bangkok, specifically in the Lat Phrao district")
  if (isPlace && SUBCITY_AREAS.has(areaKind(p) ?? '') && namedBySibling(p, s)) return undefined;
  if (!placeLike && isPlace && p.semantic !== 'country' && p.semantic !== 'generic') score -= S.placeForNonPlace.v;
  return score;
}

/** A date with the time written next to it (or alone in a sentence that asks), for a date-time parameter. */
function dateTimeCandidate(p: ParamInfo, doc: Doc, s: Span, date: DateValue, score: number): Cand | undefined {
  // (or in another sentence where the request writes one date and one time only: "… for a
  // meeting 2023-12-1. Can you set it for 7:00 AM?")
  const times = doc.spans.filter((o) => o.kind === 'time');
  const tm =
    times
      .filter((o) => !clauseBreak(doc, Math.min(o.end, s.end), Math.max(o.start, s.start)))
      .sort((x, y) => Math.abs(x.start - s.start) - Math.abs(y.start - s.start))[0] ??
    (times.length === 1 && doc.spans.filter((o) => o.kind === 'date').length === 1 && REQUEST_SENTENCE.test(sentenceOf(doc, times[0].start))
      ? times[0]
      : undefined);
  if (tm?.time) {
    return {
      param: p,
      value: formatDate(date, p, doc.today, tm.time),
      score,
      ranges: [
        [s.start, s.end],
        [tm.start, tm.end],
      ],
      kind: 'datetime',
    };
  }
  return undefined;
}

/** A span's score by the kind of thing the parameter holds (countries, areas, versions, units); undefined where it is none. */
function kindScore(p: ParamInfo, doc: Doc, s: Span, value: string, score: number): number | undefined {
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
    score += S.countryNameForCountry.v;
  // a name written with one kind of area is no value of a parameter of another kind ("Chiang
  // Mai Province" for sub_district_name or district_name)
  const ownKind = areaKind(p);
  if (ownKind !== undefined || /^(state|country|nation|region)$/.test(p.parts[p.parts.length - 1] ?? '')) {
    const writtenKind = (/(?:^|\s)(sub-?district|district|province|county|prefecture|borough|municipality|parish|canton)$/i.exec(value) ??
      /^\s+(sub-?district|district|province|county|prefecture|borough|municipality|parish|canton)\b/i.exec(
        doc.text.slice(s.end, s.end + 16),
      ))?.[1]
      .toLowerCase()
      .replace('-', '');
    if (writtenKind !== undefined && ownKind !== writtenKind) return undefined;
  }
  // a dotted version ("2.7.3") is a value of a version only
  if (
    s.kind === 'id' &&
    /^\d+(?:\.\d+){2,3}$/.test(s.text) &&
    !IPV4.test(s.text) &&
    !/\b(?:version|release|build|v)\b/i.test(`${p.parts.join(' ')} ${p.description}`)
  )
    return undefined;
  // a unit of measure is no value of a parameter that holds no unit ("in Joules" is no substance,
  // "25 MPG" no fuel type, "80 BPM" no key)
  if (
    (s.kind === 'proper' || s.kind === 'id') &&
    (PHYSICAL_UNITS.has(value.toLowerCase()) ||
      (UNIT_ABBREVIATIONS.has(value.toLowerCase()) && /\d\s?$/.test(doc.text.slice(Math.max(0, s.start - 2), s.start)))) &&
    !p.parts.some((x) => /^units?$|^scale$|^format$/.test(x))
  )
    return undefined;
  return score;
}
