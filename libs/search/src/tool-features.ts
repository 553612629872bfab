/**
 * Selection features: for each retrieved candidate, how well the tool's name, description and
 * parameters cover the request, and how well the request fills the tool's parameters. The
 * reranker and the confidence model (calibration.ts) are linear/logistic over these features.
 */
import {
  isObj,
  propertiesOf,
  splitIdentifier,
  stem,
  STOP_WORDS,
  wordsOf,
  type DetailedMapping,
  type MapperTool,
} from '@toolsurface/analysis';
import { GENERIC, SYNONYM_GROUPS, VERB_GROUPS, NAME_OPERATIONS, CALCULATOR_WORDS } from './data/feature-words.js';
import { PAIRS } from './feature-names.js';
export { BASE_FEATURE_NAMES, FEATURE_NAMES } from './feature-names.js';

/** Pre-computed lexical profile of one tool (buildProfile); its sets are read-only: stemFlags caches what they hold. */
export interface ToolProfile {
  tool: MapperTool;
  /** stems of the tool's name (namespace prefixes and hash-like parts dropped) */
  nameStems: ReadonlySet<string>;
  /** stems of name + title + description + parameter names/descriptions/enums */
  allStems: ReadonlySet<string>;
  /** stems of parameter names */
  paramStems: ReadonlySet<string>;
  /** number of top-level parameters */
  paramCount: number;
  /** number of top-level numeric parameters */
  numericParams: number;
  /** adjacent stem pairs of the tool's name and description */
  bigrams: ReadonlySet<string>;
  /** stems of the tool's description (for how much of it the request echoes) */
  descStems: ReadonlySet<string>;
  /**
   * the tool's action: the group of the first action word of its name as written ("get_drop_rate"
   * gets, "file_delete" deletes; the name stems leave out words such as "get"), if any
   */
  action: string | undefined;
  /** the arithmetic an arithmetic tool's name names (nameOperation: get-sum → add), if any */
  operation: string | undefined;
}

/** Adjacent pairs of a stem sequence, as "a b" strings. */
export function bigramsOf(stems: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < stems.length; i++) out.push(`${stems[i]} ${stems[i + 1]}`);
  return out;
}

/** A stem that is just a number ("17", "3.5"). */
// digits, optionally with a decimal part
const NUMERIC = /^\d+(\.\d+)?$/;

/** Stem -> the stems of its synonym group. */
const SYNONYMS: Map<string, string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const g of SYNONYM_GROUPS) {
    const stems = g.map((w) => stem(w));
    for (const s of stems) m.set(s, stems);
  }
  return m;
})();

/** A stem set plus the synonyms of its members. */
function withSynonyms(stems: Iterable<string>): Set<string> {
  const out = new Set(stems);
  for (const s of [...out]) for (const o of SYNONYMS.get(s) ?? []) out.add(o);
  return out;
}

/** Hash-like identifier parts ("6d38a964"): hex with at least one digit and one letter. */
export function hashLike(t: string): boolean {
  // 6+ hex characters mixing digits and letters
  return t.length >= 6 && /^[0-9a-f]+$/.test(t) && /\d/.test(t) && /[a-f]/.test(t);
}

/** Stems of free text (stop words and one-letter tokens dropped). */
export function textStems(text: string): string[] {
  const out: string[] = [];
  for (const word of wordsOf(text)) {
    for (const part of splitIdentifier(word)) {
      if (part.length < 2 || STOP_WORDS.has(part)) continue;
      out.push(stem(part));
    }
  }
  return out;
}

/** Properties per schema level whose words a profile reads (the dev corpus's largest schema has far fewer). */
const SCHEMA_WORD_PROPERTIES = 100;

/** Text of a schema subtree: names, descriptions, enum values. */
function schemaWords(schema: unknown, depth = 0): string[] {
  if (!isObj(schema) || depth > 3) return [];
  const out: string[] = [];
  // (the first SCHEMA_WORD_PROPERTIES properties of each level: a schema of thousands of properties costs no more)
  for (const [k, v] of Object.entries(propertiesOf(schema)).slice(0, SCHEMA_WORD_PROPERTIES)) {
    out.push(k);
    if (typeof v['description'] === 'string') out.push((v['description'] as string).slice(0, 300));
    if (Array.isArray(v['enum'])) out.push(...(v['enum'] as unknown[]).filter((e): e is string => typeof e === 'string').slice(0, 30));
    out.push(...schemaWords(v, depth + 1));
    if (isObj(v['items'])) out.push(...schemaWords(v['items'], depth + 1));
  }
  return out;
}

