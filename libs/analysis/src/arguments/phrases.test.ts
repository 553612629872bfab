import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { now, tool } from './test-tool.js';

describe('mapArguments: strings', () => {
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
});

describe('mapArguments: values written around other values', () => {
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
});

describe('mapArguments: formats in words, described choices, roles before names', () => {
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

describe('mapArguments: types named by their description, stems of choices, example formats, pi', () => {
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
});

describe('mapArguments: values ruled out, area kinds and addresses as the examples write them', () => {
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
});

describe('mapArguments: names with an ampersand, free text with commas', () => {
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

describe('mapArguments: bare clock times, purposes, counted nouns, positions, makers, teams, ranges, venues and changes of value', () => {
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
});
