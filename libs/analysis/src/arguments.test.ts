import { describe, it, expect } from 'vitest';
import { mapArguments, mapPrepared, prepare } from './arguments.js';
import type { MapperTool } from './types.js';

/** Fixed "today" so relative dates are deterministic. */
const now = new Date(Date.UTC(2024, 2, 1));

/** Builds a one-tool schema. */
function tool(properties: Record<string, unknown>, required: string[] = [], description = ''): MapperTool {
  return { name: 't', description, inputSchema: { type: 'object', properties, required } };
}

describe('mapArguments: numbers', () => {
  it('maps integers written as name=value', () => {
    const t = tool({ a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } }, ['a', 'b', 'c']);
    const m = mapArguments(t, 'Find the roots of a quadratic equation with coefficients a=1, b=-3, c=2.');
    expect(m.arguments).toEqual({ a: 1, b: -3, c: 2 });
    expect(m.missingArguments).toEqual([]);
    expect(m.filledRatio).toBe(1);
  });

  it('maps numbers with units, currency and percent by name and unit', () => {
    const t = tool(
      {
        distance: { type: 'number', description: 'Distance in kilometers.' },
        budget: { type: 'number', description: 'Budget in US dollars.' },
        rate: { type: 'number', description: 'Annual interest rate as a decimal.' },
        years: { type: 'integer', description: 'Number of years.' },
      },
      ['distance', 'budget', 'rate', 'years'],
    );
    const m = mapArguments(t, 'I can spend $20 on a 5 km trip; the rate is 3.5% for 4 years.');
    expect(m.arguments).toEqual({ distance: 5, budget: 20, rate: 0.035, years: 4 });
  });

  it('uses the phrase around the value ("base of 10", "for 5 years") and number words', () => {
    const t = tool(
      { base: { type: 'integer' }, height: { type: 'integer' }, tickets: { type: 'integer', description: 'Number of tickets.' } },
      ['base', 'height', 'tickets'],
    );
    const m = mapArguments(t, 'Buy three tickets and compute a triangle with a height of 5 and a base of 10.');
    expect(m.arguments).toEqual({ base: 10, height: 5, tickets: 3 });
  });

  it('integers in reading order onto positional parameters ("add 17 and 25" onto a, b)', () => {
    const t = tool(
      { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
      ['a', 'b'],
      'Adds two numbers',
    );
    const m = mapArguments(t, 'add 17 and 25');
    expect(m.arguments).toEqual({ a: 17, b: 25 });
    expect(m.missingArguments).toEqual([]);
    // one number for two parameters: the second is missing, not invented
    expect(mapArguments(t, 'add 17').missingArguments).toEqual(['b']);
  });

  it('assigns listed names to listed values in order ("base and height are 6 and 10")', () => {
    const t = tool({ base: { type: 'integer' }, height: { type: 'integer' } }, ['base', 'height']);
    expect(mapArguments(t, 'the base and height are 6cm and 10cm').arguments).toEqual({ base: 6, height: 10 });
  });
});

describe('mapArguments: booleans and enums', () => {
  it('sets a flag when its name is written and clears it when negated', () => {
    const t = tool({ detailed: { type: 'boolean' }, has_garage: { type: 'boolean' } }, []);
    expect(mapArguments(t, 'Show the standings with details, no garage needed').arguments).toEqual({ detailed: true, has_garage: false });
  });

  it('matches enum values, including near spellings and abbreviations', () => {
    const t = tool({ genre: { type: 'string', enum: ['Comedy', 'Thriller', 'Sci-fi', 'dontcare'] } }, ['genre']);
    expect(mapArguments(t, 'find me a thriler tonight').arguments).toEqual({ genre: 'Thriller' });
    expect(mapArguments(t, 'some science fiction please').arguments).toEqual({ genre: 'Sci-fi' });
    expect(mapArguments(t, 'any movie').arguments).toEqual({ genre: 'dontcare' });
  });

  it('matches enum language codes by the language written out ("French" for "fr")', () => {
    const t = tool(
      {
        source_language: { type: 'string', enum: ['en', 'fr', 'de'] },
        target_language: { type: 'string', enum: ['en', 'fr', 'de'] },
        voice: { type: 'string', enum: ['es-ES', 'en-US', 'zh-CN'] },
      },
      ['source_language', 'target_language'],
    );
    expect(mapArguments(t, 'translate this from English to French').arguments).toEqual({ source_language: 'en', target_language: 'fr' });
    expect(
      mapArguments(tool({ language: { type: 'string', enum: ['es-ES', 'en-US', 'zh-CN'] } }, ['language']), 'read it aloud in Spanish')
        .arguments,
    ).toEqual({ language: 'es-ES' });
  });

  it('does not take the words that label a value as the value ("order ID is 123")', () => {
    const t = tool({ order_id: { type: 'string', description: 'The order ID.' } }, ['order_id']);
    expect(mapArguments(t, 'Check my order, the order ID is 123456789').arguments).toEqual({ order_id: '123456789' });
    const u = tool({ component: { type: 'string', description: 'The component UUID.' } }, ['component']);
    expect(mapArguments(u, 'analysis of the component UUID AB1010CD please').arguments).toEqual({ component: 'AB1010CD' });
  });
});

describe('mapArguments: strings', () => {
  it('takes quoted spans and names', () => {
    const t = tool({ title: { type: 'string', description: 'Title of the play.' }, artist: { type: 'string' } }, ['title']);
    expect(mapArguments(t, "Book tickets for 'Read The Tempest' by Katy Perry").arguments).toEqual({
      title: 'Read The Tempest',
      artist: 'Katy Perry',
    });
  });

  it('takes the whole phrase a "name: value" pair opens for a text, up to the next pair or the phrase end', () => {
    const mail = tool(
      {
        to: { type: 'string', description: 'Recipient address' },
        subject: { type: 'string', description: 'Subject' },
        body: { type: 'string', description: 'Body text' },
      },
      ['to', 'subject', 'body'],
    );
    expect(mapArguments(mail, 'send an email to bob@example.com, subject: Lunch plans, body: See you at noon. Thanks').arguments).toEqual({
      to: 'bob@example.com',
      subject: 'Lunch plans',
      body: 'See you at noon',
    });
    const wx = tool({ city: { type: 'string', description: 'City' }, state: { type: 'string', description: 'State code' } }, ['city']);
    expect(mapArguments(wx, 'weather for city: San Francisco, state: CA').arguments).toEqual({ city: 'San Francisco', state: 'CA' });
    expect(mapArguments(wx, 'city=San Francisco state=CA').arguments).toEqual({ city: 'San Francisco', state: 'CA' });
    // a place or name stops before a date or a joined second value; free text keeps its phrase
    expect(mapArguments(wx, 'weather for city: Paris tomorrow morning', undefined, { now }).arguments).toEqual({ city: 'Paris' });
    expect(mapArguments(wx, 'weather for city: Paris and London').arguments.city).toBe('Paris');
    expect(
      mapArguments(mail, 'send an email to bob@example.com, subject: Lunch and dinner, body: Rock and roll tonight').arguments,
    ).toEqual({ to: 'bob@example.com', subject: 'Lunch and dinner', body: 'Rock and roll tonight' });
    // without a colon too: a free text's phrase outranks the name it opens with
    expect(mapArguments(mail, 'send an email to bob@example.com with subject Lunch and body See you at noon').arguments.body).toBe(
      'See you at noon',
    );
    // a one-token kind (a date, an id) keeps its first token run
    const ev = tool({ date: { type: 'string', description: 'Date, YYYY-MM-DD' }, note: { type: 'string', description: 'Note' } }, ['date']);
    expect(mapArguments(ev, 'date: 2024-05-01 for the review, note: bring slides', undefined, { now }).arguments).toEqual({
      date: '2024-05-01',
      note: 'bring slides',
    });
  });

  it('formats places as the description asks ("City, State")', () => {
    const t = tool({ city: { type: 'string', description: "The city, in the format 'City, State' such as 'Berkeley, CA'." } }, ['city']);
    expect(mapArguments(t, 'Find a salon in Boston, MA').arguments).toEqual({ city: 'Boston, MA' });
    expect(mapArguments(t, 'Find a salon in berkeley').arguments).toEqual({ city: 'Berkeley, CA' });
    const plain = tool({ location: { type: 'string', description: 'The city.' } }, ['location']);
    expect(mapArguments(plain, 'weather in Paris').arguments).toEqual({ location: 'Paris' });
  });

  it('separates origin and destination', () => {
    const t = tool({ start_location: { type: 'string' }, end_location: { type: 'string' } }, ['start_location', 'end_location']);
    expect(mapArguments(t, 'Directions from Sydney to Melbourne').arguments).toEqual({
      start_location: 'Sydney',
      end_location: 'Melbourne',
    });
  });

  it('reads a relative path with its folders ("notes/welcome.txt")', () => {
    const t = tool({ path: { type: 'string', description: 'Path of the file' } }, ['path']);
    expect(mapArguments(t, 'read notes/welcome.txt').arguments).toEqual({ path: 'notes/welcome.txt' });
    expect(mapArguments(t, 'read the file docs/2024/report.md please').arguments).toEqual({ path: 'docs/2024/report.md' });
    expect(mapArguments(t, 'read welcome.txt').arguments).toEqual({ path: 'welcome.txt' });
  });

  it('finds paths, URLs and e-mail addresses', () => {
    const t = tool({ file_path: { type: 'string' }, url: { type: 'string' }, email: { type: 'string', description: 'E-mail address' } }, [
      'file_path',
      'url',
      'email',
    ]);
    const m = mapArguments(t, 'Save https://example.com/a?b=1 to /root/out/report.md and mail alice@example.com');
    expect(m.arguments).toEqual({ file_path: '/root/out/report.md', url: 'https://example.com/a?b=1', email: 'alice@example.com' });
  });
});

describe('mapArguments: dates and times', () => {
  it('shifts a date written as an offset from another ("the day after June 5")', () => {
    const iso = tool({ date: { type: 'string', format: 'date' } }, ['date']);
    const on = (q: string): unknown => mapArguments(iso, q, undefined, { now }).arguments.date;
    expect(on('fly out the day after June 5')).toBe('2024-06-06');
    expect(on('two days before 2024-03-10')).toBe('2024-03-08');
    expect(on('a week after May 1st, 2025')).toBe('2025-05-08');
    expect(on('the day after December 31, 2024')).toBe('2025-01-01');
    // "the day after Christmas" names no date span: nothing to shift
    expect(on('on June 5')).toBe('2024-06-05');
  });

  it('converts written dates to ISO 8601 (or the described format)', () => {
    const iso = tool({ date: { type: 'string', format: 'date' } }, ['date']);
    expect(mapArguments(iso, 'on March 3rd 2024', undefined, { now }).arguments).toEqual({ date: '2024-03-03' });
    expect(mapArguments(iso, 'on the 4th of July', undefined, { now }).arguments).toEqual({ date: '2024-07-04' });
    const us = tool({ date: { type: 'string', description: "Date in the format 'MM/DD/YYYY'." } }, ['date']);
    expect(mapArguments(us, 'on 2024-03-15', undefined, { now }).arguments).toEqual({ date: '03/15/2024' });
  });

  it('resolves relative dates against "today is" and converts times', () => {
    const t = tool({ date: { type: 'string', description: 'YYYY-MM-DD' }, time: { type: 'string', description: "Time as 'HH:MM'." } }, [
      'date',
      'time',
    ]);
    expect(mapArguments(t, 'tomorrow at 5 pm. today is 2023.10.1', undefined, { now }).arguments).toEqual({
      date: '2023-10-02',
      time: '17:00',
    });
  });

  it('builds date-times', () => {
    const t = tool({ start: { type: 'string', format: 'date-time' } }, ['start']);
    expect(mapArguments(t, 'start on March 19, 2024 at 2:30 PM', undefined, { now }).arguments).toEqual({ start: '2024-03-19T14:30:00' });
  });
});

describe('mapArguments: arrays and objects', () => {
  it('parses list literals, written lists and enum items', () => {
    const v = tool({ vector: { type: 'array', items: { type: 'integer' } } }, ['vector']);
    expect(mapArguments(v, 'similarity of vector [3, 2, 1]').arguments).toEqual({ vector: [3, 2, 1] });
    const tags = tool({ tags: { type: 'array', items: { type: 'string' } } }, ['tags']);
    expect(mapArguments(tags, 'tags: red, green and blue').arguments).toEqual({ tags: ['red', 'green', 'blue'] });
    const avoid = tool({ avoid: { type: 'array', items: { type: 'string', enum: ['tolls', 'highways', 'ferries'] } } }, []);
    expect(mapArguments(avoid, 'avoid highways and toll roads').arguments).toEqual({ avoid: ['highways', 'tolls'] });
  });

  it('fills nested objects from the same text', () => {
    const t = tool(
      {
        budget: {
          type: 'object',
          properties: { min: { type: 'integer', description: 'Minimum price.' }, max: { type: 'integer', description: 'Maximum price.' } },
          required: ['min', 'max'],
        },
      },
      ['budget'],
    );
    expect(mapArguments(t, 'a villa with a budget from $300,000 to $400,000').arguments).toEqual({ budget: { min: 300000, max: 400000 } });
  });
});

describe('mapArguments: context, defaults and refusals', () => {
  it('maps a context object by name, including snake/camel variants', () => {
    const t = tool({ user_id: { type: 'integer' }, apiKey: { type: 'string' } }, ['user_id', 'apiKey']);
    expect(mapArguments(t, 'fetch my profile', { userId: '42', api_key: 'k-1' }).arguments).toEqual({ user_id: 42, apiKey: 'k-1' });
  });

  it('reads a context string as more text', () => {
    const t = tool({ city: { type: 'string' } }, ['city']);
    expect(mapArguments(t, 'what is the weather', 'I live in Chicago').arguments).toEqual({ city: 'Chicago' });
  });

  it('defaults from the schema: a required parameter the request leaves out takes its schema default', () => {
    const t = tool(
      {
        q: { type: 'string', description: 'Search term' },
        page_size: { type: 'integer', default: 20 },
        order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
      },
      ['q', 'page_size', 'order'],
    );
    const m = mapArguments(t, 'search for "solar panels"');
    expect(m.arguments).toEqual({ q: 'solar panels', page_size: 20, order: 'desc' });
    expect(m.missingArguments).toEqual([]);
    // a value in the request wins over the default
    expect(mapArguments(t, 'search for "solar panels", page size 5, ascending').arguments).toEqual({
      q: 'solar panels',
      page_size: 5,
      order: 'asc',
    });
  });

  it('does not fill optional defaults nor invent required values', () => {
    const t = tool(
      {
        q: { type: 'string', description: 'Search term' },
        limit: { type: 'integer', default: 10 },
        unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
      },
      ['q'],
    );
    const m = mapArguments(t, 'hello');
    expect(m.arguments).toEqual({});
    expect(m.missingArguments).toEqual(['q']);
    expect(m.filledRatio).toBe(0);
  });

  it('never emits an argument outside the schema, and never throws', () => {
    const t = tool({ n: { type: 'integer' } }, ['n']);
    const m = mapArguments(t, 'x=5, n=3, y="z"', { extra: 1 });
    expect(m.arguments).toEqual({ n: 3 });
    expect(() =>
      mapArguments({ name: 'bad', inputSchema: { properties: 5 } as unknown as Record<string, unknown> }, null as unknown as string),
    ).not.toThrow();
  });
});

describe('mapArguments: values written around other values', () => {
  it('takes a default the description states when a required value is not in the request', () => {
    const t = tool(
      {
        players: { type: 'integer', description: 'How many players sit at the table. Default is 4.' },
        variant: { type: 'string', enum: ['classic', 'speed'], description: "Rules to use (defaults to 'classic' if not specified)." },
        seed: { type: 'integer', description: 'Random seed; defaults to the current time.' },
      },
      ['players', 'variant', 'seed'],
    );
    const m = mapArguments(t, 'Deal a new round of cards.');
    expect(m.arguments).toEqual({ players: 4, variant: 'classic' });
    // a default described in prose is no value: the seed is reported missing, not invented
    expect(m.missingArguments).toEqual(['seed']);
  });

  it('splits "City, Country" between a city and a country parameter', () => {
    const t = tool(
      { city: { type: 'string', description: 'The city.' }, country: { type: 'string', description: 'The country of the city.' } },
      ['city', 'country'],
    );
    expect(mapArguments(t, 'What time is it in Lisbon, Portugal right now?').arguments).toEqual({ city: 'Lisbon', country: 'Portugal' });
  });

  it("writes a known city's country as a code where the description's examples use codes", () => {
    const t = tool({ location: { type: 'string', description: "City and state or country, e.g. 'Austin, TX' or 'Paris, FR'." } }, [
      'location',
    ]);
    expect(mapArguments(t, 'Find a quiet hotel in Nairobi, Kenya.').arguments).toEqual({ location: 'Nairobi, KE' });
  });

  it('takes a command written after "command" verbatim, special characters and all', () => {
    const t = tool({ command: { type: 'string', description: 'The shell command to run.' } }, ['command']);
    expect(mapArguments(t, 'how much disk is free? run the command df -h /var/log').arguments).toEqual({ command: 'df -h /var/log' });
    expect(mapArguments(t, 'please use the exact command git log --oneline -n 5.').arguments).toEqual({
      command: 'git log --oneline -n 5',
    });
    // "command prompt" names no command; the command written later is taken
    expect(mapArguments(t, 'in the command prompt, run the command ipconfig /all').arguments).toEqual({ command: 'ipconfig /all' });
  });

  it('keeps a quoted list apart from another quoted value', () => {
    const t = tool(
      {
        columns: { type: 'array', items: { type: 'string' }, description: 'Columns to keep.' },
        table: { type: 'string', description: 'Table name.' },
      },
      ['columns', 'table'],
    );
    const m = mapArguments(t, "Keep the columns 'id', 'email' and 'created_at' of the table 'users'.");
    expect(m.arguments).toEqual({ columns: ['id', 'email', 'created_at'], table: 'users' });
  });

  it('reads a required list of plain words joined by "and"', () => {
    const t = tool({ toppings: { type: 'array', items: { type: 'string' }, description: 'Toppings to add.' } }, ['toppings']);
    expect(mapArguments(t, 'Make me a pizza that has olives, sweet corn and fresh basil.').arguments).toEqual({
      toppings: ['olives', 'sweet corn', 'fresh basil'],
    });
  });

  it('keeps a 24-hour clock when the description asks for one, even if its example names PM', () => {
    const t = tool({ start: { type: 'string', description: "Start time in 24-hour format 'HH:MM' (e.g. '14:30' for 2:30 PM)." } }, [
      'start',
    ]);
    expect(mapArguments(t, 'Book the court at 3:15 pm.').arguments).toEqual({ start: '15:15' });
  });

  it('takes an e-mail address whole, not the name inside it', () => {
    const t = tool(
      {
        receiver: { type: 'string', description: 'Who receives the payment.' },
        amount: { type: 'number', description: 'Amount in dollars.' },
      },
      ['receiver', 'amount'],
    );
    expect(mapArguments(t, 'Send $30 to MaryJones@example.org please.').arguments).toEqual({
      receiver: 'MaryJones@example.org',
      amount: 30,
    });
  });

  it('does not read a function word as a misspelt enum value ("would" is not "World")', () => {
    const t = tool({ genre: { type: 'string', enum: ['World', 'Jazz', 'dontcare'], description: 'Music genre.' } }, ['genre']);
    expect(mapArguments(t, 'I would like to hear something new.').arguments).toEqual({ genre: 'dontcare' });
  });
});

describe('mapArguments: numbered parameters, counts, codes and names', () => {
  it('gives numbered parameters a written series in order, not a number word', () => {
    const t = tool(
      {
        a1: { type: 'integer', description: 'The first value.' },
        a2: { type: 'integer', description: 'The second value.' },
        a3: { type: 'integer', description: 'The third value.' },
      },
      ['a1', 'a2', 'a3'],
    );
    expect(mapArguments(t, 'Sort these three values: 9 apples, 2 apples and 7 apples.').arguments).toEqual({ a1: 9, a2: 2, a3: 7 });
  });

  it('finds a parameter whose long name is misspelt by one letter in the request', () => {
    const t = tool(
      { temperature: { type: 'number', description: 'Water temperature.' }, depth: { type: 'number', description: 'Depth in meters.' } },
      ['depth'],
    );
    expect(mapArguments(t, 'Dive to a depth of 30 meters where the temprature is 12.').arguments).toEqual({ temperature: 12, depth: 30 });
  });

  it('reads a head count for a parameter that counts people', () => {
    const t = tool(
      { city: { type: 'string', description: 'City.' }, number_of_guests: { type: 'integer', description: 'How many guests.' } },
      ['city'],
    );
    expect(mapArguments(t, 'Find a cabin in Denver for five people.').arguments).toEqual({ city: 'Denver', number_of_guests: 5 });
  });

  it('maps a place to the code its description defines, and still gives the place to a place parameter', () => {
    const t = tool(
      {
        region_id: { type: 'integer', description: "Region code: '1' for Tuscany, '2' for Umbria, '3' for Liguria." },
        destination: { type: 'string', description: 'Where the trip goes.' },
      },
      ['destination'],
    );
    expect(mapArguments(t, 'Plan a weekend trip to Umbria').arguments).toEqual({ region_id: 2, destination: 'Umbria' });
  });

  it('keeps a capitalised "The" that opens a name inside a sentence', () => {
    const t = tool({ venue: { type: 'string', description: 'Name of the venue.' } }, ['venue']);
    expect(mapArguments(t, 'Get me two seats at The Blue Note tonight.').arguments).toEqual({ venue: 'The Blue Note' });
  });

  it('reads "#123" as an identifier', () => {
    const t = tool({ ticket_id: { type: 'string', description: 'The ticket identifier.' } }, ['ticket_id']);
    expect(mapArguments(t, 'what is the state of my ticket? the ticket is #4471, about a broken screen').arguments).toEqual({
      ticket_id: '#4471',
    });
  });

  it('takes the clock time over "midnight" or "noon" written for the same moment, but keeps a range', () => {
    const one = tool(
      {
        show_date: { type: 'string', description: "Date, 'YYYY-MM-DD'." },
        show_time: { type: 'string', description: "Start time of the show, in 24-hour format 'HH:MM'." },
      },
      ['show_date', 'show_time'],
    );
    expect(mapArguments(one, 'Two tickets for the midnight show at 23:45 on 2023.10.2?').arguments).toEqual({
      show_date: '2023-10-02',
      show_time: '23:45',
    });
    const range = tool(
      { start: { type: 'string', description: "Start time, 'HH:MM'." }, end: { type: 'string', description: "End time, 'HH:MM'." } },
      ['start', 'end'],
    );
    expect(mapArguments(range, 'Block my calendar from noon to 3pm.').arguments).toEqual({ start: '12:00', end: '15:00' });
  });
});

describe('mapArguments: units and periods', () => {
  it('reads "100g" as grams, and gives no bare number to a parameter whose values are words', () => {
    const t = tool(
      {
        weight: { type: 'integer', description: 'Weight of the dough in grams.' },
        method: { type: 'string', description: "How to cook it. Can be 'baking', 'frying', 'steaming'." },
      },
      ['weight', 'method'],
    );
    const m = mapArguments(t, 'Cooking time for a method of 250g of dough, steaming it');
    expect(m.arguments).toEqual({ weight: 250, method: 'steaming' });
  });

  it("turns one period written without a number into the parameter's unit of time, but not a rate", () => {
    const days = tool(
      { city: { type: 'string', description: 'City.' }, days: { type: 'integer', description: 'Number of days of forecast.' } },
      ['city', 'days'],
    );
    expect(mapArguments(days, 'Pollen forecast for Denver for the next week').arguments).toEqual({ city: 'Denver', days: 7 });
    const secs = tool({ window: { type: 'integer', description: 'Length of the window in seconds.' } }, ['window']);
    expect(mapArguments(secs, 'errors logged in the past hour').arguments).toEqual({ window: 3600 });
    // "3 runs every week" is a rate: no period value
    const rate = tool(
      { runs: { type: 'integer', description: 'Runs per week.' }, span: { type: 'integer', description: 'Span in days.' } },
      ['runs'],
    );
    expect(mapArguments(rate, 'I do 3 runs every week').arguments).toEqual({ runs: 3 });
  });
});

describe('mapArguments: names that hold places and numbers', () => {
  it('keeps a season range out of the name before it ("Serie A 2019-2020")', () => {
    const t = tool(
      {
        league: { type: 'string', description: 'Name of the league.' },
        season: { type: 'string', description: "Season in format 'YYYY-YYYY'." },
      },
      ['league', 'season'],
    );
    expect(mapArguments(t, 'Top scorers of Serie A 2019-2020').arguments).toEqual({ league: 'Serie A', season: '2019-2020' });
  });

  it('does not read a city that opens a longer name as a place ("Madrid Open")', () => {
    const t = tool(
      {
        tournament: { type: 'string', description: 'Name of the tournament.' },
        city: { type: 'string', description: 'City where it is played.' },
      },
      ['tournament'],
    );
    expect(mapArguments(t, 'Who won the Madrid Open this year?').arguments).toEqual({ tournament: 'Madrid Open' });
  });
});

describe('mapArguments: commands around the word, numbered words, nested objects last', () => {
  it('takes a command written before "command" or after "use"', () => {
    const t = tool({ command: { type: 'string', description: 'The shell command to run.' } }, ['command']);
    expect(mapArguments(t, 'list the files using the ls -la command').arguments).toEqual({ command: 'ls -la' });
    expect(mapArguments(t, 'is nginx up? use systemctl status nginx to check').arguments).toEqual({ command: 'systemctl status nginx' });
    // one plain word is no whole command
    expect(mapArguments(t, 'greet me using the echo command').arguments.command).not.toBe('echo');
  });

  it('gives two numbered word parameters the two words joined by "and"', () => {
    const t = tool(
      {
        flavor1: { type: 'string', description: 'First flavor.' },
        flavor2: { type: 'string', description: 'Second flavor.' },
        scoops: { type: 'integer', description: 'Scoops.' },
      },
      ['flavor1', 'flavor2'],
    );
    expect(mapArguments(t, 'Blend mango and lime flavors and serve 2 scoops').arguments).toEqual({
      flavor1: 'mango',
      flavor2: 'lime',
      scoops: 2,
    });
  });

  it('fills top-level parameters before a nested object takes what is left', () => {
    const t = tool(
      {
        url: { type: 'string', description: 'The endpoint URL.' },
        params: {
          type: 'object',
          description: 'Query parameters.',
          properties: {
            query: { type: 'string', description: 'The query string to send, for example a URL or keywords.' },
            limit: { type: 'integer', description: 'Max results.' },
          },
        },
      },
      ['url'],
    );
    expect(mapArguments(t, "fetch 'https://api.example.org/v2/items' with a limit of 20").arguments).toEqual({
      url: 'https://api.example.org/v2/items',
      params: { limit: 20 },
    });
  });
});

