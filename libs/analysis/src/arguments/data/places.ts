/**
 * Place tables of argument mapping: names of the US and UK, countries the city lexicon knows,
 * other names of countries, kinds of administrative area.
 */
import { WORLD_CITIES, lookupTable } from '../../lexicon.js';

/** Names and abbreviations of the United States, lower-case. Source: hand-set. */
const US_NAMES: readonly string[] = ['usa', 'us', 'united states', 'america', 'u.s', 'u.s.', 'u.s.a', 'u.s.a.'];

/** Abbreviations of the United Kingdom, lower-case. Source: hand-set. */
export const UK_ABBREVIATIONS: readonly string[] = ['uk', 'u.k', 'u.k.'];

/** Country names and codes the city lexicon knows, lower-case. Source: derived from the city lexicon (lexicon.ts). */
export const KNOWN_COUNTRIES: ReadonlySet<string> = new Set(
  [...WORLD_CITIES.values()]
    .flatMap(([name, code]) => [name.toLowerCase(), code.toLowerCase()])
    .concat(US_NAMES, UK_ABBREVIATIONS, ['england', 'scotland', 'wales']),
);

/** Other names of countries by ISO 3166 code, lower case ("London, United Kingdom", "Seoul, Korea"). Source: ISO 3166-1 codes; the other names hand-set. */
export const COUNTRY_ALIASES: Record<string, string[]> = lookupTable({
  GB: ['united kingdom', 'great britain', 'britain', 'england', 'scotland', 'wales', 'northern ireland'],
  AE: ['uae', 'emirates'],
  KR: ['korea', 'republic of korea'],
  CZ: ['czechia'],
  NL: ['holland', 'the netherlands'],
  RU: ['russian federation'],
  CN: ['prc', "people's republic of china"],
  VN: ['viet nam'],
});

/** Every name of COUNTRY_ALIASES. Source: derived from COUNTRY_ALIASES. */
export const COUNTRY_ALIAS_NAMES: ReadonlySet<string> = new Set(Object.values(COUNTRY_ALIASES).flat());

/** ISO 3166-1 alpha-2 codes of the country names the lexicon knows (and their other names), by lower-case name. Source: derived from the city lexicon and COUNTRY_ALIASES. */
export const COUNTRY_CODE_BY_NAME: ReadonlyMap<string, string> = new Map([
  ...[...WORLD_CITIES.values()].map(([name, code]): [string, string] => [name.toLowerCase(), code]),
  ...Object.entries(COUNTRY_ALIASES).flatMap(([code, names]) => names.map((n): [string, string] => [n, code])),
  ...US_NAMES.map((n): [string, string] => [n, 'US']),
  ...UK_ABBREVIATIONS.map((n): [string, string] => [n, 'GB']),
]);

/** Kinds of administrative area, as a parameter's name says them and as a request writes them after a name. Source: hand-set. */
export const AREA_KINDS = [
  'subdistrict',
  'district',
  'province',
  'county',
  'prefecture',
  'borough',
  'municipality',
  'parish',
  'canton',
] as const;

/** Areas smaller than a city. Source: hand-set. */
export const SUBCITY_AREAS: ReadonlySet<string> = new Set(['subdistrict', 'district', 'borough']);
