/**
 * Small general-knowledge tables the argument mapper needs to turn words into values:
 * months, weekdays, number words, currencies, US states and larger US cities, city nicknames.
 * These are generic lists (not drawn from any evaluation query).
 */

/**
 * A lookup table without a prototype, frozen: a word such as "constructor" or "__proto__" (a
 * parameter's name, a word of a request) is never found in it by accident.
 */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

/** Month names and abbreviations -> month number. */
export const MONTHS: Readonly<Record<string, number>> = lookupTable({
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
});

/** Weekday names -> JS day number (Sunday = 0). */
export const WEEKDAYS: Readonly<Record<string, number>> = lookupTable({
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
});

/** Number words -> value (units and tens; combined by the parser). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = lookupTable({
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  dozen: 12,
  single: 1,
  couple: 2,
  pair: 2,
  twice: 2,
  once: 1,
  thrice: 3,
  solo: 1,
  alone: 1,
});

/** Multiplier words after a number. */
export const MULTIPLIERS: Readonly<Record<string, number>> = lookupTable({
  hundred: 100,
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  m: 1e6,
  mn: 1e6,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
});

/** Currency words and symbols -> ISO 4217 code. */
export const CURRENCIES: Readonly<Record<string, string>> = lookupTable({
  $: 'USD',
  'us dollar': 'USD',
  'us dollars': 'USD',
  'united states dollar': 'USD',
  'united states dollars': 'USD',
  'american dollar': 'USD',
  dollar: 'USD',
  dollars: 'USD',
  usd: 'USD',
  '€': 'EUR',
  euro: 'EUR',
  euros: 'EUR',
  eur: 'EUR',
  '£': 'GBP',
  pound: 'GBP',
  pounds: 'GBP',
  'british pound': 'GBP',
  'british pounds': 'GBP',
  sterling: 'GBP',
  gbp: 'GBP',
  '¥': 'JPY',
  yen: 'JPY',
  'japanese yen': 'JPY',
  jpy: 'JPY',
  yuan: 'CNY',
  renminbi: 'CNY',
  rmb: 'CNY',
  'chinese yuan': 'CNY',
  cny: 'CNY',
  rupee: 'INR',
  rupees: 'INR',
  'indian rupee': 'INR',
  'indian rupees': 'INR',
  inr: 'INR',
  won: 'KRW',
  'korean won': 'KRW',
  krw: 'KRW',
  'swiss franc': 'CHF',
  'swiss francs': 'CHF',
  chf: 'CHF',
  'canadian dollar': 'CAD',
  'canadian dollars': 'CAD',
  cad: 'CAD',
  'australian dollar': 'AUD',
  'australian dollars': 'AUD',
  aud: 'AUD',
  'mexican peso': 'MXN',
  'mexican pesos': 'MXN',
  mxn: 'MXN',
  'brazilian real': 'BRL',
  brl: 'BRL',
  ruble: 'RUB',
  rubles: 'RUB',
  rub: 'RUB',
  'hong kong dollar': 'HKD',
  hkd: 'HKD',
  'singapore dollar': 'SGD',
  sgd: 'SGD',
  'new zealand dollar': 'NZD',
  nzd: 'NZD',
  'swedish krona': 'SEK',
  sek: 'SEK',
  'norwegian krone': 'NOK',
  nok: 'NOK',
  'danish krone': 'DKK',
  dkk: 'DKK',
  bitcoin: 'BTC',
  btc: 'BTC',
});

/** US state names -> two-letter code. */
export const US_STATES: Readonly<Record<string, string>> = lookupTable({
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
  'district of columbia': 'DC',
});

/** Set of two-letter US state codes. */
export const US_STATE_CODES: ReadonlySet<string> = new Set([...Object.values(US_STATES)]);

/**
 * Larger US cities (and the San Francisco Bay Area / California towns that travel and events
 * requests often name) -> state code. Generic gazetteer, one line per state.
 */
