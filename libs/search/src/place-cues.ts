// Requests that ask for places on a map (asksForPlaces) and the words they stand for (PLACE_WORDS).

// Places to find on a map: a distance around a place ("within 1km distance", "within 2 miles of
// Central Park", "a 1000-meter radius"), a route between two places ("a bike route from UCAS
// Zhongguancun Campus to …", "how to get there", "directions from …", a commute's time), or a trip
// or tour to plan ("planning a trip to …", "arrange a three-day trip", "a two-day tour of
// Beijing"). Such a task needs the places' coordinates before anything near them or between them
// can be found, so it stands for the tools that turn a place into coordinates and back (a map
// server's geocode_address, reverse_geocode; the nearby and route tools take latitude and
// longitude), which the request never names: "I'm planning a trip to the Forbidden City …, show me
// where to park and what's interesting to do within 1km distance" has no geocoding tool in its
// first ten without them. The cues are narrow because requests written around these words are
// mostly near misses: no cue where the distance is not measured from something
// ("retry within 10 m"), where a shape or a body is meant ("the electric field within 2 m of a
// point charge"), where directions are steps ("directions to bake a cake"), where the way runs
// through a graph, a network, a game or a file system ("trace the route from my laptop to
// google.com", "how to get to the root directory"), for a commute that is no journey ("a podcast
// for my commute"), or where the trip word qualifies another noun or is a band's tour ("my trip
// photos", "luggage for a two-day trip"). A lone "nearby" or a street address gains nothing on
// the tuning half and is no cue. Measured in docs/decisions/search-place-words.md.
const DISTANCE_UNIT = String.raw`(?:km|kilometers?|kilometres?|m|meters?|metres?|miles?|mi|feet|ft|yards?)`;
// (`\s*(?:-\s*)?` between a number and its unit: `\s*-?\s*` splits a run of spaces two ways, and a
// long one takes time quadratic in its length)
const DISTANCE_NUMBER = String.raw`(?:\d+(?:[.,]\d+)?|one|two|three|five|ten|twenty|half\s+a|a)\s*(?:-\s*)?`;
const NUMBER_UNIT = String.raw`${DISTANCE_NUMBER}${DISTANCE_UNIT}\b`;
// A distance around a place: "within 1km distance", "within 2 miles of", "within 500 m of
// Alexanderplatz"; the distance is followed by what it is measured from, so "retry within 10 m"
// (minutes) is none.
const WITHIN_DISTANCE_RE = new RegExp(
  String.raw`\bwithin\s+(?:a\s+)?${NUMBER_UNIT}\s+(?:of|from|around|distance|radius|range|walk|drive)\b` +
    // or one that ends the request or its sentence, in a request that looks for something ("find
    // hotels within 1 km.", "any pharmacy within 500m please"): "the probe must land within 5 km."
    // and "keep the cable within 50 meters." look for nothing
    String.raw`|\b(?:find|show|list|search|locate|look\s+for|any|nearest|closest|near|where)\b[^.?!\n]{0,80}?\bwithin\s+(?:a\s+)?${DISTANCE_NUMBER}(?:km|kilometers?|kilometres?|miles?|mi|m|meters?|metres?)\s*(?:$|[.?!,;]|please\b)`,
  'i',
);
// An area given by its radius ("Focus on a 1000-meter radius", "a 5 km radius around Denver").
const AREA_RADIUS_RE = new RegExp(String.raw`\b\d+(?:[.,]\d+)?\s*(?:-\s*)?${DISTANCE_UNIT}\s+radius\b`, 'i');
// A distance cue where the request is about a shape or a body is geometry or physics: "a circle
// with a radius of 5 meters", "a circular loop … with a radius of 4 meters", "the electric field
// within 2 m of a point charge", "a satellite within 100 km of the surface".
// A rated star ("5-star hotels within 1 km of …") is no star.
const SHAPE_RE =
  /\b(?:circles?|circular|circumference|(?:hemi)?spheres?|spherical|cylinders?|cones?|arcs?|discs?|disks?|loops?|coils?|orbits?|wheels?|rings?|pipes?|balls?|rods?|tanks?|planets?|(?<!\b(?:\d|one|two|three|four|five|seven)[- ]?)stars?|satellites?|charges?|fields?|particles?|magnets?|waves?)\b/i;
