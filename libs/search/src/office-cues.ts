// The files and office documents a request names or makes, as the words of the tools that handle them
// (impliedToolWords in value-types.ts reads them).

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
export const FILE_KINDS: readonly [RegExp, readonly string[], (readonly string[])?][] = [
  [/[\w-]\.pptx?(?!\w)/i, ['presentation', 'slide']],
  [/[\w-]\.docx?(?!\w)/i, ['document', 'paragraph'], ['document', 'text']],
  [/[\w-]\.(?:xlsx?|xlsm)(?!\w)/i, ['excel', 'sheet', 'workbook']],
];
/** Verbs that write a document's content. */
const WRITING_VERBS = String.raw`create|make|generate|write|draft|save|edit|add|insert|fill|update|export|build|prepare|format`;
export const WRITING_VERB_RE = new RegExp(String.raw`\b(?:${WRITING_VERBS})\b`, 'i');
/** Verbs that work on a document's content: the writing verbs and the reading ones. */
export const CONTENT_VERB_RE = new RegExp(
  String.raw`\b(?:${WRITING_VERBS}|read|open|view|show|summari[sz]e|analy[sz]e|extract|tell\s+me)\b`,
  'i',
);
/** Verbs that handle a document as a file ("share" not in "market share"). */
export const FILE_VERB_RE =
  /\b(?:zip|unzip|compress|archive|rename|move|moved|delete|remove|copy|commit|push|e-?mail|send|upload|download|attach|(?<!\bmarket\s+)share|modified|permissions?)\b/i;

/**
 * A path or a bare file name ending in one of `ext`'s extensions (a regex source): /root/x.md,
 * ~/notes/a.txt, C:\out\b.py, report.md; with `rooted`, a path only (a slash before its last part).
 */
const PATH_TO = (ext: string, rooted = false): string =>
  String.raw`(?:[a-z]:\\|~|\.{1,2})?[\/\\]${rooted ? '' : '?'}(?:[\w-]+[\/\\])*[\w-]+\.(?:${ext})(?!\w)`;
/** A path or a bare file name of a plain-text kind: /root/x.md, ~/notes/a.txt, C:\out\b.py, report.md (.js and .ts only in a path). */
const TEXT_PATH = String.raw`(?:${PATH_TO('md|markdown|txt|py|html?|json|csv|ya?ml|xml|css|sh')}|${PATH_TO('js|ts', true)})`;
export const WRITE_TO_TEXT_FILE_RE = new RegExp(
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
export const MADE_DOCUMENT_RE = new RegExp(
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
export function madeOfficeDocument(query: string): readonly string[] | undefined {
  const files = new Map<string, string>();
  for (const m of query.matchAll(OFFICE_FILE_RE)) files.set(m[0].toLowerCase(), m[1].toLowerCase());
  if (files.size !== 1 || OFFICE_EXISTS_RE.test(query)) return undefined;
  const kind = OFFICE_OUTPUTS.get(files.values().next().value!);
  return kind !== undefined && kind.re.test(query) ? kind.words : undefined;
}