describe('mapArguments: no value from prose defaults, plain English, regions, adverbs or periods only mentioned', () => {
  it('takes no described default from prose ("the default is overridden", "Default is required", "defaults to 2 years ago", "Defaults to today")', () => {
    const one = (schema: Record<string, unknown>, name: string): Record<string, unknown> =>
      mapArguments(tool({ [name]: schema }, [name]), 'go', undefined, { now }).arguments;
    expect(
      one({ type: 'string', description: 'Units. By default Celsius is used, but the default is overridden if the user asks.' }, 'units'),
    ).toEqual({});
    expect(one({ type: 'string', description: 'City. Default is required.' }, 'city')).toEqual({});
    expect(one({ type: 'integer', description: 'Year. Defaults to 2 years ago.' }, 'year')).toEqual({});
    expect(one({ type: 'string', description: 'The date. Defaults to today if not given.' }, 'date')).toEqual({});
    // a stated value still counts
    expect(one({ type: 'integer', description: 'How many results. Default to 10, max 100.' }, 'count')).toEqual({ count: 10 });
  });

  it('fills a command parameter from no ordinary English after "use"/"instruction", and reads no command past 300 characters', () => {
    const t = tool({ command: { type: 'string', description: 'Shell command' } }, ['command']);
    expect(mapArguments(t, 'Use caution when deleting the logs.').arguments).toEqual({});
    expect(mapArguments(t, 'Can you use less memory').arguments).toEqual({});
    expect(mapArguments(t, 'what instruction set does my CPU use').arguments).toEqual({});
    expect(mapArguments(t, 'Use the ls -la command.').arguments).toEqual({ command: 'ls -la' });
    const long = 'command '.repeat(2500);
    const start = performance.now();
    mapArguments(t, long);
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it('gives a country parameter no US state or region, and a state parameter no country', () => {
    const t = tool({ city: { type: 'string' }, country: { type: 'string' } }, ['city', 'country']);
    expect(mapArguments(t, 'Weather in Austin, Texas').arguments).toEqual({ city: 'Austin' });
    expect(mapArguments(t, 'Weather in Munich, Bavaria').arguments).toEqual({ city: 'Munich' });
    expect(mapArguments(t, 'Weather in Paris, Tomorrow please').arguments).toEqual({ city: 'Paris' });
    expect(mapArguments(t, 'Weather in Sydney, Australia').arguments).toEqual({ city: 'Sydney', country: 'Australia' });
    const s = tool({ city: { type: 'string' }, state: { type: 'string' } }, ['city', 'state']);
    expect(mapArguments(s, 'Weather in Lyon, France').arguments).toEqual({ city: 'Lyon' });
  });

  it('takes no adverbs or day words as numbered word values or list items', () => {
    expect(
      mapArguments(
        tool({ color1: { type: 'string' }, color2: { type: 'string' } }, ['color1', 'color2']),
        'mix the colors quickly and carefully',
      ).arguments,
    ).toEqual({});
    expect(
      mapArguments(
        tool({ date1: { type: 'string' }, date2: { type: 'string' } }, ['date1', 'date2']),
        'days between today and tomorrow',
        undefined,
        { now },
      ).arguments,
    ).toEqual({});
    expect(
      mapArguments(
        tool({ ingredients: { type: 'array', items: { type: 'string' } } }, ['ingredients']),
        'Find a recipe I can cook quickly and easily',
      ).arguments,
    ).toEqual({});
  });

  it('converts no month or year into days, and reads no period for calendar parts or units only mentioned', () => {
    const days = tool({ days: { type: 'integer', description: 'Number of days' } }, ['days']);
    expect(mapArguments(days, 'forecast for the next month', undefined, { now }).arguments).toEqual({});
    expect(mapArguments(days, 'forecast for the next week', undefined, { now }).arguments).toEqual({ days: 7 });
    expect(mapArguments(days, 'twice every week', undefined, { now }).arguments).toEqual({});
    expect(
      mapArguments(tool({ year: { type: 'integer', description: 'The year' } }, ['year']), 'results from last year', undefined, { now })
        .arguments,
    ).toEqual({});
    expect(
      mapArguments(
        tool({ limit: { type: 'integer', description: 'Max results per day' } }, ['limit']),
        'news from the last week',
        undefined,
        { now },
      ).arguments,
    ).toEqual({});
  });

  it('reads no code from a range in the description ("2 to many")', () => {
    const t = tool({ n: { type: 'integer', description: 'Number of people to invite, 2 to many' } }, ['n']);
    expect(mapArguments(t, 'invite many').arguments).toEqual({});
  });

  it('never throws, even for a missing tool', () => {
    expect(mapArguments(null as unknown as MapperTool, 'command ls').arguments).toEqual({});
  });
});

describe('mapArguments: very long requests', () => {
  it('keeps the first MAX_SPANS spans of a request that holds thousands, and still maps what it says first', async () => {
    const { analyze, MAX_SPANS } = await import('./extract.js');
    const doc = analyze('7 '.repeat(9000));
    expect(doc.spans.length).toBe(MAX_SPANS);
    expect(Math.max(...doc.spans.map((s) => s.start))).toBe(2 * (MAX_SPANS - 1));
    const t = tool({ width: { type: 'integer', description: 'Width.' } }, ['width']);
    expect(mapArguments(t, 'width=5 ' + '1 2 and 3, '.repeat(1500)).arguments).toEqual({ width: 5 });
  });

  it('reads e-mail addresses within RFC 5321 lengths only', () => {
    const t = tool({ to: { type: 'string', description: 'Recipient e-mail address.' } }, ['to']);
    const local = 'a'.repeat(64);
    expect(mapArguments(t, `mail ${local}@example.com`).arguments).toEqual({ to: `${local}@example.com` });
    expect(mapArguments(t, `mail ${'a'.repeat(65)}@example.com`).arguments.to).not.toBe(`${'a'.repeat(65)}@example.com`);
  });
});

describe('mapArguments: SI prefixes and rates', () => {
  it('converts an SI-prefixed unit into the base unit the description asks for, and only then', () => {
    const base = tool(
      {
        capacitance: { type: 'number', description: 'Capacitance in farads (F).' },
        length: { type: 'number', description: 'Cable length in meters.' },
      },
      ['capacitance', 'length'],
    );
    expect(mapArguments(base, 'a capacitance of 470nF on a cable length of 2km').arguments).toEqual({ capacitance: 4.7e-7, length: 2000 });
    const prefixed = tool({ length: { type: 'number', description: 'Cable length in kilometers.' } }, ['length']);
    expect(mapArguments(prefixed, 'a cable length of 2km').arguments).toEqual({ length: 2 });
  });

  it('reads "every hour" as a rate, not as a length of time', () => {
    const t = tool({ hours: { type: 'integer', description: 'Number of hours to run.' } }, ['hours']);
    expect(mapArguments(t, 'ping the server every hour').missingArguments).toEqual(['hours']);
  });
});

describe('mapArguments: lists of labels, numbers inside values, abbreviations, time zones', () => {
  it('takes no label word as a list value, nor a number that is only part of a quoted value', () => {
    const t = tool({ siteIds: { type: 'array', items: { type: 'string' }, description: 'Sites to query.' } }, []);
    expect(mapArguments(t, "Readings for my site. The site ID is 'plant-east-042'.").arguments).toEqual({ siteIds: ['plant-east-042'] });
  });

  it('matches an abbreviated enum value written out in full, even for an optional parameter', () => {
    const t = tool(
      {
        city: { type: 'string', description: 'City.' },
        genre: { type: 'string', enum: ['Drama', 'Sci-fi', 'Horror'], description: 'Genre.' },
      },
      ['city'],
    );
    expect(mapArguments(t, 'any science fiction films showing in Oakland?').arguments).toEqual({ city: 'Oakland', genre: 'Sci-fi' });
  });

  it('names an IANA time zone by its city', () => {
    const t = tool({ timezone: { type: 'string', enum: ['UTC', 'Asia/Tokyo', 'America/Los_Angeles'], description: 'Time zone.' } }, [
      'timezone',
    ]);
    expect(mapArguments(t, 'what time is it now in los angeles').arguments).toEqual({ timezone: 'America/Los_Angeles' });
  });
});

describe('mapArguments: flags, name lists, coordinates', () => {
  it('sets a consider_/account_for_ flag from its subject word', () => {
    const t = tool(
      {
        origin: { type: 'string', description: 'Start city.' },
        consider_traffic: { type: 'boolean', description: 'Whether to take traffic into account.' },
      },
      ['origin'],
    );
    expect(mapArguments(t, 'How long from Denver, accounting for traffic?').arguments).toEqual({
      origin: 'Denver',
      consider_traffic: true,
    });
  });

  it("takes a whole written list of names after the parameter's name", () => {
    const t = tool({ guests: { type: 'array', items: { type: 'string' }, description: 'Names of the guests.' } }, ['guests']);
    expect(mapArguments(t, 'Seat the guests Maria Lopez, Tom Baker and Ann Lee at table 4').arguments).toEqual({
      guests: ['Maria Lopez', 'Tom Baker', 'Ann Lee'],
    });
  });

  it('reads coordinates with hemispheres: south and west are negative, and each names its axis', () => {
    const t = tool(
      {
        latitude: { type: 'number', description: 'Latitude.' },
        longitude: { type: 'number', description: 'Longitude.' },
        days: { type: 'integer', description: 'Days of forecast.' },
      },
      ['latitude', 'longitude'],
    );
    expect(mapArguments(t, 'forecast for the next 5 days at 33.8688 S, 151.2093 E').arguments).toEqual({
      latitude: -33.8688,
      longitude: 151.2093,
      days: 5,
    });
  });
});

describe('mapArguments: search terms', () => {
  it('takes the subject of a search request, without the words that ask for the search or name the tool', () => {
    const t = tool({ query: { type: 'string', description: 'The search query.' } }, ['query']);
    expect(mapArguments(t, 'tide times in Brighton using the web search tool').arguments).toEqual({ query: 'tide times in Brighton' });
    expect(mapArguments(t, 'run the search function; who painted the Night Watch').arguments).toEqual({
      query: 'who painted the Night Watch',
    });
    expect(mapArguments(t, 'play yellow submarine song').arguments).toEqual({ query: 'yellow submarine' });
    expect(mapArguments(t, 'search for cheap flights to Oslo, then respond in json').arguments).toEqual({ query: 'cheap flights to Oslo' });
  });

  it('takes the subject of a short "who is" / "what is" question, and keeps a longer question whole', () => {
    const t = tool({ keyword: { type: 'string', description: 'The search term.' } }, ['keyword']);
    expect(mapArguments(t, 'who is ji sung park?').arguments).toEqual({ keyword: 'ji sung park' });
    expect(mapArguments(t, 'what is imjin war').arguments).toEqual({ keyword: 'imjin war' });
    expect(mapArguments(t, 'tell me about Marie Curie').arguments).toEqual({ keyword: 'Marie Curie' });
    // not a pronoun, a description ("the population of Tokyo") or a clause ("AAPL trading at")
    for (const q of ['What is it?', 'who is he', 'What is the population of Tokyo?', 'What is AAPL trading at?', 'tell me about it'])
      expect(mapArguments(t, q).arguments.keyword).toBeUndefined();
    expect(mapArguments(t, 'what is the best way to get from the airport to the old town by bus at night?').arguments.keyword).not.toBe(
      'the best way to get from the airport to the old town by bus at night',
    );
  });
});

describe('mapArguments: enum phrases, glued labels, airport codes', () => {
  it('prefers the longer enum value written in the request ("Premium Economy" over "Economy")', () => {
    const t = tool({ cabin: { type: 'string', enum: ['Economy', 'Premium Economy', 'Business'], description: 'Cabin class.' } }, ['cabin']);
    expect(mapArguments(t, 'a seat in premium economy please').arguments).toEqual({ cabin: 'Premium Economy' });
  });

  it('takes the value of a label glued to it ("id:42")', () => {
    const t = tool({ user_id: { type: 'string', description: 'The user identifier.' } }, ['user_id']);
    expect(mapArguments(t, 'show the open projects of Dana, id:42').arguments).toEqual({ user_id: '42' });
  });

  it('gives an airport parameter that asks for IATA codes the code, not "XXX Airport"', () => {
    const t = tool({ origin: { type: 'string', description: "The IATA airport code to depart from, such as 'SFO'." } }, ['origin']);
    expect(mapArguments(t, 'flights leaving from SEA Airport tomorrow').arguments).toEqual({ origin: 'SEA' });
  });
});

describe('mapArguments: children and adults', () => {
  it('counts children for a children parameter and people for the rest', () => {
    const t = tool(
      { adults: { type: 'integer', description: 'Number of adults.' }, children: { type: 'integer', description: 'Number of children.' } },
      ['adults'],
    );
    expect(mapArguments(t, 'a cabin for three adults and two children').arguments).toEqual({ adults: 3, children: 2 });
  });
});

describe('mapArguments: calendar parts', () => {
  it('reads a month name as its number, and gives a month or day parameter no value it cannot have', () => {
    const t = tool(
      { month: { type: 'integer', description: 'Month, 1 to 12.' }, year: { type: 'integer', description: 'Four-digit year.' } },
      ['month', 'year'],
    );
    expect(mapArguments(t, 'What was the host count for March 2021?').arguments).toEqual({ month: 3, year: 2021 });
    const day = tool({ day: { type: 'integer', description: 'Day of the month.' } }, ['day']);
    expect(mapArguments(day, 'the report numbered 45').missingArguments).toEqual(['day']);
  });

  it('fills an optional year from a four-digit year or an apostrophe year, and from no other number', () => {
    const t = tool(
      {
        genre: { type: 'string', description: 'Genre.', default: 'dontcare' },
        year: { type: 'integer', description: "Release year. Use 'dontcare' for any year.", default: 'dontcare' },
      },
      [],
    );
    const now = { now: new Date('2023-10-01T00:00:00Z') };
    expect(mapArguments(t, 'find me some songs from 2022', undefined, now).arguments).toEqual({ year: 2022 });
    expect(mapArguments(t, "some songs from '19 please", undefined, now).arguments).toEqual({ year: 2019 });
    expect(mapArguments(t, "hits of the '75 season", undefined, now).arguments).toEqual({ year: 1975 });
    expect(mapArguments(t, 'play 3 songs', undefined, now).arguments.year).toBeUndefined();
  });
});

describe('mapArguments: counted items', () => {
  const order = tool(
    {
      store: { type: 'string', description: 'The store or restaurant name.' },
      items: { type: 'array', items: { type: 'string' }, description: 'Items to order.' },
      quantities: { type: 'array', items: { type: 'integer' }, description: 'How many of each item, in the same order.' },
    },
    ['store', 'items', 'quantities'],
  );

  it('fills items and their quantities in parallel, dropping what holds or measures an item', () => {
    expect(mapArguments(order, 'Order three bottles of olive oil and a five pound bag of rice from Safeway.').arguments).toEqual({
      store: 'Safeway',
      items: ['olive oil', 'rice'],
      quantities: [3, 1],
    });
    expect(mapArguments(order, 'the price of three pumpkins and two dozen eggs at Walmart').arguments).toEqual({
      store: 'Walmart',
      items: ['pumpkins', 'eggs'],
      quantities: [3, 24],
    });
  });

  it("keeps a business's possessive name when nothing follows that it owns", () => {
    expect(mapArguments(order, "I want to order five burgers and six chicken wings from McDonald's.").arguments).toEqual({
      store: "McDonald's",
      items: ['burgers', 'chicken wings'],
      quantities: [5, 6],
    });
    const person = tool({ owner: { type: 'string', description: 'Name of the owner.' } }, ['owner']);
    expect(mapArguments(person, "find John's car keys").arguments).toEqual({ owner: 'John' });
  });

  it('takes no head count or length of stay as an item', () => {
    expect(mapArguments(order, 'a table at Nobu for 2 people for 3 nights').missingArguments).toEqual(['items', 'quantities']);
  });
});

describe('mapArguments: labelled identifiers and colours', () => {
  it('takes a number labelled as an ID for an id parameter whose name the label fits', () => {
    const t = tool({ user_id: { type: 'string', description: 'The unique identifier of the user.' } }, ['user_id']);
    expect(mapArguments(t, 'remind me of my API tokens. My user ID is 123456789.').arguments).toEqual({ user_id: '123456789' });
    const e = tool({ employee_id: { type: 'string', description: 'The employee whose tech stack is queried.' } }, ['employee_id']);
    expect(mapArguments(e, 'just the main tech stack of Adriel. id is 1234').arguments).toEqual({ employee_id: '1234' });
    const o = tool({ order_id: { type: 'string', description: 'The order to track.' } }, ['order_id']);
    expect(mapArguments(o, 'my user ID is 42, where is my parcel?').missingArguments).toEqual(['order_id']);
  });

  it('fills a colour parameter from a colour word', () => {
    const t = tool(
      {
        width: { type: 'integer', description: 'Width.' },
        height: { type: 'integer', description: 'Height.' },
        color: { type: 'string', description: "The color. Default is 'black'." },
      },
      ['width', 'height'],
    );
    expect(mapArguments(t, 'Draw a rectangle with a width of 20 units and height of 10 units in red.').arguments).toEqual({
      width: 20,
      height: 10,
      color: 'red',
    });
    expect(mapArguments(t, 'Draw a rectangle 20 wide and 10 high').arguments.color).toBeUndefined();
  });
});

describe('mapArguments: negated lists, cast cues and musical keys', () => {
  it('carries a negation across "or"/"and" to every flag it joins, but not into a new clause', () => {
    const t = tool(
      {
        has_garage: { type: 'boolean', description: 'Must have a garage.', default: false },
        in_unit_laundry: { type: 'boolean', description: 'Must have in-unit laundry.', default: false },
      },
      [],
    );
    expect(mapArguments(t, 'I want no garage or in-unit laundry facilities.').arguments).toEqual({
      has_garage: false,
      in_unit_laundry: false,
    });
    // (not minding is no "no": both left to their defaults)
    expect(mapArguments(t, "I don't care about garage or in-unit laundry facilities.").arguments).toEqual({});
    expect(mapArguments(t, "I don't have a car and I have laundry services.").arguments.in_unit_laundry).not.toBe(false);
  });

  it('gives a name after "features" or before "acted in" to the cast, and "acted by" never to the director', () => {
    const t = tool(
      {
        directed_by: { type: 'string', description: "Director. Use 'dontcare' if not a criterion.", default: 'dontcare' },
        cast: { type: 'string', description: "Cast member. Use 'dontcare' if not a criterion.", default: 'dontcare' },
      },
      [],
    );
    expect(mapArguments(t, 'Can you find a Family movie that features Carol Sutton?').arguments).toEqual({ cast: 'Carol Sutton' });
    expect(mapArguments(t, 'the movie directed by Joel Zwick that Joey Fatone acted in').arguments).toEqual({
      directed_by: 'Joel Zwick',
      cast: 'Joey Fatone',
    });
    expect(mapArguments(t, 'a mystery movie, the one which is acted by Kathy Griffin').arguments).toEqual({ cast: 'Kathy Griffin' });
  });

  it('reads a musical key ("C sharp major" -> "C#") for a key parameter', () => {
    const t = tool(
      {
        key: { type: 'string', description: 'The musical key.' },
        scale_type: { type: 'string', description: 'major or minor', default: 'major' },
      },
      ['key'],
    );
    expect(mapArguments(t, 'What is the musical scale associated with C sharp major?').arguments.key).toBe('C#');
    expect(mapArguments(t, 'Generate a melody in C major scale at tempo 80 BPM').arguments.key).toBe('C');
  });
});

describe('mapArguments: counts of what a parameter counts', () => {
  it('takes the number written before the counted noun, as a word too, and no number before another phrase', () => {
    const t = tool(
      {
        religion: { type: 'string', description: 'Name of the religion.' },
        count: { type: 'integer', default: 5, description: 'Number of events to return. Default is 5.' },
      },
      ['religion'],
    );
    expect(mapArguments(t, 'Find ten major historical events related to Christianity').arguments).toEqual({
      religion: 'Christianity',
      count: 10,
    });
    const r = tool(
      {
        slope_type: { type: 'string', description: 'The slope type.' },
        num_results: { type: 'integer', default: 5, description: 'How many results to return.' },
      },
      ['slope_type'],
    );
    expect(mapArguments(r, "What are the top three plants for a 'hill' slope?").arguments).toEqual({ slope_type: 'hill', num_results: 3 });
    const g = tool(
      {
        total: { type: 'integer', description: 'The total group size.' },
        extroverts: { type: 'integer', description: 'The number of extroverted members in the group.' },
        introverts: { type: 'integer', description: 'The number of introverted members in the group.' },
      },
      ['total', 'extroverts', 'introverts'],
    );
    expect(mapArguments(g, 'a group size of 50 with extroverted members being 15 and introverted members being 35').arguments).toEqual({
      total: 50,
      extroverts: 15,
      introverts: 35,
    });
  });
});

describe('mapArguments: what the item count, year, colour, negation, key and possessive rules must not take', () => {
  const order = tool(
    {
      store: { type: 'string', description: 'The store.' },
      items: { type: 'array', items: { type: 'string' }, description: 'Items to order.' },
      quantities: { type: 'array', items: { type: 'integer' }, description: 'How many of each.' },
    },
    [],
  );

  it('counts items only where a number counts things ordered', () => {
    expect(mapArguments(order, 'Order a large pizza and 2 cokes from Dominos').arguments).toMatchObject({
      items: ['large pizza', 'cokes'],
      quantities: [1, 2],
    });
    expect(mapArguments(order, 'Order a pizza with 2 toppings').arguments.quantities).toBeUndefined();
    expect(mapArguments(order, 'Order a 12 inch pizza').arguments.quantities).toBeUndefined();
    expect(mapArguments(order, 'Order 3 to 5 bagels').arguments.quantities).toBeUndefined();
    expect(mapArguments(order, 'Add 3 things to my list: laundry, dishes, and groceries').arguments.items).not.toEqual(['things']);
    expect(mapArguments(order, 'Order pizza from Dominos at 7 pm and 2 cokes').arguments.items ?? []).not.toContain('pm');
  });

  it('takes no count or year from inside a name, and no year from several', () => {
    const ev = tool(
      {
        topic: { type: 'string', description: 'The topic.' },
        count: { type: 'integer', default: 5, description: 'Number of events to return.' },
      },
      [],
    );
    expect(mapArguments(ev, 'List World War 2 events').arguments.count).toBeUndefined();
    const mv = tool(
      { query: { type: 'string', description: 'Search text.' }, year: { type: 'integer', description: 'Release year.' } },
      [],
    );
    expect(mapArguments(mv, 'Movies like Blade Runner 2049').arguments.year).toBeUndefined();
    expect(mapArguments(mv, 'Films between 2010 and 2015').arguments.year).toBeUndefined();
    expect(mapArguments(mv, "songs with the word '99 in the title").arguments.year).toBeUndefined();
  });

  it('reads no colour from a name, a negation, a kind of food, two colours or a pattern it breaks', () => {
    const t = tool({ product: { type: 'string', description: 'Product name.' }, color: { type: 'string', description: 'Colour.' } }, []);
    for (const q of ['Buy orange juice', 'Find a Red Hot Chili Peppers t-shirt', 'Find a shirt, not black', 'Find a red or blue shirt'])
      expect(mapArguments(t, q).arguments.color, q).toBeUndefined();
    const hex = tool({ bg_color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', description: 'Background colour.' } }, []);
    expect(mapArguments(hex, 'make a card with a red background').arguments.bg_color).toBeUndefined();
  });

  it('keeps a negation out of a flag joined by "and" to another verb, and reads no musical key into an API key', () => {
    const h = tool({ has_garage: { type: 'boolean', description: 'Must have a garage.', default: false } }, []);
    expect(mapArguments(h, "I don't need a pool and need a garage in Austin").arguments.has_garage).not.toBe(false);
    const k = tool(
      { key: { type: 'string', description: 'Your API key.' }, endpoint: { type: 'string', description: 'The endpoint.' } },
      [],
    );
    expect(mapArguments(k, 'Deploy A major update to the prod endpoint').arguments.key).not.toBe('A');
  });

  it("keeps a person's possessive off the name, and reads no ID from a number that measures something", () => {
    const o = tool({ owner: { type: 'string', description: 'Name of the owner.' } }, []);
    expect(mapArguments(o, "The laptop is Mary's.").arguments.owner).not.toBe("Mary's");
    const u = tool({ user_id: { type: 'string', description: 'The user.' } }, []);
    expect(mapArguments(u, 'The ID is 5 digits long').arguments.user_id).toBeUndefined();
  });
});

describe('mapArguments: formats in words, described choices, set-apart answers, roles before names', () => {
  it('writes a date in the order a description gives in words ("month-day-year")', () => {
    const t = tool(
      {
        location: { type: 'string', description: 'The city.' },
        date: { type: 'string', description: 'The date (month-day-year) you want the index for.' },
      },
      ['location', 'date'],
    );
    expect(mapArguments(t, 'What is the air quality index in London 2022/08/16?').arguments).toEqual({
      location: 'London',
      date: '08-16-2022',
    });
  });

  it("takes a choice the description quotes (\"e.g. 'static' or 'dynamic'\"), but not an example of a list", () => {
    const t = tool(
      {
        building_id: { type: 'string', description: 'The building.' },
        mode: { type: 'string', description: "Mode of analysis, e.g. 'static' or 'dynamic'. Default is 'static'." },
      },
      ['building_id'],
    );
    expect(mapArguments(t, 'the structural dynamic analysis of building Id B1004').arguments).toEqual({
      building_id: 'B1004',
      mode: 'dynamic',
    });
    const c = tool(
      {
        countries: {
          type: 'array',
          items: { type: 'string' },
          description: "Country names, such as 'Australia', 'New Zealand', and 'India'.",
        },
      },
      ['countries'],
    );
    expect(mapArguments(c, 'the prime ministers of Australia, Canada, and India').arguments.countries).toEqual([
      'Australia',
      'Canada',
      'India',
    ]);
  });

  it('takes an answer set apart in bold or after "answer ...:" and a line break, written "\\n" too', () => {
    const t = tool({ answer: { type: 'string', description: 'The answer to record.' } }, ['answer']);
    expect(mapArguments(t, 'Sure, here is the answer to the question:\\n\\n**Logistic regression is not in the text.**').arguments).toEqual(
      { answer: 'Logistic regression is not in the text.' },
    );
    expect(mapArguments(t, 'Sure, here is the answer to the question:\n\nThe text does not define it.').arguments).toEqual({
      answer: 'The text does not define it.',
    });
  });

  it('drops a role before a name but keeps an honorific', () => {
    const t = tool({ name: { type: 'string', description: 'The name of the person.' } }, ['name']);
    expect(mapArguments(t, 'How many months of experience does Lawyer John Doe have?').arguments).toEqual({ name: 'John Doe' });
    expect(mapArguments(t, 'criminal cases of Mr. X in New York').arguments.name).toBe('Mr. X');
  });
});

describe('mapArguments: set ... to', () => {
  it('fills an optional number the request sets by name ("set the starting level to 5")', () => {
    const t = tool(
      {
        player_name: { type: 'string', description: 'The name of the player.' },
        starting_level: { type: 'integer', description: 'The starting level for the player', default: 1 },
      },
      ['player_name'],
    );
    expect(mapArguments(t, "Create a player named 'StarPlayer', set the starting level to 5.").arguments).toEqual({
      player_name: 'StarPlayer',
      starting_level: 5,
    });
    expect(
      mapArguments(t, "Create a player named 'StarPlayer' who reached level 5 in another game").arguments.starting_level,
    ).toBeUndefined();
  });
});

describe('mapArguments: parameters named like Object properties', () => {
  it('maps "constructor", "__proto__" and "toString" like any other name, and reports them missing when unfilled', () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      const schema = JSON.parse(
        `{"type":"object","properties":{"${name}":{"type":"string","description":"The value."},"count":{"type":"integer","description":"How many."}},"required":["${name}","count"]}`,
      );
      const t = { name: 't', description: 'Sets a value.', inputSchema: schema };
      const full = mapArguments(t, `set ${name} to 'abc' and count to 3`);
      expect(JSON.parse(JSON.stringify(full.arguments)), name).toEqual(JSON.parse(`{"${name}":"abc","count":3}`));
      expect(full.missingArguments, name).toEqual([]);
      const part = mapArguments(t, 'count to 3');
      expect(part.missingArguments, name).toEqual([name]);
      expect(part.filledRatio, name).toBe(0.5);
    }
  });
});

describe('mapArguments: frequencies, qualified ID labels, renames, text to translate', () => {
  it('reads "compounded quarterly" as 4 times a year for a count of times per period', () => {
    const t = tool(
      {
        principal: { type: 'integer', description: 'The initial deposit.' },
        n: { type: 'integer', description: 'The number of times that interest is compounded per unit time.' },
      },
      ['principal', 'n'],
    );
    expect(mapArguments(t, 'interest on an initial deposit of $5000, compounded quarterly').arguments).toEqual({ principal: 5000, n: 4 });
  });

  it('gives "Website ID is 1234" to websiteId and the name after "to" of a rename to the new name', () => {
    const t = tool(
      {
        websiteId: { type: 'string', description: 'The unique identifier of the website to be renamed.' },
        name: { type: 'string', description: 'The new name for the website.' },
      },
      ['websiteId', 'name'],
    );
    expect(mapArguments(t, 'Rename website "Frank" to "Bob". Website ID is 1234').arguments).toEqual({ websiteId: '1234', name: 'Bob' });
  });

  it('takes the text to translate without the request around it', () => {
    const t = tool(
      {
        text: { type: 'string', description: 'The text to translate.' },
        source_language: { type: 'string', description: 'Source language.' },
        target_language: { type: 'string', description: 'Target language.' },
      },
      ['text', 'source_language', 'target_language'],
    );
    expect(mapArguments(t, 'Translate Hello, how are you? from English to French.').arguments).toEqual({
      text: 'Hello, how are you?',
      source_language: 'English',
      target_language: 'French',
    });
  });
});

describe('mapArguments: what the role, described choice, bold, translation, frequency and ID label rules must not take', () => {
  it('keeps a role word that is part of a name ("Doctor Who", "Captain America Civil War")', () => {
    const t = tool({ name: { type: 'string', description: 'Name of the person or character.' } }, ['name']);
    expect(mapArguments(t, 'Tell me about Doctor Who').arguments.name).toBe('Doctor Who');
    expect(mapArguments(t, 'Who played Captain America?').arguments.name).toBe('Captain America');
  });

  it('takes a described choice only when one is written, next to a word of the parameter', () => {
    const repo = tool(
      {
        name: { type: 'string', description: 'Repository name.' },
        visibility: { type: 'string', description: "Repository visibility, can be 'public' or 'private'." },
      },
      ['name'],
    );
    expect(mapArguments(repo, 'Make a private copy of the public repo named notes-app').arguments.visibility).toBeUndefined();
    const reddit = tool(
      {
        subreddit: { type: 'string', description: 'The subreddit.' },
        sort: { type: 'string', description: "Sort order. Can be 'new', 'top' or 'hot'." },
      },
      ['subreddit'],
    );
    expect(mapArguments(reddit, 'Show me posts from r/typescript, I am new here').arguments.sort).toBeUndefined();
  });

  it('reads no bold from a power operator or a one-word emphasis', () => {
    const t = tool({ expression: { type: 'string', description: 'Math expression to evaluate.' } }, ['expression']);
    expect(mapArguments(t, 'Evaluate 2**10 + 3**2').arguments.expression).not.toBe('10 + 3');
    const b = tool({ title: { type: 'string', description: 'Issue title.' }, body: { type: 'string', description: 'Issue body.' } }, [
      'title',
    ]);
    expect(mapArguments(b, 'Open an issue titled "Crash on start" with body **urgent** the app crashes').arguments.body).not.toBe('urgent');
  });

  it('translates no text into something that is not a language, and no pronoun', () => {
    const t = tool(
      { text: { type: 'string', description: 'Text to translate.' }, target_language: { type: 'string', description: 'Target language.' } },
      ['text'],
    );
    expect(mapArguments(t, 'Translate I want to go to school').arguments.text).not.toBe('I want to go');
    expect(mapArguments(t, 'Translate it to Japanese').arguments.text).not.toBe('it');
  });

  it('takes one frequency of the kind the parameter counts, and none of two', () => {
    const loan = tool(
      {
        amount: { type: 'number', description: 'Loan amount.' },
        payments_per_year: { type: 'integer', description: 'Number of payments per year.' },
        compounding_per_year: { type: 'integer', description: 'Number of times interest is compounded per year.' },
      },
      ['amount'],
    );
    expect(mapArguments(loan, 'Loan of $20000 compounded daily, paid monthly').arguments).toMatchObject({
      payments_per_year: 12,
      compounding_per_year: 365,
    });
    const n = tool(
      {
        principal: { type: 'number', description: 'Principal.' },
        n: { type: 'integer', description: 'The number of times interest is compounded per year.' },
      },
      ['principal'],
    );
    expect(mapArguments(n, '$1000: compare compounded annually vs compounded monthly').arguments.n).toBeUndefined();
  });

  it('fills no user ID from "use ID 981"', () => {
    const t = tool({ userId: { type: 'string', description: 'The user.' }, orderId: { type: 'string', description: 'The order.' } }, [
      'orderId',
    ]);
    expect(mapArguments(t, 'Cancel the order, use ID 981').arguments.userId).toBeUndefined();
  });
});

describe('mapArguments: IP addresses', () => {
  it('reads an unquoted IPv4 address whole, for the parameter that holds one', () => {
    const t = tool({ ip: { type: 'string', description: 'IP address' }, host: { type: 'string', description: 'The host address.' } }, [
      'ip',
    ]);
    expect(mapArguments(t, 'Assign static IP 10.0.0.5').arguments).toEqual({ ip: '10.0.0.5' });
    expect(mapArguments(t, 'connect to host 10.1.2.3 with ip 172.16.0.1').arguments).toEqual({ ip: '172.16.0.1', host: '10.1.2.3' });
    const port = tool({ port: { type: 'integer', description: 'Port number.' } }, ['port']);
    expect(mapArguments(port, 'open the firewall for 10.0.0.5').missingArguments).toEqual(['port']);
  });
});

describe('mapArguments: enums read from one distinctive word', () => {
  const therapist = tool(
    {
      city: { type: 'string', description: "The city, such as 'Berkeley, CA'." },
      type: { type: 'string', description: 'The type of therapist.', enum: ['Psychologist', 'Family Counselor', 'Psychiatrist'] },
    },
    ['city', 'type'],
  );

  it("fills a required enum from a word only one value has, written beside a word of the parameter's description", () => {
    expect(mapArguments(therapist, 'I need help looking for a Family Therapist in Mountain View.').arguments.type).toBe('Family Counselor');
    const project = tool(
      {
        project_name: {
          type: 'string',
          description: 'The name of the project.',
          enum: ['e-commerce-website', 'car-rental', 'turing-machine'],
        },
      },
      ['project_name'],
    );
    expect(mapArguments(project, "what's the details turing project").arguments.project_name).toBe('turing-machine');
  });

  it('leaves it missing for a word on its own, or when two values have words of the request', () => {
    expect(mapArguments(therapist, 'Find me a therapist in Berkeley.').missingArguments).toEqual(['type']);
    // "family" is not beside "therapist"
    expect(mapArguments(therapist, 'I need a therapist for my family in Berkeley.').missingArguments).toEqual(['type']);
    const flight = tool(
      {
        destination: { type: 'string', description: 'Where to fly.' },
        cabin_class: {
          type: 'string',
          description: 'The cabin class of the flight.',
          enum: ['Economy', 'Premium Economy', 'Business', 'First Class'],
        },
      },
      ['destination', 'cabin_class'],
    );
    expect(mapArguments(flight, 'Book the first available flight to Tokyo').missingArguments).toEqual(['cabin_class']);
    const car = tool(
      {
        pickup_location: { type: 'string', description: 'Where to pick the car up.' },
        vehicle: { type: 'string', description: 'The vehicle type.', enum: ['Sedan', 'Pickup Truck', 'Sports Car', 'Minivan'] },
      },
      ['pickup_location', 'vehicle'],
    );
    expect(mapArguments(car, 'Rent a car at LAX').missingArguments).toEqual(['vehicle']);
    const room = tool(
      { room_type: { type: 'string', description: 'The room type.', enum: ['Single Room', 'Double Room', 'Family Suite', 'Deluxe King'] } },
      ['room_type'],
    );
    expect(mapArguments(room, 'Book a hotel near King Street for my family trip').missingArguments).toEqual(['room_type']);
  });

  it('never fills an optional enum from one word', () => {
    const t = tool(
      {
        city: { type: 'string', description: 'The city.' },
        type: { type: 'string', description: 'The type of therapist.', enum: ['Psychologist', 'Family Counselor', 'Psychiatrist'] },
      },
      ['city'],
    );
    expect(mapArguments(t, 'I need a family therapist in Berkeley.').arguments.type).toBeUndefined();
  });
});

describe('mapArguments: place formats', () => {
  it("writes a country's code as the description does, and no code that reads as a US state", () => {
    const mixed = tool(
      {
        city: {
          type: 'string',
          description: "The city, in the format 'City, State' or 'City, Country' (e.g., 'New York, NY' or 'London, UK').",
        },
      },
      ['city'],
    );
    expect(mapArguments(mixed, 'a theater event in London, UK on Apr the 5th').arguments.city).toBe('London, UK');
    expect(mapArguments(mixed, 'a music concert in Toronto').arguments.city).toBe('Toronto, Canada');
    const iso = tool(
      {
        city: {
          type: 'string',
          description: "The city, in the format 'City, State' or 'City, Country'. Examples: 'San Francisco, CA' or 'Paris, FR'.",
        },
      },
      ['city'],
    );
    expect(mapArguments(iso, 'the weather in New Delhi, India').arguments.city).toBe('New Delhi, IN');
  });

  it("adds no state or country where the description's examples are plain city names", () => {
    const t = tool(
      {
        city: {
          type: 'string',
          description: "The city where the cinema is located, in the format 'City Name', such as 'Noida', 'Amritsar', or 'Indore'.",
        },
      },
      ['city'],
    );
    expect(mapArguments(t, 'list movies in Mumbai?').arguments.city).toBe('Mumbai');
    const lower = tool({ location: { type: 'string', description: "The city, e.g. 'austin, tx'" } }, ['location']);
    expect(mapArguments(lower, 'weather in Austin, Texas').arguments.location).toBe('Austin, TX');
    const st = tool({ city: { type: 'string', description: "The city, such as 'Berkeley, CA'." } }, ['city']);
    expect(mapArguments(st, 'movies in Mountain View').arguments.city).toBe('Mountain View, CA');
  });
});

describe('mapArguments: motion and rates', () => {
  const velocity = { type: 'integer', description: 'The initial velocity of the object in meters/second.' };
  const time = { type: 'integer', description: 'The time over which the acceleration is applied in seconds.' };
  const motion = tool(
    {
      initial_velocity: velocity,
      acceleration: { type: 'number', description: 'The acceleration of the object in meters/second^2.' },
      time,
    },
    ['initial_velocity', 'acceleration', 'time'],
  );

  it('reads a body that starts at rest as an initial velocity of 0, unless one is given', () => {
    expect(mapArguments(motion, 'It started from rest, accelerated at a rate of 9.8 m/s^2 for a duration of 5 seconds.').arguments).toEqual(
      { initial_velocity: 0, acceleration: 9.8, time: 5 },
    );
    const drop = tool(
      {
        initial_velocity: { type: 'integer', description: 'The initial velocity.' },
        height: { type: 'integer', description: 'The height from which the object is dropped.' },
      },
      ['initial_velocity', 'height'],
    );
    expect(mapArguments(drop, 'Calculate the final speed of an object dropped from 100 m.').arguments).toEqual({
      initial_velocity: 0,
      height: 100,
    });
    expect(mapArguments(drop, 'An object is dropped from 100 m with an initial velocity of 5 m/s.').arguments.initial_velocity).toBe(5);
  });

  it('reads no start at rest from a body that ends at rest, or one dropped or released at a written speed', () => {
    const kin = tool(
      {
        initial_velocity: { type: 'number', description: 'Initial velocity in m/s.' },
        acceleration: { type: 'number', description: 'Acceleration in m/s^2.' },
        time: { type: 'number', description: 'Time in seconds.' },
      },
      ['initial_velocity', 'acceleration', 'time'],
    );
    expect(
      mapArguments(kin, 'A car traveling at 20 m/s brakes with an acceleration of -4 m/s^2 for 5 seconds until it is at rest.').arguments
        .initial_velocity,
    ).toBe(20);
    expect(mapArguments(kin, 'An arrow is released at 60 m/s and slows at -2 m/s^2. Where is it after 3 seconds?').arguments).toEqual({
      initial_velocity: 60,
      acceleration: -2,
      time: 3,
    });
    expect(
      mapArguments(kin, 'A sandbag is dropped from a balloon rising at 5 m/s; gravity is 9.8 m/s^2, for 4 seconds.').arguments
        .initial_velocity,
    ).toBe(5);
  });

  it('takes no exponent of a unit or variable for a value ("m/s^2", "x**2"), but a power of a number and bold numbers', () => {
    const t = tool({ power: { type: 'integer', description: 'The power.' } }, ['power']);
    expect(mapArguments(t, 'accelerating at 9.8 m/s^2').missingArguments).toEqual(['power']);
    expect(mapArguments(t, 'integrate x**2 over the interval').missingArguments).toEqual(['power']);
    const pow = tool({ base: { type: 'integer', description: 'The base.' }, exponent: { type: 'integer', description: 'The exponent.' } }, [
      'base',
      'exponent',
    ]);
    expect(mapArguments(pow, 'Calculate 2^10').arguments).toEqual({ base: 2, exponent: 10 });
    expect(mapArguments(pow, 'compute 3**4').arguments).toEqual({ base: 3, exponent: 4 });
    const table = tool(
      { restaurant: { type: 'string', description: 'The restaurant.' }, party_size: { type: 'integer', description: 'Number of people.' } },
      ['restaurant', 'party_size'],
    );
    expect(mapArguments(table, 'Book a table at **Nobu** for **4** people').arguments.party_size).toBe(4);
    expect(mapArguments(table, 'Book a table at Nobu. **Party size:** 4').arguments.party_size).toBe(4);
  });

  it('reads "hours/minutes" as alternatives, not a rate', () => {
    const t = tool(
      { duration: { type: 'integer', description: 'Duration in hours/minutes.' }, task: { type: 'string', description: 'The task.' } },
      ['duration', 'task'],
    );
    expect(mapArguments(t, 'Block 45 minutes for the task "review PR" after a 2 hour meeting').arguments.duration).toBe(45);
  });

  it("reads no time as a velocity measured in meters/second (a rate's denominator is no unit of its value)", () => {
    expect(
      mapArguments(motion, 'after accelerating at 2 meters/second^2 for a duration of 5 seconds, starting from a speed of 10 meters/second')
        .arguments,
    ).toEqual({ initial_velocity: 10, acceleration: 2, time: 5 });
    const t = tool({ initial_velocity: velocity, time }, ['initial_velocity', 'time']);
    expect(mapArguments(t, 'For 5 seconds it speeds up, starting from a speed of 10 meters/second').arguments).toEqual({
      initial_velocity: 10,
      time: 5,
    });
  });
});

describe('mapArguments: currency pairs', () => {
  it('converts from the currency written with the amount, whatever the order', () => {
    const t = tool(
      {
        base_currency: { type: 'string', description: 'The currency to convert from.' },
        target_currency: { type: 'string', description: 'The currency to convert to.' },
        amount: { type: 'number', description: 'The amount.' },
      },
      ['base_currency', 'target_currency', 'amount'],
    );
    expect(mapArguments(t, 'How many Canadian dollars can I get for 500 US dollars?').arguments).toEqual({
      base_currency: 'USD',
      target_currency: 'CAD',
      amount: 500,
    });
    expect(mapArguments(t, 'Convert 20000 Japanese Yen to US dollars').arguments).toEqual({
      base_currency: 'JPY',
      target_currency: 'USD',
      amount: 20000,
    });
    // a code written after "to" is the target, though an amount is written with it elsewhere
    expect(mapArguments(t, 'Convert my EUR to USD, I need at least 100 USD').arguments).toMatchObject({
      base_currency: 'EUR',
      target_currency: 'USD',
    });
    expect(mapArguments(t, 'Convert euros to dollars: 1 USD = ? and I have 80 euros').arguments).toMatchObject({
      base_currency: 'EUR',
      target_currency: 'USD',
    });
  });
});

describe('mapArguments: defaults the description states', () => {
  it('sends no date for "today" where the description says the current date is assumed', () => {
    const t = tool(
      {
        city: { type: 'string', description: 'The city.' },
        date: {
          type: 'string',
          description: "The date of the event in the format 'YYYY-MM-DD'. If not specified, the current date is assumed.",
        },
      },
      ['city'],
    );
    expect(mapArguments(t, 'Find a music event in Berkeley today', undefined, { now }).arguments.date).toBeUndefined();
    expect(mapArguments(t, 'Find a music event in Berkeley tomorrow', undefined, { now }).arguments.date).toBe('2024-03-02');
    // a date written out is sent as written, even when it is today's
    expect(mapArguments(t, 'Find a music event in Berkeley on March 1st, 2024', undefined, { now }).arguments.date).toBe('2024-03-01');
    // another default than today's date: "today" is sent
    const other = tool(
      {
        city: { type: 'string', description: 'The city.' },
        date: { type: 'string', description: "The date in the format 'YYYY-MM-DD'. If not specified, all upcoming dates are searched." },
      },
      ['city'],
    );
    expect(mapArguments(other, 'Find a music event in Berkeley today', undefined, { now }).arguments.date).toBe('2024-03-01');
  });

  it('keeps "today" where the default is another day, or where a time goes with it', () => {
    for (const description of [
      'Defaults to 30 days before the current date.',
      'Check-in date. Defaults to one day after the current date.',
      'Defaults to the current date minus one day.',
    ]) {
      const t = tool(
        {
          symbol: { type: 'string', description: 'The ticker.' },
          date: { type: 'string', description: `The date, YYYY-MM-DD. ${description}` },
        },
        ['symbol'],
      );
      expect(mapArguments(t, 'Show AAPL trades from today', undefined, { now }).arguments.date).toBe('2024-03-01');
    }
    const meeting = tool(
      {
        title: { type: 'string', description: 'The title.' },
        start: { type: 'string', description: 'Meeting start (date and time). Defaults to the current date and time.' },
      },
      ['title'],
    );
    expect(mapArguments(meeting, 'Schedule a meeting titled "Standup" today at 3:30pm', undefined, { now }).arguments.start).toMatch(
      /^2024-03-01T15:30/,
    );
  });
});

describe('mapArguments: labels that name parameters', () => {
  it("takes no other parameter's name for a value", () => {
    const t = tool(
      {
        song_id: { type: 'string', description: 'The song.' },
        device_id: { type: 'string', description: 'The device to play on.' },
        quality: { type: 'string', description: 'Sound quality.' },
      },
      ['song_id'],
    );
    const m = mapArguments(t, 'Play high quality Roar by Katy Perry. The song_id is wjeiruhuq_roar.');
    expect(m.arguments.song_id).toBe('wjeiruhuq_roar');
    expect(m.arguments.device_id).toBeUndefined();
  });

  it('keeps a parameter name that is a value: an enum value, or a name not written as a label', () => {
    const report = tool(
      {
        campaign_id: { type: 'string', description: 'The campaign.' },
        group_by: { type: 'string', description: 'Field to group by.', enum: ['campaign_id', 'ad_group_id', 'date'] },
      },
      ['group_by'],
    );
    expect(mapArguments(report, 'Show clicks grouped by campaign_id').arguments).toEqual({ group_by: 'campaign_id' });
    const rec = tool(
      {
        record_id: { type: 'string', description: 'The record.' },
        field: { type: 'string', description: 'The field to set.' },
        value: { type: 'string', description: 'The new value.' },
      },
      ['record_id', 'field', 'value'],
    );
    expect(mapArguments(rec, 'On record rec_42, set field "record_id" to "rec_43"').arguments.field).toBe('record_id');
  });
});

describe('mapArguments: counts per unit', () => {
  const bacteria = tool(
    {
      start_population: { type: 'integer', description: 'The starting population of bacteria.' },
      duplication_frequency: { type: 'integer', description: 'The frequency of bacteria duplication per hour.' },
      duration: { type: 'integer', description: 'Total duration in hours.' },
    },
    ['start_population', 'duplication_frequency', 'duration'],
  );

  it('reads "every hour", "twice a day" as counts per unit, and no count of that unit as one', () => {
    expect(mapArguments(bacteria, 'Start with 5000 bacteria, each bacteria duplicates every hour for 6 hours.').arguments).toEqual({
      start_population: 5000,
      duplication_frequency: 1,
      duration: 6,
    });
    expect(
      mapArguments(bacteria, 'Start with 5000 bacteria that duplicate twice an hour, for 6 hours.').arguments.duplication_frequency,
    ).toBe(2);
    // "for 6 hours" is no rate per hour
    expect(mapArguments(bacteria, 'Start with 5000 bacteria, for 6 hours.').arguments.duplication_frequency).toBeUndefined();
  });

  it('fills no optional rate from an adverb about something else', () => {
    const t = tool(
      {
        distance: { type: 'integer', description: 'The distance travelled in miles.' },
        efficiency_reduction: { type: 'number', description: 'The percentage decrease in fuel efficiency per year (optional).' },
      },
      ['distance'],
    );
    expect(mapArguments(t, 'How much CO2 is produced annually by a car that travels 12,000 miles?').arguments).toEqual({ distance: 12000 });
  });
});

describe('mapArguments: administrative areas', () => {
  const areas = tool(
    {
      province_id: { type: 'integer', description: "The province: '1' for Bangkok, '2' for Chiang Mai." },
      district_name: { type: 'string', description: "The district, such as 'Watthana'." },
      sub_district_name: { type: 'string', description: 'The subdistrict.' },
    },
    [],
  );

  it('takes a name written with its kind for the parameter of that kind, without the kind word', () => {
    expect(mapArguments(areas, 'a housekeeper in Bangkok, Chatuchak District, rated 4.5').arguments).toMatchObject({
      district_name: 'Chatuchak',
    });
    expect(mapArguments(areas, 'a housekeeper in Chiang Mai, Sankampang District, Ton Pao Subdistrict').arguments).toMatchObject({
      district_name: 'Sankampang',
      sub_district_name: 'Ton Pao',
    });
    expect(mapArguments(areas, 'a cleaner in Bangkok, specifically in the Chatuchak district').arguments).toMatchObject({
      district_name: 'Chatuchak',
    });
  });

  it('takes no city for a district or subdistrict', () => {
    const m = mapArguments(areas, 'Find a service provider with a 5-star rating in Bangkok, specifically in the Lat Phrao district');
    expect(m.arguments).toMatchObject({ district_name: 'Lat Phrao' });
    expect(m.arguments.sub_district_name).toBeUndefined();
    expect(mapArguments(areas, 'Find a maid who provides ironing services in Chiang Mai.').arguments.district_name).toBeUndefined();
  });

  it('reads the name case-sensitively: "Apple in Santa Clara County" is the county Santa Clara', () => {
    const t = tool(
      {
        entity: { type: 'string', description: 'The entity involved in lawsuits.' },
        county: { type: 'string', description: 'The county, for example Alameda county.' },
      },
      ['entity', 'county'],
    );
    expect(mapArguments(t, 'Search for current lawsuits filed against Apple in Santa Clara County.').arguments).toEqual({
      entity: 'Apple',
      county: 'Santa Clara',
    });
  });
});

describe('mapArguments: titles and makers', () => {
  it("reads \"'X' by 'Y'\": a quoted title before by, its maker after (quotes and all)", () => {
    const t = tool(
      {
        track: { type: 'string', description: 'The title of the track to be played.' },
        artist: { type: 'string', description: 'The name of the artist performing the track.' },
      },
      ['track'],
    );
    expect(mapArguments(t, "Rumor says that 'Narrated For You' by 'Alec Benjamin' is awesome. Play it.").arguments).toEqual({
      track: 'Narrated For You',
      artist: 'Alec Benjamin',
    });
  });

  it('keeps a short leading word of a name written after "by" ("songs by Get Scared")', () => {
    const t = tool({ artist: { type: 'string', description: 'The first and last name of the performer.' } }, []);
    expect(mapArguments(t, 'I love Rock-and-roll and songs by Get Scared.').arguments).toEqual({ artist: 'Get Scared' });
    // (not a lone capitalised word: "by Get" is no name)
    expect(mapArguments(t, 'Sort them by Get date').arguments.artist).not.toBe('Get');
  });
});

describe('mapArguments: numbers with units for strings', () => {
  it('takes no quantity of another unit for a string parameter ("a city view for 3 days")', () => {
    const t = tool(
      {
        stay_duration: { type: 'integer', description: 'The duration of the stay in days.' },
        view: { type: 'string', description: 'The preferred view from the room.' },
      },
      ['stay_duration'],
    );
    expect(mapArguments(t, 'a luxury room with a city view for 3 days').arguments).toEqual({ stay_duration: 3 });
  });

  it('keeps a count of things for a string quantity ("25 shares", "4 guests")', () => {
    const order = tool(
      { symbol: { type: 'string', description: 'The ticker.' }, qty: { type: 'string', description: 'Order quantity.' } },
      ['symbol', 'qty'],
    );
    expect(mapArguments(order, 'Sell qty 25 shares of TSLA').arguments).toEqual({ symbol: 'TSLA', qty: '25' });
  });
});

describe('mapArguments: limits of the rate, area name, country code and title rules', () => {
  it('reads counts per unit only for a frequency, and never from part of a larger number', () => {
    const pay = tool({ hourly_rate: { type: 'number', description: 'Pay per hour' } }, ['hourly_rate']);
    expect(mapArguments(pay, 'Calculate my salary at 12.50 an hour').arguments.hourly_rate).toBe(12.5);
    const salary = tool(
      { amount: { type: 'number', description: 'Salary amount per month' }, months: { type: 'integer', description: 'Number of months' } },
      ['amount', 'months'],
    );
    expect(mapArguments(salary, 'I will be paid 3000 dollars every month for 12 months').arguments).toEqual({ amount: 3000, months: 12 });
    const llm = tool(
      {
        prompt: { type: 'string', description: 'The prompt.' },
        max_tokens: { type: 'integer', description: 'Maximum tokens per response' },
      },
      ['prompt', 'max_tokens'],
    );
    expect(mapArguments(llm, 'Summarize this article and keep each response short').arguments.max_tokens).toBeUndefined();
    const sessions = tool({ sessions_per_week: { type: 'number', description: 'Training sessions per week' } }, ['sessions_per_week']);
    expect(mapArguments(sessions, 'I train 2.5 times a week on average').arguments.sessions_per_week).not.toBe(5);
  });

  it('drops a command or question word that opens the sentence from an area name, and reads "St." names whole', () => {
    const d = tool({ district_name: { type: 'string', description: 'The district.' } }, ['district_name']);
    expect(mapArguments(d, 'Show Chatuchak District property listings').arguments.district_name).toBe('Chatuchak');
    const c = tool({ county: { type: 'string', description: 'The county.' }, state: { type: 'string', description: 'The state code.' } }, [
      'county',
    ]);
    expect(mapArguments(c, 'Find Orange County property records in CA').arguments.county).toBe('Orange');
    expect(mapArguments(c, 'Find St. Clair County property records').arguments.county).toBe('St. Clair');
    expect(mapArguments(c, 'What County is Palo Alto in?').arguments.county).not.toBe('What');
    // (only at a sentence's start: a county named like a command word keeps its name)
    expect(mapArguments(c, 'Find property records in Will County').arguments.county).toBe('Will');
  });

  it('reads no area from a surname or a longer parameter name, and lets a district be a city no other parameter names', () => {
    const ward = tool(
      { patient_name: { type: 'string', description: "The patient's full name." }, ward: { type: 'string', description: 'Hospital ward' } },
      ['patient_name', 'ward'],
    );
    expect(mapArguments(ward, 'Move patient Mary Ward to Cardiology').arguments.ward).not.toBe('Mary');
    const school = tool({ school_district: { type: 'string', description: 'The school district.' } }, ['school_district']);
    expect(mapArguments(school, 'Enrollment figures for Los Angeles Unified School District').arguments.school_district).not.toBe(
      'Los Angeles Unified School',
    );
    const d = tool({ district: { type: 'string', description: 'District name' } }, ['district']);
    expect(mapArguments(d, 'Vaccination centres in Pune').arguments.district).toBe('Pune');
  });

  it('writes codes where the description asks for country codes, even ones that are US state codes', () => {
    const t = tool({ location: { type: 'string', description: "City and country code, e.g. 'Toronto, CA' or 'Berlin, DE'" } }, [
      'location',
    ]);
    expect(mapArguments(t, 'Weather in Munich, Germany').arguments.location).toBe('Munich, DE');
  });

  it('gives the title bonus before "by" to quoted titles only', () => {
    const t = tool(
      { track: { type: 'string', description: 'The title of the track.' }, artist: { type: 'string', description: 'The artist.' } },
      [],
    );
    expect(mapArguments(t, 'Play Let It Be by The Beatles').arguments.track).not.toBe('Be');
  });
});

describe('mapArguments: chains and brands', () => {
  it('gives a chain parameter the chain without the kind of business its name says', () => {
    const t = tool(
      { location: { type: 'string', description: 'The city.' }, hotel_chain: { type: 'string', description: 'The hotel chain.' } },
      ['location'],
    );
    expect(mapArguments(t, 'Check if any Hilton Hotel is available in Paris').arguments.hotel_chain).toBe('Hilton');
    const name = tool(
      { location: { type: 'string', description: 'The city.' }, hotel_name: { type: 'string', description: 'The name of the hotel.' } },
      ['location', 'hotel_name'],
    );
    expect(mapArguments(name, 'Book a room at the Grand Budapest Hotel in Paris').arguments.hotel_name).toBe('Grand Budapest Hotel');
  });
});

describe('mapArguments: enum values that share a stem', () => {
  it('takes the enum value written as it is over one that only shares its stem', () => {
    const t = tool({ genre: { type: 'string', description: 'The genre.', enum: ['Animation', 'Anime', 'Drama', 'dontcare'] } }, ['genre']);
    expect(mapArguments(t, 'movies in the Anime genre').arguments.genre).toBe('Anime');
    expect(mapArguments(t, 'an animation movie').arguments.genre).toBe('Animation');
  });
});

describe('mapArguments: sentence breaks, bounds across a comparison, genre words, quotes glued to CJK text', () => {
  it('ends a name or an address at a sentence break after a number, an acronym or a long word', () => {
    const shop = tool({ size: { type: 'string', description: 'Clothing size.' } });
    expect(mapArguments(shop, 'I bought jeans in size EU 42. Sadly they are too small.').arguments).toEqual({ size: 'EU 42' });
    const ride = tool({ destination: { type: 'string', description: 'Street address to ride to.' } }, ['destination']);
    expect(mapArguments(ride, 'Take me to 45 Pine Street, Santa Rosa. Two of us are riding.').arguments.destination).toBe(
      '45 Pine Street, Santa Rosa',
    );
    // an abbreviation's period is no sentence break
    expect(mapArguments(ride, 'Take me to 9 Oak Street, St. Louis please').arguments.destination).toBe('9 Oak Street, St. Louis');
  });

  it('links a name to its bound across a comparison ("rating higher than 4.1")', () => {
    const homes = tool(
      {
        city: { type: 'string', description: 'City.' },
        rating: { type: 'number', description: 'Minimum review rating from 1.0 to 5.0.', default: 3 },
      },
      ['city'],
    );
    expect(mapArguments(homes, 'A flat in Denver for two nights. rating higher than 4.3?').arguments.rating).toBe(4.3);
    expect(mapArguments(homes, 'A flat in Denver with a rating of at least 4.5').arguments.rating).toBe(4.5);
  });

  it('reads a genre from the word a request uses for it, for an optional enum too', () => {
    const movies = tool({
      genre: { type: 'string', enum: ['Comedy', 'Animation', 'Horror', 'Drama', 'dontcare'], default: 'dontcare' },
      director: { type: 'string' },
    });
    expect(mapArguments(movies, 'Something funny to watch tonight').arguments.genre).toBe('Comedy');
    expect(mapArguments(movies, 'a cartoon film for the kids').arguments.genre).toBe('Animation');
    expect(mapArguments(movies, 'a scary one please').arguments.genre).toBe('Horror');
    // a genre written as itself wins ("Drama", not Theater's synonym); no genre word, no genre
    expect(mapArguments(movies, 'a drama directed by Greta Gerwig').arguments.genre).toBe('Drama');
    expect(mapArguments(movies, 'a film directed by Greta Gerwig').arguments.genre).toBeUndefined();
    const events = tool({ event_type: { type: 'string', enum: ['Music', 'Theater'] }, city: { type: 'string' } }, ['event_type', 'city']);
    expect(mapArguments(events, 'I love drama, anything on in Boston?').arguments.event_type).toBe('Theater');
  });

  it('reads single quotes glued to Chinese or Korean text as quotes', () => {
    const ws = tool(
      {
        name: { type: 'string', description: 'Workspace name.' },
        base_branch: { type: 'string', description: 'Git branch to base it on.' },
      },
      ['name', 'base_branch'],
    );
    expect(mapArguments(ws, "请创建一个名为'QaBox'的工作空间，基于'release-2'分支").arguments).toEqual({
      name: 'QaBox',
      base_branch: 'release-2',
    });
    const search = tool({ keyword: { type: 'string', description: 'Search keyword.' } }, ['keyword']);
    expect(mapArguments(search, "'세종대왕'이라는 키워드로 검색해 주세요").arguments.keyword).toBe('세종대왕');
    // an English apostrophe stays no quote
    expect(mapArguments(search, "I'm looking for Bob's notes").arguments.keyword).not.toBe('m looking for Bob');
    // and an apostrophe between letters inside a quote does not end it
    expect(mapArguments(search, "Find some information on 'how kites are made and why they're flown'?").arguments.keyword).toBe(
      "how kites are made and why they're flown",
    );
  });
});

describe('mapArguments: identifiers and names', () => {
  it('takes no count written in words for an identifier, and reads "the X I ordered is Y"', () => {
    const order = tool(
      {
        order_id: { type: 'string', description: 'The unique identifier of the order.' },
        product: { type: 'string', description: 'The name of the product that was ordered.' },
      },
      ['order_id', 'product'],
    );
    expect(
      mapArguments(order, 'where is my order? the order ID is #4410, and the product I bought was a pair of boots.').arguments,
    ).toEqual({ order_id: '#4410', product: 'pair of boots' });
  });

  it('fills one of two parameters the description needs one of, on weaker evidence than an optional one', () => {
    const who = tool({
      name: { type: 'string', description: 'The full name of the person. Optional if the identification number is provided.' },
      identification_number: { type: 'string', description: 'The identification number. Optional if the name is provided.' },
    });
    expect(mapArguments(who, 'get the contact details for Mira Lindqvist').arguments).toEqual({ name: 'Mira Lindqvist' });
    // a plain optional name parameter is not filled on that evidence
    const plain = tool({ name: { type: 'string', description: 'The full name of the person.' } });
    expect(mapArguments(plain, 'get the contact details for Mira Lindqvist').arguments).toEqual({});
  });

  it('reads a camelCase identifier as one ("set maxRetries to 5")', () => {
    const setter = tool(
      {
        name: { type: 'string', description: 'The unique identifier of the variable.' },
        value: { type: 'integer', description: 'The value to assign.' },
      },
      ['name', 'value'],
    );
    expect(mapArguments(setter, 'Set maxRetries to 5').arguments).toEqual({ name: 'maxRetries', value: 5 });
  });

  it("reads a thing's name beside the word for that thing, for a needed name or identifier", () => {
    const badge = tool(
      {
        name: { type: 'string', description: 'The unique name identifier of the project.' },
        version: { type: 'string', description: 'The project version.' },
      },
      ['name', 'version'],
    );
    expect(mapArguments(badge, 'Show metrics for the hummingbird project, version 2.').arguments).toEqual({
      name: 'hummingbird',
      version: '2',
    });
    const byId = tool({ uuid: { type: 'string', description: 'The unique identifier of the project.' } }, ['uuid']);
    expect(mapArguments(byId, 'the badge for project ID qx7ab.').arguments.uuid).toBe('qx7ab');
    // a word that only says which one, or a capitalised name that holds the thing's word, is not taken
    expect(mapArguments(byId, 'the badge for the new project').arguments.uuid).toBeUndefined();
    const museum = tool({ name: { type: 'string', description: 'The name of the museum.' } }, ['name']);
    expect(mapArguments(museum, 'opening hours of the Prado Museum in Madrid').arguments.name).toBe('Prado Museum');
  });
});

describe('mapArguments: places, times and labels', () => {
  it('reads a city nickname that is no English word in any case ("nyc"), and two-letter ones only in capitals', () => {
    const weather = tool({ location: { type: 'string', description: "City and state, e.g. 'San Francisco, CA'." } }, ['location']);
    expect(mapArguments(weather, 'weather in nyc tomorrow').arguments.location).toBe('New York, NY');
    expect(mapArguments(weather, 'is it going to rain in la la land').arguments.location).toBeUndefined();
  });

  it('puts the one time of a request with the one date in another sentence for a date-time', () => {
    const alarm = tool({ alarm_time: { type: 'string', description: "Alarm time in the format 'YYYY-MM-DD HH:MM:SS'." } }, ['alarm_time']);
    expect(mapArguments(alarm, 'My flight is on 2024-05-03. Wake me at 6:15 AM.').arguments.alarm_time).toBe('2024-05-03 06:15:00');
  });

  it('reads an ID label whose qualifier shortens a part of the name ("Web ID" for websiteId)', () => {
    const rename = tool(
      {
        websiteId: { type: 'string', description: 'The unique identifier of the website.' },
        name: { type: 'string', description: 'The new name of the website.' },
      },
      ['websiteId', 'name'],
    );
    expect(mapArguments(rename, 'Rename website "Alpha" to "Beta". Web ID is 5521').arguments).toEqual({ websiteId: '5521', name: 'Beta' });
  });

  it('reads a kind or a level from the word a request uses for it ("a concert" for Music, "urgent" for high)', () => {
    const events = tool({ event_type: { type: 'string', enum: ['Music', 'Theater', 'Sports'] }, city: { type: 'string' } }, [
      'event_type',
      'city',
    ]);
    expect(mapArguments(events, 'any concerts in Austin this week?').arguments.event_type).toBe('Music');
    const handover = tool({
      reason: { type: 'string' },
      urgency_level: { type: 'string', enum: ['low', 'medium', 'high'], default: 'medium' },
    });
    expect(mapArguments(handover, 'let me talk to a person, this is urgent').arguments.urgency_level).toBe('high');
  });
});

describe('mapArguments: conversions', () => {
  const convert = tool(
    {
      quantity: { type: 'number', description: 'The amount to convert.' },
      from_unit: { type: 'string', description: 'The unit to convert from.' },
      to_unit: { type: 'string', description: 'The unit to convert to.' },
      item: { type: 'string', description: 'The ingredient being converted.' },
    },
    ['quantity', 'from_unit', 'to_unit', 'item'],
  );

  it('reads the units of a conversion by their roles, in the singular', () => {
    expect(mapArguments(convert, 'How many grams in 3 cups of flour?').arguments).toEqual({
      quantity: 3,
      from_unit: 'cup',
      to_unit: 'gram',
      item: 'flour',
    });
    expect(mapArguments(convert, 'convert 2 tablespoons of brown sugar into teaspoons').arguments).toEqual({
      quantity: 2,
      from_unit: 'tablespoon',
      to_unit: 'teaspoon',
      item: 'brown sugar',
    });
  });

  it('takes no unit where a role is written twice, and no measured thing where two are', () => {
    const m = mapArguments(convert, 'How many grams in 3 cups of flour and 2 cups of sugar?');
    expect(m.arguments.from_unit).toBeUndefined();
    expect(m.arguments.item).toBeUndefined();
  });
});

describe('mapArguments: versions, tracks and labelled ids', () => {
  it('reads a dotted version as one value and gives a version parameter no word', () => {
    const project = tool(
      { name: { type: 'string', description: 'The project name.' }, version: { type: 'string', description: 'The project version.' } },
      ['name', 'version'],
    );
    expect(mapArguments(project, "show the 'Atlas' version 3.0.12 please").arguments).toEqual({ name: 'Atlas', version: '3.0.12' });
  });

  it('takes what is played as the track, not the artist', () => {
    const play = tool(
      {
        track: { type: 'string', description: 'The song title.' },
        artist: { type: 'string', description: 'The artist.', default: 'any' },
        device: { type: 'string', enum: ['Living room', 'Kitchen'] },
      },
      ['track'],
    );
    expect(mapArguments(play, "Could you play 'Yellow Submarine' in the kitchen?").arguments).toEqual({
      track: 'Yellow Submarine',
      device: 'Kitchen',
    });
  });

  it('reads an id written right after its label as the subject of what follows', () => {
    const stack = tool({ employee_id: { type: 'string', description: 'The unique identifier of the employee.' } }, ['employee_id']);
    expect(mapArguments(stack, 'which tools "Dana" with employee id 5521 is using').arguments.employee_id).toBe('5521');
  });
});

describe('mapArguments: functions of x', () => {
  it('reads functions of x as written, in reading order for numbered parameters, and keeps their numbers', () => {
    const meet = tool(
      {
        function1: { type: 'string', description: 'The first function.' },
        function2: { type: 'string', description: 'The second function.' },
      },
      ['function1', 'function2'],
    );
    expect(mapArguments(meet, 'Where do y=5x-1 and y=x^2+3 cross?').arguments).toEqual({ function1: '5x-1', function2: 'x^2+3' });
    const integral = tool(
      {
        func: { type: 'string', description: 'The function to integrate.' },
        a: { type: 'number', description: 'Lower bound.' },
        b: { type: 'number', description: 'Upper bound.' },
      },
      ['func', 'a', 'b'],
    );
    expect(mapArguments(integral, 'Integrate f(x) = 4x^3 from 2 to 5.').arguments).toEqual({ func: '4x^3', a: 2, b: 5 });
  });

  it('takes no plain number and no lone x for a function', () => {
    const deriv = tool(
      { function: { type: 'string', description: 'The function to differentiate.' }, value: { type: 'number', description: 'The point.' } },
      ['function'],
    );
    expect(mapArguments(deriv, 'the slope at x = 7').arguments.function).toBeUndefined();
  });
});

describe('mapArguments: topics', () => {
  it('reads what news or articles are about for a keyword, up to where or when', () => {
    const news = tool(
      {
        keyword: { type: 'string', description: 'The search keyword.' },
        limit: { type: 'integer', description: 'Maximum number of articles.' },
      },
      ['keyword'],
    );
    expect(mapArguments(news, 'Any recent articles that discuss quantum computing in Europe? Limit it to 3 articles.').arguments).toEqual({
      keyword: 'quantum computing',
      limit: 3,
    });
    expect(mapArguments(news, 'I want the latest news involving Serena Williams.').arguments.keyword).toBe('Serena Williams');
    expect(mapArguments(news, 'news about the stock market from yesterday').arguments.keyword).toBe('stock market');
  });
});

describe('mapArguments: enum words', () => {
  it('reads buy and rent from the words a request uses for them', () => {
    const homes = tool({ area: { type: 'string' }, intent: { type: 'string', enum: ['rent', 'buy'] } }, ['area', 'intent']);
    expect(mapArguments(homes, 'houses for purchase in Fresno, CA').arguments.intent).toBe('buy');
    expect(mapArguments(homes, 'a rental in Fresno, CA').arguments.intent).toBe('rent');
  });

  it('reads a required enum from its one distinctive word standing alone after a determiner, not from a word that qualifies another', () => {
    const pay = tool(
      { payment_method: { type: 'string', enum: ['app balance', 'debit card', 'credit card'] }, amount: { type: 'number' } },
      ['payment_method', 'amount'],
    );
    expect(mapArguments(pay, 'send $30 to Ana using my debit.').arguments.payment_method).toBe('debit card');
    expect(mapArguments(pay, 'send $30 to Ana for my debit repayment').arguments.payment_method).toBeUndefined();
  });
});

describe('mapArguments: flag phrases', () => {
  it('reads "both men and women" as unisex', () => {
    const salon = tool(
      { city: { type: 'string' }, is_unisex: { type: 'boolean', description: 'Whether the salon serves all genders.', default: false } },
      ['city'],
    );
    expect(mapArguments(salon, 'a barber in Reno, NV for both men and women').arguments.is_unisex).toBe(true);
    expect(mapArguments(salon, 'a barber in Reno, NV').arguments.is_unisex).toBeUndefined();
  });
});

describe('mapArguments: coordinate pairs', () => {
  it('makes [latitude, longitude] from labelled or hemisphere-marked numbers, in the order the description gives', () => {
    const wx = tool(
      { coordinates: { type: 'array', items: { type: 'number' }, description: 'The latitude and longitude of the place.' } },
      ['coordinates'],
    );
    expect(mapArguments(wx, 'temperature at latitude 48.85 and longitude 2.35 please').arguments.coordinates).toEqual([48.85, 2.35]);
    expect(mapArguments(wx, 'weather at 33.86 S, 151.21 E').arguments.coordinates).toEqual([-33.86, 151.21]);
    const geo = tool(
      { point: { type: 'array', items: { type: 'number' }, description: 'Longitude and latitude of the point, in that order.' } },
      ['point'],
    );
    expect(mapArguments(geo, 'lat: 40.7, lon: -74.0').arguments.point).toEqual([-74, 40.7]);
  });
});

describe("mapArguments: the tool's own name", () => {
  it("takes no word before a parameter's head noun that only repeats the tool's name", () => {
    const scale = {
      name: 'musical_scale',
      description: '',
      inputSchema: {
        type: 'object',
        properties: {
          key: { type: 'string', description: 'The musical key.' },
          scale_type: { type: 'string', description: 'Type of scale.', default: 'major' },
        },
        required: ['key'],
      },
    };
    expect(mapArguments(scale, 'the musical scale of D major').arguments.scale_type).toBeUndefined();
    // a word that is no part of the tool's name is still read ("a deluxe room" for hotel_booking's room_type)
    const hotel = {
      name: 'hotel_booking',
      description: '',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, room_type: { type: 'string', description: 'Type of room.' } },
        required: ['city'],
      },
    };
    expect(mapArguments(hotel, 'a deluxe room in Lyon').arguments.room_type).toBe('deluxe');
    expect(mapArguments(hotel, 'a hotel room in Lyon').arguments.room_type).toBeUndefined();
  });

  it('leaves out an optional parameter whose best value only repeats the tool\'s name ("at Walmart")', () => {
    const walmart = {
      name: 'walmart.check_price',
      description: 'Total price of items at a Walmart store.',
      inputSchema: {
        type: 'object',
        properties: {
          items: { type: 'array', items: { type: 'string' } },
          store_location: { type: 'string', description: 'Location of the store.' },
        },
        required: ['items'],
      },
    };
    expect(mapArguments(walmart, 'Check the total price for pumpkins and eggs at Walmart.').arguments.store_location).toBeUndefined();
    // another place is still the store's location
    expect(
      mapArguments(walmart, 'Check the total price for pumpkins and eggs at the Walmart in Austin, TX.').arguments.store_location,
    ).toMatch(/Austin/);
    // left out, not filled with the next place the request names
    const tax = {
      name: 'california_tax.calculate',
      description: 'State income tax in California.',
      inputSchema: {
        type: 'object',
        properties: {
          income: { type: 'number', description: 'Yearly income in dollars.' },
          state: { type: 'string', description: 'The US state.' },
        },
        required: ['income'],
      },
    };
    expect(mapArguments(tax, 'I moved from Texas. What is my California state tax on 80000 income?').arguments).toEqual({ income: 80000 });
    // a required place parameter keeps a known place: the tool's subject is then its value
    const tokyo = {
      name: 'get_tokyo_weather',
      description: 'Weather in Tokyo.',
      inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'The city.' } }, required: ['city'] },
    };
    expect(mapArguments(tokyo, 'Weather in Tokyo for my trip from Osaka').arguments.city).toBe('Tokyo');
    // a name that is not of the parameter's kind is no value of it, and the next one is
    const netflix = {
      name: 'netflix.search',
      description: 'Search Netflix.',
      inputSchema: { type: 'object', properties: { title: { type: 'string', description: 'Title of the show.' } }, required: ['title'] },
    };
    expect(mapArguments(netflix, 'search Netflix for Stranger Things').arguments.title).toBe('Stranger Things');
    const store = {
      ...walmart,
      inputSchema: {
        ...walmart.inputSchema,
        properties: {
          product: { type: 'string', description: 'Product.' },
          store_location: { type: 'string', description: 'Location of the store.' },
        },
        required: ['product'],
      },
    };
    expect(mapArguments(store, 'check the price of "milk" at Walmart in Dallas').arguments).toEqual({
      product: 'milk',
      store_location: 'Dallas',
    });
  });
});

