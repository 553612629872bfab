// Internal entry of @toolsurface/analysis, for the scripts in tools/ that rebuild its data tables
// (make-us-places.ts): the place and calendar tables. Product code imports the public entry.
export { MONTHS, WEEKDAYS, US_CITIES, US_STATES, WORLD_CITIES, WORLD_COUNTRY_NAMES, stateLinesMap } from './lexicon.js';
