// The mapper's selection rules over the search's tool profiles: a snapshot's profiles with their
// stems' document frequencies, the guards that keep a confident but contradicted call from running
// (a destructive action or an arithmetic operation on one side only), and linear scoring.
import { NUMBER_AND_UNIT, type MapperTool } from '@toolsurface/analysis';
import { actionGroups, buildProfile, nameWordStats, type ToolProfile } from '@toolsurface/search';

/** Builds the lexical profiles of a snapshot and the document frequency of every stem. */
export function buildProfiles(tools: readonly MapperTool[]): { profiles: ToolProfile[]; idf: Map<string, number> } {
  const names = nameWordStats(tools);
  const n = Math.max(1, tools.length);
  const profiles: ToolProfile[] = tools.map((tool) => buildProfile(tool, names));
  const df = new Map<string, number>();
  for (const p of profiles) for (const s of p.allStems) df.set(s, (df.get(s) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [s, f] of df) idf.set(s, Math.log(1 + n / f));
  return { profiles, idf };
}

/**
 * A destructive action on one side only: the tool's name deletes and the request does not ask to
 * delete, or the request asks to delete and the tool's name names other actions only. Such a tool
 * is never run from a plain request, however confident the selection ("delete all txt files" is
 * no reason to run list_files, and "list my files" none to run delete_files). Undefined when the
 * actions agree, and for a request to delete when the tool's name names no action.
 */
export function destructiveClash(
  requestStems: Iterable<string>,
  profile: ToolProfile,
  deletionForbidden = false,
): { asked: string; does: string } | undefined {
  const asked = actionGroups(requestStems);
  const does = profile.action;
  // "do not delete the entity Alice" asks for no deletion: the delete words are negated
  if (deletionForbidden) {
    if (does === 'delete') return { asked: 'not delete', does };
    asked.delete('delete');
  }
  // (a request that names no action asks for no deletion either: "show me the txt files")
  if (does === 'delete' && !asked.has('delete')) return { asked: asked.size > 0 ? [...asked].join('/') : 'something else', does };
  if (asked.has('delete') && does !== undefined && does !== 'delete') return { asked: 'delete', does };
  return undefined;
}

/**
 * Operations a request asks for, each written as a word or as a symbol between two numbers; "add"
 * only with two numbers ("add 17 and 25"; "add a user" asks for no sum), and "minus 25" after a
 * word is a sign, not a subtraction.
 */
const REQUEST_OPERATIONS: readonly [string, RegExp][] = [
  ['add', /\bplus\b|\badd\s+-?\d[\d.,]*\s+(?:and|to|plus)\s+(?:minus\s+|negative\s+)?-?\d|\bsum\s+of\b|\d\s*\+\s*\d/i],
  [
    'subtract',
    new RegExp(
      String.raw`\b(?:subtract|subtracting|subtracted|difference\s+(?:between|of))\b|${NUMBER_AND_UNIT}minus\s+-?\d|\d\s+[−]\s+\d`,
      'i',
    ),
  ],
  ['multiply', /\b(?:multiply|multiplied|product\s+of)\b|\d\s*(?:\*|×|\btimes\b)\s*(?:minus\s+|negative\s+)?\d/i],
  ['divide', /\b(?:divide|divided|quotient)\b|\d\s*÷\s*\d/i],
];

/**
 * The one arithmetic operation a request asks for ("What is 100 minus 40?" → subtract), read once a
 * request; undefined when it names none or more than one.
 */
export function requestOperation(request: string): string | undefined {
  const text = request.slice(0, 4000);
  const asked = REQUEST_OPERATIONS.filter(([, re]) => re.test(text)).map(([op]) => op);
  return asked.length === 1 ? asked[0] : undefined;
}

/**
 * Arithmetic on one side that the other side contradicts: the request asks for one operation
 * (requestOperation: "What is 100 minus 40?") and the tool's name names another (nameOperation:
 * get-sum). Such a call computes the wrong thing with the right numbers, so it is not run, however
 * confident the selection. Undefined unless both are known and differ.
 */
export function arithmeticClash(asked: string | undefined, does: string | undefined): { asked: string; does: string } | undefined {
  return asked !== undefined && does !== undefined && asked !== does ? { asked, does } : undefined;
}

/**
 * Does the request forbid a deletion ("do not delete", "don't remove", "never erase", "without
 * dropping", "keep … instead of deleting")? A negation word at most three words before a delete
 * word. Read on the request text, since the stems leave out "not".
 */
export function forbidsDeletion(request: string): boolean {
  return NEGATED_DELETION.test(request.slice(0, 4000));
}
// (any apostrophe, and every "n't"; "don't forget to delete", "don't hesitate to", "do not wait," and
// "without a doubt" ask for the deletion; a negation cut off by a comma reaches over at most three words;
// a negated state is no instruction: "the payment did not clear", "if it is not cancelled")
const NEGATED_DELETION =
  /\b(?:(?<!\b(?:did|was|were|is|are|has|have|had|been)\s+)not|never|without|avoid|refrain\s+from|stop|instead\s+of|rather\s+than|(?:do|does|wo|ca|could|should|must|would)n['’]?t|dont|cannot)\b(?!\s+(?:forget|hesitate|wait|delay|fail)\b|\s+(?:a\s+)?doubt\b)(?:[\s,]+[\w'’-]+){0,3}?[\s,]+(?:delet|remov|eras|drop|cancel|clear|destroy|wip|purg)[a-z]*/i;

/** Dot product of weights and features. */
export function weightedSum(w: readonly number[], f: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < f.length; i++) s += (w[i] ?? 0) * f[i];
  return s;
}

/** Logistic function. */
export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}