describe('mapArguments: country names', () => {
  it("reads another name of a city's country as its country", () => {
    const wx = tool({ city: { type: 'string', description: 'City name.' }, country: { type: 'string', description: 'Country name.' } }, [
      'city',
      'country',
    ]);
    expect(mapArguments(wx, 'weather in Glasgow, Scotland now').arguments).toEqual({ city: 'Glasgow', country: 'Scotland' });
    expect(mapArguments(wx, 'weather in Seoul, Korea today').arguments).toEqual({ city: 'Seoul', country: 'Korea' });
  });
});

describe('mapArguments: example lists', () => {
  it("fills a list of strings with the description's examples the request writes, not a part of a longer series", () => {
    const food = tool(
      {
        city: { type: 'string' },
        dietary_requirements: {
          type: 'array',
          items: { type: 'string' },
          description: 'Dietary requirements, e.g. vegan, gluten-free, halal.',
        },
      },
      ['city'],
    );
    expect(mapArguments(food, 'a halal and gluten-free place in Leeds').arguments.dietary_requirements).toEqual(['halal', 'gluten-free']);
    const pm = tool({ countries: { type: 'array', items: { type: 'string' }, description: 'Country names, e.g. Australia, India.' } }, [
      'countries',
    ]);
    expect(mapArguments(pm, 'the leaders of Australia, Canada, and India').arguments.countries).toEqual(['Australia', 'Canada', 'India']);
  });
});

