// Place tables the place finder (extract/places.ts) reads beside lexicon.ts's city and state lists.
// Source of each: hand-set (major US airports' IATA codes; US city names that are also common
// English words; the CJK names of large world cities), general lists rather than any one request.
import { lookupTable } from '../lexicon.js';

/** Cities of major US airports by their IATA code. */
export const AIRPORT_CITIES: Readonly<Record<string, string>> = lookupTable({
  LAX: 'Los Angeles',
  SFO: 'San Francisco',
  JFK: 'New York',
  LGA: 'New York',
  EWR: 'Newark',
  ORD: 'Chicago',
  ATL: 'Atlanta',
  DFW: 'Dallas',
  DEN: 'Denver',
  SEA: 'Seattle',
  BOS: 'Boston',
  MIA: 'Miami',
  IAD: 'Washington',
  DCA: 'Washington',
  PHX: 'Phoenix',
  IAH: 'Houston',
  LAS: 'Las Vegas',
  MCO: 'Orlando',
  MSP: 'Minneapolis',
  DTW: 'Detroit',
  PHL: 'Philadelphia',
  SAN: 'San Diego',
  SJC: 'San Jose',
  OAK: 'Oakland',
  PDX: 'Portland',
});

/** Cities whose names are common English words: read as cities only when capitalised. */
export const CITY_WORDS: ReadonlySet<string> = new Set([
  'nice',
  'reading',
  'mobile',
  'bath',
  'split',
  'sale',
  'hope',
  'orange',
  'bend',
  'surprise',
  'paradise',
  'independence',
  'commerce',
  'liberty',
]);

/** Cities written in Chinese, Japanese or Korean, by the WORLD_CITIES key of their English name. */
export const CJK_CITIES: readonly [string, string][] = [
  ['北京', 'beijing'],
  ['上海', 'shanghai'],
  ['深圳', 'shenzhen'],
  ['广州', 'guangzhou'],
  ['廣州', 'guangzhou'],
  ['成都', 'chengdu'],
  ['杭州', 'hangzhou'],
  ['香港', 'hong kong'],
  ['东京', 'tokyo'],
  ['東京', 'tokyo'],
  ['大阪', 'osaka'],
  ['首尔', 'seoul'],
  ['서울', 'seoul'],
  ['부산', 'busan'],
  ['新加坡', 'singapore'],
  ['巴黎', 'paris'],
  ['伦敦', 'london'],
  ['倫敦', 'london'],
  ['柏林', 'berlin'],
  ['莫斯科', 'moscow'],
];
