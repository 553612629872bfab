// Smaller cues of the tools a request implies: a sort order, a unit question, two currencies, a shell command.
import { CURRENCY_BY_REGION, CURRENCY_ALONE, SYMBOL_CODES } from './data/currencies.js';

// An order asked for between two ends: "arranged from the smallest to the largest", "from
// highest to lowest" (not "from oldest to newest": lists of orders, events and commits take that
// order themselves).
const END_WORD = String.raw`(?:smallest|largest|lowest|highest|least|most|biggest|greatest|cheapest|shortest|longest)`;
export const ORDER_RE = new RegExp(String.raw`\bfrom\s+(?:the\s+)?${END_WORD}\s+to\s+(?:the\s+)?${END_WORD}\b`, 'i');

// A unit asked for in another: "How many ounces in 2 pounds of butter?", "how many cups are in a
// gallon", "how many seconds in 3 hours" (the question ends there: "how many hours in a week are
// booked on my calendar" is no conversion; calories are no unit of this kind).
const UNIT = String.raw`(?:ounces?|oz|pounds?|lbs?|grams?|kilograms?|kgs?|milligrams?|tons?|cups?|tablespoons?|tbsp|teaspoons?|tsp|liters?|litres?|milliliters?|millilitres?|ml|gallons?|quarts?|pints?|fluid\s+ounces?|meters?|metres?|centimeters?|centimetres?|millimeters?|kilometers?|kilometres?|km|feet|foot|ft|inch(?:es)?|miles?|yards?|acres?|hectares?|seconds?|minutes?|hours?|days?|weeks?|bytes?|kilobytes?|megabytes?|gigabytes?|terabytes?)`;
export const UNIT_QUESTION_RE = new RegExp(
  String.raw`\bhow\s+many\s+${UNIT}\s+(?:are\s+|is\s+)?(?:there\s+)?in\s+(?:a|an|one|\d+(?:\.\d+)?)\s+${UNIT}\b(?=\s*(?:$|[?.,!]|of\b))`,
  'i',
);

// Currencies a request names: an ISO code of a common currency, a currency's name (with the
// country or region that tells dollars apart: "Canadian dollars", "US dollars"), or a symbol. Each
// is read as its ISO code, so "$", "USD", "dollars" and "US dollars" are one currency. Words that
// are mostly something else count only with a country: "pounds" (a weight) as "British pounds",
// "won", "real", "try" never alone.
const CURRENCY_RE =
  /\b(usd|eur|gbp|jpy|cad|aud|nzd|cny|rmb|inr|chf|krw|hkd|sgd|mxn|brl|rub|sek|nok|dkk|zar)\b|\b(?:(us|u\.s\.|united states|american|canadian|australian|new zealand|hong kong|singapore|singaporean|mexican|british|japanese|chinese|indian|swiss|korean|south korean|south african|brazilian|russian|swedish|danish|norwegian)\s+)?(dollars?|euros?|yen|pounds?(?:\s+sterling)?|rupees?|yuan|renminbi|francs?|won|pesos?|reals?|rubles?|kron(?:a|or|er|e))\b|([$€£¥₹₩])/gi;

/** ISO code of a currency word with its country ("" when the word alone names no currency). */
function currencyCode(region: string, word: string): string {
  if (/sterling$/.test(word)) return 'GBP';
  return (region ? CURRENCY_BY_REGION[region] : CURRENCY_ALONE[word.replace(/s$/, '')]) ?? '';
}
/** How many different currencies a request names ("500 US dollars" and "Canadian dollars": 2; "$500" and "USD": 1). */
export function currenciesNamed(query: string): number {
  const seen = new Set<string>();
  for (const m of query.matchAll(CURRENCY_RE)) {
    const code = m[1]
      ? m[1].toUpperCase().replace('RMB', 'CNY')
      : m[4]
        ? SYMBOL_CODES[m[4]]
        : currencyCode((m[2] ?? '').toLowerCase(), (m[3] ?? '').toLowerCase());
    if (code) seen.add(code);
    if (seen.size >= 2) break;
  }
  return seen.size;
}

// A request for a shell command: "using the command echo %time%", "using the instruction del …",
// "command prompt", a Windows environment variable (%userprofile%), a drive ("list c drive"),
// running something at a drive's path ("Run the Python script located at d:/playground/…"), "in a
// terminal", "open PowerShell", "shell commands" (a drive's path alone is a file: "export it to
// C:\out\t.csv"; "Shell" the company, an airport's terminal, "a 4 h drive" and %20 in a URL are
// no cues). It stands for the tool that
// executes a command ("execute", "command"), which the request rarely names: without these words
// "list c drive" reaches driving-distance tools, and "remove shortcut … using the instruction del
// "%userprofile%\Desktop\putty.lnk"" a tool named DelScr. ("I drive", "a drive" are no drive
// letters; a lone "command" is no cue: "Command not found.")
// Measured (docs/decisions/search-shell-and-currency-cues.md): 15 of the 2,135 dev and irrelevance
// requests hold a cue, 13 of them asking for BFCL's cmd_controller.execute; NDCG@10 with the words
// 0.796 on half A and 0.811 on half B, against 0.789 and 0.809 without (no head reranker).
export const COMMAND_CUE_RE =
  /\b(?:using|use|with|via|run|runs|execute)\s+(?:the\s+)?(?:exact\s+)?(?:[\w.:-]+\s+)?(?:command|instruction)s?\b|\bcommand\s+(?:prompt|line)\b|\b(?:in|into|on|open|run|use|using|start|launch)\s+(?:a\s+|the\s+|my\s+)?(?:cmd|powershell|terminal|shell|bash)\b|\b(?:cmd|powershell|terminal|shell|bash)\s+commands?\b|%[A-Za-z_][A-Za-z0-9_]*%|\b(?:run|execute)\b[^.?!\n]{0,80}?(?<![\w/])[c-z]:[\\/]|\b(?:list|open|show|browse|scan|clean|format|in|on|of|from|the|my)\s+[b-hj-z]\s+dri+ve\b/i;
