import { describe, expect, it } from 'vitest';
import { ToolIndex } from './tool-index.js';
import { impliedToolWords } from './value-types.js';

describe('impliedToolWords: files and office documents (office-cues.ts)', () => {
  it('reads no document kind where the request handles the file as a file', () => {
    for (const q of [
      'Zip report.docx and budget.xlsx together',
      'Rename report.docx to report-final.docx',
      'Delete old-budget.xlsx from my Downloads folder',
      'Email Q3-results.pptx to the board',
      'When was plan.docx last modified?',
      'Commit budget.xlsx with message "update numbers"',
    ])
      expect(impliedToolWords(q), q).toEqual([]);
  });

  it('reads an office file name as the document kind tools name', () => {
    expect(impliedToolWords('Open the deck /root/ppt/apple.pptx and tell me its slide count')).toEqual(['presentation', 'slide']);
    // a Word document read stands for its text, one written for its paragraphs
    expect(impliedToolWords('Read the file /root/docs/exchange.docx, tell me who')).toEqual(['document', 'text']);
    expect(impliedToolWords('Add a short intro to /root/word/intro.docx')).toEqual(['document', 'paragraph']);
    expect(impliedToolWords('Read the data under /root/excel/people_data.xlsx and tell me')).toEqual(['excel', 'sheet', 'workbook']);
    expect(impliedToolWords('open budget.xls')).toEqual(['excel', 'sheet', 'workbook']);
  });

  it('reads an office document the request makes at its path as "create new" (a PDF as a new document)', () => {
    const cases: [string, string[]][] = [
      [
        "Analyze Apple's stock for the past year and summarize it in a PPT in /root/ppt/apple.pptx.",
        ['presentation', 'slide', 'create', 'new'],
      ],
      [
        'Help me make a STEINS;GATE introduction PPT and help me save it to /root/ppt/STEINS_GATE.pptx.',
        ['presentation', 'slide', 'create', 'new'],
      ],
      [
        "I need a Word document summarizing NIO. Please title it 'NIO Company Overview'. Finally, save it in /root/word/nio.docx",
        ['document', 'paragraph', 'create', 'new'],
      ],
      [
        'Convert the reference list in /root/txt/paper_list.bib into a Word document. Please use APA formatting and save the final file at /root/word/paper_list.docx.',
        ['document', 'paragraph', 'create', 'new'],
      ],
      [
        'Generate a well-formatted PDF report titled wechat_reading_report.pdf in /root/pdf, summarizing current WeChat Reading trends.',
        ['create', 'new', 'document'],
      ],
      [
        'Generate a well-formatted PDF report  in /root/pdf/douban_report.pdf, summarizing current douban trends.',
        ['create', 'new', 'document'],
      ],
      ['save the combined document as /root/pdf/full_cv.pdf', ['create', 'new', 'document']],
      ["I'd like a new presentation at C:\\decks\\q3.pptx about our sales", ['presentation', 'slide', 'create', 'new']],
      ['Make my notes into a slide deck called q3 at /root/ppt/q3.pptx', ['presentation', 'slide', 'create', 'new']],
      ['Create /root/word/minutes.docx with the agenda', ['document', 'paragraph', 'create', 'new']],
      // the kind's words come with the make, with no content verb of their own
      ['Give me a PPT in /root/ppt/x.pptx', ['presentation', 'slide', 'create', 'new']],
      ['Produce /root/word/minutes.docx', ['document', 'paragraph', 'create', 'new']],
      // one file named twice is one file; "market share" is no file shared, "the existing literature" no existing file
      ['Create /root/ppt/a.pptx, then add a title slide to /root/ppt/a.pptx', ['presentation', 'slide', 'create', 'new']],
      ['Summarize the market share of Apple in a PPT in /root/ppt/apple.pptx', ['presentation', 'slide', 'create', 'new']],
      ['Create a presentation at /root/ppt/lit.pptx summarizing the existing literature', ['presentation', 'slide', 'create', 'new']],
    ];
    for (const [q, words] of cases) expect(impliedToolWords(q), q).toEqual(words);
  });

  it('reads no new office document where the request reads, converts or edits files it has, or makes one elsewhere', () => {
    for (const q of [
      // two office files: a conversion and a merge of the user's own files
      'Convert /root/word/CV.docx and /root/word/Report_Card.docx to PDF, merge the two resulting files, and save the final combined document as /root/pdf/full_cv.pdf.',
      // (near misses that a looser form reads as a new document)
      'Make a note of the phone numbers in /root/pdf/contacts.pdf',
      'Create a chart from the PDF report /root/pdf/sales.pdf',
      'Generate a summary of the PDF document /root/pdf/paper.pdf',
      'Build a timeline from the Word document at /root/word/history.docx',
      'Write down the key dates mentioned in /root/pdf/schedule.pdf',
      'Export every table in /root/word/report.docx to CSV',
      'Make the font in the presentation /root/ppt/deck.pptx larger',
      'Generate a presentation outline from /root/pdf/whitepaper.pdf',
      'Open the file I saved to /root/ppt/budget.pptx yesterday',
      // (each matches a shape; the existence check and the file verb stop them)
      'Update the existing report and save it to /root/pdf/q2.pdf',
      'Email me the deck after you save it to /root/ppt/q3.pptx',
      // (a read-through's near misses of the last shape and of a negated making verb)
      'Show me a report in /root/pdf/q2.pdf',
      'Pull up a presentation at /root/ppt/x.pptx',
      'List the slides in a presentation at /root/ppt/x.pptx',
      "Don't make it into a PDF report at /root/pdf/x.pdf",
      // no workbook: the words lifted table and sheet-copy tools above the tool that writes a sheet
      'Save the totals to a new workbook at /root/excel/totals.xlsx',
    ]) {
      expect(impliedToolWords(q), q).not.toContain('create');
    }
  });

  it('reads a write verb followed by a plain-text file as "write file"', () => {
    for (const q of [
      'Generate a research summary and save it as Markdown to /root/markdown/NCT04280705.md.',
      'then, draft a Markdown intro document for it in /root/markdown/github_trends.md',
      'write the report to /root/markdown/cancer.md?',
      'a web page about AI saved at /root/html/ai.html',
      'save the script as cnn_example.py',
      'store the notes in ~/notes/today.txt',
      'export it to C:\\out\\table.csv',
    ]) {
      expect(impliedToolWords(q), q).toEqual(['write', 'file']);
    }
  });

  it('reads a document made at a plain-text path as "write file"', () => {
    for (const q of [
      'Run a full reconnaissance on www.baidu.com. Give me a markdown report on /root/markdown/baidu_report.md with whois information.',
      'Read the paper webarena, then create a Comparison Report in /root/markdown/compare_webagent.md',
      'and then generate a report at /root/markdown/daily_fin.md.',
      'Give me a comparison table and a final recommendation in a markdown report in /root/markdown/package_compare.md.',
      'build a script to /root/code/x.py',
      'Create the report at /root/out/report.md',
      'Generate an HTML page in /root/site/about.html describing our team',
      'Check the weather in Tokyo for the next 3 days and give me a brief in /root/markdown/tokyo.md',
    ]) {
      expect(impliedToolWords(q), q).toEqual(['write', 'file']);
    }
  });

  it('reads no write from a document the request reads', () => {
    for (const q of [
      'create a summary of the report in /root/r.md',
      'Create a summary of my notes in ~/notes/a.txt',
      'give me a summary of the report in /root/x.md',
      'make notes from the report in notes.md',
      'Create a report about the file in /root/x.txt',
      'Summarize the report in /root/x.md',
      'give me the lines in /root/log.txt',
      'Make a report. The data is in /root/data.csv',
      // (near misses that a looser form reads as a write)
      'Make a chart using the table in /root/data.csv',
      'Give me a code review for the script at /root/app.py',
      'Make the table in /root/index.html responsive',
      'Make sure the config file at /root/config.yaml is valid',
      'The build script in /root/build.sh fails, why?',
      "Don't generate a new report in /root/r.md, just show me the old one",
      'Give me directions to the address in the file at /root/address.txt',
      'Prepare an email to the team with the notes in /root/notes.md',
      'Generate a table of contents for the guide at /root/guide.md',
      'Give me a comparison between the report in /root/a.md and the one in /root/b.md',
    ]) {
      expect(impliedToolWords(q), q).toEqual([]);
    }
  });

  it('reads nothing from a path alone, a read verb, a write verb in another sentence, or a word alone', () => {
    for (const q of [
      'What are the changes in /root/txt/log_today.txt and /root/txt/log_yesterday.txt?',
      'Read the paper in /root/pdf/WebArena.pdf',
      'save it. Then read /root/notes/a.md',
      'write a PPT about Apple',
      'the docx format and node.js',
      'visit www.example.com/index.html',
      'Draft an email asking about the Vue.js migration',
      'write a blog post about Next.js',
      'save money with node.js tips',
      'Put a reminder on my calendar to review main.py',
      'Please put the meeting on my calendar, agenda is in notes.txt',
    ]) {
      expect(impliedToolWords(q), q).toEqual([]);
    }
  });

  it('answers a long hostile request (the patterns are bounded: catastrophic backtracking would hang here)', () => {
    expect(impliedToolWords('save '.repeat(800) + 'x'.repeat(100))).toEqual([]);
    expect(impliedToolWords('use the '.repeat(2000) + 'x')).toEqual([]);
  });

  it('lets "save it as Markdown to <path>.md" reach the tool that writes a file, and a .pptx the presentation tools', () => {
    const tools = [
      {
        name: 'write_file',
        description: 'Create a new file or overwrite an existing file with new content.',
        inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
      },
      {
        name: 'markdown_to_html',
        description: 'Convert Markdown text to HTML.',
        inputSchema: { type: 'object', properties: { markdown: { type: 'string' } } },
      },
      {
        name: 'create_presentation',
        description: 'Create a new PowerPoint presentation.',
        inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
      },
      {
        name: 'stock_summary',
        description: 'Summarize a stock over a period.',
        inputSchema: { type: 'object', properties: { ticker: { type: 'string' } } },
      },
    ];
    const write = 'Summarize the trial and save it as Markdown to /root/markdown/trial.md.';
    expect(ToolIndex.build(tools).search(write, 4)[0].name).toBe('write_file');
    expect(ToolIndex.build(tools, { impliedWordWeight: 0 }).search(write, 4)[0].name).toBe('markdown_to_html');
    // a .pptx brings in the presentation tool (synonyms off: the synonym table also links pptx and
    // presentation, at half weight and less when the catalog uses the word)
    const ppt = "Summarize Apple's stock into /root/out/apple.pptx";
    const place = (impliedWordWeight: number): number =>
      ToolIndex.build(tools, { impliedWordWeight, synonyms: false })
        .search(ppt, 4)
        .findIndex((h) => h.name === 'create_presentation');
    expect(place(1)).toBeGreaterThanOrEqual(0);
    expect(place(0)).toBe(-1);
  });

  it('lets an office document made at a path reach the tool that creates one, and one read the tool that extracts its text', () => {
    const t = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
      name,
      description,
      inputSchema: { type: 'object', properties },
    });
    // the PowerPoint and Word servers of the eval corpus (two of them), descriptions as they ship (one translated)
    const tools = [
      t('ppt:create_presentation', 'Create a new PowerPoint presentation.', { id: {} }),
      t('ppt:save_presentation', 'Save a presentation to a file.', { file_path: { type: 'string' } }),
      t('ppt:add_slide', 'Add a new slide to the presentation with optional background styling.', {
        layout_index: { type: 'integer' },
        title: {},
      }),
      t('okppt:delete_slide', 'Delete the slide with the given number from a PPTX file.', {
        pptx_path: { type: 'string' },
        slide_number: { type: 'integer' },
      }),
      t('okppt:get_pptx_info', 'Get basic information about a PPTX file, including its slide count.', { pptx_path: { type: 'string' } }),
      t(
        'okppt:analyze_presentation_layouts',
        'Analyzes the layout details of a PowerPoint presentation and returns a JSON string of the analysis.',
        { prs_path: { type: 'string' } },
      ),
      t('word:create_document', 'Create a new Word document with optional metadata.', {
        filename: { type: 'string' },
        title: { type: 'string' },
      }),
      t('word:add_paragraph', 'Add a paragraph to a Word document.', { filename: { type: 'string' }, text: { type: 'string' } }),
      t('word:get_document_text', 'Extract all text from a Word document.', { filename: { type: 'string' } }),
      t('word:get_paragraph_text_from_document', 'Get text from a specific paragraph in a Word document.', {
        filename: { type: 'string' },
        paragraph_index: { type: 'integer' },
      }),
      t('finance:get_historical_stock_prices', 'Get historical stock prices for a given ticker symbol.', {
        ticker: { type: 'string' },
        period: { type: 'string' },
      }),
    ];
    const index = ToolIndex.build(tools);
    const names = (q: string): string[] => index.search(q, 5).map((h) => h.name);
    // (without the words analyze_presentation_layouts came first and get_paragraph_text_from_document)
    expect(names("Analyze Apple's stock for the past year and summarize it in a PPT in /root/ppt/apple.pptx.")[0]).toBe(
      'ppt:create_presentation',
    );
    expect(names('I need a Word document summarizing NIO. Finally, save it in /root/word/nio.docx')[0]).toBe('word:create_document');
    const read = names('Read the file /root/docs/exchange.docx, tell me who did not give a gift');
    const place = (name: string): number => (read.includes(name) ? read.indexOf(name) : Infinity);
    expect(place('word:get_document_text')).toBeLessThan(place('word:get_paragraph_text_from_document'));
    expect(place('word:get_document_text')).toBeLessThan(place('word:add_paragraph'));
  });
});
