// Value types in a request. A request often carries the value a tool takes as a parameter without
// naming the parameter: "the forecast for Campbell on March 4th, 2023" holds a date, "move it to
// Thursday at 4:30 PM" a time. Each value type found adds its concept word ("date", "time") to the
// query, so a tool with a `date` parameter or a description about dates gains over one without.
// Its cues are modules of their own: office-cues.ts (files and office documents),
// place-cues.ts (places on a map), request-cues.ts (order, unit, currency, shell command).
import {
  FILE_KINDS,
  WRITING_VERB_RE,
  CONTENT_VERB_RE,
  FILE_VERB_RE,
  WRITE_TO_TEXT_FILE_RE,
  MADE_DOCUMENT_RE,
  madeOfficeDocument,
} from './office-cues.js';
import { ORDER_RE, UNIT_QUESTION_RE, currenciesNamed, COMMAND_CUE_RE } from './request-cues.js';
export { asksForPlaces, PLACE_WORDS } from './place-cues.js';

// A calendar date, in English or Chinese:
// - a month name or its abbreviation next to a day number ("March 8th", "8 of March", "Apr. 5");
// - ISO "2023-03-08", numeric "3/8/2023" or "03/08/23";
// - relative days ("today", "tomorrow", "next Wednesday", "last week", "this weekend", "on Friday");
// - Chinese "2023年", "3月8日" / "3月8号", 今天 (today), 明天 (tomorrow), 昨天 (yesterday), 后天 (the day after tomorrow).
const DATE_RE = new RegExp(
  [
    String.raw`\b(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?\s+\d{1,2}(?:st|nd|rd|th)?\b`,
    String.raw`\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b`,
    String.raw`\b\d{4}-\d{1,2}-\d{1,2}\b`,
    String.raw`\b\d{1,2}\/\d{1,2}\/\d{2,4}\b`,
    String.raw`\b(?:today|tomorrow|yesterday|tonight)\b`,
    String.raw`\b(?:this|next|last|on)\s+(?:week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`,
    String.raw`\d{4}年|\d{1,2}月\d{1,2}[日号]|今天|明天|昨天|后天`,
  ].join('|'),
  'i',
);

// A clock time: "4:30", "16:45", "9 pm", "9pm", "11:00 a.m.".
const TIME_RE = /\b\d{1,2}:\d{2}\b|\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])/i;

/** Concept words (as index terms) of the value types a request holds: "date", "time". */
export function valueTypeTerms(query: string): string[] {
  const out: string[] = [];
  if (DATE_RE.test(query)) out.push('date');
  if (TIME_RE.test(query)) out.push('time');
  return out;
}

// An arithmetic operation written between two numbers: "394 times 213", "443 * 349", "5 + 3",
// "100 minus 40", "84 ÷ 7". The operation's verb and "math calculate" take the operator's place in
// the query, so "compute 443 * 349" reaches a multiplying or calculating tool (the tokenizer drops
// the symbols), and "394 times 213" is not read as about time ("times" stems to "time"). Only
// words that name arithmetic and little else: "product" and "difference" pulled shop and compare
// tools first, and "multiplication" stems like "multiple" (read_multiple_files); "sum" and
// "quotient" stay.
// The second number ends the expression (the request's end, punctuation, "=", or another operator):
// "remind me 3 times 2 hours before" counts hours, not a product. A hyphen or a slash is no
// operator ("555 - 1234" is a phone number, "9 - 5" a shift, "16 / 9" a ratio, "2023-10-01" a date);
// neither is a number glued to a time or a word ("10:30 + 5").
const OPERAND = String.raw`(?<![\w.:])-?\d+(?:\.\d+)?\s*`;
const OPERAND_END = String.raw`(?=\s*-?\d+(?:\.\d+)?\s*(?:$|[?.,;!)=]|\b(?:and|plus|minus|times|then)\b|[-+*×÷]))`;
const OPERATIONS: readonly [RegExp, readonly string[]][] = [
  [new RegExp(String.raw`${OPERAND}(\*|×|\btimes\b|\bmultiplied\s+by\b)${OPERAND_END}`, 'gi'), ['multiply', 'math', 'calculate']],
  [new RegExp(String.raw`${OPERAND}(\+|\bplus\b)${OPERAND_END}`, 'gi'), ['add', 'sum', 'math', 'calculate']],
  [new RegExp(String.raw`${OPERAND}(−|\bminus\b)${OPERAND_END}`, 'gi'), ['subtract', 'math', 'calculate']],
  [new RegExp(String.raw`${OPERAND}(÷|\bdivided\s+by\b)${OPERAND_END}`, 'gi'), ['divide', 'quotient', 'math', 'calculate']],
];

/**
 * The arithmetic operations a request writes between two numbers: their words ("394 times 213" →
 * multiply, math, calculate) and the request with each operator blanked out (so "times" is no word
 * of it).
 */
export function readOperations(query: string): { words: string[]; rest: string } {
  const words: string[] = [];
  let rest = query;
  for (const [re, names] of OPERATIONS) {
    let found = false;
    rest = rest.replace(re, (whole: string, ...groups: unknown[]) => {
      found = true;
      const op = groups.find((g): g is string => typeof g === 'string') ?? '';
      const at = whole.lastIndexOf(op);
      return whole.slice(0, at) + ' '.repeat(op.length) + whole.slice(at + op.length);
    });
    if (found) words.push(...names);
  }
  return { words, rest };
}

/**
 * Words of the tools a request implies without naming them: its file names ("…/apple.pptx" →
 * presentation, slide; "save it as Markdown to /root/markdown/x.md" → write, file; see the table
 * above), an office document it makes ("summarize it in a PPT in /root/ppt/apple.pptx" → create,
 * new; see OFFICE_OUTPUTS), a shell command it asks for ("list c drive" → execute, command; see
 * COMMAND_CUE_RE),
 * two currencies it names ("Canadian dollars … 500 US dollars" → currency, convert, exchange), a
 * unit asked for in another ("How many ounces in 2 pounds" → convert, conversion, unit), and an
 * order between two ends ("from the smallest to the largest" → sort, order). Places to find on a
 * map are read apart (asksForPlaces, PLACE_WORDS), at a weight of their own.
 */
export function impliedToolWords(query: string): string[] {
  const out: string[] = [];
  // (only where the request works on the document's content: "summarize it in a PPT in
  // /root/ppt/apple.pptx", "read the data under /root/excel/x.xlsx"; a file moved, zipped, renamed,
  // deleted, committed or e-mailed is a file, and "paragraph" would rank add_paragraph first)
  const fileVerb = FILE_VERB_RE.test(query);
  const made = fileVerb ? undefined : madeOfficeDocument(query);
  if (made !== undefined || (CONTENT_VERB_RE.test(query) && !fileVerb)) {
    const writes = made !== undefined || WRITING_VERB_RE.test(query);
    for (const [re, words, read] of FILE_KINDS) if (re.test(query)) out.push(...(writes ? words : (read ?? words)));
  }
  if (WRITE_TO_TEXT_FILE_RE.test(query) || MADE_DOCUMENT_RE.test(query)) out.push('write', 'file');
  if (made !== undefined) out.push(...made);
  if (COMMAND_CUE_RE.test(query)) out.push('execute', 'command');
  if (currenciesNamed(query) >= 2) out.push('currency', 'convert', 'exchange');
  if (UNIT_QUESTION_RE.test(query)) out.push('convert', 'conversion', 'unit');
  if (ORDER_RE.test(query)) out.push('sort', 'order');
  return out;
}
