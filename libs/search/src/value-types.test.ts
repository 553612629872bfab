import { describe, expect, it } from 'vitest';
import { ToolIndex } from './tool-index.js';
import { asksForPlaces, impliedToolWords, readOperations, valueTypeTerms } from './value-types.js';

/** The words of the operations a request writes between numbers. */
const operationWords = (query: string): string[] => readOperations(query).words;

describe('valueTypeTerms', () => {
  it('finds a date in English and Chinese wordings', () => {
    for (const q of [
      'the forecast on March 4th, 2023',
      'on the 4th of march',
      'due 2023-03-08',
      'on 3/8/2023',
      'tomorrow in Paris',
      'next Wednesday',
      'this weekend',
      '明天北京的天气',
      '3月8日的航班',
    ]) {
      expect(valueTypeTerms(q), q).toContain('date');
    }
  });

  it('finds a clock time', () => {
    for (const q of ['move it to 4:30 PM', 'remind me at 9pm', 'at 11:00 a.m. sharp', 'the 16:45 train'])
      expect(valueTypeTerms(q), q).toContain('time');
  });

  it('finds nothing in requests without such values', () => {
    for (const q of ['market 12 stocks', 'a ratio of 3/4', 'version 1.2.3', 'find 5 apples', 'get the weather'])
      expect(valueTypeTerms(q), q).toEqual([]);
  });

  it('lets a request that holds a date prefer the tool that takes a date', () => {
    const tools = [
      {
        name: 'city_weather',
        description: 'Weather conditions and forecast for a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      },
      {
        name: 'city_weather_v2',
        description: 'Weather report of a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' }, date: { type: 'string', description: 'Day, YYYY-MM-DD' } } },
      },
    ];
    const query = 'weather in Campbell on March 4th, 2023';
    expect(ToolIndex.build(tools).search(query, 2)[0].name).toBe('city_weather_v2');
    // without the value type the other tool wins: the date is what decides
    expect(ToolIndex.build(tools, { valueTypeWeight: 0 }).search(query, 2)[0].name).toBe('city_weather');
  });
});

describe('readOperations', () => {
  it('reads an arithmetic operation written between two numbers', () => {
    expect(operationWords('How much is 394 times 213?')).toEqual(['multiply', 'math', 'calculate']);
    expect(operationWords('compute 443 * 349')).toEqual(['multiply', 'math', 'calculate']);
    expect(operationWords('what is 2.5×4')).toEqual(['multiply', 'math', 'calculate']);
    expect(operationWords('how much is 1 + 1 ?')).toEqual(['add', 'sum', 'math', 'calculate']);
    expect(operationWords('100 minus 40')).toEqual(['subtract', 'math', 'calculate']);
    expect(operationWords('12 − 5 = ?')).toEqual(['subtract', 'math', 'calculate']);
    expect(operationWords('84 divided by 7')).toEqual(['divide', 'quotient', 'math', 'calculate']);
  });

  it('reads no operation in dates, ranges, versions or a word alone', () => {
    for (const q of [
      'on 2023-10-01',
      'on 3/8/2023',
      'pages 10-20',
      'version 1.2-3',
      'what time is it',
      'three times a day',
      'C++ tutorials for 5 days',
      'a 3 x 4 grid',
      'Call me at 555 - 1234',
      'Call +44 20 - 7946 - 0958 please',
      'a 9 - 5 shift',
      'aspect ratio 16 / 9',
      'Remind me 3 times 2 hours before the meeting',
      'from 10:30 + 5 minutes',
    ])
      expect(operationWords(q), q).toEqual([]);
  });

  it('lets "394 times 213" reach a multiplying tool, while "times" alone is still about time', () => {
    const tools = [
      {
        name: 'calc_product',
        description: 'Calculates the product of two numbers.',
        inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
      },
      {
        name: 'get_current_time',
        description: 'Current time in a time zone.',
        inputSchema: { type: 'object', properties: { timezone: { type: 'string' } } },
      },
    ];
    const index = ToolIndex.build(tools);
    expect(index.search('How much is 394 times 213?', 2)[0].name).toBe('calc_product');
    expect(index.search('compute 443 * 349', 2)[0].name).toBe('calc_product');
    // "time" is no synonym of multiplying: a question about the time does not reach the calculator
    expect(index.search('what time is it in Tokyo', 2).map((h) => h.name)).toEqual(['get_current_time']);
  });
});

