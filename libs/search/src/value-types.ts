// Value types in a request. A request often carries the value a tool takes as a parameter without
// naming the parameter: "the forecast for Campbell on March 4th, 2023" holds a date, "move it to
// Thursday at 4:30 PM" a time. Each value type found adds its concept word ("date", "time") to the
// query, so a tool with a `date` parameter or a description about dates gains over one without.

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

// Files a request names. Requests to agents name a file where a tool should read or write it,
// and rarely say which kind of tool that takes: "a PPT in /root/ppt/apple.pptx" means creating
// and saving a presentation, "save it as Markdown to /root/markdown/x.md" means writing a file.
// - A file name with an office extension stands for the document kind tool catalogs name:
//   .ppt/.pptx → presentation, slide; .doc/.docx → document, paragraph; .xls/.xlsx/.xlsm → excel,
//   sheet, workbook.
// - A write verb (save, write, store, draft, export, output) followed in the same sentence,
//   within 200 characters, by "to/in/into/as/at/under" and a path or file name of a plain-text kind
//   (.md, .txt, .py, .html, .json, .csv, .yaml, .xml, .css, .sh; .js and .ts in a path only) stands
//   for "write file": the tool that writes such a file is a file system's write_file, not one named
//   after the content. ("Draft an email about the Vue.js migration", "put the meeting on my
//   calendar, agenda is in notes.txt" are no writes to a file.)
// A path or URL alone adds nothing: read as the concepts "file" / "url" it lowers LiveMCPBench
// NDCG@10 by 0.01 (docs/decisions/search-file-paths.md).
// Measured (docs/decisions/search-implied-office-words.md): 16 of the 2,135 dev and irrelevance
// requests name such a file, all LiveMCPBench tasks; with these words LiveMCPBench NDCG@10 is 0.279
// against 0.254 without (with the head reranker), and all-dev NDCG@10 and Recall@5 hold (0.825,
// 0.886).
// A Word document only read (no writing verb anywhere in the request, WRITING_VERBS, and nothing
// made: "Read the file /root/docs/exchange.docx, tell me who did not give a gift") stands for its
// text, not its paragraphs: "paragraph" ranks add_paragraph and get_paragraph_text_from_document
// before get_document_text ("Extract all text from a Word document", 59th); LiveMCPBench NDCG@10
// +0.008 with "text" (one request of 60; docs/decisions/search-office-output-create-new.md).
/** Each office kind: its file name, its words, and its words where the request only reads it (when they differ). */
const FILE_KINDS: readonly [RegExp, readonly string[], (readonly string[])?][] = [
  [/[\w-]\.pptx?(?!\w)/i, ['presentation', 'slide']],
  [/[\w-]\.docx?(?!\w)/i, ['document', 'paragraph'], ['document', 'text']],
  [/[\w-]\.(?:xlsx?|xlsm)(?!\w)/i, ['excel', 'sheet', 'workbook']],
];
/** Verbs that write a document's content. */
const WRITING_VERBS = String.raw`create|make|generate|write|draft|save|edit|add|insert|fill|update|export|build|prepare|format`;
const WRITING_VERB_RE = new RegExp(String.raw`\b(?:${WRITING_VERBS})\b`, 'i');
/** Verbs that work on a document's content: the writing verbs and the reading ones. */
const CONTENT_VERB_RE = new RegExp(String.raw`\b(?:${WRITING_VERBS}|read|open|view|show|summari[sz]e|analy[sz]e|extract|tell\s+me)\b`, 'i');
/** Verbs that handle a document as a file ("share" not in "market share"). */
const FILE_VERB_RE =
  /\b(?:zip|unzip|compress|archive|rename|move|moved|delete|remove|copy|commit|push|e-?mail|send|upload|download|attach|(?<!\bmarket\s+)share|modified|permissions?)\b/i;

/**
 * A path or a bare file name ending in one of `ext`'s extensions (a regex source): /root/x.md,
 * ~/notes/a.txt, C:\out\b.py, report.md; with `rooted`, a path only (a slash before its last part).
 */
const PATH_TO = (ext: string, rooted = false): string =>
  String.raw`(?:[a-z]:\\|~|\.{1,2})?[\/\\]${rooted ? '' : '?'}(?:[\w-]+[\/\\])*[\w-]+\.(?:${ext})(?!\w)`;