describe('mapArguments: units are no names', () => {
  it('takes no unit of measure for a parameter that holds no unit', () => {
    const emissions = tool(
      {
        distance: { type: 'integer', description: 'Miles per year.' },
        fuel_type: { type: 'string', description: 'Type of fuel.' },
        fuel_efficiency: { type: 'integer', description: 'Miles per gallon.' },
      },
      ['distance', 'fuel_type'],
    );
    expect(mapArguments(emissions, 'CO2 of a diesel car doing 9,000 miles a year at 30 MPG').arguments.fuel_type).not.toBe('MPG');
  });
});

describe('mapArguments: states and countries alone', () => {
  it('gives a state or a country written alone to the place or country parameter, not to another name', () => {
    const law = tool(
      {
        jurisdiction: { type: 'string', description: 'The jurisdiction, usually a state or country.' },
        crime: { type: 'string', description: 'The crime to search for.' },
      },
      ['jurisdiction', 'crime'],
    );
    expect(mapArguments(law, 'penalties for the crime of burglary in Oregon').arguments).toEqual({
      jurisdiction: 'Oregon',
      crime: 'burglary',
    });
    const gdp = tool({ country: { type: 'string', description: 'The country.' }, year: { type: 'integer' } }, ['country']);
    expect(mapArguments(gdp, 'CPI figures for Germany in 2019').arguments.country).toBe('Germany');
  });
});

describe('mapArguments: countries by their adjective', () => {
  it('reads a country from its adjective for a country parameter', () => {
    const hist = tool({ country: { type: 'string', description: 'The country.' }, start_year: { type: 'integer' } }, ['country']);
    expect(mapArguments(hist, 'major battles in Japanese history since 1600').arguments.country).toBe('Japan');
    const food = tool({ cuisine: { type: 'string', description: 'The cuisine.' } }, ['cuisine']);
    expect(mapArguments(food, 'a Japanese restaurant').arguments.cuisine).toBe('Japanese');
  });
});

describe('mapArguments: standard decks and dice', () => {
  it('fills the counts a standard deck and die have where a draw or roll does not give them', () => {
    const prob = tool(
      {
        total_outcomes: { type: 'integer', description: 'Total possible outcomes.' },
        favorable_outcomes: { type: 'integer', description: 'Favorable outcomes.' },
      },
      ['total_outcomes', 'favorable_outcomes'],
    );
    expect(mapArguments(prob, 'chance of drawing a queen from a deck of cards').arguments).toEqual({
      total_outcomes: 52,
      favorable_outcomes: 4,
    });
    expect(mapArguments(prob, 'chance of drawing a spade from a deck of 52 cards').arguments).toEqual({
      total_outcomes: 52,
      favorable_outcomes: 13,
    });
    // a deck the request sizes keeps its size
    expect(mapArguments(prob, 'chance of drawing an ace from a deck of 32 cards').arguments).toEqual({
      total_outcomes: 32,
      favorable_outcomes: 4,
    });
    const dice = tool(
      {
        desired_sum: { type: 'integer' },
        n_rolls: { type: 'integer', description: 'Number of dice.' },
        sides_per_die: { type: 'integer' },
      },
      ['desired_sum', 'n_rolls', 'sides_per_die'],
    );
    expect(mapArguments(dice, 'probability of a sum of 9 with two dice').arguments.sides_per_die).toBe(6);
  });
});

describe('mapArguments: trials and probabilities', () => {
  it('reads tosses as trials and heads as successes, and no probability above 1', () => {
    const binom = tool(
      {
        number_of_trials: { type: 'integer', description: 'The total number of trials.' },
        number_of_successes: { type: 'integer', description: 'The desired number of successful outcomes.' },
        probability_of_success: { type: 'number', description: 'Probability of success on one trial.', default: 0.5 },
      },
      ['number_of_trials', 'number_of_successes'],
    );
    expect(mapArguments(binom, 'the chance of exactly 3 heads in 10 flips of a coin').arguments).toEqual({
      number_of_trials: 10,
      number_of_successes: 3,
    });
    expect(mapArguments(binom, '4 successes in 12 trials with a probability of 0.3').arguments).toEqual({
      number_of_trials: 12,
      number_of_successes: 4,
      probability_of_success: 0.3,
    });
  });
});

describe('mapArguments: review scores and areas of another kind', () => {
  const providers = tool({
    avg_rating: { type: 'number', description: 'Average review rating, 1 to 5.' },
    province_name: { type: 'string', description: 'The province.' },
    sub_district_name: { type: 'string', description: 'The sub-district.' },
  });
  it('reads a review score as a rating, across "not less than"', () => {
    expect(mapArguments(providers, 'a cleaner with a review score not less than 4.2').arguments.avg_rating).toBe(4.2);
  });
  it('gives a name written with one kind of area to no parameter of another kind', () => {
    const sub = tool({ sub_district_name: { type: 'string', description: 'The sub-district.' } }, ['sub_district_name']);
    expect(mapArguments(sub, 'a cleaner in Phuket Province').arguments.sub_district_name).toBeUndefined();
  });
});

