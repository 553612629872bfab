import { describe, it, expect } from 'vitest';
import { mapArguments, mapPrepared, prepare } from '../arguments.js';
import type { MapperTool } from '../types.js';
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

describe('mapArguments: values written around other values', () => {
  it('keeps a 24-hour clock when the description asks for one, even if its example names PM', () => {
    const t = tool({ start: { type: 'string', description: "Start time in 24-hour format 'HH:MM' (e.g. '14:30' for 2:30 PM)." } }, [
      'start',
    ]);
    expect(mapArguments(t, 'Book the court at 3:15 pm.').arguments).toEqual({ start: '15:15' });
  });
});

describe('mapArguments: numbered parameters, counts, codes and names', () => {
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

describe('mapArguments: SI prefixes and rates', () => {
  it('reads "every hour" as a rate, not as a length of time', () => {
    const t = tool({ hours: { type: 'integer', description: 'Number of hours to run.' } }, ['hours']);
    expect(mapArguments(t, 'ping the server every hour').missingArguments).toEqual(['hours']);
  });
});

describe('mapArguments: lists of labels, numbers inside values, abbreviations, time zones', () => {
  it('names an IANA time zone by its city', () => {
    const t = tool({ timezone: { type: 'string', enum: ['UTC', 'Asia/Tokyo', 'America/Los_Angeles'], description: 'Time zone.' } }, [
      'timezone',
    ]);
    expect(mapArguments(t, 'what time is it now in los angeles').arguments).toEqual({ timezone: 'America/Los_Angeles' });
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
});

describe('mapArguments: motion and rates', () => {
  it('reads "hours/minutes" as alternatives, not a rate', () => {
    const t = tool(
      { duration: { type: 'integer', description: 'Duration in hours/minutes.' }, task: { type: 'string', description: 'The task.' } },
      ['duration', 'task'],
    );
    expect(mapArguments(t, 'Block 45 minutes for the task "review PR" after a 2 hour meeting').arguments.duration).toBe(45);
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

describe('mapArguments: places, times and labels', () => {
  it('puts the one time of a request with the one date in another sentence for a date-time', () => {
    const alarm = tool({ alarm_time: { type: 'string', description: "Alarm time in the format 'YYYY-MM-DD HH:MM:SS'." } }, ['alarm_time']);
    expect(mapArguments(alarm, 'My flight is on 2024-05-03. Wake me at 6:15 AM.').arguments.alarm_time).toBe('2024-05-03 06:15:00');
  });
});

describe('mapArguments: limits of the name, bound, genre, identifier, time, conversion, version, function and topic rules', () => {
  it('puts a time of another sentence with the date only where that sentence asks for it', () => {
    const flight = tool(
      { destination: { type: 'string' }, departure_time: { type: 'string', description: 'Departure date and time, ISO 8601 datetime.' } },
      ['destination', 'departure_time'],
    );
    expect(mapArguments(flight, 'Fly me to Lima on 2024-07-09. My talk there starts at 3 PM.').arguments.departure_time).not.toMatch(
      /T15:00/,
    );
  });
});

describe('mapArguments: format slips and kinds', () => {
  it('reads a year written with three Ys as a year in the format', () => {
    const law = tool({ start_date: { type: 'string', description: 'Start date in the format of MM-DD-YYY.' } }, ['start_date']);
    expect(mapArguments(law, 'cases filed after March 4, 2020').arguments.start_date).toBe('03-04-2020');
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
});

describe('mapArguments: limits of the coordinate, example list, country, deck, probability, duration, rating and acronym rules', () => {
  it('converts no part of a compound duration and no point in time', () => {
    const timer = tool({ duration: { type: 'integer', description: 'Timer duration in seconds' } }, ['duration']);
    expect(mapArguments(timer, 'Set a timer for 1 hour 30 minutes').arguments.duration).not.toBe(3600);
    const remind = tool(
      { timestamp: { type: 'integer', description: 'Unix timestamp in seconds for the reminder' }, text: { type: 'string' } },
      ['timestamp', 'text'],
    );
    expect(mapArguments(remind, 'Remind me in 2 hours to call mom').arguments.timestamp).not.toBe(7200);
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

describe('mapArguments: limits of the role, kind, entry fee, party, ride, stay, later date, hour, material and city rules', () => {
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

describe('mapArguments: what the pi, number word, range end, label, stem, ruled-out value, time format and two-part name rules must not take', () => {
  it('writes a time like the example only where the description does not ask for a 24-hour clock', () => {
    const t = tool({ time: { type: 'string', description: "Time in 'HH:MM' 24-hour format, e.g. '14:30' (not like 2PM)." } }, ['time']);
    expect(mapArguments(t, 'at 6:15 pm', undefined, { now }).arguments.time).toBe('18:15');
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

  it('reads what an alarm is for after "reminding me to" or "to" behind its time, and nothing else', () => {
    expect(mapArguments(alarm, 'Set an Alarm for 11PM reminding me to brush my teeth', undefined, { now }).arguments.purpose).toBe(
      'brush my teeth',
    );
    expect(
      mapArguments(alarm, 'Can you set an alarm for 2023-04-02 07:30:00 to wake me up for a meeting?', undefined, { now }).arguments
        .purpose,
    ).toBe('wake me up for a meeting');
    // "to" before a number is a range, and a "to" not behind the time says nothing of the purpose
    expect(mapArguments(alarm, 'Set an alarm for 7:00 to 8:00', undefined, { now }).arguments.purpose).toBeUndefined();
    expect(mapArguments(alarm, 'I want to set an alarm for 6:45 AM', undefined, { now }).arguments.purpose).toBeUndefined();
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

  it('reads a clock form', () => {
    const clock = tool(
      {
        city: { type: 'string', description: 'The city.' },
        display_format: { type: 'string', description: "The time display format: '12h' or '24h'. Default is '24h'." },
      },
      ['city'],
    );
    expect(mapArguments(clock, 'What time is it currently in London in 24 hour format?').arguments.display_format).toBe('24h');
    expect(mapArguments(clock, 'What time is it in London? Show it in 12-hour format.').arguments.display_format).toBe('12h');
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