/** A path or a bare file name of a plain-text kind: /root/x.md, ~/notes/a.txt, C:\out\b.py, report.md (.js and .ts only in a path). */
const TEXT_PATH = String.raw`(?:${PATH_TO('md|markdown|txt|py|html?|json|csv|ya?ml|xml|css|sh')}|${PATH_TO('js|ts', true)})`;
const WRITE_TO_TEXT_FILE_RE = new RegExp(
  String.raw`\b(?:save|saved|saving|write|writes|writing|wrote|store|stored|draft|export|output)\b` +
    // the rest of the sentence, then "to/in/into/as/at/under" and a path or a bare file name:
    // /root/x.md, ~/notes/a.txt, C:\out\b.py, report.md (.js and .ts only in a path: "node.js",
    // "Vue.js" are names)
    String.raw`[^.;!?\n]{0,200}?\b(?:to|in|into|as|at|under)\s+(?:the\s+|a\s+)?(?:file\s+)?` +
    TEXT_PATH,
  'i',
);

// A document to make, put at a path of a plain-text kind: the document is written there, as with a
// write verb. The document noun (report, document, page, summary, table, script, notes…) must be
// the making verb's own object, and the path come right after it:
// - a making verb (create, generate, produce, compile, prepare, make, build, give me), "a", "an",
//   "one" or "new" ("the" only after create, generate, produce or write; no article only after a
//   bare create, generate or produce), up to 5 describing words (no function word: no second
//   article, pronoun, preposition, "using", "based", "is"), the noun, then "in/at/into/under" (the
//   file at) or "on/to" right before the path: "Give me a markdown report on
//   /root/markdown/baidu_report.md", "then create a Comparison Report in /root/markdown/x.md",
//   "Create the report at /root/out/report.md"; up to two "and/in/as/into a …" joins ("give me a
//   comparison table and a final recommendation in a markdown report in /root/markdown/x.md");
// - or "into/as a … report at PATH" after a making verb of the same sentence ("compile the
//   findings into a report at …").
// No making verb after an article, a possessive or a negation ("the build script in /root/build.sh
// fails", "don't generate a new report in /root/r.md"), no guide or intro "to" a path (it explains
// the file). The shape is this narrow because a looser one (a making verb anywhere before "noun in
// PATH") fires on near misses ("make a chart using the table in /root/data.csv", "give me a code
// review for the script at /root/app.py", "make the table in /root/index.html responsive"), where
// the clearly right tool falls from MRR@10 0.784 to 0.502 on a 52-tool catalog. This form fires on
// none of 68 such near misses, on 40 of 40 real writes, on 15 of 15 and 2 of 15 of a held-out batch
// of writes and near misses, and on the eval data on 4 dev requests the write verbs miss and all
// LiveMCPBench tasks that write the file (LiveMCPBench NDCG@10 +0.002 and +0.007 on the two halves;
// docs/decisions/search-made-document-write-file.md). Still read as writes: "give me a brief on
// /root/r.md" (the Baidu task's shape).
const DOCUMENT_NOUN = String.raw`(?:report|document|doc|page|summary|overview|intro|introduction|brief|article|guide|table|comparison|analysis|script|notes?|file)`;
const MAKING_VERB = String.raw`(?:create|creates|creating|generate|generates|generating|produce|producing|compile|compiling|prepare|preparing|make|making|build|building|give\s+me)`;
/** Words that end a making verb's object: articles, pronouns, prepositions, conjunctions, "is". */
const FUNCTION_WORD = String.raw`(?:a|an|the|this|that|these|those|my|your|our|his|her|their|its|it|them|each|every|all|any|some|and|or|but|of|for|from|about|with|without|on|in|at|to|into|under|by|using|based|via|per|as|me|you|what|which|who|whose|is|are|was|were|be|been)`;
/** One describing word of an object (quoted, hyphenated from a function word as in "in-depth", a comma after it). */
const DESCRIBING_WORD = String.raw`(?!${FUNCTION_WORD}(?![\w-]))["'\`]?[\w-]+["'\`]?,?`;
const OBJECT_WORD = String.raw`${DESCRIBING_WORD}\s+`;
const OBJECT_WORDS = String.raw`(?:${OBJECT_WORD}|(?:and|or)\s+){0,5}(?:${OBJECT_WORD}(?:and|or|in|as|into)\s+(?:a|an)\s+(?:${OBJECT_WORD}|(?:and|or)\s+){0,5}){0,2}`;
const DOCUMENT_AT_PATH =
  String.raw`\b${DOCUMENT_NOUN}\s+(?:(?:in|at|into|under)\s+(?:(?:the|a)\s+)?(?:file\s+)?(?:at\s+)?|on\s+|(?<!\b(?:guide|intro|introduction)s?\s+)to\s+)[\`"']?` +
  TEXT_PATH;