describe('mapArguments: durations in the unit asked for', () => {
  it('converts a duration to the one unit of time the description asks for', () => {
    const mix = tool({ track_length: { type: 'integer', description: 'Length of the track in seconds.' } }, ['track_length']);
    expect(mapArguments(mix, 'make a mix 4 minutes long').arguments.track_length).toBe(240);
    const wait = tool({ timeout: { type: 'number', description: 'Timeout (in minutes).' } }, ['timeout']);
    expect(mapArguments(wait, 'give up after 90 seconds').arguments.timeout).toBe(1.5);
    // a duration in the unit asked for, or a description naming no unit, keeps the number
    const plain = tool({ duration: { type: 'integer', description: 'How long.' } }, ['duration']);
    expect(mapArguments(plain, 'for 3 hours').arguments.duration).toBe(3);
  });
});

describe('mapArguments: dotted acronyms', () => {
  it('reads "U.S" and "U.K." as names, and as countries for a country parameter', () => {
    const banks = tool({ country: { type: 'string', description: 'The country.' }, year: { type: 'integer' } }, ['country']);
    expect(mapArguments(banks, 'largest banks in the U.S for 2019').arguments.country).toBe('U.S');
    expect(mapArguments(banks, 'largest banks in the U.K. for 2019').arguments.country).toBe('U.K.');
  });
});

describe('mapArguments: limits of the name, bound, genre, identifier, time, conversion, version, function and topic rules', () => {
  it('ends a name at a period after a word that is no abbreviation, and keeps abbreviations in names and addresses', () => {
    const call = tool({ contact_name: { type: 'string', description: 'Name of the contact.' } }, ['contact_name']);
    expect(mapArguments(call, 'Please call Bea. She expects me.').arguments.contact_name).toBe('Bea');
    const ride = tool({ destination: { type: 'string', description: 'Destination address.' } }, ['destination']);
    expect(mapArguments(ride, 'Drive me to 12 Gen. Grant Avenue. Thanks.').arguments.destination).toBe('12 Gen. Grant Avenue');
    expect(mapArguments(ride, 'Drive me to 7 Bay Street, Sault Ste. Marie. We are two.').arguments.destination).toBe(
      '7 Bay Street, Sault Ste. Marie',
    );
  });

  it('takes no bound of the other side for a minimum or maximum', () => {
    const hotels = tool(
      {
        city: { type: 'string' },
        max_price: { type: 'number', description: 'Maximum price per night.' },
        min_rating: { type: 'number', description: 'Minimum rating.' },
      },
      ['city'],
    );
    expect(mapArguments(hotels, 'hotels in Rome with a price over 300').arguments.max_price).toBeUndefined();
    expect(mapArguments(hotels, 'hotels in Rome with a rating lower than 2').arguments.min_rating).toBeUndefined();
    expect(mapArguments(hotels, 'hotels in Rome with a price under 300').arguments.max_price).toBe(300);
  });

  it('reads no genre from a negated word, a word inside a name, or a word that makes another thing', () => {
    const movies = tool({ city: { type: 'string' }, genre: { type: 'string', enum: ['Comedy', 'Horror', 'Drama'] } }, ['city']);
    expect(mapArguments(movies, 'a film in Leeds tonight, nothing scary please, not scary at all').arguments.genre).toBeUndefined();
    expect(mapArguments(movies, 'is Ghost Rider on in Leeds?').arguments.genre).toBeUndefined();
    expect(mapArguments(movies, 'comic book films in Leeds').arguments.genre).toBeUndefined();
    const ticket = tool({ title: { type: 'string' }, priority: { type: 'string', enum: ['low', 'medium', 'high'] } }, ['title']);
    expect(mapArguments(ticket, "open a ticket 'paper jam', it's not urgent").arguments.priority).toBeUndefined();
    const places = tool({ city: { type: 'string' }, price_level: { type: 'string', enum: ['low', 'medium', 'high'] } }, ['city']);
    expect(mapArguments(places, 'an urgent care clinic in Tulsa').arguments.price_level).toBeUndefined();
  });

  it('gives quoted values in reading order to free string parameters that nothing else tells apart', () => {
    const note = tool(
      { title: { type: 'string', description: 'Note title.' }, content: { type: 'string', description: 'Note content.' } },
      ['title', 'content'],
    );
    expect(mapArguments(note, "메모 제목은 '장보기'이고 내용은 '우유와 빵'으로 해줘").arguments).toEqual({
      title: '장보기',
      content: '우유와 빵',
    });
  });

  it('takes a thing after "the X I did is", not a description of it', () => {
    const hotel = tool({ hotel_name: { type: 'string', description: 'Name of the hotel.' }, city: { type: 'string' } }, ['city']);
    expect(mapArguments(hotel, 'The hotel I booked was awful, find another one in Oslo.').arguments.hotel_name).toBeUndefined();
  });

  it('takes no name written after "by" for a title', () => {
    const book = tool({
      title: { type: 'string', description: 'Book title. Optional if the ISBN is provided.' },
      isbn: { type: 'string', description: 'ISBN. Optional if the title is provided.' },
    });
    expect(mapArguments(book, 'is the new novel by Zadie Smith in stock?').arguments.title).toBeUndefined();
  });

  it('reads no short camelCase word, no adjective or adverb, as an identifier', () => {
    const order = tool({ order_id: { type: 'string', description: 'The identifier of the order.' } }, ['order_id']);
    expect(mapArguments(order, 'track my order for the new macBook please').arguments.order_id).toBeUndefined();
    expect(mapArguments(order, 'what is the status of the pending order?').arguments.order_id).toBeUndefined();
    expect(mapArguments(order, 'cancel my order immediately.').arguments.order_id).toBeUndefined();
  });

  it('puts a time of another sentence with the date only where that sentence asks for it', () => {
    const flight = tool(
      { destination: { type: 'string' }, departure_time: { type: 'string', description: 'Departure date and time, ISO 8601 datetime.' } },
      ['destination', 'departure_time'],
    );
    expect(mapArguments(flight, 'Fly me to Lima on 2024-07-09. My talk there starts at 3 PM.').arguments.departure_time).not.toMatch(
      /T15:00/,
    );
  });

  it('reads a labelled id followed by a verb only where it is the one number', () => {
    const refund = tool({ order_id: { type: 'string', description: 'The order ID.' } }, ['order_id']);
    expect(mapArguments(refund, 'Order id 31 was shipped fine, but please refund order 47.').arguments.order_id).not.toBe('31');
  });

  it('converts only between units of one kind, and drops how the thing is prepared', () => {
    const convert = tool(
      {
        quantity: { type: 'number' },
        from_unit: { type: 'string' },
        to_unit: { type: 'string' },
        ingredient: { type: 'string', description: 'The ingredient.' },
      },
      ['quantity', 'from_unit', 'to_unit', 'ingredient'],
    );
    expect(mapArguments(convert, 'How many joules are in 2 cups of milk?').arguments.from_unit).toBeUndefined();
    expect(mapArguments(convert, 'How many grams is 2 cups of chopped fresh parsley?').arguments.ingredient).toBe('parsley');
  });

  it('gives a dotted version only to a version, and a play cue only to a quoted title', () => {
    const ticket = tool({ ticket_id: { type: 'string', description: 'Ticket ID.' } }, ['ticket_id']);
    expect(mapArguments(ticket, 'since upgrading to 2.7.3 it crashes, update my ticket').arguments.ticket_id).toBeUndefined();
    const music = tool({ song: { type: 'string', description: 'Song title.' }, artist: { type: 'string', description: 'Artist name.' } });
    expect(mapArguments(music, 'Play Norah Jones on the speaker').arguments.song).toBeUndefined();
  });

  it('takes no polynomial that is only part of a larger expression, nor a factor like "2x"', () => {
    const integral = tool(
      { function: { type: 'string', description: 'The function to integrate.' }, a: { type: 'number' }, b: { type: 'number' } },
      ['function', 'a', 'b'],
    );
    expect(mapArguments(integral, 'Integrate 1/(x+2) from 0 to 3').arguments.function).toBeUndefined();
    expect(mapArguments(integral, 'Integrate cos(x) + 5x^2 from 0 to 3').arguments.function).toBeUndefined();
    const fn = tool({ function_name: { type: 'string', description: 'Name of the cloud function.' } }, ['function_name']);
    expect(mapArguments(fn, 'call the resize function to scale it 3x').arguments.function_name).not.toBe('3x');
  });

  it('reads no question, no own thing and no list as a topic, and keeps topics joined by "and"', () => {
    const news = tool({ keyword: { type: 'string', description: 'Search keyword.' } }, ['keyword']);
    expect(mapArguments(news, 'any news about how the markets will react?').arguments.keyword).not.toBe('how the markets will react');
    expect(mapArguments(news, 'news about robotics and computer vision').arguments.keyword).toBe('robotics and computer vision');
    expect(mapArguments(news, 'articles about Rust written by experts').arguments.keyword).toBe('Rust');
  });

  it('reads a lone distinctive enum word only after a word of using it', () => {
    const flight = tool(
      { destination: { type: 'string' }, seat_class: { type: 'string', enum: ['economy class', 'business class', 'first class'] } },
      ['destination', 'seat_class'],
    );
    expect(mapArguments(flight, 'a flight to Lagos, I want to grow my business.').arguments.seat_class).toBeUndefined();
  });
});

describe('mapArguments: roles after a name', () => {
  it('reads "X as the director" and "X\'s music" as the role they name', () => {
    const movies = tool({
      directed_by: { type: 'string', description: 'Director of the movie.' },
      cast: { type: 'string', description: 'An actor in the movie.' },
    });
    expect(mapArguments(movies, 'a film that stars Emma Stone, ideally with Greta Gerwig as the director').arguments).toEqual({
      cast: 'Emma Stone',
      directed_by: 'Greta Gerwig',
    });
    const music = tool({ artist: { type: 'string', description: 'The artist.' }, year: { type: 'string', description: 'Release year.' } });
    expect(mapArguments(music, "I'd like Adele's music from 2015").arguments.artist).toBe('Adele');
  });
});

describe('mapArguments: format slips and kinds', () => {
  it('reads a year written with three Ys as a year in the format', () => {
    const law = tool({ start_date: { type: 'string', description: 'Start date in the format of MM-DD-YYY.' } }, ['start_date']);
    expect(mapArguments(law, 'cases filed after March 4, 2020').arguments.start_date).toBe('03-04-2020');
  });
  it('gives a kind without the participle of what powers it, and no name from the unit of a temperature', () => {
    const car = tool({ vehicle_type: { type: 'string', description: 'Type of vehicle fuel.' }, miles: { type: 'integer' } }, [
      'vehicle_type',
      'miles',
    ]);
    expect(mapArguments(car, 'footprint of a diesel-powered vehicle over 900 miles').arguments.vehicle_type).toBe('diesel');
    const entropy = tool({ substance: { type: 'string', description: 'The substance.' }, temperature: { type: 'number' } }, ['substance']);
    expect(mapArguments(entropy, 'entropy change at 25°C please').arguments.substance).not.toBe('C');
  });
});

describe('mapArguments: entry fees and quoted wholes', () => {
  it('reads "no entry fee" as free entry', () => {
    const attractions = tool(
      { location: { type: 'string' }, free_entry: { type: 'string', enum: ['True', 'False', 'dontcare'], default: 'dontcare' } },
      ['location'],
    );
    expect(mapArguments(attractions, 'museums in Rome with no entry fee').arguments.free_entry).toBe('True');
    expect(mapArguments(attractions, 'museums in Rome').arguments.free_entry).toBeUndefined();
  });
  it('takes a quoted value whole over a name inside it', () => {
    const clock = tool({
      timezone: {
        type: 'string',
        description: "The timezone, in the format of 'Area/Location' (e.g., 'America/New_York').",
        default: 'local',
      },
      include_date: { type: 'boolean', default: false },
    });
    expect(mapArguments(clock, "what time is it for the timezone 'America/Chicago'?").arguments.timezone).toBe('America/Chicago');
  });
});

describe('mapArguments: dates relative to a date and seats as people', () => {
  it('reads "a week later" from the date written before it', () => {
    const trip = tool(
      { departure_date: { type: 'string', description: 'YYYY-MM-DD' }, return_date: { type: 'string', description: 'YYYY-MM-DD' } },
      ['departure_date', 'return_date'],
    );
    expect(mapArguments(trip, 'leave on 2024-06-03 and come back two weeks later').arguments).toEqual({
      departure_date: '2024-06-03',
      return_date: '2024-06-17',
    });
  });
  it('reads passengers or guests for a count of seats or people', () => {
    const ride = tool({ destination: { type: 'string' }, number_of_seats: { type: 'integer', description: 'Number of seats.' } }, [
      'destination',
    ]);
    expect(mapArguments(ride, 'a cab to 9 Elm Street, Dover. Number of passengers is 3.').arguments.number_of_seats).toBe(3);
  });
});

describe('mapArguments: shared rides and parties', () => {
  it('reads "shared" as a pool ride and "for 2" as the party size', () => {
    const ride = tool(
      {
        destination: { type: 'string' },
        number_of_seats: { type: 'integer', description: 'Seats to reserve.' },
        ride_type: { type: 'string', enum: ['Pool', 'Regular', 'Luxury'] },
      },
      ['destination'],
    );
    expect(mapArguments(ride, 'I need a shared ride for 3. Destination is 40 Oak Street, Fresno').arguments).toEqual({
      destination: '40 Oak Street, Fresno',
      number_of_seats: 3,
      ride_type: 'Pool',
    });
  });
});

describe('mapArguments: stays', () => {
  it("counts a stay's days between its two dates, and gives no city for a hotel's name", () => {
    const reserve = tool(
      {
        place_name: { type: 'string', description: 'The name of the hotel or accommodation to reserve.', default: 'dontcare' },
        check_in_date: { type: 'string', description: "Check-in date, 'YYYY-MM-DD'." },
        stay_length: { type: 'integer', description: 'The length of the stay in number of days.' },
        location: { type: 'string', description: "The city, in the format 'City, State'." },
      },
      ['place_name', 'check_in_date', 'stay_length', 'location'],
    );
    const m = mapArguments(reserve, 'Book me a room in Austin from May 3rd to May 7th, 2024.');
    expect(m.arguments.stay_length).toBe(4);
    expect(m.arguments.location).toBe('Austin, TX');
    expect(m.arguments.place_name).not.toBe('Austin');
  });
});

describe('mapArguments: places named to compare, addresses and common-word cities', () => {
  it('takes the place of the request over one named to compare, and no city from a common word', () => {
    const events = tool(
      { event_type: { type: 'string', enum: ['Music', 'Theater'] }, city: { type: 'string', description: "City, e.g. 'Berkeley, CA'." } },
      ['event_type', 'city'],
    );
    expect(mapArguments(events, 'a Theater event in Chicago tonight? I love shows like the ones in Boston.').arguments.city).toBe(
      'Chicago, IL',
    );
    const spots = tool({ location: { type: 'string', description: "City, e.g. 'Paris, FR'." } }, ['location']);
    expect(mapArguments(spots, 'some nice parks to visit in Denver').arguments.location).toBe('Denver, CO');
  });
  it('takes the street address for a destination address over the business before it, and a quoted address whole', () => {
    const ride = tool({ destination: { type: 'string', description: "The destination address, in the format 'Street, City'." } }, [
      'destination',
    ]);
    expect(mapArguments(ride, 'a cab to Golden Dragon Restaurant, 88 Pine Street, Oakland?').arguments.destination).toBe(
      '88 Pine Street, Oakland',
    );
    const uber = tool({ loc: { type: 'string', description: "Pickup address, e.g. '123 Main St, Springfield, IL'." } }, ['loc']);
    expect(mapArguments(uber, "đón tôi ở '77 Grove Ave, Fresno, CA' nhé").arguments.loc).toBe('77 Grove Ave, Fresno, CA');
  });
});

describe('mapArguments: hours, materials and described kinds', () => {
  it('reads an hour of the day as a 24-hour integer where the description asks for one', () => {
    const food = tool(
      {
        location: { type: 'string' },
        operating_hours: { type: 'integer', description: 'Latest closing time. This is in 24 hour format.' },
      },
      ['location'],
    );
    expect(mapArguments(food, 'a diner in Reno open until at least 10 PM').arguments.operating_hours).toBe(22);
  });
  it('reads what a thing is made of as its material', () => {
    const price = tool({ material: { type: 'string', description: 'The material.' }, size: { type: 'integer' } }, ['material']);
    expect(mapArguments(price, 'a statue made of bronze with a size of 4 feet').arguments.material).toBe('bronze');
  });
  it('reads no adjective for a one-word type parameter', () => {
    const instrument = tool({ budget: { type: 'number' }, type: { type: 'string', description: 'Type of the instrument' } }, ['budget']);
    expect(mapArguments(instrument, 'a cheap instrument for my son under $200').arguments.type).toBeUndefined();
  });
});

describe('mapArguments: forms asked for', () => {
  it('reads a choice the description quotes when asked for "in the form of" it', () => {
    const factor = tool(
      {
        number: { type: 'integer' },
        return_type: { type: 'string', description: "Format of the result. Can be 'list' or 'dictionary'. Default is 'list'." },
      },
      ['number'],
    );
    expect(mapArguments(factor, 'factorize 84 and give it in the form of dictionary').arguments.return_type).toBe('dictionary');
  });
});

describe('mapArguments: limits of the coordinate, example list, country, deck, probability, duration, rating and acronym rules', () => {
  it('makes no point for one of two coordinate parameters or a box, and orders by the first axis named', () => {
    const route = tool(
      {
        origin: { type: 'array', items: { type: 'number' }, description: 'Start coordinates as [lat, lon].' },
        destination: { type: 'array', items: { type: 'number' }, description: 'End coordinates as [lat, lon].' },
      },
      ['origin', 'destination'],
    );
    expect(mapArguments(route, 'walk from here to latitude 37.77, longitude -122.41').arguments.origin).toBeUndefined();
    const box = tool(
      { bbox: { type: 'array', items: { type: 'number' }, description: 'Bounding box [min_lon, min_lat, max_lon, max_lat].' } },
      ['bbox'],
    );
    expect(mapArguments(box, 'parks around latitude 51.50, longitude -0.12').arguments.bbox).toBeUndefined();
    const geo = tool(
      {
        coordinates: {
          type: 'array',
          items: { type: 'number' },
          description: 'Point in GeoJSON order (longitude, latitude). Latitude must be within ±90.',
        },
      },
      ['coordinates'],
    );
    expect(mapArguments(geo, 'pin at lat 48.85, lon 2.35').arguments.coordinates).toEqual([2.35, 48.85]);
  });

  it('takes no example the request negates into a list, and no list for things to leave out', () => {
    const hotels = tool(
      {
        location: { type: 'string' },
        amenities: { type: 'array', items: { type: 'string' }, description: 'Required amenities, such as pool, gym, parking.' },
      },
      ['location'],
    );
    expect(mapArguments(hotels, "Hotels in Denver, I don't need a pool or parking").arguments.amenities).toBeUndefined();
    const recipes = tool(
      {
        query: { type: 'string' },
        exclude_ingredients: { type: 'array', items: { type: 'string' }, description: 'Ingredients to exclude, e.g. nuts, dairy, eggs.' },
      },
      ['query'],
    );
    expect(mapArguments(recipes, 'a cookie recipe with nuts and eggs').arguments.exclude_ingredients).toBeUndefined();
  });

  it('reads a country only from its name, and from its adjective only before a word about the country', () => {
    const ticket = tool(
      { department: { type: 'string', description: 'Department' }, country: { type: 'string', description: 'Country' } },
      ['department'],
    );
    expect(mapArguments(ticket, 'Open a ticket with IT about my laptop').arguments.country).toBeUndefined();
    const place = tool({ city: { type: 'string', description: 'City name' }, country: { type: 'string', description: 'Country name' } }, [
      'city',
      'country',
    ]);
    expect(mapArguments(place, 'Find an Irish pub in Boston').arguments.country).not.toBe('Ireland');
  });

  it('counts only a plain rank or suit of a standard deck, and no die with its sides written', () => {
    const prob = tool(
      {
        total_outcomes: { type: 'integer', description: 'Total possible outcomes.' },
        favorable_outcomes: { type: 'integer', description: 'Favorable outcomes.' },
      },
      ['total_outcomes', 'favorable_outcomes'],
    );
    expect(mapArguments(prob, 'chance of drawing a red king from a deck of cards').arguments.favorable_outcomes).toBeUndefined();
    expect(mapArguments(prob, 'chance of drawing an ace or a king from a deck of cards').arguments.favorable_outcomes).toBeUndefined();
    expect(mapArguments(prob, 'chance of drawing The Fool from a tarot deck').arguments.total_outcomes).toBeUndefined();
    const die = tool(
      { sides: { type: 'integer', description: 'Number of sides on the die' }, rolls: { type: 'integer', description: 'Number of rolls' } },
      ['sides', 'rolls'],
    );
    expect(mapArguments(die, 'roll a d20 die three times').arguments.sides).not.toBe(6);
    const pay = tool({ card_type: { type: 'string' }, total_amount: { type: 'number', description: 'Total amount due' } }, [
      'card_type',
      'total_amount',
    ]);
    expect(mapArguments(pay, 'pull up my Visa card and pay the total due').arguments.total_amount).toBeUndefined();
  });

  it('takes no percent for a count, and no probability above 1 by reading order', () => {
    const binom = tool(
      {
        num_trials: { type: 'integer', description: 'Number of trials' },
        num_successes: { type: 'integer', description: 'Number of successes' },
        success_probability: { type: 'number', description: 'Probability of success' },
      },
      ['num_trials', 'num_successes', 'success_probability'],
    );
    const m = mapArguments(binom, 'She makes 70% of free throws. Chance of making 8 of 10 attempts?').arguments;
    expect(m.num_successes).not.toBe(70);
    expect(m.success_probability === undefined || (m.success_probability as number) <= 1).toBe(true);
  });

  it('converts no part of a compound duration and no point in time', () => {
    const timer = tool({ duration: { type: 'integer', description: 'Timer duration in seconds' } }, ['duration']);
    expect(mapArguments(timer, 'Set a timer for 1 hour 30 minutes').arguments.duration).not.toBe(3600);
    const remind = tool(
      { timestamp: { type: 'integer', description: 'Unix timestamp in seconds for the reminder' }, text: { type: 'string' } },
      ['timestamp', 'text'],
    );
    expect(mapArguments(remind, 'Remind me in 2 hours to call mom').arguments.timestamp).not.toBe(7200);
  });

  it('reads only a review or user score as a rating', () => {
    const loan = tool(
      {
        loan_amount: { type: 'number', description: 'Loan amount in USD' },
        interest_rate: { type: 'number', description: 'Annual interest rate' },
      },
      ['loan_amount'],
    );
    expect(mapArguments(loan, 'I want a $20,000 loan; my credit score is 720').arguments.interest_rate).toBeUndefined();
    const food = tool({ location: { type: 'string' }, min_rating: { type: 'number', description: 'Minimum rating (1-5)' } }, ['location']);
    expect(mapArguments(food, 'Restaurants in Austin with a health inspection score above 90').arguments.min_rating).toBeUndefined();
  });

  it('joins a dotted acronym with the capitalised words after it, not with another acronym', () => {
    const author = tool({ author: { type: 'string', description: 'Author name' } }, ['author']);
    expect(mapArguments(author, 'Find books by J.K. Rowling').arguments.author).toBe('J.K. Rowling');
    const open = tool({ tournament: { type: 'string', description: 'Tournament name' }, year: { type: 'integer' } }, ['tournament']);
    expect(mapArguments(open, 'Who won the U.S. Open in 2019?').arguments.tournament).toBe('U.S. Open');
  });

  it('keeps a title after "play" when its maker follows, and no unit abbreviation without a number', () => {
    const song = tool({
      title: { type: 'string', description: 'Song title' },
      artist: { type: 'string', description: 'Artist. Optional if the title is provided.' },
    });
    expect(mapArguments(song, 'Play Hello by Adele').arguments).toEqual({ title: 'Hello', artist: 'Adele' });
    const dealer = tool({ brand: { type: 'string', description: 'Car brand' }, city: { type: 'string' } }, ['brand']);
    expect(mapArguments(dealer, 'Find an MG dealer in Leeds').arguments.brand).toBe('MG');
  });
});

describe('mapArguments: ends and next years', () => {
  it('gives an end date-time as the start plus a duration written in hours', () => {
    const providers = tool({
      start_available_date: { type: 'string', description: "Start date and time, 'YYYY-MM-DD HH:mm:ss'." },
      end_available_date: { type: 'string', description: "End date and time, 'YYYY-MM-DD HH:mm:ss'." },
    });
    expect(mapArguments(providers, 'a cleaner in Bangkok on 2024-03-22 at 9:00 a.m. for 3 hours').arguments).toEqual({
      start_available_date: '2024-03-22 09:00:00',
      end_available_date: '2024-03-22 12:00:00',
    });
  });
  it('puts a date written "of next year" in the year after today', () => {
    const wx = tool({ city: { type: 'string' }, date: { type: 'string', description: 'YYYY-MM-DD' } }, ['city', 'date']);
    expect(mapArguments(wx, 'the forecast for Austin, TX on June 2nd of next year', undefined, { now }).arguments.date).toBe('2025-06-02');
  });
});

describe('mapArguments: country codes where the examples are codes', () => {
  it("writes a city's country as a code where every example ends in a two-letter code, and as written where countries are named", () => {
    const house = tool(
      {
        where_to: {
          type: 'string',
          description: "The location, in the format 'City, State', such as 'Austin, TX' or 'San Francisco, CA'.",
        },
      },
      ['where_to'],
    );
    expect(mapArguments(house, 'a house in Madrid, Spain for two').arguments.where_to).toBe('Madrid, ES');
    expect(mapArguments(house, 'a house in Leeds, England for two').arguments.where_to).toBe('Leeds, UK');
    const weather = tool(
      {
        location: {
          type: 'string',
          description: "In the format 'City, State (abbr)', such as 'San Francisco, CA'. 'City, Country' if there is no state.",
        },
      },
      ['location'],
    );
    expect(mapArguments(weather, 'weather in Madrid, Spain').arguments.location).toBe('Madrid, Spain');
  });
});

describe('mapArguments: enum words inside quotes', () => {
  it('lets an enum word inside a quoted value fill its parameter and leaves the quote whole', () => {
    const search = tool(
      { query: { type: 'string', description: 'The search query.' }, source: { type: 'string', enum: ['text', 'news'], default: 'text' } },
      ['query'],
    );
    expect(mapArguments(search, 'search "latest news about the Mars rover" please').arguments).toEqual({
      query: 'latest news about the Mars rover',
      source: 'news',
    });
  });
});

describe('mapArguments: labelled identifiers of words', () => {
  it('reads the identifier after "prod id" for a product id, and no plain words after a label', () => {
    const stock = tool({ product_id: { type: 'string', description: 'The product identifier.' }, color: { type: 'string' } }, [
      'product_id',
    ]);
    expect(mapArguments(stock, 'is the black Galaxy phone in stock? Use the prod id Galaxy S24').arguments.product_id).toBe('Galaxy S24');
    expect(mapArguments(stock, 'the prod id is wrong').arguments.product_id).not.toBe('wrong');
  });
});