const CITY_LINES: Record<string, string> = lookupTable({
  CA: 'los angeles|san francisco|san diego|san jose|sacramento|fresno|long beach|oakland|berkeley|fremont|santa rosa|palo alto|mountain view|sunnyvale|santa clara|cupertino|milpitas|hayward|union city|newark|pleasanton|livermore|dublin|san ramon|danville|walnut creek|concord|antioch|pittsburg|martinez|richmond|el cerrito|albany|alameda|san leandro|castro valley|emeryville|vallejo|benicia|fairfield|vacaville|napa|american canyon|yountville|st. helena|st helena|calistoga|sonoma|petaluma|novato|san rafael|mill valley|sausalito|larkspur|corte madera|tiburon|daly city|south san francisco|san mateo|redwood city|menlo park|burlingame|san bruno|millbrae|foster city|half moon bay|pacifica|campbell|los gatos|saratoga|gilroy|morgan hill|santa cruz|monterey|salinas|stockton|modesto|visalia|bakersfield|anaheim|santa ana|irvine|huntington beach|costa mesa|newport beach|pasadena|glendale|burbank|santa monica|inglewood|torrance|long beach|riverside|san bernardino|pomona|santa barbara|ventura|oxnard|thousand oaks|palm springs|chula vista|escondido|oceanside|carlsbad|sunnyvale|san luis obispo|redding|chico|davis|lodi|merced|tracy|manteca|brentwood|orinda|lafayette|moraga|rohnert park|healdsburg|cotati|ukiah|eureka|hollywood|beverly hills|malibu|la jolla|marin',
  NY: 'new york|new york city|brooklyn|manhattan|queens|bronx|staten island|buffalo|rochester|syracuse|albany|yonkers|ithaca|long island',
  TX: 'houston|san antonio|dallas|austin|fort worth|el paso|arlington|corpus christi|plano|lubbock|irving|laredo|waco|galveston',
  IL: 'chicago|aurora|naperville|springfield|peoria|evanston',
  AZ: 'phoenix|tucson|mesa|chandler|scottsdale|glendale|tempe|flagstaff|sedona',
  PA: 'philadelphia|pittsburgh|allentown|erie|harrisburg|scranton',
  WA: 'seattle|spokane|tacoma|bellevue|redmond|olympia|vancouver wa',
  OR: 'portland|eugene|salem|bend',
  CO: 'denver|colorado springs|aurora|boulder|fort collins|aspen|vail',
  MA: 'boston|cambridge|worcester|springfield|salem|lowell|plymouth',
  GA: 'atlanta|savannah|augusta|athens|macon',
  FL: 'miami|orlando|tampa|jacksonville|tallahassee|fort lauderdale|st. petersburg|key west|naples|sarasota|gainesville|pensacola|miami beach',
  NV: 'las vegas|reno|henderson|carson city',
  DC: 'washington dc|washington d.c.|washington',
  MD: 'baltimore|annapolis|bethesda|rockville',
  TN: 'nashville|memphis|knoxville|chattanooga',
  LA: 'new orleans|baton rouge|shreveport|lafayette',
  MI: 'detroit|grand rapids|ann arbor|lansing',
  MN: 'minneapolis|saint paul|st. paul|duluth|rochester',
  MO: 'kansas city|st. louis|saint louis|springfield|branson',
  UT: 'salt lake city|provo|park city|ogden',
  NM: 'albuquerque|santa fe|las cruces',
  NC: 'charlotte|raleigh|durham|greensboro|asheville|chapel hill|wilmington',
  SC: 'charleston|columbia|greenville|myrtle beach',
  OH: 'columbus|cleveland|cincinnati|toledo|akron|dayton',
  IN: 'indianapolis|fort wayne|bloomington|south bend',
  WI: 'milwaukee|madison|green bay',
  KY: 'louisville|lexington',
  OK: 'oklahoma city|tulsa',
  HI: 'honolulu|hilo|maui',
  AK: 'anchorage|juneau|fairbanks',
  ID: 'boise',
  NE: 'omaha|lincoln',
  KS: 'wichita|topeka',
  IA: 'des moines|cedar rapids',
  AR: 'little rock',
  AL: 'birmingham|montgomery|mobile|huntsville',
  MS: 'jackson',
  VA: 'virginia beach|richmond|norfolk|arlington|alexandria|charlottesville',
  NJ: 'newark|jersey city|princeton|atlantic city|hoboken|trenton',
  CT: 'hartford|new haven|stamford',
  RI: 'providence|newport',
  VT: 'burlington',
  NH: 'manchester|concord',
  ME: 'portland me|bangor',
  DE: 'wilmington de|dover',
  MT: 'billings|missoula|bozeman',
  WY: 'cheyenne|jackson hole',
  SD: 'sioux falls|rapid city',
  ND: 'fargo|bismarck',
  WV: 'charleston wv',
});

/** Name (lower case) -> state code, from lines of names by state ("CA: 'los angeles|…'"); the first state listed wins for a name several lines hold. */
function stateLinesMap(lines: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  const m = new Map<string, string>();
  for (const [state, line] of Object.entries(lines)) for (const c of line.split('|')) if (!m.has(c)) m.set(c, state);
  return m;
}

/** City (lower case) -> state code; the first state listed wins for names used in several states. */
export const US_CITIES: ReadonlyMap<string, string> = stateLinesMap(CITY_LINES);

/** Informal city names -> the city's usual name. */
export const CITY_NICKNAMES: Readonly<Record<string, string>> = lookupTable({
  la: 'Los Angeles',
  'l.a.': 'Los Angeles',
  nyc: 'New York',
  ny: 'New York',
  sf: 'San Francisco',
  'san fran': 'San Francisco',
  philly: 'Philadelphia',
  vegas: 'Las Vegas',
  dc: 'Washington',
  'd.c.': 'Washington',
  chi: 'Chicago',
  'big apple': 'New York',
  nola: 'New Orleans',
  atl: 'Atlanta',
  sd: 'San Diego',
});

