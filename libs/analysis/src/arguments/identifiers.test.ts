import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { now, tool } from './test-tool.js';

describe('mapArguments: booleans and enums', () => {
  it('does not take the words that label a value as the value ("order ID is 123")', () => {
    const t = tool({ order_id: { type: 'string', description: 'The order ID.' } }, ['order_id']);
    expect(mapArguments(t, 'Check my order, the order ID is 123456789').arguments).toEqual({ order_id: '123456789' });
    const u = tool({ component: { type: 'string', description: 'The component UUID.' } }, ['component']);
    expect(mapArguments(u, 'analysis of the component UUID AB1010CD please').arguments).toEqual({ component: 'AB1010CD' });
  });
});

describe('mapArguments: strings', () => {
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

describe('mapArguments: values written around other values', () => {
  it('takes a command written after "command" verbatim, special characters and all', () => {
    const t = tool({ command: { type: 'string', description: 'The shell command to run.' } }, ['command']);
    expect(mapArguments(t, 'how much disk is free? run the command df -h /var/log').arguments).toEqual({ command: 'df -h /var/log' });
    expect(mapArguments(t, 'please use the exact command git log --oneline -n 5.').arguments).toEqual({
      command: 'git log --oneline -n 5',
    });
    // "command prompt" names no command; the command written later is taken
    expect(mapArguments(t, 'in the command prompt, run the command ipconfig /all').arguments).toEqual({ command: 'ipconfig /all' });
  });
});

describe('mapArguments: numbered parameters, counts, codes and names', () => {
  it('reads "#123" as an identifier', () => {
    const t = tool({ ticket_id: { type: 'string', description: 'The ticket identifier.' } }, ['ticket_id']);
    expect(mapArguments(t, 'what is the state of my ticket? the ticket is #4471, about a broken screen').arguments).toEqual({
      ticket_id: '#4471',
    });
  });
});

describe('mapArguments: no value from prose defaults, plain English, regions, adverbs or periods only mentioned', () => {
  it('fills a command parameter from no ordinary English after "use"/"instruction", and reads no command past 300 characters', () => {
    const t = tool({ command: { type: 'string', description: 'Shell command' } }, ['command']);
    expect(mapArguments(t, 'Use caution when deleting the logs.').arguments).toEqual({});
    expect(mapArguments(t, 'Can you use less memory').arguments).toEqual({});
    expect(mapArguments(t, 'what instruction set does my CPU use').arguments).toEqual({});
    const long = 'command '.repeat(2500);
    const start = performance.now();
    mapArguments(t, long);
    expect(performance.now() - start).toBeLessThan(2000);
  });
});

describe('mapArguments: enum phrases, glued labels, airport codes', () => {
  it('takes the value of a label glued to it ("id:42")', () => {
    const t = tool({ user_id: { type: 'string', description: 'The user identifier.' } }, ['user_id']);
    expect(mapArguments(t, 'show the open projects of Dana, id:42').arguments).toEqual({ user_id: '42' });
  });
});

describe('mapArguments: labelled identifiers and colours', () => {
  it('takes a number after a bare ID label for an id parameter, and none after a label that names another thing', () => {
    const e = tool({ employee_id: { type: 'string', description: 'The employee whose tech stack is queried.' } }, ['employee_id']);
    expect(mapArguments(e, 'just the main tech stack of Adriel. id is 1234').arguments).toEqual({ employee_id: '1234' });
    const o = tool({ order_id: { type: 'string', description: 'The order to track.' } }, ['order_id']);
    expect(mapArguments(o, 'my user ID is 42, where is my parcel?').missingArguments).toEqual(['order_id']);
  });
});

describe('mapArguments: what the role, described choice, bold, translation, frequency and ID label rules must not take', () => {
  it('fills no user ID from "use ID 981"', () => {
    const t = tool({ userId: { type: 'string', description: 'The user.' }, orderId: { type: 'string', description: 'The order.' } }, [
      'orderId',
    ]);
    expect(mapArguments(t, 'Cancel the order, use ID 981').arguments.userId).toBeUndefined();
  });
});

describe('mapArguments: identifiers and names', () => {
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
});

describe('mapArguments: versions, tracks and labelled ids', () => {
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
});

describe('mapArguments: limits of the name, bound, genre, identifier, time, conversion, version, function and topic rules', () => {
  it('takes a thing after "the X I did is", not a description of it', () => {
    const hotel = tool({ hotel_name: { type: 'string', description: 'Name of the hotel.' }, city: { type: 'string' } }, ['city']);
    expect(mapArguments(hotel, 'The hotel I booked was awful, find another one in Oslo.').arguments.hotel_name).toBeUndefined();
  });

  it('reads no short camelCase word, no adjective or adverb, as an identifier', () => {
    const order = tool({ order_id: { type: 'string', description: 'The identifier of the order.' } }, ['order_id']);
    expect(mapArguments(order, 'track my order for the new macBook please').arguments.order_id).toBeUndefined();
    expect(mapArguments(order, 'what is the status of the pending order?').arguments.order_id).toBeUndefined();
    expect(mapArguments(order, 'cancel my order immediately.').arguments.order_id).toBeUndefined();
  });

  it('reads a labelled id followed by a verb only where it is the one number', () => {
    const refund = tool({ order_id: { type: 'string', description: 'The order ID.' } }, ['order_id']);
    expect(mapArguments(refund, 'Order id 31 was shipped fine, but please refund order 47.').arguments.order_id).not.toBe('31');
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
});

describe('mapArguments: limits of the coordinate, example list, country, deck, probability, duration, rating and acronym rules', () => {
  it('joins a dotted acronym with the capitalised words after it, not with another acronym', () => {
    const author = tool({ author: { type: 'string', description: 'Author name' } }, ['author']);
    expect(mapArguments(author, 'Find books by J.K. Rowling').arguments.author).toBe('J.K. Rowling');
    const open = tool({ tournament: { type: 'string', description: 'Tournament name' }, year: { type: 'integer' } }, ['tournament']);
    expect(mapArguments(open, 'Who won the U.S. Open in 2019?').arguments.tournament).toBe('U.S. Open');
  });
});

describe('mapArguments: labelled ids to the clause end, URL template hosts, country forms, time zones, dates and addresses', () => {
  it("reads a time zone's abbreviation or region for an IANA enum, and writes no Z where the zone is given apart", () => {
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
});