describe('mapArguments: limits of the role, kind, entry fee, party, ride, stay, later date, hour, material and city rules', () => {
  it('gives a role after a name only to the parameter of that role, and "X\'s music" only to an artist', () => {
    const film = tool({
      movie: { type: 'string', description: 'Title of the movie' },
      composer: { type: 'string', description: 'Name of the composer of the score' },
    });
    expect(mapArguments(film, 'who scored the film with Denis Villeneuve as the director?').arguments.composer).toBeUndefined();
    const art = tool({
      artist: { type: 'string', description: 'Name of the artist' },
      museum: { type: 'string', description: 'Name of the museum' },
    });
    expect(mapArguments(art, "Show me the Prado's paintings").arguments.artist).toBeUndefined();
  });
  it('keeps "-based" and "-driven" in a kind', () => {
    const diet = tool({ diet_type: { type: 'string', description: 'Type of diet' } }, ['diet_type']);
    expect(mapArguments(diet, 'a plant-based diet meal plan').arguments.diet_type).not.toBe('plant');
  });
  it('reads no free entry from "with or without an entry fee"', () => {
    const events = tool({ city: { type: 'string' }, is_free: { type: 'boolean', description: 'Only free events' } }, ['city']);
    expect(mapArguments(events, "museums in Oslo, I'm fine with or without an entry fee").arguments.is_free).toBeUndefined();
  });
  it('reads "for N" as a party only after a thing booked, and a small one', () => {
    const cabin = tool({ location: { type: 'string' }, guests: { type: 'integer', description: 'Number of guests' } }, ['location']);
    expect(mapArguments(cabin, "a cabin in Aspen for New Year's Eve, for 2025.").arguments.guests).toBeUndefined();
    const uber = tool({ destination: { type: 'string' }, passengers: { type: 'integer', description: 'Number of passengers' } }, [
      'destination',
    ]);
    expect(mapArguments(uber, 'an Uber to the airport at 5. Actually, make it for 6.').arguments.passengers).toBeUndefined();
  });
  it('reads "shared" as a pool ride only for rides', () => {
    const hostel = tool({ city: { type: 'string' }, amenity: { type: 'string', enum: ['pool', 'gym', 'spa'] } }, ['city', 'amenity']);
    expect(mapArguments(hostel, 'a hostel in Lisbon with a shared kitchen').arguments.amenity).toBeUndefined();
  });
  it('counts a stay only between two dates written as its range, and not for days of notice', () => {
    const hotel = tool(
      {
        city: { type: 'string' },
        check_in: { type: 'string', description: 'YYYY-MM-DD' },
        nights: { type: 'integer', description: 'Number of nights' },
      },
      ['city', 'check_in'],
    );
    expect(mapArguments(hotel, 'a hotel in Rome arriving 2024-08-03; my passport expires 2024-09-30').arguments.nights).toBeUndefined();
    const conf = tool({
      start_date: { type: 'string' },
      end_date: { type: 'string' },
      reminder_days: { type: 'integer', description: 'Number of days before the event to send a reminder' },
    });
    expect(mapArguments(conf, 'the conference from 2024-09-10 to 2024-09-12').arguments.reminder_days).toBeUndefined();
  });
  it('reads only "N days/weeks later" after a date, and no "day after" of another thing', () => {
    const trip = tool(
      { departure_date: { type: 'string', description: 'YYYY-MM-DD' }, return_date: { type: 'string', description: 'YYYY-MM-DD' } },
      ['departure_date'],
    );
    expect(mapArguments(trip, 'fly out on December 20, 2024 and come back the day after Christmas').arguments.return_date).not.toBe(
      '2024-12-21',
    );
  });
  it('takes an hour only for a clock and for a time said of opening or closing', () => {
    const fc = tool(
      { city: { type: 'string' }, hours_ahead: { type: 'integer', description: 'Number of hours ahead to forecast (max 24 hours)' } },
      ['city'],
    );
    expect(mapArguments(fc, 'will it rain at 5 PM today in Boston?').arguments.hours_ahead).toBeUndefined();
    const bar = tool({ city: { type: 'string' }, open_hour: { type: 'integer', description: 'Opening time hour, 24 hour clock' } }, [
      'city',
    ]);
    expect(mapArguments(bar, 'a bar in Austin that is open until 2 AM').arguments.open_hour).toBeUndefined();
  });
  it('takes one material word, or two where the second names a material, and none after "not"', () => {
    const shop = tool({ product: { type: 'string' }, material: { type: 'string', description: 'Material' } });
    expect(mapArguments(shop, 'a watch made of titanium priced under 500').arguments.material).toBe('titanium');
    expect(mapArguments(shop, 'a table made out of reclaimed wood').arguments.material).toBe('reclaimed wood');
    expect(mapArguments(shop, 'curtains not made of polyester').arguments.material).toBeUndefined();
  });
  it('reads no described choice after "as a", and a common-word city in lower case before its own country', () => {
    const room = tool(
      { city: { type: 'string' }, room_type: { type: 'string', description: "Type of room. Can be 'single' or 'double'" } },
      ['city'],
    );
    expect(mapArguments(room, "I'm travelling to Rome as a single parent, I need a room").arguments.room_type).toBeUndefined();
    const hotels = tool({ city: { type: 'string', description: 'City' } }, ['city']);
    expect(mapArguments(hotels, 'hotels in nice, france').arguments.city).toBe('Nice');
  });
});

describe('mapArguments: misspelt cities', () => {
  it('reads a city misspelt by one letter after "in", and no month', () => {
    const find = tool({ city: { type: 'string', description: "City, e.g. 'Berkeley, CA'." } }, ['city']);
    expect(mapArguments(find, 'a dentist in Houstin please').arguments.city).toBe('Houston, TX');
    const hotel = tool(
      {
        place_name: { type: 'string', description: 'Name of the hotel', default: 'dontcare' },
        location: { type: 'string', description: "City, e.g. 'Berkeley, CA'." },
      },
      ['location'],
    );
    expect(mapArguments(hotel, 'a room in Denver from August 15th to August 17th').arguments.place_name).not.toBe('Augusta');
  });
});

describe('mapArguments: airport codes', () => {
  it("reads a major airport's code as its city for a city, and keeps the code for an airport", () => {
    const house = tool({ where_to: { type: 'string', description: "City, in the format 'City, State', such as 'Austin, TX'." } }, [
      'where_to',
    ]);
    expect(mapArguments(house, 'I need a house to stay, I am flying into SFO.').arguments.where_to).toBe('San Francisco, CA');
    const flight = tool(
      {
        origin_airport: { type: 'string', description: 'The IATA code of the origin airport.' },
        destination_airport: { type: 'string', description: 'The IATA code of the destination airport.' },
      },
      ['origin_airport', 'destination_airport'],
    );
    expect(mapArguments(flight, 'a flight from SFO to JFK').arguments).toEqual({ origin_airport: 'SFO', destination_airport: 'JFK' });
    const cab = tool({ pickup: { type: 'string', description: 'Pickup location' } }, ['pickup']);
    expect(mapArguments(cab, 'a cab from JFK, my flight lands at gate 5').arguments.pickup).toBe('JFK');
  });
});

describe('mapArguments: names after "called" and years with an apostrophe', () => {
  it('opens a name with a short capitalised word after "called", and reads "the \'19" for a year enum', () => {
    const music = tool({
      album: { type: 'string', description: 'Album title' },
      year: { type: 'string', enum: ['2018', '2019', '2020', 'dontcare'], default: 'dontcare' },
    });
    expect(mapArguments(music, "songs from the album called We Were Young, from the '19 please").arguments).toEqual({
      album: 'We Were Young',
      year: '2019',
    });
  });
});

describe('mapArguments: types named by their description, stems of choices, example formats, pi', () => {
  it('reads a description example written before the thing a "Type of the X" description names', () => {
    const lawsuits = tool(
      {
        company: { type: 'string' },
        case_type: { type: 'string', description: "Type of the lawsuit, e.g., 'IPR', 'Patent', 'Commercial', etc. Default is 'all'." },
      },
      ['company'],
    );
    expect(mapArguments(lawsuits, "Find patent lawsuits involving the company 'Apple Inc.'", undefined, { now }).arguments).toEqual({
      company: 'Apple Inc.',
      case_type: 'patent',
    });
    // a description example written before the thing is taken whole, not its last word
    const beat = tool(
      {
        genre: { type: 'string', description: 'The genre of the beat, e.g. Hip Hop.' },
        bpm: { type: 'integer', description: 'Beats per minute.' },
      },
      ['genre', 'bpm'],
    );
    expect(mapArguments(beat, 'Create a hip hop beat at 95 beats per minute', undefined, { now }).arguments.genre).toBe('hip hop');
    // a word before the thing that is none of the examples is no type ("cheap lawsuits")
    expect(
      mapArguments(lawsuits, "Find cheap lawsuits involving the company 'Apple Inc.'", undefined, { now }).arguments.case_type,
    ).toBeUndefined();
  });

  it('finds a one-word described choice by its stem, beside a word of the description', () => {
    const t = tool(
      {
        company_name: { type: 'string', description: 'The name of the company.' },
        detail_level: { type: 'string', description: "Level of detail for stock information. Can be 'summary' or 'detailed'." },
      },
      ['company_name'],
    );
    expect(mapArguments(t, 'Give me detail information about stocks of Apple Inc.', undefined, { now }).arguments.detail_level).toBe(
      'detailed',
    );
    // the stem alone, away from the description's words, is no choice
    expect(mapArguments(t, 'Give me the stock of Apple Inc. in detail', undefined, { now }).arguments.detail_level).toBeUndefined();
  });

  it('reads description examples only after a marker that is a word of its own', () => {
    // ("categories" holds no "eg": the list's first item is "points", not "including points")
    const t = tool(
      {
        player_name: { type: 'string', description: 'The name of the player.' },
        stats_fields: {
          type: 'array',
          items: { type: 'string' },
          description: 'List of statistical categories to be fetched, including points, assists, rebounds, minutes.',
        },
      },
      ['player_name', 'stats_fields'],
    );
    expect(
      mapArguments(
        t,
        'What are the current stats for basketball player LeBron James including points per game, assists, and minutes per game.',
        undefined,
        { now },
      ).arguments.stats_fields,
    ).toEqual(['points', 'assists', 'minutes']);
  });

  it("writes a time the way the description's example does", () => {
    const t = tool(
      {
        time: { type: 'string', description: 'The local time you want to convert, e.g. 3pm' },
        from_timezone: { type: 'string' },
        to_timezone: { type: 'string' },
      },
      ['time', 'from_timezone', 'to_timezone'],
    );
    expect(mapArguments(t, 'Convert time 3pm from New York time zone to London time zone.', undefined, { now }).arguments.time).toBe('3pm');
    expect(mapArguments(t, 'Convert 9:30 PM from New York time zone to London time zone.', undefined, { now }).arguments.time).toBe(
      '9:30pm',
    );
    const plain = tool({ time: { type: 'string', description: 'The local time.' } }, ['time']);
    expect(mapArguments(plain, 'Convert time 3pm', undefined, { now }).arguments.time).toBe('15:00');
  });

  it('reads a multiple of pi, at the precision the description states', () => {
    const t = tool(
      {
        start_range: { type: 'number', description: 'Start of the range in radians. Four decimal places.' },
        end_range: { type: 'number', description: 'End of the range in radians. Four decimal places.' },
        frequency: { type: 'integer', description: 'Frequency in Hz.' },
      },
      ['start_range', 'end_range', 'frequency'],
    );
    expect(mapArguments(t, 'Plot a sine wave from 0 to 2 pi with a frequency of 5 Hz.', undefined, { now }).arguments).toEqual({
      start_range: 0,
      end_range: 6.2832,
      frequency: 5,
    });
    const free = tool({ angle: { type: 'number', description: 'Angle in radians.' } }, ['angle']);
    expect(mapArguments(free, 'rotate by 0.5π', undefined, { now }).arguments.angle).toBeCloseTo(Math.PI / 2, 12);
    // "pie" is no pi
    expect(mapArguments(free, 'rotate by 2 pies', undefined, { now }).arguments.angle).toBe(2);
  });
});

describe('mapArguments: values ruled out, area kinds and addresses as the examples write them', () => {
  it('takes no enum value the request rules out', () => {
    const t = tool(
      {
        user_id: { type: 'string' },
        status_filter: { type: 'string', enum: ['active', 'paused', 'completed'], description: 'Filter projects by status.' },
      },
      ['user_id'],
    );
    expect(
      mapArguments(t, 'What projects is "Adriel" working on? exclude any that are completed', undefined, { now }).arguments.status_filter,
    ).toBeUndefined();
    expect(
      mapArguments(t, 'Which projects of "Adriel" are paused, rather than completed?', undefined, { now }).arguments.status_filter,
    ).toBe('paused');
    expect(mapArguments(t, 'What completed projects does "Adriel" have?', undefined, { now }).arguments.status_filter).toBe('completed');
  });

  it("keeps the kind word of an area where the description's examples write it", () => {
    const withKind = tool(
      {
        district_name: { type: 'string', description: "The name of the district. For example, 'Chatuchak District', 'Bang Sue District'." },
      },
      [],
    );
    expect(mapArguments(withKind, 'Find a maid in Watthana District, Bangkok', undefined, { now }).arguments.district_name).toBe(
      'Watthana District',
    );
    const bare = tool({ district_name: { type: 'string', description: 'The name of the district.' } }, []);
    expect(mapArguments(bare, 'Find a maid in Watthana District, Bangkok', undefined, { now }).arguments.district_name).toBe('Watthana');
  });

  it("writes an address as 'Street, City' where the description asks for that form", () => {
    const cab = tool(
      { destination: { type: 'string', description: "The address where the cab should take the passenger, formatted as 'Street, City'." } },
      ['destination'],
    );
    expect(
      mapArguments(cab, 'Can you find me a taxi to take me to 2508 University Avenue, Palo Alto, CA .', undefined, { now }).arguments
        .destination,
    ).toBe('2508 University Avenue, Palo Alto');
    const full = tool({ destination: { type: 'string', description: "The address, in the format of 'Street, City, State'." } }, [
      'destination',
    ]);
    expect(
      mapArguments(full, 'Can you find me a taxi to take me to 2508 University Avenue, Palo Alto, CA .', undefined, { now }).arguments
        .destination,
    ).toBe('2508 University Avenue, Palo Alto, CA');
  });
});

describe('mapArguments: lists written as runs', () => {
  it('takes a run of quoted values joined by "and" whole, not its first value', () => {
    const t = tool(
      {
        networkId: { type: 'array', items: { type: 'string' }, description: 'The network IDs to filter by.' },
        perPage: { type: 'integer' },
      },
      [],
    );
    expect(
      mapArguments(t, "Get the latest readings from sensors within the networks 'n1' and 'n2'", undefined, { now }).arguments.networkId,
    ).toEqual(['n1', 'n2']);
    // quoted values apart from each other are no run
    expect(
      mapArguments(t, "Get the readings within the network 'n1'; label them 'urgent'", undefined, { now }).arguments.networkId,
    ).toEqual(['n1']);
  });

  it('drops a label word that opens a list item', () => {
    const t = tool(
      {
        order_id: { type: 'string', description: 'The order ID.' },
        items: { type: 'array', items: { type: 'string' }, description: 'List of unique identifiers for items included in the order.' },
      },
      ['order_id', 'items'],
    );
    expect(
      mapArguments(t, 'The order ID is ORD123, it includes the items with IDs ITM456 and ITM789.', undefined, { now }).arguments.items,
    ).toEqual(['ITM456', 'ITM789']);
  });
});

describe('mapArguments: numbers in words, smaller and larger, ends of a stated range', () => {
  it('fills numeric parameters from number words where the digits are too few, the smaller value to the smaller one', () => {
    const mul = tool(
      {
        a: { type: 'integer', description: 'The first integer to multiply. This is the smaller value.' },
        b: { type: 'integer', description: 'The second integer to multiply. This is the larger value.' },
      },
      ['a', 'b'],
    );
    expect(
      mapArguments(mul, 'If each of my three friends gave me 10 euros, how much money do I have?', undefined, { now }).arguments,
    ).toEqual({ a: 3, b: 10 });
    expect(mapArguments(mul, 'multiply 12 by 5', undefined, { now }).arguments).toEqual({ a: 5, b: 12 });
    const plain = tool(
      { a: { type: 'integer', description: 'The first integer.' }, b: { type: 'integer', description: 'The second integer.' } },
      ['a', 'b'],
    );
    expect(mapArguments(plain, 'multiply 12 by 5', undefined, { now }).arguments).toEqual({ a: 12, b: 5 });
  });

  it('reads "full volume" or "minimum volume" as an end of the range the description states', () => {
    const play = tool(
      {
        query: { type: 'string', description: 'The song to play.' },
        volume: { type: 'integer', description: 'The volume level to play the song at, ranging from 0 (mute) to 100 (maximum volume).' },
      },
      ['query'],
    );
    expect(mapArguments(play, "I'd like to hear 'Thriller' at full volume", undefined, { now }).arguments.volume).toBe(100);
    expect(mapArguments(play, "Play 'Thriller' with the volume at the minimum", undefined, { now }).arguments.volume).toBe(0);
    // no range stated, no value; and "full" away from the name is none
    const bare = tool({ query: { type: 'string' }, volume: { type: 'integer', description: 'The volume level.' } }, ['query']);
    expect(mapArguments(bare, "Play 'Thriller' at full volume", undefined, { now }).arguments.volume).toBeUndefined();
    expect(
      mapArguments(play, "Play the full album 'Thriller' quietly, the volume is fine", undefined, { now }).arguments.volume,
    ).toBeUndefined();
  });
});

describe("mapArguments: codes in a list, names that write another parameter's name", () => {
  it("reads the codes a list parameter's description explains", () => {
    const t = tool(
      {
        province_id: { type: 'integer', description: 'ID of the province. Example: 1 for Bangkok, 2 for Chiang Mai.' },
        service_ids: {
          type: 'array',
          items: { type: 'integer' },
          description: 'An array of service identifiers, e.g., 1 for cleaning service, 2 for ironing service, etc.',
        },
      },
      [],
    );
    expect(mapArguments(t, 'Find a service provider that provides ironing services in Bangkok', undefined, { now }).arguments).toEqual({
      province_id: 1,
      service_ids: [2],
    });
  });

  it('reads a schema once for every request: the same tool gives each request its own codes and enum value', () => {
    // (codeMeanings and enumWords keep what the schema alone says, per parameter; nothing of a request)
    const t = tool(
      {
        province_id: { type: 'integer', description: 'ID of the province. Example: 1 for Bangkok, 2 for Chiang Mai.' },
        service_ids: {
          type: 'array',
          items: { type: 'integer' },
          description: 'Services: 1 for cleaning service, 2 for ironing service, 3 for massage.',
        },
        type: { type: 'string', description: 'The type of therapist.', enum: ['Psychologist', 'Family Counselor', 'Psychiatrist'] },
      },
      ['type'],
    );
    expect(mapArguments(t, 'A Family Therapist in Bangkok who offers ironing services', undefined, { now }).arguments).toEqual({
      province_id: 1,
      service_ids: [2],
      type: 'Family Counselor',
    });
    expect(mapArguments(t, 'A Psychiatrist in Chiang Mai who offers cleaning services', undefined, { now }).arguments).toEqual({
      province_id: 2,
      service_ids: [1],
      type: 'Psychiatrist',
    });
    expect(mapArguments(t, 'Someone in Chiang Mai, no massage', undefined, { now }).missingArguments).toEqual(['type']);
  });

  it('gives a value labelled with a two-word name to that parameter, not to the one named by its last word', () => {
    const t = tool(
      {
        Title: { type: 'string', description: 'The title of the content item.' },
        MetaTitle: { type: 'string', description: 'The HTML meta title for SEO.' },
      },
      ['Title', 'MetaTitle'],
    );
    const m = mapArguments(t, "Set the meta title as 'AI Breakthrough' and the title should be 'Breakthrough in AI'.", undefined, { now });
    expect(m.arguments).toEqual({ Title: 'Breakthrough in AI', MetaTitle: 'AI Breakthrough' });
  });
});

describe('mapArguments: names with an ampersand, free text with commas', () => {
  it('keeps an ampersand written inside a name', () => {
    const genre = tool({ genre: { type: 'string', description: 'Music genre' } }, ['genre']);
    expect(mapArguments(genre, 'play some R&B music', undefined, { now }).arguments.genre).toBe('R&B');
    const company = tool({ company: { type: 'string', description: 'Company name' } }, ['company']);
    expect(mapArguments(company, 'stock price of AT&T', undefined, { now }).arguments.company).toBe('AT&T');
    // a spaced ampersand may join two names: each stays a name of its own
    const teams = tool({ teams: { type: 'array', items: { type: 'string' }, description: 'Teams' } }, ['teams']);
    expect(mapArguments(teams, 'compare Lakers & Clippers', undefined, { now }).arguments.teams).toEqual(['Lakers', 'Clippers']);
  });

  it('gives a free text written as "body: …" its commas, up to the sentence end or the next pair', () => {
    const mail = tool(
      {
        to: { type: 'string', description: 'recipient' },
        subject: { type: 'string', description: 'Subject line' },
        body: { type: 'string', description: 'Message body' },
      },
      ['to', 'body'],
    );
    expect(mapArguments(mail, 'send an email to bob@example.com, body: Hi Bob, see you at noon.', undefined, { now }).arguments.body).toBe(
      'Hi Bob, see you at noon',
    );
    expect(mapArguments(mail, 'email bob@example.com, body: Hi Bob, see you, subject: Lunch', undefined, { now }).arguments).toEqual({
      to: 'bob@example.com',
      subject: 'Lunch',
      body: 'Hi Bob, see you',
    });
  });
});

describe('mapArguments: what the pi, number word, range end, label, stem, ruled-out value, time format and two-part name rules must not take', () => {
  it('multiplies by pi only for an angle in radians, and rounds only that', () => {
    const count = tool({ count: { type: 'integer', description: 'How many members to list.' } }, ['count']);
    expect(mapArguments(count, 'list 30 Pi Kappa Alpha members', undefined, { now }).arguments.count).toBe(30);
    const amount = tool(
      { amount: { type: 'number', description: 'The amount to convert. The result is returned with 2 decimal places.' } },
      ['amount'],
    );
    expect(mapArguments(amount, 'convert 0.0045 BTC to USD', undefined, { now }).arguments.amount).toBe(0.0045);
  });

  it('reads no "one" as a number where the digits are too few', () => {
    const bmi = tool(
      { weight: { type: 'number', description: 'Weight in kg.' }, height: { type: 'number', description: 'Height in m.' } },
      ['weight', 'height'],
    );
    expect(mapArguments(bmi, 'Calculate BMI for one person weighing 70', undefined, { now }).arguments).toEqual({ weight: 70 });
    const mul = tool({ a: { type: 'integer' }, b: { type: 'integer' } }, ['a', 'b']);
    expect(mapArguments(mul, 'multiply 7 with something, no one knows', undefined, { now }).arguments.b).toBeUndefined();
  });

  it('reads an end of the range only where it is asked for and no number says how much', () => {
    const light = tool({ brightness: { type: 'integer', description: 'Brightness from 0 to 255.' } }, []);
    expect(mapArguments(light, 'dim the lights, full brightness hurts my eyes', undefined, { now }).arguments.brightness).toBeUndefined();
    expect(mapArguments(light, 'brightness most comfortable for reading', undefined, { now }).arguments.brightness).toBeUndefined();
    expect(mapArguments(light, 'set the lamp to full brightness', undefined, { now }).arguments.brightness).toBe(255);
    const play = tool({ volume: { type: 'integer', description: 'Volume, ranging from 0 to 100.' } }, []);
    expect(mapArguments(play, 'play it at the max volume my neighbour allows, which is 60', undefined, { now }).arguments.volume).not.toBe(
      100,
    );
  });

  it('keeps a name whose first word is a label word', () => {
    const trip = tool({ places: { type: 'array', items: { type: 'string' }, description: 'Places to visit.' } }, ['places']);
    expect(mapArguments(trip, 'road trip to Key West and Key Largo', undefined, { now }).arguments.places).toEqual([
      'Key West',
      'Key Largo',
    ]);
  });

  it('finds a described choice by its stem only where one word starts the other', () => {
    const t = tool(
      { company: { type: 'string' }, scope: { type: 'string', description: "Scope of the information. Can be 'general' or 'financial'." } },
      ['company'],
    );
    expect(mapArguments(t, 'Generate information about Tesla', undefined, { now }).arguments.scope).toBeUndefined();
  });

  it('rules out a value only where the request does', () => {
    const diet = tool({ diet: { type: 'string', enum: ['vegan', 'vegetarian', 'keto', 'none'] } }, []);
    expect(mapArguments(diet, 'I no longer eat meat so vegetarian please', undefined, { now }).arguments.diet).toBe('vegetarian');
    expect(mapArguments(diet, 'I eat nothing other than vegan food', undefined, { now }).arguments.diet).toBe('vegan');
    const services = tool(
      {
        service_ids: {
          type: 'array',
          items: { type: 'integer' },
          description: 'Services: 1 for cleaning service, 2 for ironing service, 3 for massage.',
        },
      },
      [],
    );
    expect(mapArguments(services, 'I need a cleaning service, not ironing', undefined, { now }).arguments.service_ids).toEqual([1]);
    const rooms = tool(
      { room_ids: { type: 'array', items: { type: 'integer' }, description: 'Rooms: 1 for single, 2 for double, 3 for suite.' } },
      [],
    );
    expect(mapArguments(rooms, 'book a double room for a single night', undefined, { now }).arguments.room_ids).toEqual([2]);
    const lawsuits = tool(
      {
        company: { type: 'string' },
        case_type: { type: 'string', description: "Type of the lawsuit, e.g., 'IPR', 'Patent', 'Commercial', etc." },
      },
      ['company'],
    );
    expect(
      mapArguments(lawsuits, "lawsuits against 'Apple Inc.', commercial lawsuits excluded", undefined, { now }).arguments.case_type,
    ).toBeUndefined();
  });

  it('writes a time like the example only where the description does not ask for a 24-hour clock', () => {
    const t = tool({ time: { type: 'string', description: "Time in 'HH:MM' 24-hour format, e.g. '14:30' (not like 2PM)." } }, ['time']);
    expect(mapArguments(t, 'at 6:15 pm', undefined, { now }).arguments.time).toBe('18:15');
  });

  it("lets a required parameter keep a name written inside an optional one's two-part name", () => {
    const t = tool(
      { query: { type: 'string', description: 'The query.' }, search_query: { type: 'string', description: 'The search query.' } },
      ['query'],
    );
    expect(mapArguments(t, "run a web search query 'best pizza'", undefined, { now }).arguments.query).toBe('best pizza');
  });
});

describe('mapArguments: a month by name for a month string', () => {
  it('takes a month written on its own, not one inside a date', () => {
    const t = tool(
      {
        panelArea: { type: 'integer', description: 'Total solar panel area in sq ft.' },
        month: { type: 'string', description: 'The month for which to calculate the potential. Default to January' },
      },
      ['panelArea'],
    );
    expect(mapArguments(t, 'solar potential in December for a panel area of 80000 sq ft', undefined, { now }).arguments).toEqual({
      panelArea: 80000,
      month: 'December',
    });
    expect(
      mapArguments(t, 'solar potential on March 8th for a panel area of 80000 sq ft', undefined, { now }).arguments.month,
    ).toBeUndefined();
    expect(mapArguments(t, 'you may compute it for a panel area of 80000 sq ft', undefined, { now }).arguments.month).toBeUndefined();
  });
});