const MADE_DOCUMENT_RE = new RegExp(
  String.raw`(?<!\b(?:the|a|an|my|our|your|this|that|its|their|not|never)\s+)(?<!n't\s+)` +
    String.raw`(?:\b${MAKING_VERB}\s+(?:me\s+)?(?:(?:a|an|one)\s+(?:new\s+)?|new\s+)|\b(?:create|creating|generate|generating|produce|producing|write|writing)\s+(?:me\s+)?the\s+(?:new\s+)?|\b(?:create|generate|produce)\s+)` +
    OBJECT_WORDS +
    DOCUMENT_AT_PATH +
    String.raw`|\b${MAKING_VERB}\b[^.;!?\n]{0,200}?\b(?:into|as)\s+(?:a|an)\s+(?:${OBJECT_WORD}){0,5}` +
    DOCUMENT_AT_PATH,
  'i',
);

// An office document the request makes: a presentation, a Word document or a PDF written at the
// request's one office file. Making one is the work of a tool that creates a new file of that kind
// (create_presentation "Create a new PowerPoint presentation", create_document "Create a new Word
// document"), which such a request never names: without this, "summarize it in a PPT in
// /root/ppt/apple.pptx" has delete_slide first and create_presentation 73rd. A PDF is made as a
// document and then converted, so it implies "document" as well. The kind is the file's (its extension); the path
// must be the output and the noun the made thing, in one of these shapes:
// - a write verb (a participle not after a determiner or a subject: "the file I saved to" is
//   read), its object (a pronoun or up to five describing words; before "in" only a pronoun or a
//   document noun, "save it in", unless "in a/an <office noun>" follows), "to/into/as/at/under/in",
//   an optional "the/a [new] <office noun or file> [at/called/:]", and the path ("save it in
//   /root/word/nio.docx", "save the final file at /root/word/paper_list.docx");
// - a making verb (MAKING_VERB; not after an article, a possessive or a negation), then, after "a",
//   "an", "one", "new" or nothing ("the" only after create, generate, produce), up to four
//   describing words and the kind's noun, then the path right after it or, within 80 characters
//   holding no from/using/based/out of, "in/to/at/as/into/under/titled/named/called" and the path
//   ("Generate a well-formatted PDF report titled wechat_reading_report.pdf in /root/pdf"); or
//   "into/as a … <noun>" after a making verb not negated, the same way ("make my notes into a slide
//   deck at …"); or create/generate/produce and the path itself ("Create /root/word/minutes.docx");
// - "a/an", up to three describing words, the noun and "in/to/at/as/into" the path, after
//   like/want/need/together, "draw/write/whip/set up", or "in/into/as" following a verb that puts
//   content somewhere, not negated ("summarize it in a PPT in /root/ppt/apple.pptx", "I'd like a
//   new presentation at …").
// The noun before the path may name another kind than the path's ("save the document as
// /root/pdf/x.pdf"). Not where the request names two office files or more (a conversion or a merge
// of files it has: "Convert /root/word/CV.docx … to PDF, merge … as /root/pdf/full_cv.pdf"),
// handles the file as a file (FILE_VERB_RE) or says the file exists ("the existing report", "it
// already exists"). No workbook: the Excel server of the eval corpus has no tool that creates one,
// and "create new" lifts excel_create_table and excel_copy_sheet above excel_write_to_sheet (MRR@10
// of the right tool 0.463 against 0.667 without the words, on 9 workbook makes).
// The shapes are this narrow because a looser form (any making verb before the kind's noun and the
// path in the sentence, or any write verb before "in" and the path) fires on near misses: the noun
// matches the path's own folder ("/root/word/…", "/root/pdf/…": "make a note of the phone numbers
// in /root/pdf/contacts.pdf"), a source reads as the made thing ("create a chart from the
// spreadsheet /root/…") and any write verb with any "in" counts ("write down the key dates
// mentioned in /root/…", "export every table in /root/… to CSV"); on a catalog of 130 tools (the
// corpus's office servers and others) the right tool of such near misses falls from MRR@10 0.513 to
// 0.285. These shapes fire on 1 of 82 written near misses and catch 34 of 45 makes (MRR@10 0.828);
// on 30 held-out requests they fire on 2 of 15 near misses and catch 13 of 15 makes (0.737 against
// 0.308 without the words). The last shape takes no "me/us", "up" only in "draw/write/whip/set up",
// and no list/record/collect/gather/capture as putting verbs ("Show me a report in
// /root/pdf/q2.pdf", "Pull up a presentation at …", "List the slides in a presentation at …" make
// nothing), and the existence check does not read "summarizing the existing literature" as an
// existing file. On the eval data it fires on 7 dev requests, all LiveMCPBench tasks that make the
// file, and on no irrelevance or MetaTool request (docs/decisions/search-office-output-create-new.md).
const OFFICE_NOUN = String.raw`(?:PPTX?|PowerPoint(?:\s+(?:presentation|deck|file))?|presentation|slides|slide\s+deck|deck|Word(?:\s+(?:document|doc|file))?|docx?|document|PDF(?:\s+(?:report|document|file))?|report)`;
const OUTPUT_PRONOUN = String.raw`(?:it|them|this|that|these|those|everything|all\s+of\s+it)`;
const OUTPUT_DETERMINER = String.raw`(?:the|a|an|my|our|your|this|these|those|all\s+the|each|every|one)`;
/** The object of "save … in": a pronoun or a document ("save it in", "store the final report in"; not "export every table in"). */
const OUTPUT_IN_OBJECT = String.raw`(?:${OUTPUT_PRONOUN}|(?:the|my|our|your)\s+(?:(?:final|whole|finished|completed|resulting|new)\s+)?(?:results?|outputs?|file|${OFFICE_NOUN}|summary|notes|minutes|analysis|draft)(?:\s+file)?)`;
const OUTPUT_WRITE_VERB = String.raw`(?:(?<!\b(?:the|a|an|this|that|my|your|our|his|her|their|its|I|we|you|he|she|they)\s+(?:[\w-]+\s+){0,2})\b(?:saved|stored|written|exported)|(?<!\b(?:the|a|an|this|that|my|your|our|his|her|their|its)\s+)\b(?:save|saving|write|writes|writing|store|export|output))`;
/** Verbs that put content into a document ("summarize it in a PPT in …"). */
const PUTTING_VERB = String.raw`(?:summari[sz]e|summari[sz]ing|put|turn|present|write|draft|compile|organi[sz]e|lay\s+out|make|create|generate|build|prepare|produce|format|save|store|export|output|convert|render|compose)`;
/** An office file named before its path: "Word document called", "docx file:", "file at". */
const NAMED_OFFICE_FILE = String.raw`(?:${OFFICE_NOUN}|file)(?:\s+file)?(?:\s+(?:at|in|called|named|titled))?\s*[:,]?\s+`;
/** Between the preposition and the path: "the", "a new Word document called", "a docx file:". */
const OFFICE_INTO = String.raw`\s+(?:(?:the|a|an)\s+)?(?:(?:new|final|same)\s+)?(?:${NAMED_OFFICE_FILE})?[\`"']?`;
const OFFICE_IN_A_NOUN = String.raw`\s+in\s+(?:a|an|a\s+new)\s+${NAMED_OFFICE_FILE}[\`"']?`;
/** What a made office file implies, by its extension (lower case). */
const OFFICE_OUTPUTS: ReadonlyMap<string, { re: RegExp; words: readonly string[] }> = new Map(
  [
    { exts: ['ppt', 'pptx'], noun: String.raw`PPTX?|PowerPoint|presentation|slides|slide\s+deck|deck`, words: ['create', 'new'] },
    { exts: ['doc', 'docx'], noun: String.raw`Word(?:\s+(?:document|doc|file))?|docx?|document`, words: ['create', 'new'] },
    { exts: ['pdf'], noun: String.raw`PDF(?:\s+(?:report|document|file))?|report|document`, words: ['create', 'new', 'document'] },
  ].flatMap(({ exts, noun, words }) => {
    const path = PATH_TO(exts.join('|'));
    const made = String.raw`(?:${noun})\b(?![\/\\.]\w)`;
    const tail = String.raw`(?:\s+[\`"']?|(?:(?!\b(?:from|using|based|out\s+of)\b)[^.;!?\n]){0,80}?\b(?:in|to|at|as|into|under|titled|named|called)${OFFICE_INTO})${path}`;
    const object = String.raw`\s+(?:${OUTPUT_PRONOUN}|(?:${OUTPUT_DETERMINER}\s+)?(?:${DESCRIBING_WORD}\s+){0,4}${DESCRIBING_WORD})`;
    const re = new RegExp(
      String.raw`${OUTPUT_WRITE_VERB}(?:\s+(?:up|out))?(?:(?:(?:${object})?\s+(?:to|into|as|at|under)|\s+${OUTPUT_IN_OBJECT}\s+in|\s+(?:to|into|as|at|under|in))${OFFICE_INTO}|(?:${object})?${OFFICE_IN_A_NOUN})${path}` +
        String.raw`|(?<!\b(?:the|a|an|my|our|your|this|that|its|their|not|never)\s+)(?<!n't\s+)(?:\b${MAKING_VERB}\s+(?:(?:me|us)\s+)?(?:(?:a|an|one)\s+(?:new\s+)?|new\s+)?|\b(?:create|creating|generate|generating|produce|producing)\s+(?:me\s+)?the\s+(?:new\s+)?)(?:${DESCRIBING_WORD}\s+){0,4}${made}${tail}` +
        String.raw`|(?<!\b(?:not|never)\s+)(?<!n't\s+)\b${MAKING_VERB}\b[^.;!?\n]{0,200}?\b(?:into|as)\s+(?:a|an)\s+(?:new\s+)?(?:${DESCRIBING_WORD}\s+){0,3}${made}${tail}` +
        String.raw`|\b(?:create|generate|produce)\s+(?:(?:a|an|the)\s+(?:new\s+)?(?:file\s+)?)?[\`"']?${path}` +
        String.raw`|(?:\b(?:like|want|need|needs|together)|\b(?:draw|write|whip|set)\s+up|(?<!\b(?:not|never)\s+)(?<!n't\s+)\b${PUTTING_VERB}\b[^.;!?\n]{0,120}?\b(?:in|into|as))\s+(?:a|an)\s+(?:${DESCRIBING_WORD}\s+){0,3}(?:${noun})\s+(?:in|to|at|as|into)${OFFICE_INTO}${path}`,
      'i',
    );
    return exts.map((ext) => [ext, { re, words }] as const);
  }),
);
/** A request that says its office file exists already edits or reads it. */
const OFFICE_EXISTS_RE =
  /\b(?:existing\s+(?:[\w-]+\s+){0,2}?(?:file|document|docx?|report|presentation|deck|pptx?|pdf|slides)|already\s+(?:exists?|there))\b/i;
