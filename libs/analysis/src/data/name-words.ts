// Word lists the proper-name finder (extract/names.ts) reads. Source: hand-set from English usage
// (titles and abbreviations written before or inside a name), not from any one request.

/** Roles written before a person's name (not honorifics: "Mr. X" keeps its "Mr."; not "Lady", "Lord", "Sir": "Lady Gaga" is a name). */
export const TITLE_WORDS = new Set([
  'doctor',
  'prof',
  'professor',
  'lawyer',
  'attorney',
  'judge',
  'senator',
  'president',
  'coach',
  'captain',
  'officer',
  'agent',
  'detective',
  'sergeant',
  'director',
  'manager',
  'dean',
  'mayor',
  'governor',
  'rev',
  'reverend',
]);

/** Abbreviations written with a period inside a name ("St. Louis", "Dr. Patel", "Sault Ste. Marie", "Gen. Pershing Street"). */
export const NAME_ABBREVIATIONS: ReadonlySet<string> = new Set([
  'St',
  'Ste',
  'Dr',
  'Mr',
  'Mrs',
  'Ms',
  'Mt',
  'Ft',
  'Pt',
  'Jr',
  'Sr',
  'Gen',
  'Lt',
  'Col',
  'Sgt',
  'Capt',
  'Prof',
  'Rev',
  'Hon',
  'Sen',
  'Gov',
  'Rep',
]);