// A shape word written with a capital after a capitalised word or "the" is a place's name ("within
// 500 m of Columbus Circle", "the Ring Road", "the Loop"): left out of the text after "within"
// before SHAPE_RE reads the request (before it, title-case physics stays physics: "Compute the
// Magnetic Field within 0.5 m of the Current Loop").
const NAMED_SHAPE_RE = /(?<=\b(?:[A-Z][a-z]+|the) )(?:Circle|Ring|Loop|Field|Fields|Wheel|Star|Arc)\b/g;
// A route between places: "a bike route from … to …", "how to get there", "directions from …",
// "directions to the Golden Gate Bridge", a commute's time or route ("run a detailed commute
// analysis", "my commute from Brooklyn"). Directions to do something are steps ("directions to
// bake a cake"), so "directions to" and "how to get to" count only before a place: a capitalised
// name or a determiner ("the", "my"). "How do I / can I / could we … get to" and "the best /
// fastest / easiest way to get to" ask as often for a step or a career ("how do I get to the next
// step in the tutorial", "the best way to get to a senior engineer role"): they count before a
// capitalised name, a place noun (PLACE_NOUN: "the airport", "the train station") or "downtown".
const ROUTE_RE =
  /\broute\s+(?:from|between)\b|\bhow\s+to\s+get\s+there\b|\bdirections\s+from\b|\bcommute\s+(?:time|times|route|routes|distance|analysis|from|between|to)\b|\bcommute\b(?=[^.?!\n]{0,40}\bfrom\b[^.?!\n]{0,60}\bto\b)/i;