/** A tool's description or title as text: '' when it is not a string. */
function textOf(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * How many tool names (name + title, split into words) hold each word: name words shared by a
 * fifth of a snapshot's tools are namespace prefixes, not words that say what a tool does.
 */
export interface NameWordStats {
  df: Map<string, number>;
  tools: number;
}

/** Counts the name words of a snapshot (one pass over the names only: about 5 ms for 3,000 tools). */
export function nameWordStats(tools: readonly MapperTool[]): NameWordStats {
  const df = new Map<string, number>();
  for (const t of tools) for (const p of new Set(splitIdentifier(`${t.name} ${textOf(t.title)}`))) df.set(p, (df.get(p) ?? 0) + 1);
  return { df, tools: tools.length };
}

/** Builds the lexical profile of one tool of a snapshot (about 0.15 ms for a typical tool). */
export function buildProfile(tool: MapperTool, names: NameWordStats): ToolProfile {
  const n = Math.max(1, names.tools);
  const description = textOf(tool.description);
  const title = textOf(tool.title);
  // namespace prefixes shared by a fifth of all names, and hash-like suffixes, are not name words
  const nameParts = splitIdentifier(`${tool.name} ${title}`).filter(
    (p) => !hashLike(p) && ((names.df.get(p) ?? 0) < n * 0.2 || n < 10) && !STOP_WORDS.has(p),
  );
  const nameStems = new Set(nameParts.map((p) => stem(p)));
  const paramNames = Object.keys(propertiesOf(tool.inputSchema));
  const paramStems = new Set(
    paramNames
      .flatMap((k) => splitIdentifier(k))
      .filter((p) => p.length > 1 && !STOP_WORDS.has(p))
      .map((p) => stem(p)),
  );
  const allStems = withSynonyms([
    ...nameStems,
    ...textStems(`${title} ${description.slice(0, 2000)}`),
    ...textStems(schemaWords(tool.inputSchema).join(' ')),
    ...paramStems,
  ]);
  const numericParams = Object.values(propertiesOf(tool.inputSchema)).filter(
    (v) => v['type'] === 'integer' || v['type'] === 'number',
  ).length;
  const descSeq = textStems(`${nameParts.join(' ')} ${description.slice(0, 2000)}`);
  const paramSeq = textStems(schemaWords(tool.inputSchema).join(' . '));
  const bigrams = new Set([...bigramsOf(descSeq), ...bigramsOf(paramSeq)]);
  const action = splitIdentifier(tool.name)
    .map((w) => VERB_GROUPS[stem(w)])
    .find((g) => g !== undefined);
  return {
    tool,
    nameStems,
    allStems,
    paramStems,
    paramCount: paramNames.length,
    numericParams,
    bigrams,
    descStems: new Set(descSeq),
    action,
    operation: nameOperation(tool.name),
  };
}

/** The action groups (find, create, update, delete…) of a list of stems: a request's or a tool name's. */
export function actionGroups(stems: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const st of stems) {
    const g = VERB_GROUPS[st];
    if (g !== undefined) out.add(g);
  }
  return out;
}

/**
 * The operation an arithmetic tool's name names (get-sum → add, CalcProduct → multiply), read once
 * a tool (ToolProfile.operation): only for a name of nothing but operation and calculator words
 * (get-sum, sum_numbers, math.divide; not add_to_cart, get_sub_accounts, get_product), and one
 * operation; undefined otherwise.
 */
export function nameOperation(toolName: string): string | undefined {
  const words = splitIdentifier(toolName.replace(/^.*[:/]/, '').replace(/\./g, '_')).map((w) => w.toLowerCase());
  if (!words.every((w) => NAME_OPERATIONS[w] !== undefined || CALCULATOR_WORDS.has(w))) return undefined;
  const does = new Set(words.map((w) => NAME_OPERATIONS[w]).filter((op): op is string => op !== undefined));
  return does.size === 1 ? [...does][0] : undefined;
}

/** One feature vector. */
export type Features = number[];

/** Inputs to the features of one candidate. */
export interface FeatureInput {
  profile: ToolProfile;
  /** inverse document frequency of a stem over the snapshot (undefined: in no tool) */
  idf: { get(stem: string): number | undefined };
  queryStems: string[];
  rank: number;
  score: number;
  topScore: number;
  mapping: DetailedMapping;
  preferred: boolean;
  contextKeys: string[];
  /** content tokens of the request (stem and character range) */
  queryTokens: { stem: string; start: number; end: number }[];
  /** plain numbers written in the request */
  numberCount: number;
  /** adjacent stem pairs of the request */
  queryBigrams: string[];
  /** tools in the snapshot (sets the weight of request words no tool has) */
  snapshotSize: number;
  /**
   * What the features take from the request alone, worked out by the first candidate's call and
   * reused by the others: pass one empty object for all the candidates of a request (or none).
   */
  shared?: { request?: RequestPart };
}

