import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { now, tool } from './test-tool.js';

describe('mapArguments: numbered parameters, counts, codes and names', () => {
  it('keeps a capitalised "The" that opens a name inside a sentence', () => {
    const t = tool({ venue: { type: 'string', description: 'Name of the venue.' } }, ['venue']);
    expect(mapArguments(t, 'Get me two seats at The Blue Note tonight.').arguments).toEqual({ venue: 'The Blue Note' });
  });
});

describe('mapArguments: flags, name lists, coordinates', () => {
  it("takes a whole written list of names after the parameter's name", () => {
    const t = tool({ guests: { type: 'array', items: { type: 'string' }, description: 'Names of the guests.' } }, ['guests']);
    expect(mapArguments(t, 'Seat the guests Maria Lopez, Tom Baker and Ann Lee at table 4').arguments).toEqual({
      guests: ['Maria Lopez', 'Tom Baker', 'Ann Lee'],
    });
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

  it("keeps a business's possessive name when nothing follows that it owns", () => {
    expect(mapArguments(order, "I want to order five burgers and six chicken wings from McDonald's.").arguments).toEqual({
      store: "McDonald's",
      items: ['burgers', 'chicken wings'],
      quantities: [5, 6],
    });
    const person = tool({ owner: { type: 'string', description: 'Name of the owner.' } }, ['owner']);
    expect(mapArguments(person, "find John's car keys").arguments).toEqual({ owner: 'John' });
  });
});

describe('mapArguments: negated lists, cast cues and musical keys', () => {
  it('gives a name after "features" to the cast, and "acted by" never to the director', () => {
    const t = tool(
      {
        directed_by: { type: 'string', description: "Director. Use 'dontcare' if not a criterion.", default: 'dontcare' },
        cast: { type: 'string', description: "Cast member. Use 'dontcare' if not a criterion.", default: 'dontcare' },
      },
      [],
    );
    expect(mapArguments(t, 'Can you find a Family movie that features Carol Sutton?').arguments).toEqual({ cast: 'Carol Sutton' });
    expect(mapArguments(t, 'a mystery movie, the one which is acted by Kathy Griffin').arguments).toEqual({ cast: 'Kathy Griffin' });
  });
});

describe('mapArguments: what the item count, year, colour, negation, key and possessive rules must not take', () => {
  it("keeps a person's possessive off the name, and reads no ID from a number that measures something", () => {
    const o = tool({ owner: { type: 'string', description: 'Name of the owner.' } }, []);
    expect(mapArguments(o, "The laptop is Mary's.").arguments.owner).not.toBe("Mary's");
    const u = tool({ user_id: { type: 'string', description: 'The user.' } }, []);
    expect(mapArguments(u, 'The ID is 5 digits long').arguments.user_id).toBeUndefined();
  });
});

describe('mapArguments: formats in words, described choices, set-apart answers, roles before names', () => {
  it('drops a role before a name but keeps an honorific', () => {
    const t = tool({ name: { type: 'string', description: 'The name of the person.' } }, ['name']);
    expect(mapArguments(t, 'How many months of experience does Lawyer John Doe have?').arguments).toEqual({ name: 'John Doe' });
    expect(mapArguments(t, 'criminal cases of Mr. X in New York').arguments.name).toBe('Mr. X');
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

describe('mapArguments: administrative areas', () => {
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

describe('mapArguments: limits of the coordinate, example list, country, deck, probability, duration, rating and acronym rules', () => {
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

describe('mapArguments: limits of the role, kind, entry fee, party, ride, stay, later date, hour, material and city rules', () => {
  it("gives a director named as such to no composer, and a museum's paintings to no artist", () => {
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
});

describe('mapArguments: what the pi, number word, range end, label, stem, ruled-out value, time format and two-part name rules must not take', () => {
  it("lets a required parameter keep a name written inside an optional one's two-part name", () => {
    const t = tool(
      { query: { type: 'string', description: 'The query.' }, search_query: { type: 'string', description: 'The search query.' } },
      ['query'],
    );
    expect(mapArguments(t, "run a web search query 'best pizza'", undefined, { now }).arguments.query).toBe('best pizza');
  });
});

describe('mapArguments: bare clock times, purposes, counted nouns, positions, makers, teams, ranges, venues and changes of value', () => {
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
});

describe('mapArguments: labelled ids to the clause end, URL template hosts, country forms, time zones, dates and addresses', () => {
  it('gives a name or an address to the receiver, and a lettered code by its letter', () => {
    const pay = tool(
      {
        amount: { type: 'number' },
        receiver: { type: 'string', description: 'The identifier for the recipient, such as an account number or a contact name.' },
      },
      ['amount', 'receiver'],
    );
    expect(mapArguments(pay, 'Send $200 to Amelia').arguments.receiver).toBe('Amelia');
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