const PLACE_NOUN = String.raw`(?:airport|station|hotel|hostel|museum|beach|stadium|arena|park|mall|hospital|terminal|pier|port|harbou?r|venue|centre|center|downtown|city|town|village|campus|office|embassy|consulate|restaurant|cafe|market|zoo|aquarium|cathedral|church|temple|castle|palace|bridge|square|lake|mountain|trailhead|border|ferry|bus|train|subway|metro)s?`;
const ROUTE_TO_PLACE_RE = new RegExp(
  String.raw`\b(?:[Dd]irections|[Hh]ow to get) to (?:(?:the|my|our|your|a|an) [\w-]|[A-Z])` +
    String.raw`|\b(?:[Hh]ow (?:do|can|could|would|should) (?:[Ii]|we) get|(?:[Bb]est|[Ff]astest|[Qq]uickest|[Ee]asiest|[Cc]heapest) way to get) to (?:(?:the|my|our|your|a|an) )?(?:[A-Z]|(?:[\w-]+ )?${PLACE_NOUN}\b|downtown)`,
);
// The way through a graph, a network, a game or a file system is no route on a map ("the route
// from node A to node B", "trace the route from my laptop to google.com", "the route between VLAN
// 10 and 20", "how to get to the root directory", "how to get to the next level"), nor a web
// framework's route ("a Rails route from /users to the UsersController"), a translation ("translate
// the directions to French") or an idiom ("how do I get to the point"). A bank's, a library's or a
// store's branch is a place ("the nearest Chase branch" too: NAMED_BRANCH_RE), a git branch none
// ("the local branch", "upstream", "origin/main").
const NOT_A_PLACE_RE =
  /\b(?:graphs?|nodes?|vert(?:ex|ices)|dijkstra|networks?|packets?|routers?|subnets?|vlans?|bgp|traceroute|ip|gateway|hops?|levels?|games?|stages?|endpoints?|api|urls?|pages?|websites?|menus?|screens?|tabs?|settings|director(?:y|ies)|folders?|commits?|(?<!\b(?:bank|library|post office|store|nearest|closest)\s)branch(?:es)?|inbox|controllers?|handlers?|rails|express\.?js|flask|django|fastapi|laravel|next\.js|spring\s+boot|upstream|origin\/|translat(?:e|es|ed|ing|ion))\b|\bget to the (?:point|bottom|truth|heart)\b|(?:^|\s)\/[\w:{]|\b\d{1,3}(?:\.\d{1,3}){3}\b|\.(?:com|org|net|io)\b/i;
/** A bank's name before "branch" ("the nearest Chase branch", "Wells Fargo branch"): read as a place before NOT_A_PLACE_RE, whose "branch" is git's. */
const NAMED_BRANCH_RE = /\b[A-Z][\w&'-]*\s+branch(?:es)?\b/g;
/** Express the web framework, with its capital before what it serves ("an Express route from /users …"); "an express route from Heathrow to Paddington" is a fast one. */
const EXPRESS_FRAMEWORK_RE = /\bExpress\s+(?:route|router|app|server|handler|middleware)s?\b/;
// A trip or tour to plan, the trip word ending its phrase ("planning a trip to …", "arrange a
// three-day trip from …", "plan my upcoming trip?", "a two-day tour of Beijing"; not "organize my
// trip photos", "plan the tour schedule", "luggage for a two-day trip"), and not a band's tour.
const TRIP_END = String.raw`(?=\s*(?:$|[?.!,;:)]|(?:to|from|in|around|through|across|for|of|with|that|and|by|on|next|this|tomorrow)\b))`;
const TRIP_RE = new RegExp(
  [
    String.raw`\b(?:plan|planning|arrange|arranging|organi[sz]e|organi[sz]ing)\s+(?:(?:a|an|my|our|the|me)\s+)?(?:[\w-]+\s+){0,2}(?:trip|tour|itinerary)${TRIP_END}`,
    String.raw`\b(?:plan|planning|arrange|arranging|give\s+me|suggest)\b[^.?!\n]{0,30}\b(?:one|two|three|four|five|six|seven|\d+)[- ]days?\s+(?:trip|tour|itinerary)${TRIP_END}`,
  ].join('|'),
  'i',
);
// (nor an itinerary or schedule for a skill, "a 3-day itinerary for learning Rust", while "a 5-day
// trip to learn surfing in Portugal" is a trip; nor a tour of a codebase, a curriculum or an exam)
const NOT_A_TRIP_RE =
  /\b(?:band|concert|setlist|product|hackathon|conference|sessions?|games?|codebase|repo(?:sitory)?|curriculum|syllabus|exam|onboarding)\b|\b(?:itinerary|schedule)\s+(?:for|to)\s+(?:learn|study|studying|master|practi[cs]|improv|prepar|review|revis|train)\w*/i;

/**
 * Does the request ask for places found on a map: a distance around a place, a route between
 * places, a trip or tour to plan? ("within 1km distance", "a bike route from … to …", "plan a
 * two-day tour of Beijing"; the cues and what they leave out are above.) Such a task needs the
 * places' coordinates before anything near them or between them is found, and names no tool that
 * gives them.
 */
export function asksForPlaces(query: string): boolean {
  const distance = (WITHIN_DISTANCE_RE.test(query) || AREA_RADIUS_RE.test(query)) && !SHAPE_RE.test(withoutNamedShapes(query));
  if (distance || ROUTE_RE.test(query) || ROUTE_TO_PLACE_RE.test(query)) {
    // (the exclusions read a bank's branch as a place, and only where a cue fired: most requests have none)
    const places = query.replace(NAMED_BRANCH_RE, 'place');
    if (!NOT_A_PLACE_RE.test(places) && !EXPRESS_FRAMEWORK_RE.test(places)) return true;
  }
  return TRIP_RE.test(query) && !NOT_A_TRIP_RE.test(query);
}

/** The request with the shape words after "within" that name places taken out (NAMED_SHAPE_RE). */
function withoutNamedShapes(query: string): string {
  const within = query.search(/\bwithin\b/i);
  return within < 0 ? query : query.slice(0, within) + query.slice(within).replace(NAMED_SHAPE_RE, '');
}

/** The words a request that asks for places on a map stands for (asksForPlaces): the tools that turn a place into coordinates and back. */
export const PLACE_WORDS: readonly string[] = Object.freeze(['geocode', 'address', 'coordinates', 'location']);