describe('impliedToolWords', () => {
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

  it('reads a shell command asked for as "execute command"', () => {
    for (const q of [
      'say hi using the echo command',
      'shutdown the pc, using the exact command shutdown /s /t 0',
      'remove shortcut of putty from desktop, using the instruction del "%userprofile%\\Desktop\\putty.lnk"',
      'list c drive',
      'LIST C DRIIVE',
      'Run the Python script located at d:/playground/test.py',
      'open a command prompt',
      'run it in PowerShell',
    ]) {
      expect(impliedToolWords(q), q).toEqual(['execute', 'command']);
    }
    for (const q of [
      'I drive 20 miles a day',
      'go for a drive',
      'Welcome: Command not found.',
      'the commander of the fleet',
      'https://example.com/a:b',
      // (near misses: a company, an airport, a trip's length, URL escapes, a topic)
      "What's the stock price of Shell?",
      'Which terminal does flight UA123 leave from?',
      'How long is a 4 h drive from Boston to New York?',
      'Navigate to http://site.com/a%20b%20c%20d',
      'Search Slack for messages about the PowerShell outage',
    ])
      expect(impliedToolWords(q), q).toEqual([]);
  });

  it('reads two currencies named as a conversion', () => {
    for (const q of [
      'How many Canadian dollars can I get for 500 US dollars?',
      'How much will 20000 Japanese Yen be in United States Dollar?',
      'I have 100 euro. How much is it in USD?',
      'What is $20 in British pounds?',
      'Convert 150 EUR to JPY',
    ]) {
      expect(impliedToolWords(q), q).toEqual(['currency', 'convert', 'exchange']);
    }
    // one currency, however written, is no conversion; nor are words that are mostly something else
    for (const q of [
      'Transfer $20 to Bob and $30 to Alice',
      'a budget of 500 dollars for 2 dollars a day',
      'I won the game',
      'Remind me to pay $1,200 USD rent on Friday',
      'Try to find flights under $800',
      'A 5 pound bag of rice costs $12',
      'I have a budget of $200 dollars',
    ])
      expect(impliedToolWords(q), q).toEqual([]);
  });

  it('reads a unit asked for in another as a unit conversion', () => {
    for (const q of ['How many ounces in 2 pounds of butter?', 'how many cups are in a gallon', 'How many seconds are there in 3 hours?'])
      expect(impliedToolWords(q), q).toEqual(['convert', 'conversion', 'unit']);
    for (const q of [
      'how many pounds did I lose in 3 weeks',
      'How many people live in 2 cities',
      'how many miles did I run',
      'How many calories in 2 pounds of chicken?',
      'How many hours in a week are booked on my calendar?',
    ])
      expect(impliedToolWords(q), q).toEqual([]);
  });

  it('reads an order asked for between two ends as a sort', () => {
    for (const q of ['I need the numbers [1, 54, 3] arranged from the smallest to the largest.', 'list them from highest to lowest'])
      expect(impliedToolWords(q), q).toEqual(['sort', 'order']);
    for (const q of [
      'the largest city',
      'drive from the first to the last street of town in order to park',
      'Show my orders from newest to oldest',
    ])
      expect(impliedToolWords(q), q).toEqual([]);
  });

  it('reads places to find on a map (a distance around a place, a route between places, a trip to plan)', () => {
    for (const q of [
      "I'm planning a trip to the Forbidden City in Beijing, show me where to park and what's interesting to do within 1km distance?",
      'Find the nearest parking lot within 2 miles of Central Park',
      'Find coffee shops within 500 m of Alexanderplatz',
      'Focus on a 1000-meter radius to assess the quality of life',
      'Plan a bike route from UCAS Zhongguancun Campus to UCAS Yanqihu Campus',
      'find a restaurant nearby for lunch and tell me how to get there',
      'Get directions from Sydney to Melbourne',
      'directions to the Golden Gate Bridge from Union Square',
      'How to get to Union Square?',
      'run a detailed commute analysis for me',
      'Estimate my commute time from Brooklyn to Midtown',
      'Help me arrange a three-day trip from Beijing to Tianjin tomorrow',
      'Give me a two-day tour of Beijing based on the recent weather',
      'Can you help me plan my upcoming trip?',
      // harder phrasings: a way to get somewhere, a rated star, a distance that ends the request
      'how do I get to the Louvre from my hotel?',
      'How can I get to Shibuya station?',
      "What's the best way to get to the airport from downtown?",
      'Find 5-star hotels within 1 km of the Eiffel Tower',
      'Find coffee within 500 m of Columbus Circle',
      'Find the nearest bank branch within 2 km of Union Square',
      'Find hotels near Times Square within 2 miles',
      // more of the same, and a trip or route to plan
      'how can i get to the train station from here',
      'What is the easiest way to get to the Acropolis?',
      'Find sushi restaurants within 2 km.',
      'Find the nearest TD Bank branch within 2 miles',
      'Plan a 5-day trip to learn surfing in Portugal',
      'Plan an express route from Heathrow to Paddington',
    ])
      expect(asksForPlaces(q), q).toBe(true);
    for (const q of [
      'Calculate the area of a circle with a radius of 5 meters',
      'the magnetic field at the center of a circular loop with a 4 m radius',
      'Calculate the final velocity of an object falling from a 150 meter building',
      'Finish the report within 30 days',
      'What is the route of the parade?',
      'Set the sort direction to ascending',
      'Book a trip to Paris',
      'Find a nearby restaurant that serves vegan food',
      'Ship it to 123 Main Street, Springfield',
      // near misses: steps, graphs, networks, games, bodies, minutes, photos, a band
      'Give me directions to install the package',
      'Give me directions to bake a chocolate cake',
      'the shortest route from node A to node B in the graph',
      'Trace the route from my laptop to google.com',
      'Add a static route from 10.0.0.0/24 to the gateway 192.168.1.1',
      'how to get to level 5 in the game',
      'how to get to inbox zero',
      'Calculate the electric field within 2 m of a point charge',
      'Find the gravitational force on a satellite within 100 km of the surface',
      'Is the sphere within 2 m of the wall?',
      'Retry the job within 10 m',
      'Find all commits within 2 m of the release tag',
      'Organize my trip photos into albums',
      'Summarize the PDF of our two-day trip report',
      'Find luggage for a two-day trip',
      'Plan the tour schedule for the band',
      'Plan a tour for my band across Europe next summer',
      'Play a podcast for my commute',
      'Does matrix multiplication commute?',
      'translate the directions to French',
      'Add a Rails route from /users to the UsersController',
      'Plan a 3-day itinerary for learning Rust',
      'How do I get to the point faster in meetings?',
      'the route from the main branch to the release branch',
      'Calculate the area of a circle within 2 m of a wall',
      'Is the star within 5 km of the probe?',
      'How do I get to the next step in the tutorial?',
      'What is the best way to get to a senior engineer role?',
      'The probe must land within 5 km.',
      'Compute the Magnetic Field within 0.5 m of the Current Loop',
      'Show the route from the local branch to upstream',
      'Add an Express route from /users to the users controller',
      'within 1' + ' '.repeat(20_000) + 'x',
    ])
      expect(asksForPlaces(q), q.slice(0, 80)).toBe(false);
    // the place words are read apart, at their own weight (ToolIndexOptions.placeWordWeight)
    expect(impliedToolWords('Plan a bike route from UCAS Zhongguancun Campus to UCAS Yanqihu Campus')).toEqual([]);
  });

  it('lifts geocoding into the first hits of a map task without taking the first place from the tool a request names', () => {
    const tool = (name: string, description: string, properties: Record<string, unknown>) => ({
      name,
      description,
      inputSchema: { type: 'object', properties },
    });
    const tools = [
      tool('maps:geocode_address', 'Convert an address or place name into geographic coordinates (latitude and longitude).', {
        address: { type: 'string', description: 'The address or place to geocode' },
      }),
      tool('maps:reverse_geocode', 'Convert geographic coordinates into a human-readable address.', {
        latitude: { type: 'number' },
        longitude: { type: 'number' },
      }),
      tool('maps:find_nearby_places', 'Find places of a type near a location given by its coordinates.', {
        latitude: { type: 'number' },
        longitude: { type: 'number' },
        type: { type: 'string', description: 'Place type, e.g. cafe' },
        radius: { type: 'number' },
      }),
      tool('maps:get_route_directions', 'Get turn-by-turn directions and travel time between an origin and a destination.', {
        origin: { type: 'string' },
        destination: { type: 'string' },
        mode: { type: 'string', enum: ['driving', 'walking', 'bicycling', 'transit'] },
      }),
      tool('weather:get_forecast', 'Get the weather forecast for a city for the coming days.', {
        city: { type: 'string' },
        days: { type: 'integer' },
      }),
      tool('travel:search_hotels', 'Search hotels in a city for given dates.', {
        city: { type: 'string' },
        check_in: { type: 'string' },
        nights: { type: 'integer' },
      }),
      tool('travel:search_trains', 'Search train tickets between two stations on a date.', {
        from_station: { type: 'string' },
        to_station: { type: 'string' },
        date: { type: 'string' },
      }),
      tool('calendar:create_event', 'Create a calendar event with a title, start and end time.', {
        title: { type: 'string' },
        start: { type: 'string' },
        end: { type: 'string' },
      }),
      tool('fs:write_file', 'Write text to a file at a path.', { path: { type: 'string' }, content: { type: 'string' } }),
      tool('search:web_search', 'Search the web and return result titles, links and snippets.', { query: { type: 'string' } }),
    ];
    const names = (index: ToolIndex, q: string): string[] => index.search(q, 10).map((h) => h.name);
    const on = ToolIndex.build(tools);
    const off = ToolIndex.build(tools, { placeWordWeight: 0 });
    const task =
      "I'm planning a trip to the Forbidden City in Beijing, show me where to park and what's interesting to do within 1km distance?";
    expect(names(off, task).slice(0, 3)).not.toContain('maps:geocode_address');
    expect(names(on, task).slice(0, 3)).toContain('maps:geocode_address');
    const route = 'Get walking directions from Union Square to the Golden Gate Bridge';
    expect(names(on, route)[0]).toBe('maps:get_route_directions');
    expect(names(on, route).slice(0, 3)).toContain('maps:geocode_address');
  });

  it('lets "list c drive" reach the tool that executes a command', () => {
    const tools = [
      {
        name: 'cmd_controller.execute',
        description: 'Executes a command in the Windows operating system using os.system().',
        inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
      },
      {
        name: 'get_shortest_driving_distance',
        description: 'Shortest driving distance between two places.',
        inputSchema: { type: 'object', properties: { origin: { type: 'string' } } },
      },
    ];
    expect(ToolIndex.build(tools).search('list c drive', 2)[0].name).toBe('cmd_controller.execute');
    expect(ToolIndex.build(tools, { impliedWordWeight: 0 }).search('list c drive', 2)[0].name).toBe('get_shortest_driving_distance');
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

  it('passes the implied words to the head reranker, first', () => {
    const seen: string[] = [];
    const tools = [
      { name: 'write_file', description: 'Write a file.' },
      { name: 'write_note', description: 'Write a markdown note.' },
    ];
    const headReranker = { rerank: (query: string, head: readonly { name: string }[]) => (seen.push(query), head.map(() => 0)) };
    ToolIndex.build(tools, { headReranker }).search('save it as Markdown to /root/md/a.md', 2);
    ToolIndex.build(tools, { headReranker }).search('write a markdown note', 2);
    expect(seen).toEqual(['write file save it as Markdown to /root/md/a.md', 'write a markdown note']);
  });
});