describe('mapArguments: signs and hyphenated numbers in words', () => {
  const sum = tool({ a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } }, ['a', 'b']);
  it('reads "minus 25" after a word and "negative 25" as negative numbers, "100 minus 40" as two numbers', () => {
    expect(mapArguments(sum, 'What is the sum of 17 and minus 25?', undefined, { now }).arguments).toEqual({ a: 17, b: -25 });
    expect(mapArguments(sum, 'the sum of 17 and negative 25', undefined, { now }).arguments).toEqual({ a: 17, b: -25 });
    expect(mapArguments(sum, 'what is 100 minus 40', undefined, { now }).arguments).toEqual({ a: 100, b: 40 });
  });
  it('reads the sign after a word however the number before it is written, and no sign on a count of things', () => {
    const geo = tool({ latitude: { type: 'number', description: 'Latitude' }, longitude: { type: 'number', description: 'Longitude' } }, [
      'latitude',
      'longitude',
    ]);
    expect(mapArguments(geo, 'What is the weather at latitude 40.7, longitude minus 74.0?', undefined, { now }).arguments).toEqual({
      latitude: 40.7,
      longitude: -74,
    });
    expect(mapArguments(sum, 'multiply 6 by minus 3', undefined, { now }).arguments).toEqual({ a: 6, b: -3 });
    expect(mapArguments(sum, 'subtract 5 from minus 10', undefined, { now }).arguments).toEqual({ a: 5, b: -10 });
    expect(mapArguments(sum, '100 kg minus 40 kg', undefined, { now }).arguments).toEqual({ a: 100, b: 40 });
    const reviews = tool({ product_id: { type: 'string' }, limit: { type: 'integer', description: 'How many reviews.' } }, ['product_id']);
    expect(mapArguments(reviews, 'Show me the negative 5 reviews for product B123', undefined, { now }).arguments.limit).toBe(5);
    const temp = tool({ temperature: { type: 'number', description: 'Temperature in degrees Celsius.' } }, ['temperature']);
    expect(mapArguments(temp, 'set it to minus 5 degrees', undefined, { now }).arguments.temperature).toBe(-5);
  });

  it('reads a number written in words with a hyphen as a number, not an identifier', () => {
    expect(mapArguments(sum, 'What is the sum of seventeen and twenty-five?', undefined, { now }).arguments).toEqual({ a: 17, b: 25 });
  });
});

describe('mapArguments: a folder named in words', () => {
  const list = {
    name: 'list_directory',
    description: 'Get a detailed listing of all files and directories in a specified path.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  };
  it('gives a directory tool the folder a request names', () => {
    for (const [request, path] of [
      ['list the files in the notes folder', 'notes'],
      ["what's in the notes directory?", 'notes'],
      ['create a directory called scratch', 'scratch'],
      ['make a new folder named reports', 'reports'],
      ['list files in notes/', 'notes'],
    ]) {
      expect(mapArguments(list, request, undefined, { now }).arguments, request).toEqual({ path });
    }
  });
  it('names no folder by a word that only says which, nor for a tool about files', () => {
    expect(mapArguments(list, 'list the files in the current directory', undefined, { now }).missingArguments).toEqual(['path']);
    const read = {
      name: 'read_text_file',
      description: 'Read a file.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    };
    expect(mapArguments(read, 'read the notes folder', undefined, { now }).missingArguments).toEqual(['path']);
  });
});

describe('mapArguments: commands named around "command"', () => {
  const cmd = tool({ command: { type: 'string', description: 'The system command to be executed.' } }, ['command']);
  it('takes a whole command written between "using the" and "command" over a part of it', () => {
    expect(mapArguments(cmd, 'open camera, using the start microsoft.windows.camera: command', undefined, { now }).arguments.command).toBe(
      'start microsoft.windows.camera:',
    );
  });
  it('joins a lone command word to the one URL or path the request gives', () => {
    expect(
      mapArguments(cmd, 'open huggingface using the start command and through the link: https://huggingface.co', undefined, { now })
        .arguments.command,
    ).toBe('start https://huggingface.co');
    // two URLs: which one is unclear, so no joined command
    expect(
      mapArguments(cmd, 'open both using the start command: https://a.example and https://b.example', undefined, { now }).arguments.command,
    ).not.toBe('start https://a.example');
  });
});

describe('mapArguments: bare clock times, purposes, counted nouns, positions, makers, teams, ranges, venues and changes of value', () => {
  const alarm = tool(
    {
      alarm_time: {
        type: 'string',
        description: "The alarm time in a recognized format, such as 'YYYY-MM-DD HH:MM:SS', 'HH:MM:SS', 'HH:MM', or 'HH:MM AM/PM'.",
      },
      purpose: { type: 'string', description: "The purpose of the alarm, such as 'wake up' or 'meeting'.", default: 'General reminder' },
    },
    ['alarm_time'],
  );

  it('gives a date-time parameter a time alone where its description takes a bare clock time', () => {
    expect(mapArguments(alarm, 'Set an Alarm for 11PM', undefined, { now }).arguments).toEqual({ alarm_time: '23:00' });
    // a date written too makes it a date-time
    expect(mapArguments(alarm, 'Set an alarm for 2024-03-05 at 7:30 AM', undefined, { now }).arguments.alarm_time).toBe(
      '2024-03-05 07:30:00',
    );
    // a description that takes date-times only still wants a date
    const strict = tool({ start: { type: 'string', description: "Start in the format 'YYYY-MM-DD HH:MM:SS'." } }, ['start']);
    expect(mapArguments(strict, 'Start it at 11 PM', undefined, { now }).missingArguments).toEqual(['start']);
  });

  it('reads what an alarm is for after "reminding me to" or "to" behind its time, and nothing else', () => {
    expect(mapArguments(alarm, 'Set an Alarm for 11PM reminding me to brush my teeth', undefined, { now }).arguments).toEqual({
      alarm_time: '23:00',
      purpose: 'brush my teeth',
    });
    expect(
      mapArguments(alarm, 'Can you set an alarm for 2023-04-02 07:30:00 to wake me up for a meeting?', undefined, { now }).arguments
        .purpose,
    ).toBe('wake me up for a meeting');
    // "to" before a number is a range, and a "to" not behind the time says nothing of the purpose
    expect(mapArguments(alarm, 'Set an alarm for 7:00 to 8:00', undefined, { now }).arguments.purpose).toBeUndefined();
    expect(mapArguments(alarm, 'I want to set an alarm for 6:45 AM', undefined, { now }).arguments.purpose).toBeUndefined();
  });

  it("counts the noun a description counts, also when it is the phrase's second word, but not a number joined to another word", () => {
    const rooms = tool({
      star_rating: {
        type: 'string',
        enum: ['1', '2', '3', '4', '5', 'dontcare'],
        description: 'The star rating of the hotel (1 to 5 stars).',
        default: 'dontcare',
      },
      number_of_rooms: {
        type: 'string',
        enum: ['1', '2', '3', 'dontcare'],
        description: 'The number of hotel rooms to reserve.',
        default: 'dontcare',
      },
    });
    expect(mapArguments(rooms, 'I need to book two smoking rooms in a hotel in London.', undefined, { now }).arguments).toEqual({
      number_of_rooms: '2',
    });
    expect(mapArguments(rooms, 'Can you find me a three-star hotel in New York?', undefined, { now }).arguments).toEqual({
      star_rating: '3',
    });
  });

  it('says whether the dates it sends keep the order the request writes them in (a selection feature)', () => {
    const events = (format: string): MapperTool =>
      tool({ date: { type: 'string', description: `The date of the event, in the format '${format}'.` } }, ['date']);
    const written = (request: string, format: string): number =>
      mapPrepared(events(format), prepare(request, undefined, { now }).doc).datesAsWritten;
    expect(written('Find a Music event in Berkeley on 2023-05-12', 'YYYY-MM-DD')).toBe(1);
    expect(written('Find a Music event in Berkeley on 2023-05-12', 'MM/DD/YYYY')).toBe(-1);
    expect(written('Find a Music event in Berkeley on 05/12/2023', 'MM/DD/YYYY')).toBe(1);
    // (separators aside: "2023.4.11" is written year first)
    expect(written('Any Theater events in Oakland on 2023.4.11?', 'YYYY-MM-DD')).toBe(1);
    // no date in figures, nothing to keep
    expect(written('Find a Music event in Berkeley on May 12th', 'MM/DD/YYYY')).toBe(0);
  });

  it('gives an area to the parameter that measures one, and lengths in order to the parameters measured in length', () => {
    const paint = tool(
      {
        coverage_rate: { type: 'integer', description: 'The area in square feet that one gallon of paint can cover.' },
        length: { type: 'integer', description: 'Length of the wall to be painted in feet.' },
        height: { type: 'integer', description: 'Height of the wall to be painted in feet.' },
      },
      ['coverage_rate', 'length', 'height'],
    );
    expect(
      mapArguments(paint, 'Paint a wall of 30 feet by 12 feet with a brand that covers 400 square feet per gallon.').arguments,
    ).toEqual({ coverage_rate: 400, length: 30, height: 12 });
  });

  it('reads description examples after "E.g:", and words a date parameter gives as examples', () => {
    const mix = tool({ scale: { type: 'string', description: 'The musical scale to be used. E.g: C Major, A Minor, etc.' } }, ['scale']);
    expect(mapArguments(mix, 'Create a mix track using notes of C major scale.').arguments).toEqual({ scale: 'C major' });
    const concert = tool(
      { date: { type: 'string', description: 'Date of the concert, e.g. this weekend, today, tomorrow, or date string.' } },
      ['date'],
    );
    expect(mapArguments(concert, 'Find me a classical concert this weekend in Los Angeles', undefined, { now }).arguments).toEqual({
      date: 'this weekend',
    });
  });

  it("leaves a country's name to the country parameter", () => {
    const cases = tool(
      {
        field_of_law: { type: 'string', description: 'The specific field of law e.g., constitutional law, criminal law, etc.' },
        country: { type: 'string', description: 'The country where the law cases should be retrieved from. Default is US.' },
      },
      ['field_of_law'],
    );
    expect(mapArguments(cases, 'Get me the landmark cases in constitutional law in China.').arguments).toEqual({
      field_of_law: 'constitutional law',
      country: 'China',
    });
  });

  it('reads "the second item" as a position, counted from zero where the description says so', () => {
    const todo = (description: string): MapperTool => tool({ index: { type: 'integer', description } }, ['index']);
    expect(mapArguments(todo('The zero-based index of the todo item.'), 'Remove the second item from my todo list.').arguments).toEqual({
      index: 1,
    });
    expect(mapArguments(todo('The position of the todo item in the list.'), 'Remove the third item from my todo list.').arguments).toEqual({
      index: 3,
    });
    // "the first time" names no position
    expect(mapArguments(todo('The zero-based index of the todo item.'), 'Is this the first time I use the list?').missingArguments).toEqual(
      ['index'],
    );
  });

  it('gives the maker written after "from" or "by" to a manufacturer parameter', () => {
    const instrument = tool(
      {
        instrument: { type: 'string', description: 'The name of the instrument.' },
        manufacturer: { type: 'string', description: 'The manufacturer of the instrument.' },
      },
      ['manufacturer'],
    );
    expect(mapArguments(instrument, 'Find me the average price of a piano from Yamaha.').arguments.manufacturer).toBe('Yamaha');
  });

  it("drops the tool's own verb from a whole request, where the tool is named by two words or more", () => {
    const reverse: MapperTool = {
      name: 'reverse_input',
      inputSchema: {
        type: 'object',
        properties: { input_value: { type: 'string', description: 'The user input to reverse.' } },
        required: ['input_value'],
      },
    };
    expect(mapArguments(reverse, 'Reverse say hi').arguments).toEqual({ input_value: 'say hi' });
    const post: MapperTool = {
      name: 'post_message',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'The text of the message the user wants posted.' } },
        required: ['text'],
      },
    };
    expect(mapArguments(post, 'Post that the launch went great').arguments).toEqual({ text: 'the launch went great' });
    const echo: MapperTool = {
      name: 'echo',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'The user message to echo.' } },
        required: ['message'],
      },
    };
    expect(mapArguments(echo, 'Echo chambers are dangerous').arguments).toEqual({ message: 'Echo chambers are dangerous' });
    // a search's quoted terms stay as written
    const search: MapperTool = {
      name: 'search_engine.query',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string', description: 'The search query.' } }, required: ['prompt'] },
    };
    expect(mapArguments(search, "Search for 'the lord of the rings'").arguments).toEqual({ prompt: 'the lord of the rings' });
  });

  it('gives a team named after its city to the team name, not to the location', () => {
    const schedule = tool(
      {
        team_name: { type: 'string', description: 'The name of the sports team.' },
        num_of_games: { type: 'integer', description: 'Number of games for which to fetch the schedule.' },
        location: { type: 'string', description: 'The city or venue where games are to be held.' },
      },
      ['team_name', 'num_of_games'],
    );
    expect(mapArguments(schedule, 'Give me the schedule of Manchester United for the next 6 games.').arguments).toEqual({
      team_name: 'Manchester United',
      num_of_games: 6,
    });
  });

  it('asks one result of a count for a superlative and a singular noun, not for a plural', () => {
    const banks: MapperTool = {
      name: 'highest_grossing_banks',
      inputSchema: {
        type: 'object',
        properties: {
          country: { type: 'string', description: 'The country.' },
          year: { type: 'integer', description: 'The year.' },
          top_n: { type: 'integer', description: 'Top n banks.', default: 5 },
        },
        required: ['country', 'year'],
      },
    };
    expect(mapArguments(banks, 'Find the highest grossing bank in the U.S for year 2020.').arguments.top_n).toBe(1);
    expect(mapArguments(banks, 'Find the highest grossing banks in the U.S for year 2020.').arguments.top_n).toBeUndefined();
    expect(mapArguments(banks, 'Find the top chess players in New York.').arguments.top_n).toBeUndefined();
    // a tool that does not rank by that measure: a search's count is no 1
    const search: MapperTool = {
      name: 'web_search',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'The search query.' },
          count: { type: 'integer', description: 'Number of results.' },
        },
        required: ['query'],
      },
    };
    expect(mapArguments(search, 'What is the best way to learn Rust?').arguments.count).toBeUndefined();
    expect(mapArguments(search, 'Who is the richest person in the world?').arguments.count).toBeUndefined();
  });

  it('fills a required range object from "within X to Y"', () => {
    const homes = tool(
      {
        bedrooms: { type: 'integer', description: 'Number of bedrooms required in the property.' },
        budget: {
          type: 'object',
          description: 'Budget range for the property.',
          properties: {
            min: { type: 'number', description: 'Minimum budget limit.' },
            max: { type: 'number', description: 'Maximum budget limit.' },
          },
        },
      },
      ['bedrooms', 'budget'],
    );
    expect(mapArguments(homes, 'Find a 3 bedroom villa for sale within $300,000 to $400,000 budget in San Diego.').arguments).toEqual({
      bedrooms: 3,
      budget: { min: 300000, max: 400000 },
    });
    // an optional object still needs a clear cue
    const optional = tool({ budget: { type: 'object', properties: { min: { type: 'number' }, max: { type: 'number' } } } });
    expect(mapArguments(optional, 'Show me 3 villas').arguments).toEqual({});
  });

  it('reads the thing a physical property is of, a chemical formula, and a compound unit asked for', () => {
    const points = tool({ substance: { type: 'string', description: 'The name of the substance.' } }, ['substance']);
    expect(mapArguments(points, 'Find the boiling point and melting point of water under the sea level of 5000m.').arguments).toEqual({
      substance: 'water',
    });
    const weight = tool(
      {
        compound: { type: 'string', description: 'The molecular formula of the compound.' },
        to_unit: { type: 'string', description: 'The unit in which to return the result.' },
      },
      ['compound', 'to_unit'],
    );
    expect(mapArguments(weight, 'Calculate the molecular weight of Glucose (C6H12O6) in grams/mole.').arguments).toEqual({
      compound: 'C6H12O6',
      to_unit: 'grams/mole',
    });
  });

  it("reads a venue written before its city as the venue's name, not a city", () => {
    const hotel = tool(
      {
        hotel_name: { type: 'string', description: 'The name of the hotel.' },
        location: { type: 'string', description: 'The location of the hotel.' },
      },
      ['hotel_name', 'location'],
    );
    expect(mapArguments(hotel, 'Book a room in Hotel Paradise, Las Vegas, for 3 days.').arguments).toEqual({
      hotel_name: 'Hotel Paradise',
      location: 'Las Vegas',
    });
  });

  it('of two values of one enum written as a change, takes the one changed into', () => {
    const food = tool(
      { TheFod: { type: 'string', enum: ['PIZZA', 'BURGER', 'SALAD'], description: 'The name of the food to be changed.' } },
      ['TheFod'],
    );
    expect(mapArguments(food, 'I would like to switch my order from pizza to a BURGER.').arguments).toEqual({ TheFod: 'BURGER' });
    expect(mapArguments(food, 'Please replace my pizza with a salad.').arguments).toEqual({ TheFod: 'SALAD' });
  });

  it('takes no purpose, bare time, position, budget, brand, count or formula from words that say something else', () => {
    // a purpose is no recipient, no end of a range, no alarm setting
    const pay = tool(
      {
        amount: { type: 'number', description: 'Amount in USD.' },
        recipient: { type: 'string', description: 'Who receives the money.' },
        purpose: { type: 'string', description: 'The purpose of the payment.' },
      },
      ['amount', 'recipient'],
    );
    expect(mapArguments(pay, 'Send $50 at 5pm to Maria', undefined, { now }).arguments.purpose).toBeUndefined();
    expect(mapArguments(alarm, 'Set an alarm for 7am to noon', undefined, { now }).arguments.purpose).toBeUndefined();
    expect(mapArguments(alarm, 'Set an alarm for 6:30 to go off every day', undefined, { now }).arguments.purpose).toBeUndefined();
    // a time said of another day or of something else is no date-time alone
    expect(mapArguments(alarm, 'Set an alarm for 9pm next week', undefined, { now }).arguments.alarm_time).toBeUndefined();
    expect(mapArguments(alarm, 'Set an alarm 30 minutes before my 9am meeting', undefined, { now }).arguments.alarm_time).toBeUndefined();
    // an ordinal inside quotes or of a name is no position
    const todo = tool(
      {
        text: { type: 'string', description: 'The text of the todo.' },
        position: { type: 'integer', description: 'The zero-based position in the list.' },
      },
      ['text'],
    );
    expect(mapArguments(todo, "Add 'review the first draft' to my todo list").arguments).toEqual({ text: 'review the first draft' });
    // a range of another thing fills no budget
    const homes = tool(
      {
        bedrooms: { type: 'integer', description: 'Number of bedrooms.' },
        budget: {
          type: 'object',
          properties: {
            min: { type: 'number', description: 'Minimum budget limit.' },
            max: { type: 'number', description: 'Maximum budget limit.' },
          },
        },
      },
      ['bedrooms', 'budget'],
    );
    expect(mapArguments(homes, 'Find a 3 bedroom house in San Diego, 2 to 4 bathrooms').arguments.budget).toBeUndefined();
    // an order is no change; a shop or a country is no brand
    const sort = tool({ order: { type: 'string', enum: ['newest', 'oldest'], description: 'Sort order.' } }, ['order']);
    expect(mapArguments(sort, 'Sort the listings from newest to oldest').arguments).toEqual({ order: 'newest' });
    const shop = tool(
      { query: { type: 'string', description: 'What to look for.' }, brand: { type: 'string', description: 'The brand.' } },
      ['query'],
    );
    expect(mapArguments(shop, 'Find headphones from Walmart').arguments.brand).toBeUndefined();
    expect(mapArguments(shop, 'Find headphones by Sony').arguments.brand).toBe('Sony');
    // dimensions written with one unit keep the reading order
    const poster = tool({
      width: { type: 'number', description: 'Width in inches.' },
      height: { type: 'number', description: 'Height in inches.' },
    });
    expect(mapArguments(poster, 'Print a poster 18 x 24 inches').arguments).toEqual({ height: 24 });
    // Kansas City is no Kansas; a city keeps the capitals written
    const weather = tool({ location: { type: 'string', description: "City and state, e.g. 'Kansas, MO'." } }, ['location']);
    expect(mapArguments(weather, 'Weather in Kansas City').arguments).toEqual({ location: 'Kansas City, MO' });
    const table = tool({ restaurant: { type: 'string', description: 'Restaurant name.' }, city: { type: 'string', description: 'City.' } });
    expect(mapArguments(table, 'Book a table at Cafe Milano, Washington DC').arguments).toEqual({
      restaurant: 'Cafe Milano',
      city: 'Washington DC',
    });
    // a noun the description writes after another is not counted ("child car seats")
    const cars = tool(
      {
        passengers: { type: 'integer', description: 'Number of passengers.' },
        child_seats: { type: 'integer', description: 'Number of child car seats.' },
      },
      ['passengers'],
    );
    expect(mapArguments(cars, 'Rent 2 cars for 5 passengers').arguments).toEqual({ passengers: 5 });
    // no density of a population, no formula of a file name
    const stuff = tool({
      substance: { type: 'string', description: 'The name of the substance.' },
      formula: { type: 'string', description: 'The chemical formula of the compound.' },
    });
    expect(mapArguments(stuff, 'What is the density of the population in Tokyo?').arguments.substance).toBeUndefined();
    expect(mapArguments(stuff, 'Play my MP3 lecture').arguments.formula).toBeUndefined();
    // an address is no date written in another order
    const fw = tool({ ip: { type: 'string', description: 'The IP address.' } }, ['ip']);
    expect(mapPrepared(fw, prepare('Block 10.0.0.5 from 2024-05-01', undefined, { now }).doc).datesAsWritten).toBe(0);
  });

  it('reads a clock form, a value written "as their <name>", a detail of the thing, and a date format in its letters', () => {
    const clock = tool(
      {
        city: { type: 'string', description: 'The city.' },
        display_format: { type: 'string', description: "The time display format: '12h' or '24h'. Default is '24h'." },
      },
      ['city'],
    );
    expect(mapArguments(clock, 'What time is it currently in London in 24 hour format?').arguments.display_format).toBe('24h');
    expect(mapArguments(clock, 'What time is it in London? Show it in 12-hour format.').arguments.display_format).toBe('12h');
    const user = tool(
      {
        user_id: { type: 'integer', description: 'The unique identifier of the user.' },
        special: { type: 'string', description: 'Any special information to consider.' },
      },
      ['user_id'],
    );
    expect(
      mapArguments(user, 'Retrieve the details for the user with the ID 7890, who has black as their special request.').arguments,
    ).toEqual({ user_id: 7890, special: 'black' });
    const sculpture = tool(
      {
        title: { type: 'string', description: 'The title of the sculpture.' },
        detail: { type: 'string', description: 'The specific detail wanted about the sculpture.' },
      },
      ['title'],
    );
    expect(mapArguments(sculpture, "Find the size of the sculpture with title 'David'.").arguments).toEqual({
      title: 'David',
      detail: 'size',
    });
    expect(mapArguments(sculpture, "Find the details of the sculpture with title 'David'.").arguments).toEqual({ title: 'David' });
    const event = tool(
      {
        event_name: { type: 'string', description: 'The name of the event.' },
        format: { type: 'string', description: "Optional format of the returned date. Default is 'MM-DD-YYYY'." },
      },
      ['event_name'],
    );
    expect(mapArguments(event, 'When did the Treaty of Tordesillas take place? Put it in the format of YYYY.').arguments.format).toBe(
      'YYYY',
    );
  });

  it('leaves a flag unset where the request does not mind either way, in that clause only', () => {
    const homes = tool({
      has_garage: { type: 'boolean', description: 'Indicates if the property must have a garage.' },
      in_unit_laundry: { type: 'boolean', description: 'Indicates if the property must have in-unit laundry facilities.' },
    });
    expect(mapArguments(homes, "I want 2 bedrooms, and I don't mind if it has a garage or not.").arguments).toEqual({});
    expect(mapArguments(homes, "I don't care about garage space, but I'd really like in-unit laundry.").arguments).toEqual({
      in_unit_laundry: true,
    });
  });

  it('counts the writer and the others, reads a key written after its mode, a rating as a fraction, and what an echo says', () => {
    const house = tool(
      {
        where_to: { type: 'string', description: 'The city.' },
        number_of_adults: { type: 'integer', description: 'The number of adults.' },
      },
      ['where_to'],
    );
    expect(mapArguments(house, 'I need to find accommodation in Paris for myself and one other adult.').arguments.number_of_adults).toBe(2);
    const scale = tool(
      {
        key: { type: 'string', description: 'The key in which to generate the scale progression.' },
        tempo: { type: 'integer', description: 'The tempo in BPM.' },
      },
      ['key', 'tempo'],
    );
    expect(mapArguments(scale, 'Generate a major C scale progression with tempo 80 BPM.').arguments).toEqual({ key: 'C', tempo: 80 });
    const sushi = tool(
      {
        city: { type: 'string', description: 'The city.' },
        review_rate: { type: 'number', description: 'The review rating to filter by.' },
      },
      ['city'],
    );
    expect(mapArguments(sushi, 'Sushi restaurants with reviews above 4/5 in Tokyo').arguments.review_rate).toBe(4);
    const cmd = tool({ command: { type: 'string', description: 'The command to execute.' } }, ['command']);
    expect(mapArguments(cmd, 'say hi using the echo command').arguments).toEqual({ command: 'echo hi' });
  });

  it('reads no flag from a word of its name alone, no echo of a description, no rating of another scale and no generic word as a detail', () => {
    // no flag from a word of its name alone (reading "active" for excludeInactive would let "the
    // projects that are no longer active" set it too)
    const projects = tool(
      {
        uuid: { type: 'string', description: 'The team UUID.' },
        excludeInactive: { type: 'boolean', description: 'Exclude inactive projects.' },
      },
      ['uuid'],
    );
    expect(mapArguments(projects, "List the projects of team '12' that are no longer active").arguments.excludeInactive).toBeUndefined();
    // a total written wins over "me and 2 friends"
    const table = tool({ party_size: { type: 'integer', description: 'The number of people in the party.' } }, ['party_size']);
    expect(mapArguments(table, 'Book a table at Nobu for a party of 6 including me and 2 friends').arguments.party_size).toBe(6);
    expect(mapArguments(table, 'Book a table at Nobu for me and 2 friends').arguments.party_size).toBe(3);
    // "as the <name>" takes no part of an address or a description
    const mail = tool(
      { to: { type: 'string', description: 'Recipient e-mail address.' }, sender: { type: 'string', description: 'The sender.' } },
      ['to'],
    );
    expect(mapArguments(mail, 'Email bob@example.com with billing@acme.com as the sender').arguments.sender).not.toBe('com');
    expect(mapArguments(mail, 'Email bob@example.com and use my work address as the sender').arguments.sender).toBeUndefined();
    // echo only what is said, in one sentence, and no description of a value
    const cmd = tool({ command: { type: 'string', description: 'The command to execute.' } }, ['command']);
    expect(mapArguments(cmd, 'Show me how to print hello using the echo command').arguments.command).not.toBe('echo me how to print hello');
    expect(mapArguments(cmd, 'print the current user using the echo command').arguments.command).not.toBe('echo the current user');
    // a rating of another scale is none of this one's
    const movies = tool({ min_rating: { type: 'number', description: 'Minimum rating, from 1 to 5.' } });
    expect(mapArguments(movies, 'Movies rated 8/10 or higher').arguments.min_rating).not.toBe(8);
    // indifference about one thing leaves the others asked for
    const homes = tool({
      pool: { type: 'boolean', description: 'Must have a pool.' },
      has_garage: { type: 'boolean', description: 'Must have a garage.' },
    });
    expect(mapArguments(homes, "A house with a pool and I'm not concerned about a garage").arguments).toEqual({ pool: true });
    // no generic word as the detail, and "B-flat" is B♭
    const sculpture = tool(
      {
        title: { type: 'string', description: 'The title of the sculpture.' },
        detail: { type: 'string', description: 'The specific detail wanted about the sculpture.' },
      },
      ['title'],
    );
    expect(mapArguments(sculpture, "Describe the rest of the sculpture with title 'David'").arguments.detail).toBeUndefined();
    const scale = tool({ key: { type: 'string', description: 'The key in which to generate the scale progression.' } }, ['key']);
    expect(mapArguments(scale, 'Generate a major B-flat scale').arguments.key).toBe('Bb');
  });
  it("fills a required text parameter no rule found from where the tool's description puts it, between the same words, and never with a generic word or for an optional or defaulted one", () => {
    const instrument = tool(
      {
        instrument: { type: 'string', description: 'The name of the instrument.' },
        manufacturer: { type: 'string', description: 'The manufacturer.' },
      },
      ['instrument', 'manufacturer'],
      'Retrieve the average price and ratings of an instrument from a particular manufacturer.',
    );
    const piano = mapPrepared(instrument, prepare('Find me the average price and ratings of piano from Yamaha.').doc);
    expect(piano.arguments).toEqual({ instrument: 'piano', manufacturer: 'Yamaha' });
    // a weak kind: it never reads as strong evidence
    expect(piano.evidence.instrument).toEqual({ score: 0.3, kind: 'slot' });
    const services = tool(
      { namespace: { type: 'string', description: 'The namespace identifier.' } },
      ['namespace'],
      'Retrieves a list of all services available in the specified namespace of the system.',
    );
    expect(mapArguments(services, 'what services are in the default namespace?').arguments).toEqual({ namespace: 'default' });
    expect(mapArguments(services, 'list the services in the kube-system namespace').arguments).toEqual({ namespace: 'kube-system' });
    // a slot the description ends has nothing after it to match: nothing ("in the cluster", "by popularity")
    const pods = tool({ namespace: { type: 'string', description: 'The namespace.' } }, ['namespace'], 'List pods in a namespace.');
    expect(mapArguments(pods, 'List pods in the cluster').missingArguments).toEqual(['namespace']);
    const books = tool({ author: { type: 'string', description: 'The author.' } }, ['author'], 'Find books by an author.');
    expect(mapArguments(books, 'Find books by popularity').missingArguments).toEqual(['author']);
    // nothing of the writer's own, nothing generic, no time or number, no which-word, no head of a longer phrase
    expect(mapArguments(instrument, 'the ratings of my piano from Yamaha').missingArguments).toEqual(['instrument']);
    expect(mapArguments(instrument, 'the ratings of something from Yamaha').missingArguments).toEqual(['instrument']);
    expect(mapArguments(instrument, 'the ratings of the latest from Yamaha').missingArguments).toEqual(['instrument']);
    const table = tool(
      { restaurant: { type: 'string', description: 'The restaurant.' }, party_size: { type: 'integer', description: 'Number of people.' } },
      ['restaurant', 'party_size'],
      'Book a table at a restaurant for a given number of people.',
    );
    expect(mapArguments(table, 'Book a table at noon for 4 people').missingArguments).toEqual(['restaurant']);
    expect(mapArguments(table, 'Book a table at Nobu for 4 people').arguments).toEqual({ restaurant: 'Nobu', party_size: 4 });
    const brands = tool(
      { product: { type: 'string', description: 'The product.' } },
      ['product'],
      'Find the top brands of a product on the basis of rating.',
    );
    expect(mapArguments(brands, 'Find the top brands of the basis of rating').missingArguments).toEqual(['product']);
    // never an optional parameter, nor one with a default (the default was right)
    const optional = tool(
      { instrument: { type: 'string', description: 'The name of the instrument.' } },
      [],
      'Retrieve the ratings of an instrument from a particular manufacturer.',
    );
    expect(mapArguments(optional, 'the ratings of piano from Yamaha').arguments.instrument).toBeUndefined();
    const defaulted = tool(
      { namespace: { type: 'string', description: 'The namespace.', default: 'default' } },
      ['namespace'],
      'Retrieves the services available in the specified namespace of the system.',
    );
    expect(mapArguments(defaulted, 'what services are in the staging namespace?').arguments).toEqual({ namespace: 'default' });
  });
  it("reads a smaller US place after 'in' with its state from the gazetteer, and a multi-word choice written in another form of its last word", () => {
    const therapist = tool(
      {
        city: { type: 'string', description: "The city, in the format of 'City, State', such as 'Berkeley, CA'." },
        type: { type: 'string', enum: ['Psychologist', 'Family Counselor', 'Psychiatrist'] },
      },
      ['city', 'type'],
    );
    expect(mapArguments(therapist, 'Help me find therapists specialized in Family Counseling in Los Altos?').arguments).toEqual({
      city: 'Los Altos, CA',
      type: 'Family Counselor',
    });
    const weather = tool({ city: { type: 'string', description: "The city, in the format of 'City, State'." } }, ['city']);
    expect(mapArguments(weather, 'What is the weather in Sebastopol today?').arguments.city).toBe('Sebastopol, CA');
    // a name many states share gets no state; a world city keeps its country; "at" names a venue
    expect(mapArguments(weather, 'What is the weather in Marion today?').arguments.city).toBe('Marion');
    expect(mapArguments(weather, 'What is the weather in Paris today?').arguments.city).not.toMatch(/, [A-Z]{2}$/);
    // Frisco is a Texas city of 200,000, not San Francisco's nickname; Ontario alone is the province
    expect(mapArguments(weather, 'What is the weather in Frisco today?').arguments.city).not.toBe('San Francisco, CA');
    expect(mapArguments(weather, 'What is the weather in Ontario today?').arguments.city).not.toBe('Ontario, CA');
    expect(mapArguments(weather, 'What is the weather in Ontario, CA today?').arguments.city).toBe('Ontario, CA');
    const movie = tool(
      {
        theater_name: { type: 'string', description: 'The name of the theater.' },
        location: { type: 'string', description: "The city, in the format of 'City, State'." },
      },
      ['location'],
    );
    expect(mapArguments(movie, 'Find a movie at Century in Pinole').arguments).toEqual({ theater_name: 'Century', location: 'Pinole, CA' });
  });
  it('reads a date range in the format its description gives, a choice of several words whole, and a code of digit groups that opens with a zero', () => {
    const news = tool(
      {
        keyword: { type: 'string', description: 'The key term.' },
        date_range: { type: 'string', description: "The date range for the news search, formatted as 'YYYY-MM-DD to YYYY-MM-DD'." },
      },
      ['keyword'],
    );
    expect(mapArguments(news, "news about 'AI' from 2023.10.1 to 2023.10.7").arguments).toEqual({
      keyword: 'AI',
      date_range: '2023-10-01 to 2023-10-07',
    });
    const dashed = tool({ period: { type: 'string', description: 'Period as MM/DD/YYYY - MM/DD/YYYY.' } }, ['period']);
    expect(mapArguments(dashed, 'sales between 2024-03-01 and 2024-03-31').arguments).toEqual({ period: '03/01/2024 - 03/31/2024' });
    // a choice of several words keeps its first word, however label-like ("Email")
    const post = tool({ platform: { type: 'string', enum: ['Social Media', 'Email Newsletter'] } }, ['platform']);
    expect(mapArguments(post, 'Send an email newsletter blast').arguments).toEqual({ platform: 'Email Newsletter' });
    const tokens = tool({ user_id: { type: 'string', description: 'The unique identifier for the user.' } }, ['user_id']);
    expect(mapArguments(tokens, "What's the API token for 098-293?").arguments).toEqual({ user_id: '098-293' });
    // a range of counts or a date is no code
    expect(mapArguments(tokens, 'tokens of users 100-200').arguments.user_id).not.toBe('100-200');
    expect(mapArguments(tokens, 'tokens made on 01-02-2023').arguments.user_id).not.toBe('01-02-2023');
  });
});

