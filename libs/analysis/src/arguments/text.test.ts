import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { tool } from './test-tool.js';

describe('mapArguments: numbers', () => {
  it('uses the phrase around the value ("base of 10", "for 5 years") and number words', () => {
    const t = tool(
      { base: { type: 'integer' }, height: { type: 'integer' }, tickets: { type: 'integer', description: 'Number of tickets.' } },
      ['base', 'height', 'tickets'],
    );
    const m = mapArguments(t, 'Buy three tickets and compute a triangle with a height of 5 and a base of 10.');
    expect(m.arguments).toEqual({ base: 10, height: 5, tickets: 3 });
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

  it('separates origin and destination', () => {
    const t = tool({ start_location: { type: 'string' }, end_location: { type: 'string' } }, ['start_location', 'end_location']);
    expect(mapArguments(t, 'Directions from Sydney to Melbourne').arguments).toEqual({
      start_location: 'Sydney',
      end_location: 'Melbourne',
    });
  });
});

describe('mapArguments: context, defaults and refusals', () => {
  it('reads a context string as more text', () => {
    const t = tool({ city: { type: 'string' } }, ['city']);
    expect(mapArguments(t, 'what is the weather', 'I live in Chicago').arguments).toEqual({ city: 'Chicago' });
  });
});

describe('mapArguments: lists of labels, numbers inside values, abbreviations, time zones', () => {
  it('takes no label word as a list value, nor a number that is only part of a quoted value', () => {
    const t = tool({ siteIds: { type: 'array', items: { type: 'string' }, description: 'Sites to query.' } }, []);
    expect(mapArguments(t, "Readings for my site. The site ID is 'plant-east-042'.").arguments).toEqual({ siteIds: ['plant-east-042'] });
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

describe('mapArguments: limits of the rate, area name, country code and title rules', () => {
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

  it('gives the title bonus before "by" to quoted titles only', () => {
    const t = tool(
      { track: { type: 'string', description: 'The title of the track.' }, artist: { type: 'string', description: 'The artist.' } },
      [],
    );
    expect(mapArguments(t, 'Play Let It Be by The Beatles').arguments.track).not.toBe('Be');
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
  it('takes a capitalised name whole, the word for its kind and all ("the Prado Museum")', () => {
    const museum = tool({ name: { type: 'string', description: 'The name of the museum.' } }, ['name']);
    expect(mapArguments(museum, 'opening hours of the Prado Museum in Madrid').arguments.name).toBe('Prado Museum');
  });
});

describe('mapArguments: enum words', () => {
  it('reads a required enum from its one distinctive word standing alone after a determiner, not from a word that qualifies another', () => {
    const pay = tool(
      { payment_method: { type: 'string', enum: ['app balance', 'debit card', 'credit card'] }, amount: { type: 'number' } },
      ['payment_method', 'amount'],
    );
    expect(mapArguments(pay, 'send $30 to Ana using my debit.').arguments.payment_method).toBe('debit card');
    expect(mapArguments(pay, 'send $30 to Ana for my debit repayment').arguments.payment_method).toBeUndefined();
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
