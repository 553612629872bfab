// The selection features' names, in vector order: the base ones, then the pairwise products.

/** Names of the base selection features, in vector order. */
export const BASE_FEATURE_NAMES = [
  'bias',
  'retrievalRel',
  'retrievalRank',
  'nameCover',
  'queryCover',
  'queryInName',
  'paramMention',
  'fill',
  'evidence',
  'salientUsed',
  'noParams',
  'missingReq',
  'preferred',
  'contextKeys',
  'optionalFilled',
  'unexplained',
  'mentionedUnfilled',
  'verbMatch',
  'verbClash',
  'paramsFilled',
  'numberFit',
  'bigramCover',
  'toolCover',
  'descLength',
  'paramCount',
  'requiredAllFilled',
  'datesAsWritten',
] as const;

/**
 * Base features whose pairwise products (squares included) the reranker also weighs: how the
 * retrieval score, the request's coverage and the argument fill combine (a linear model alone
 * cannot say "covered AND filled"; 5-fold CV top-1 on dev 0.739 with them, 0.728 without:
 * npx tsx tools/mapper/fit-confidence.ts --dry-run).
 */
const INTERACTING: readonly (typeof BASE_FEATURE_NAMES)[number][] = [
  'retrievalRel',
  'retrievalRank',
  'queryCover',
  'toolCover',
  'bigramCover',
  'fill',
  'evidence',
  'unexplained',
  'nameCover',
];
/** Index pairs of the interacting features, in vector order after the base features. */
export const PAIRS: [number, number][] = INTERACTING.flatMap((a, i) =>
  INTERACTING.slice(i).map((b): [number, number] => [BASE_FEATURE_NAMES.indexOf(a), BASE_FEATURE_NAMES.indexOf(b)]),
);

/** Names of all selection features, in vector order: the base ones, then the products ("a*b"). */
export const FEATURE_NAMES: readonly string[] = [
  ...BASE_FEATURE_NAMES,
  ...PAIRS.map(([a, b]) => `${BASE_FEATURE_NAMES[a]}*${BASE_FEATURE_NAMES[b]}`),
];