/**
 * The office files a request names, each by its file name (the extension is group 1; not
 * "x.pptx.bak"). A name starts only where a word does, so a long run of letters is read once, not
 * once from each of its letters.
 */
const OFFICE_FILE_RE = /(?<![\w-])[\w-]+\.(pptx?|docx?|xlsx?|xlsm|pdf)(?!\w|\.\w)/gi;

/** The office document the request makes (see OFFICE_OUTPUTS): the words it implies, or undefined. */
function madeOfficeDocument(query: string): readonly string[] | undefined {
  const files = new Map<string, string>();
  for (const m of query.matchAll(OFFICE_FILE_RE)) files.set(m[0].toLowerCase(), m[1].toLowerCase());
  if (files.size !== 1 || OFFICE_EXISTS_RE.test(query)) return undefined;
  const kind = OFFICE_OUTPUTS.get(files.values().next().value!);
  return kind !== undefined && kind.re.test(query) ? kind.words : undefined;
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

// An order asked for between two ends: "arranged from the smallest to the largest", "from
// highest to lowest" (not "from oldest to newest": lists of orders, events and commits take that
// order themselves).
const END_WORD = String.raw`(?:smallest|largest|lowest|highest|least|most|biggest|greatest|cheapest|shortest|longest)`;
const ORDER_RE = new RegExp(String.raw`\bfrom\s+(?:the\s+)?${END_WORD}\s+to\s+(?:the\s+)?${END_WORD}\b`, 'i');

// A unit asked for in another: "How many ounces in 2 pounds of butter?", "how many cups are in a
// gallon", "how many seconds in 3 hours" (the question ends there: "how many hours in a week are
// booked on my calendar" is no conversion; calories are no unit of this kind).
const UNIT = String.raw`(?:ounces?|oz|pounds?|lbs?|grams?|kilograms?|kgs?|milligrams?|tons?|cups?|tablespoons?|tbsp|teaspoons?|tsp|liters?|litres?|milliliters?|millilitres?|ml|gallons?|quarts?|pints?|fluid\s+ounces?|meters?|metres?|centimeters?|centimetres?|millimeters?|kilometers?|kilometres?|km|feet|foot|ft|inch(?:es)?|miles?|yards?|acres?|hectares?|seconds?|minutes?|hours?|days?|weeks?|bytes?|kilobytes?|megabytes?|gigabytes?|terabytes?)`;
const UNIT_QUESTION_RE = new RegExp(
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

/** ISO code of a currency by the country or region written before its name ("Canadian dollars"). */
const CURRENCY_BY_REGION: Readonly<Record<string, string>> = {
  us: 'USD',
  'u.s.': 'USD',
  'united states': 'USD',
  american: 'USD',
  canadian: 'CAD',
  australian: 'AUD',
  'new zealand': 'NZD',
  'hong kong': 'HKD',
  singapore: 'SGD',
  singaporean: 'SGD',
  mexican: 'MXN',
  british: 'GBP',
  japanese: 'JPY',
  chinese: 'CNY',
  indian: 'INR',
  swiss: 'CHF',
  korean: 'KRW',
  'south korean': 'KRW',
  'south african': 'ZAR',
  brazilian: 'BRL',
  russian: 'RUB',
  swedish: 'SEK',
  danish: 'DKK',
  norwegian: 'NOK',
};

/** ISO code of a currency name written alone ("euros"); the names that are mostly something else ("pounds", "won") are not here. */
const CURRENCY_ALONE: Readonly<Record<string, string>> = {
  dollar: 'USD',
  euro: 'EUR',
  yen: 'JPY',
  rupee: 'INR',
  yuan: 'CNY',
  renminbi: 'CNY',
  franc: 'CHF',
  peso: 'MXN',
  ruble: 'RUB',
};

/** ISO code of a currency word with its country ("" when the word alone names no currency). */
function currencyCode(region: string, word: string): string {
  if (/sterling$/.test(word)) return 'GBP';
  return (region ? CURRENCY_BY_REGION[region] : CURRENCY_ALONE[word.replace(/s$/, '')]) ?? '';
}

const SYMBOL_CODES: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW' };

/** How many different currencies a request names ("500 US dollars" and "Canadian dollars": 2; "$500" and "USD": 1). */
function currenciesNamed(query: string): number {
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
const COMMAND_CUE_RE =
  /\b(?:using|use|with|via|run|runs|execute)\s+(?:the\s+)?(?:exact\s+)?(?:[\w.:-]+\s+)?(?:command|instruction)s?\b|\bcommand\s+(?:prompt|line)\b|\b(?:in|into|on|open|run|use|using|start|launch)\s+(?:a\s+|the\s+|my\s+)?(?:cmd|powershell|terminal|shell|bash)\b|\b(?:cmd|powershell|terminal|shell|bash)\s+commands?\b|%[A-Za-z_][A-Za-z0-9_]*%|\b(?:run|execute)\b[^.?!\n]{0,80}?(?<![\w/])[c-z]:[\\/]|\b(?:list|open|show|browse|scan|clean|format|in|on|of|from|the|my)\s+[b-hj-z]\s+dri+ve\b/i;
