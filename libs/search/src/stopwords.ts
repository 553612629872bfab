// Stop words for ToolIndex. Kept small on purpose: tool vocabulary is terse, and words such as
// "on", "off", "up", "down", "in", "out", "not", "all", "new", "get", "set" carry meaning in tool
// names (turn_on, scale_up, check_in, get_all). Base: Lucene's English stop set (the 33 words of
// EnglishAnalyzer), minus "no"/"not"/"on"/"in"/"into"; plus pronouns, auxiliaries and the
// politeness/filler words of requests to an assistant ("please", "could", "help me"), which occur
// in queries and almost never in tool text ("help" opens many requests: "help me find…"; a tool
// named "help" is still found by its exact name). Contraction debris ("s", "t", "ll", "re", "ve", "d", "m")
// comes from splitting "it's", "don't", "I'll".

/** Stop words dropped from analyzed text (lower-case, before stemming). */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // Lucene EnglishAnalyzer.ENGLISH_STOP_WORDS_SET minus no, not, on, in, into
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'is', 'it', 'of', 'or',
  'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
  // pronouns and determiners
  'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'you', 'your', 'yours', 'yourself',
  'he', 'him', 'his', 'she', 'her', 'hers', 'its', 'them', 'those', 'what', 'which', 'who', 'whom',
  'whose', 'some', 'any', 'each', 'every',
  // auxiliaries and modal verbs
  'am', 'been', 'being', 'were', 'do', 'does', 'did', 'doing', 'have', 'has', 'had', 'having',
  'can', 'could', 'would', 'should', 'shall', 'may', 'might', 'must',
  // request filler
  'please', 'kindly', 'hi', 'hello', 'hey', 'thanks', 'thank', 'also', 'just', 'so', 'too', 'very',
  'about', 'like', 'want', 'wanna', 'need', 'im', 'let', 'lets', 'help',
  // contraction debris
  's', 't', 'll', 're', 've', 'd', 'm',
]);

/**
 * Chinese function characters (particles, pronouns, copulas, measure words) that are dropped as
 * query unigrams; bigrams that contain them are kept ("我们", "的话" never decide a match alone).
 */
export const CJK_STOP_CHARS: ReadonlySet<string> = new Set(
  Array.from('的了是在和与及或我你他她它们请吗呢吧啊呀一个这那有也就都而被把给让从到对为以之于其不能可要想帮下'),
);