describe('mapArguments: labelled ids to the clause end, URL template hosts, country forms, time zones, dates and addresses', () => {
  it('reads a labelled id to the end of its clause, but not past a function word, an adverb or a plain word after a digit', () => {
    const stock = tool({ product_id: { type: 'string', description: 'The product identifier.' }, color: { type: 'string' } }, [
      'product_id',
    ]);
    expect(mapArguments(stock, 'Is the maroon one restocked? Please check for prod id: V-neck sweate').arguments.product_id).toBe(
      'V-neck sweate',
    );
    const user = tool({ user_id: { type: 'string', description: 'The user identifier.' } }, ['user_id']);
    expect(mapArguments(user, 'Fetch user id u-42 again').arguments.user_id).toBe('u-42');
    expect(mapArguments(user, 'get user id C-7781 info').arguments.user_id).toBe('C-7781');
    expect(mapArguments(user, 'the user id is abc-123 I think').arguments.user_id).toBe('abc-123');
  });

  it('takes no count of the values for a value, and no request that only names the tool and its parameter', () => {
    const sum = tool(
      { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
      ['a', 'b'],
      'Returns the sum of two numbers',
    );
    expect(mapArguments(sum, 'Compute the sum of two numbers a and b; a is 17')).toMatchObject({
      arguments: { a: 17 },
      missingArguments: ['b'],
    });
    expect(mapArguments(sum, 'Sum the 2 numbers 10 and 32').arguments).toEqual({ a: 10, b: 32 });
    const random = tool({ count: { type: 'integer', description: 'Number of random numbers to generate' } }, ['count']);
    expect(mapArguments(random, 'Generate two random numbers').arguments).toEqual({ count: 2 });
    const echo = {
      name: 'echo',
      description: 'Echoes back the input',
      inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] },
    };
    for (const request of ['Echo back a message', 'Please echo a message for me'])
      expect(mapArguments(echo, request).missingArguments).toEqual(['message']);
    expect(mapArguments(echo, 'Echo back the message hello world').arguments).toEqual({ message: 'hello world' });
    // a one-word tool's name before a short value is its verb; not where a verb follows it ("Echo chambers are …")
    expect(mapArguments(echo, 'echo hi').arguments).toEqual({ message: 'hi' });
    expect(mapArguments(echo, 'Echo chambers are dangerous').arguments).toEqual({ message: 'Echo chambers are dangerous' });
    // a parameter measured in the noun, or named as a count, still takes it; a question is its own value; a phrase of plain words stays
    const loan = tool(
      {
        principal: { type: 'number' },
        rate: { type: 'number', description: 'Annual rate in percent.' },
        terms: { type: 'integer', description: 'Loan term in months.' },
      },
      ['principal', 'rate', 'terms'],
    );
    expect(mapArguments(loan, 'monthly payment for 20000 at 5 percent over 60 terms').arguments).toEqual({
      principal: 20000,
      rate: 5,
      terms: 60,
    });
    const pick = tool(
      { quantity: { type: 'integer', description: 'Quantity of numbers to pick.' }, low: { type: 'integer' }, high: { type: 'integer' } },
      ['quantity'],
    );
    expect(mapArguments(pick, 'pick 2 numbers').arguments.quantity).toBe(2);
    const ask = {
      name: 'ask',
      description: 'Answers questions like weather, news or sports',
      inputSchema: {
        type: 'object',
        properties: { question: { type: 'string', description: 'The question, e.g. about weather or sports' } },
        required: ['question'],
      },
    };
    expect(mapArguments(ask, "What's the weather?").arguments.question).toBe("What's the weather?");
    const sms = tool({ phone: { type: 'string' }, message: { type: 'string', description: 'The text to send.' } }, ['phone', 'message']);
    expect(mapArguments(sms, 'Text 555-1234 with message I am here').arguments.message).toBe('I am here');
  });

  it('fills a URL template whose host is left open with the one host the request names as such', () => {
    const get = tool(
      {
        url: {
          type: 'string',
          description: "The API URL, in the format 'https://{ip}/sedgeapi/v1/cisco-nir/api/api/telemetry/flowrules/interfaceInfo'.",
        },
        params: { type: 'object', properties: { fabricName: { type: 'string' } } },
      },
      ['url'],
    );
    expect(mapArguments(get, 'Interface statistics of the Network1 fabric, using the IP 192.120.45.67?').arguments.url).toBe(
      'https://192.120.45.67/sedgeapi/v1/cisco-nir/api/api/telemetry/flowrules/interfaceInfo',
    );
    const written = tool({ url: { type: 'string', description: 'The URL to send the GET request to.' } }, ['url']);
    expect(
      mapArguments(
        written,
        "Get the summary using the URL formatted as 'https://{ip}/api/v1/anomalies/summary', where {ip} is the IP address '192.168.1.1'",
      ).arguments.url,
    ).toBe('https://192.168.1.1/api/v1/anomalies/summary');
    // not an address named as something else, not two hosts, not where another parameter takes the address
    expect(mapArguments(get, 'Upgrade the switch firmware to 10.2.1.3').arguments.url).not.toMatch(/^https:\/\/10\.2\.1\.3/);
    expect(mapArguments(get, 'Compare host 10.0.0.1 and host 10.0.0.2').arguments.url ?? '').not.toMatch(/^https:\/\/10/);
    const firewall = tool(
      {
        url: { type: 'string', description: "The firewall API, 'https://{ip}/api/block'." },
        address: { type: 'string', description: 'The address to block.' },
      },
      ['url', 'address'],
    );
    expect(mapArguments(firewall, 'Block host 203.0.113.7 on the firewall').arguments.url ?? '').not.toMatch(/^https:\/\/203/);
  });

  it("writes a country in full beside a 'London, UK' example, the United Kingdom as UK, and an ISO code where one is asked for", () => {
    const weather = tool(
      {
        location: {
          type: 'string',
          description: "The location, in the format of 'City, State' or 'City, Country', such as 'Berkeley, CA' or 'London, UK'.",
        },
      },
      ['location'],
    );
    expect(mapArguments(weather, 'Current weather in Shanghai, using the metric system?').arguments.location).toBe('Shanghai, China');
    const stateOrUk = tool({ location: { type: 'string', description: "The city and state, e.g. 'Berkeley, CA' or 'London, UK'." } }, [
      'location',
    ]);
    expect(mapArguments(stateOrUk, 'Current weather in Shanghai').arguments.location).toBe('Shanghai, China');
    // an ISO example still asks for codes
    const coded = tool(
      { location: { type: 'string', description: "The city, as 'City, State' or 'City, Country', e.g. 'Denver, CO' or 'Paris, FR'." } },
      ['location'],
    );
    expect(mapArguments(coded, 'the weather in Nairobi, Kenya').arguments.location).toBe('Nairobi, KE');
    const attractions = tool(
      {
        location: {
          type: 'string',
          description: "The city, in the format of 'City, State' or 'City, Country'; for example, 'Paris, France' or 'New York, NY'.",
        },
      },
      ['location'],
    );
    expect(mapArguments(attractions, 'museums in London, England with free entry').arguments.location).toBe('London, UK');
    expect(mapArguments(attractions, 'museums in Edinburgh, Scotland').arguments.location).toBe('Edinburgh, UK');
    const iso = tool(
      {
        city: { type: 'string', description: "The city, e.g. 'Los Angeles'." },
        country: { type: 'string', description: "The country, e.g. 'US'. Use ISO 3166-1 alpha-2 country codes." },
      },
      ['city', 'country'],
    );
    expect(mapArguments(iso, 'weather for London in the UK?').arguments).toEqual({ city: 'London', country: 'GB' });
    // not an alpha-3 or numeric code, nor where the description asks for no code; codes in the case the examples write them
    for (const d of [
      'Use ISO 3166-1 alpha-3 codes.',
      'ISO 3166-1 numeric code.',
      'The full country name, not the two-letter country code.',
    ]) {
      expect(
        mapArguments(tool({ country: { type: 'string', description: d } }, ['country']), 'shipping to Japan').arguments.country,
      ).not.toBe('JP');
    }
    expect(
      mapArguments(
        tool({ country: { type: 'string', description: 'Two-letter country code, e.g. us, gb.' } }, ['country']),
        'shipping to Japan',
      ).arguments.country,
    ).toBe('jp');
    // (the country as written outranks an acronym once its code is short: "VAT" is no country)
    expect(
      mapArguments(
        tool({ country: { type: 'string', description: 'ISO 3166-1 alpha-2 country code.' } }, ['country']),
        'What is the VAT rate in Italy?',
      ).arguments.country,
    ).toBe('IT');
    // a city written in Chinese is that city; a temperature scale too; a city is no country
    const cn = tool(
      {
        location: {
          type: 'string',
          description: "The location, in the format of 'City, State (abbr)' if State exists, 'City, Country' if not.",
        },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'fahrenheit' },
      },
      ['location'],
    );
    expect(mapArguments(cn, '我想知道上海目前的天气状况，可以帮我查询吗？顺便使用摄氏度来显示温度。').arguments).toEqual({
      location: 'Shanghai, China',
      unit: 'celsius',
    });
    // (not inside a longer word, "上海路", "巴黎世家", "深圳北京路"; in the order written; both scales written is neither)
    expect(mapArguments(cn, '上海路的天气').arguments.location).toBeUndefined();
    expect(mapArguments(cn, '巴黎世家的天气').arguments.location).toBeUndefined();
    expect(mapArguments(cn, '深圳市南山区北京路的天气').arguments.location).toBe('Shenzhen, China');
    expect(mapArguments(cn, '上海和北京的天气').arguments.location).toBe('Shanghai, China');
    expect(mapArguments(cn, '用华氏而不是摄氏，北京的天气').arguments.unit).toBeUndefined();
    const train = tool(
      { origin: { type: 'string', description: 'Departure city' }, destination: { type: 'string', description: 'Arrival city' } },
      ['destination'],
    );
    expect(mapArguments(train, '帮我订一张到广州的票').arguments).toEqual({ destination: 'Guangzhou' });
    expect(mapArguments(train, '从北京到上海的火车').arguments).toEqual({ origin: 'Beijing', destination: 'Shanghai' });
    const cityCountry = tool(
      { city: { type: 'string', description: 'The city' }, country: { type: 'string', description: 'The country' } },
      ['city', 'country'],
    );
    expect(mapArguments(cityCountry, 'What is the weather in Beijing and Guangzhou?').arguments.country).toBeUndefined();
    expect(mapArguments(cityCountry, 'What is the weather in Beijing, China?').arguments).toEqual({ city: 'Beijing', country: 'China' });
    // a country parameter that asks for no code keeps the name as written
    const named = tool({ city: { type: 'string' }, country: { type: 'string', description: 'The country the city is in.' } }, [
      'city',
      'country',
    ]);
    expect(mapArguments(named, 'weather for London in the UK?').arguments.country).toBe('UK');
  });

  it("reads a time zone's abbreviation or region for an IANA enum, the word 'id' for an identifier, and writes no Z where the zone is given apart", () => {
    const reschedule = tool(
      {
        identifier: { type: 'string', description: 'A unique identifier for the event.' },
        dateortime: { type: 'string', description: "The new date and time, in ISO-8601 format (e.g., 'YYYY-MM-DDTHH:MM:SSZ')." },
        timezone: {
          type: 'string',
          enum: ['UTC', 'Asia/Tokyo', 'America/New_York', 'Europe/London', 'America/Los_Angeles'],
          default: 'UTC',
        },
      },
      ['identifier', 'dateortime'],
    );
    expect(
      mapArguments(reschedule, 'Reschedule my next appointment with id dentist to November 1, 2024 at 4pm EST.', undefined, { now })
        .arguments,
    ).toEqual({ identifier: 'dentist', dateortime: '2024-11-01T16:00:00', timezone: 'America/New_York' });
    expect(mapArguments(reschedule, "Move event 'standup' to March 5, 2024 at 9:00 PT", undefined, { now }).arguments.timezone).toBe(
      'America/Los_Angeles',
    );
    expect(
      mapArguments(reschedule, "Move event 'standup' to March 5, 2024 at 9am Pacific time", undefined, { now }).arguments.timezone,
    ).toBe('America/Los_Angeles');
    // two capitals that are no zone away from a clock time ("2 PT sessions", "CT scans"); an
    // offset; a zone several places share (CST: Chicago or Shanghai); a city the request names
    // outranks an abbreviation ("Berlin? CET I think")
    expect(
      mapArguments(reschedule, "Move event 'PT session' to March 5, 2024 at 9am", undefined, { now }).arguments.timezone,
    ).toBeUndefined();
    const appointment = tool(
      {
        service: { type: 'string', description: 'The service booked.' },
        timezone: {
          type: 'string',
          enum: ['America/Chicago', 'America/Los_Angeles', 'Asia/Shanghai', 'Europe/Berlin', 'Europe/Paris', 'Europe/London'],
        },
      },
      ['service'],
    );
    expect(mapArguments(appointment, 'Book 2 PT sessions').arguments.timezone).toBeUndefined();
    expect(mapArguments(appointment, 'Schedule 2 CT scans').arguments.timezone).toBeUndefined();
    expect(mapArguments(appointment, 'a massage at 5pm GMT+5:30').arguments.timezone).toBeUndefined();
    expect(mapArguments(appointment, 'a massage in Shanghai at 5pm CST').arguments.timezone).toBe('Asia/Shanghai');
    expect(mapArguments(appointment, 'a massage in Berlin? CET I think').arguments.timezone).toBe('Europe/Berlin');
    // an abbreviation away from a clock time is no zone ("the PST archive", "SGT Miller"), and
    // a word that is an object's own property ("constructor") is no abbreviation
    expect(mapArguments(appointment, 'export my PST archive at 10:00').arguments.timezone).toBeUndefined();
    expect(mapArguments(appointment, 'Review the constructor code in Berlin at 9am').arguments.timezone).toBe('Europe/Berlin');
    // (nor an enum value that is a property of every object: read as a lookup key it would crash the whole mapping)
    const kinds = tool({ kind: { type: 'string', enum: ['constructor', 'toString', '__proto__'] } }, ['kind']);
    expect(mapArguments(kinds, 'use the constructor kind').arguments).toEqual({ kind: 'constructor' });
    // "id" as a label only: no state code, no ID card
    const parcel = tool({ tracking_identifier: { type: 'string', description: 'The parcel to track.' } }, ['tracking_identifier']);
    expect(mapArguments(parcel, 'Where is my package going to Boise, ID?').arguments.tracking_identifier).not.toBe('Boise');
    expect(mapArguments(parcel, 'the parcel of the user whose ID card was scanned').arguments.tracking_identifier).not.toBe('card');
    expect(mapArguments(parcel, 'Track the parcel with ID: PX88, please').arguments.tracking_identifier).toBe('PX88');
    expect(mapArguments(parcel, 'the parcel for patient id 5521').arguments.tracking_identifier).not.toBe('5521');
    expect(mapArguments(parcel, 'the parcel for my phone with Face ID enabled').arguments.tracking_identifier).not.toBe('enabled');
    // the Z stays where no zone is given apart
    const utc = tool({ at: { type: 'string', description: "When, in ISO-8601 format (e.g., 'YYYY-MM-DDTHH:MM:SSZ')." } }, ['at']);
    expect(mapArguments(utc, 'Remind me on March 5, 2024 at 4pm', undefined, { now }).arguments.at).toBe('2024-03-05T16:00:00Z');
    // nor where the description says the time is in UTC, beside a zone to show it in
    const shown = tool(
      {
        start: { type: 'string', description: "Start time in UTC, 'YYYY-MM-DDTHH:MM:SSZ'." },
        timezone: { type: 'string', description: 'The zone to display times in.' },
      },
      ['start'],
    );
    expect(mapArguments(shown, 'Start it on March 5, 2024 at 9:00 UTC', undefined, { now }).arguments.start).toBe('2024-03-05T09:00:00Z');
  });

  it("reads a date written with no space after the month's dot, a street address with its ZIP code, and no house number as a count", () => {
    const museum = tool({ museum: { type: 'string' }, date: { type: 'string', description: 'The date, in the format of YYYY-MM-DD.' } }, [
      'museum',
      'date',
    ]);
    expect(mapArguments(museum, 'Opening hours of The British Museum on Jun.20,2023.', undefined, { now }).arguments.date).toBe(
      '2023-06-20',
    );
    // (not in a web address or a file name)
    const backup = tool(
      {
        filename: { type: 'string', description: 'The file to restore.' },
        date: { type: 'string', description: 'The backup date, YYYY-MM-DD.' },
      },
      ['filename'],
    );
    expect(mapArguments(backup, 'restore https://files.example.com/mar.14/db.sql', undefined, { now }).arguments.date).toBeUndefined();
    expect(mapArguments(backup, 'restore the db.sql file tagged #dec.12', undefined, { now }).arguments.date).toBeUndefined();
    const order = tool(
      {
        items: { type: 'array', items: { type: 'string' }, description: 'Identifiers of the items in the order.' },
        shipping_address: { type: 'string', description: "Shipping address, in the format 'Street, City, State, Zip Code'." },
        item_quantities: {
          type: 'array',
          items: { type: 'integer' },
          description: "Quantities of each item, in the order of 'items'.",
          default: [],
        },
      },
      ['items', 'shipping_address'],
    );
    const m = mapArguments(
      order,
      "The order includes the items with IDs ITM456 and ITM789, shipped to '123 Maple Street, Springfield, IL, 62704'. The quantities for each item are 2 and 1 respectively.",
    );
    expect(m.arguments).toEqual({
      items: ['ITM456', 'ITM789'],
      shipping_address: '123 Maple Street, Springfield, IL, 62704',
      item_quantities: [2, 1],
    });
    expect(mapArguments(order, 'Ship ITM456 to 456 Oak Avenue, Springfield, IL 62705').arguments.shipping_address).toBe(
      '456 Oak Avenue, Springfield, IL 62705',
    );
  });

  it("gives the address written after a person's name to the receiver, and a lettered code by its letter", () => {
    const pay = tool(
      {
        amount: { type: 'number' },
        receiver: { type: 'string', description: 'The identifier for the recipient, such as an account number or a contact name.' },
      },
      ['amount', 'receiver'],
    );
    expect(mapArguments(pay, "Send $200 from my debit card to Amelia's email amelia@example.com").arguments).toEqual({
      amount: 200,
      receiver: 'amelia@example.com',
    });
    expect(mapArguments(pay, 'Send $200 to Amelia').arguments.receiver).toBe('Amelia');
    // (not for a name parameter, nor where another parameter takes the address)
    const contact = tool(
      { name: { type: 'string', description: 'The contact name.' }, email: { type: 'string', description: 'The e-mail address.' } },
      ['name', 'email'],
    );
    expect(mapArguments(contact, "Save Bob Lee's email bob@lee.io to my contacts").arguments).toEqual({
      name: 'Bob Lee',
      email: 'bob@lee.io',
    });
    const byName = tool({ amount: { type: 'number' }, recipient: { type: 'string', description: "The recipient's full name." } }, [
      'amount',
      'recipient',
    ]);
    expect(mapArguments(byName, "Send $20 to Lisa's email lisa@x.org").arguments.recipient).not.toBe('lisa@x.org');
    const providers = tool({
      district_name: { type: 'string', default: null },
      professional_group_id: {
        type: 'integer',
        description: 'ID of the professional group. Example: 1 for Group A, 2 for Group B.',
        enum: [1, 2, 3],
      },
    });
    expect(mapArguments(providers, 'Find a provider that is in Group B').arguments).toEqual({ professional_group_id: 2 });
    expect(mapArguments(providers, 'Find a provider that is in Group A').arguments).toEqual({ professional_group_id: 1 });
  });
});

describe('mapArguments: a schema of very many properties', () => {
  // (MAX_SEARCHED_PARAMS: without the bound a tool of 5,000 properties takes 4.6 s a request, with it 0.2 s)
  const props: Record<string, unknown> = Object.fromEntries(
    Array.from({ length: 1000 }, (_, i) => [`field_${i}`, { type: 'string', description: `Field ${i}` }]),
  );
  props['city'] = { type: 'string', description: 'City name' };
  props['days'] = { type: 'integer', description: 'Number of days' };
  const tool: MapperTool = {
    name: 'huge',
    description: 'A tool of many fields',
    inputSchema: { type: 'object', properties: props, required: ['city', 'days'] },
  };

  it('still searches the request for its required parameters, however late in the schema, and reads name=value pairs of any', () => {
    const r = mapArguments(tool, 'Forecast for Paris for 3 days, field_900=abc');
    expect(r.arguments['city']).toBe('Paris');
    expect(r.arguments['days']).toBe(3);
    expect(r.arguments['field_900']).toBe('abc');
    expect(r.missingArguments).toEqual([]);
  });
});