/** The request's part of the features, the same for every candidate (see FeatureInput.shared). */
interface RequestPart {
  /** distinct content stems (no generic words, no numbers), their idf weights and the weights' sum */
  uniq: string[];
  uniqWeights: number[];
  qTotal: number;
  qset: Set<string>;
  qVerbs: Set<string>;
  /** idf weight of each of queryTokens, and their sum */
  tokenWeights: number[];
  uTotal: number;
}

/** FeatureInput's request part (`maxIdf`: the weight of a stem no tool has). */
function requestPart(x: FeatureInput, maxIdf: number): RequestPart {
  // numbers are values for the arguments, not words that say which tool is meant
  const uniq = [...new Set(x.queryStems.filter((s) => !GENERIC.has(s) && !NUMERIC.test(s)))];
  const uniqWeights = uniq.map((s) => idfOf(x.idf, s, maxIdf));
  const tokenWeights = x.queryTokens.map((t) => idfOf(x.idf, t.stem, maxIdf));
  let qTotal = 0;
  for (const w of uniqWeights) qTotal += w;
  let uTotal = 0;
  for (const w of tokenWeights) uTotal += w;
  return { uniq, uniqWeights, qTotal, qset: new Set(x.queryStems), qVerbs: actionGroups(x.queryStems), tokenWeights, uTotal };
}

/** Content tokens of analysed text (stop words, one-letter tokens dropped). */
export function contentTokens(
  tokens: readonly { lower: string; stem: string; start: number; end: number }[],
): { stem: string; start: number; end: number }[] {
  return tokens
    .filter((t) => t.lower.length > 1 && !STOP_WORDS.has(t.lower) && !GENERIC.has(t.stem))
    .map((t) => ({ stem: t.stem, start: t.start, end: t.end }));
}

/** IDF of a stem (unknown stems count as rare). */
function idfOf(idf: FeatureInput['idf'], s: string, fallback: number): number {
  return idf.get(s) ?? fallback;
}

/** Computes the selection features of one candidate. */
export function features(x: FeatureInput): Features {
  const { profile, idf } = x;
  // a word no tool of the snapshot has weighs like one that half a tool has: rare, on the scale of this snapshot
  const maxIdf = Math.log(1 + 2 * Math.max(1, x.snapshotSize));
  const { uniq, uniqWeights, qTotal, qset, qVerbs, tokenWeights, uTotal } = x.shared
    ? (x.shared.request ??= requestPart(x, maxIdf))
    : requestPart(x, maxIdf);
  const flags = stemFlags(profile);
  let qCovered = 0;
  let qInName = 0;
  let qInParam = 0;
  for (let i = 0; i < uniq.length; i++) {
    const f = flags.get(uniq[i]);
    if (f === undefined) continue;
    const w = uniqWeights[i];
    if (f & IN_ALL) qCovered += w;
    if (f & IN_NAME) qInName += w;
    if (f & IN_PARAMS) qInParam += w;
  }
  const { nameList, nVerbs } = nameParts(profile);
  let nTotal = 0;
  let nCovered = 0;
  for (const s of nameList) {
    const w = idfOf(idf, s, maxIdf);
    nTotal += w;
    if (qset.has(s)) nCovered += w;
  }
  const m = x.mapping;
  const ev = Object.values(m.evidence).map((e) => e.score);
  const evidence = ev.length === 0 ? 0 : ev.reduce((a, b) => a + b, 0) / ev.length;
  const ctxHits =
    x.contextKeys.length === 0
      ? 0
      : x.contextKeys.filter(
          (k) => Object.prototype.hasOwnProperty.call(m.evidence, k) || [...profile.paramStems].some((p) => p === stem(k.toLowerCase())),
        ).length / x.contextKeys.length;
  const optionalFilled = Math.max(0, Object.keys(m.arguments).length - (m.requiredCount - m.missingArguments.length));
  // request words neither explained by the tool's text nor taken as an argument value
  let uMiss = 0;
  for (let i = 0; i < x.queryTokens.length; i++) {
    const t = x.queryTokens[i];
    if (!((flags.get(t.stem) ?? 0) & IN_ALL) && !m.covered.some(([a, b]) => t.start < b && a < t.end)) uMiss += tokenWeights[i];
  }
  // the request's action verbs vs the tool name's verbs
  let verbMatch = 0;
  for (const v of nVerbs) {
    if (qVerbs.has(v)) {
      verbMatch = 1;
      break;
    }
  }
  const verbClash = nVerbs.size > 0 && qVerbs.size > 0 && verbMatch === 0 ? 1 : 0;
  const numbers = x.numberCount;
  const numericParams = profile.numericParams;
  const numberFit = numbers === 0 && numericParams === 0 ? 0 : -Math.min(3, Math.abs(numbers - numericParams)) / 3;
  const base = [
    1,
    x.topScore > 0 ? x.score / x.topScore : 0,
    1 / (1 + x.rank),
    nTotal > 0 ? nCovered / nTotal : 0,
    qTotal > 0 ? qCovered / qTotal : 0,
    qTotal > 0 ? qInName / qTotal : 0,
    qTotal > 0 ? qInParam / qTotal : 0,
    m.filledRatio,
    evidence,
    m.salient > 0 ? (m.salient - m.unusedSalient) / m.salient : 0.5,
    profile.paramCount === 0 ? 1 : 0,
    Math.min(3, m.missingArguments.length),
    x.preferred ? 1 : 0,
    ctxHits,
    Math.min(3, optionalFilled),
    uTotal > 0 ? uMiss / uTotal : 0,
    Math.min(3, m.mentionedUnfilled),
    verbMatch,
    verbClash,
    m.paramCount > 0 ? Object.keys(m.arguments).length / m.paramCount : 0,
    numberFit,
    x.queryBigrams.length > 0 ? sharedCount(x.queryBigrams, profile.bigrams) / x.queryBigrams.length : 0,
    profile.descStems.size > 0 ? countFlagged(qset, flags, IN_DESC) / profile.descStems.size : 0,
    Math.log1p(profile.descStems.size) / Math.log(200),
    Math.log1p(profile.paramCount) / Math.log(20),
    m.requiredCount > 0 && m.missingArguments.length === 0 ? 1 : 0,
    Math.min(0, m.datesAsWritten),
  ];
  // the pairwise products after the base features, written into one array (no copies a candidate)
  const nBase = base.length;
  for (let i = 0; i < PAIRS.length; i++) base[nBase + i] = base[PAIRS[i][0]] * base[PAIRS[i][1]];
  return base;
}