/** Words that start a request (verbs, greetings) and are capitalised only because they come first. */
export const LEADING_WORDS: ReadonlySet<string> = new Set(
  (
    'find get calculate compute show list search give tell create book reserve play buy check fetch retrieve determine estimate ' +
    'predict generate convert identify send schedule set add remove delete update open run order locate look how what when where who ' +
    "which why hi hello hey please can could would will i im i'm is are do does did my me help provide make plan need want let " +
    "i'd i'll we our us you your the a an in on at for from to of by with and or but also then now today tomorrow yes no ok okay " +
    'sure thanks thank analyze analyse fetch display draw plot perform evaluate assess compare translate explain describe summarize ' +
    'start stop cancel post share upload download install launch begin call rate rent purchase lookup view read write save move copy ' +
    'go turn use using based given assume suppose imagine if there this that these those it its as after before while since during ' +
    'first second next last'
  ).split(' '),
);

/** Larger cities outside the US -> [country as usually written, ISO 3166 alpha-2 code]. */
export const WORLD_CITIES: ReadonlyMap<string, [string, string]> = (() => {
  const lines: Record<string, string> = {
    'UK|GB': 'london|manchester uk|birmingham uk|liverpool|edinburgh|glasgow|oxford|cambridge uk|bristol|leeds',
    'France|FR': 'paris|lyon|marseille|nice|bordeaux|toulouse|strasbourg',
    'Germany|DE': 'berlin|munich|hamburg|frankfurt|cologne|stuttgart|dusseldorf',
    'Italy|IT': 'rome|milan|venice|florence|naples|turin',
    'Spain|ES': 'madrid|barcelona|seville|valencia|malaga',
    'Portugal|PT': 'lisbon|porto',
    'Netherlands|NL': 'amsterdam|rotterdam|the hague',
    'Belgium|BE': 'brussels|antwerp',
    'Switzerland|CH': 'zurich|geneva|bern|basel',
    'Austria|AT': 'vienna|salzburg',
    'Czech Republic|CZ': 'prague',
    'Poland|PL': 'warsaw|krakow',
    'Hungary|HU': 'budapest',
    'Greece|GR': 'athens',
    'Ireland|IE': 'dublin ie',
    'Sweden|SE': 'stockholm',
    'Norway|NO': 'oslo',
    'Denmark|DK': 'copenhagen',
    'Finland|FI': 'helsinki',
    'Russia|RU': 'moscow|saint petersburg|st. petersburg',
    'Turkey|TR': 'istanbul|ankara',
    'Israel|IL': 'tel aviv|jerusalem',
    'United Arab Emirates|AE': 'dubai|abu dhabi',
    'Egypt|EG': 'cairo',
    'Kenya|KE': 'nairobi',
    'Nigeria|NG': 'lagos',
    'South Africa|ZA': 'cape town|johannesburg',
    'India|IN': 'mumbai|delhi|new delhi|bangalore|bengaluru|chennai|kolkata|hyderabad|pune|noida|goa',
    'China|CN': 'beijing|shanghai|shenzhen|guangzhou|chengdu|hangzhou',
    'Hong Kong|HK': 'hong kong',
    'Japan|JP': 'tokyo|osaka|kyoto',
    'South Korea|KR': 'seoul|busan',
    'Thailand|TH': 'bangkok|chiang mai|phuket',
    'Vietnam|VN': 'hanoi|ha noi|ho chi minh city',
    'Malaysia|MY': 'kuala lumpur',
    'Singapore|SG': 'singapore',
    'Indonesia|ID': 'jakarta|bali',
    'Philippines|PH': 'manila',
    'Australia|AU': 'sydney|melbourne|brisbane|perth|adelaide',
    'New Zealand|NZ': 'auckland|wellington',
    'Canada|CA': 'toronto|vancouver|montreal|ottawa|calgary',
    'Mexico|MX': 'mexico city|cancun|guadalajara',
    'Brazil|BR': 'rio de janeiro|sao paulo|são paulo',
    'Argentina|AR': 'buenos aires',
    'Peru|PE': 'lima',
    'Colombia|CO': 'bogota',
    'Latvia|LV': 'riga',
  };
  const m = new Map<string, [string, string]>();
  for (const [k, line] of Object.entries(lines)) {
    const [country, code] = k.split('|');
    for (const c of line.split('|')) m.set(c.replace(/ (uk|ie)$/, ''), [country, code]);
  }
  return m;
})();

/** The countries of WORLD_CITIES by name, lower-case ("france", "united states" is not among them). */
export const WORLD_COUNTRY_NAMES: ReadonlySet<string> = new Set([...WORLD_CITIES.values()].map(([name]) => name.toLowerCase()));
