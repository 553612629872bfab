import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { now, tool } from './test-tool.js';

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
});

describe('mapArguments: calendar parts', () => {
  it('gives a day parameter no value it cannot have', () => {
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

describe('mapArguments: what the item count, year, colour, negation, key and possessive rules must not take', () => {
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

describe('mapArguments: format slips and kinds', () => {
  it('reads a year written with three Ys as a year in the format', () => {
    const law = tool({ start_date: { type: 'string', description: 'Start date in the format of MM-DD-YYY.' } }, ['start_date']);
    expect(mapArguments(law, 'cases filed after March 4, 2020').arguments.start_date).toBe('03-04-2020');
  });
});

describe('mapArguments: labelled ids to the clause end, URL template hosts, country forms, time zones, dates and addresses', () => {
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
});
