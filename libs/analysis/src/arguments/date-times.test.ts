import { describe, it, expect } from 'vitest';
import { mapArguments, mapPrepared, prepare } from '../arguments.js';
import type { MapperTool } from '../types.js';
import { now, tool } from './test-tool.js';

describe('mapArguments: values written around other values', () => {
  it('keeps a 24-hour clock when the description asks for one, even if its example names PM', () => {
    const t = tool({ start: { type: 'string', description: "Start time in 24-hour format 'HH:MM' (e.g. '14:30' for 2:30 PM)." } }, [
      'start',
    ]);
    expect(mapArguments(t, 'Book the court at 3:15 pm.').arguments).toEqual({ start: '15:15' });
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

describe('mapArguments: motion and rates', () => {
  it('reads "hours/minutes" as alternatives, not a rate', () => {
    const t = tool(
      { duration: { type: 'integer', description: 'Duration in hours/minutes.' }, task: { type: 'string', description: 'The task.' } },
      ['duration', 'task'],
    );
    expect(mapArguments(t, 'Block 45 minutes for the task "review PR" after a 2 hour meeting').arguments.duration).toBe(45);
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

describe('mapArguments: what the pi, number word, range end, label, stem, ruled-out value, time format and two-part name rules must not take', () => {
  it('writes a time like the example only where the description does not ask for a 24-hour clock', () => {
    const t = tool({ time: { type: 'string', description: "Time in 'HH:MM' 24-hour format, e.g. '14:30' (not like 2PM)." } }, ['time']);
    expect(mapArguments(t, 'at 6:15 pm', undefined, { now }).arguments.time).toBe('18:15');
  });
});

describe('mapArguments: bare clock times, purposes, counted nouns, positions, makers, teams, ranges, venues and changes of value', () => {
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