/** Bits of stemFlags: the profile's sets that hold a stem. */
const IN_ALL = 1;
const IN_NAME = 2;
const IN_PARAMS = 4;
const IN_DESC = 8;
/**
 * Each stem of a profile's allStems, nameStems, paramStems and descStems, with the sets that hold it
 * as bits (IN_ALL, IN_NAME, IN_PARAMS, IN_DESC): one look-up a request stem instead of one a set.
 * Read once a profile (profiles are not changed after buildProfile).
 */
const STEM_FLAGS = new WeakMap<ToolProfile, Map<string, number>>();
function stemFlags(profile: ToolProfile): Map<string, number> {
  let flags = STEM_FLAGS.get(profile);
  if (flags === undefined) {
    const m = new Map<string, number>();
    const mark = (set: ReadonlySet<string>, bit: number): void => {
      for (const s of set) m.set(s, (m.get(s) ?? 0) | bit);
    };
    mark(profile.allStems, IN_ALL);
    mark(profile.nameStems, IN_NAME);
    mark(profile.paramStems, IN_PARAMS);
    mark(profile.descStems, IN_DESC);
    STEM_FLAGS.set(profile, (flags = m));
  }
  return flags;
}

/** How many members of `a` carry `bit` in `flags` (sharedCount through stemFlags). */
function countFlagged(a: Iterable<string>, flags: ReadonlyMap<string, number>, bit: number): number {
  let n = 0;
  for (const x of a) if ((flags.get(x) ?? 0) & bit) n++;
  return n;
}

/** A profile's name stems that are no generic word, and its name's action groups: the same for every request, read once. */
const NAME_PARTS = new WeakMap<ToolProfile, { nameList: string[]; nVerbs: Set<string> }>();
function nameParts(profile: ToolProfile): { nameList: string[]; nVerbs: Set<string> } {
  let out = NAME_PARTS.get(profile);
  if (out === undefined)
    NAME_PARTS.set(
      profile,
      (out = { nameList: [...profile.nameStems].filter((s) => !GENERIC.has(s)), nVerbs: actionGroups(profile.nameStems) }),
    );
  return out;
}

/** How many members of `a` (a set, or a list of distinct words) the set `b` holds (read through `a`, which should be the smaller). */
function sharedCount(a: Iterable<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}
