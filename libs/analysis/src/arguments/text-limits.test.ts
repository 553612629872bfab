import { describe, it, expect } from 'vitest';
import { mapArguments, mapPrepared, prepare } from '../arguments.js';
import { now, tool } from './test-tool.js';

describe('mapArguments: what the role, described choice, bold, translation, frequency and ID label rules must not take', () => {
  it('keeps a role word that is part of a name ("Doctor Who", "Captain America Civil War")', () => {
    const t = tool({ name: { type: 'string', description: 'Name of the person or character.' } }, ['name']);
    expect(mapArguments(t, 'Tell me about Doctor Who').arguments.name).toBe('Doctor Who');
    expect(mapArguments(t, 'Who played Captain America?').arguments.name).toBe('Captain America');
  });

  it('reads no bold from a power operator or a one-word emphasis', () => {
    const t = tool({ expression: { type: 'string', description: 'Math expression to evaluate.' } }, ['expression']);
    expect(mapArguments(t, 'Evaluate 2**10 + 3**2').arguments.expression).not.toBe('10 + 3');
    const b = tool({ title: { type: 'string', description: 'Issue title.' }, body: { type: 'string', description: 'Issue body.' } }, [
      'title',
    ]);
    expect(mapArguments(b, 'Open an issue titled "Crash on start" with body **urgent** the app crashes').arguments.body).not.toBe('urgent');
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

  it('reads no genre from a negated word, a word inside a name, or a word that makes another thing', () => {
    const movies = tool({ city: { type: 'string' }, genre: { type: 'string', enum: ['Comedy', 'Horror', 'Drama'] } }, ['city']);
    expect(mapArguments(movies, 'a film in Leeds tonight, nothing funny please, not funny at all').arguments.genre).toBeUndefined();
    expect(mapArguments(movies, 'is Funny Girl on in Leeds?').arguments.genre).toBeUndefined();
    expect(mapArguments(movies, 'comic book films in Leeds').arguments.genre).toBeUndefined();
  });

  it('reads a lone distinctive enum word only after a word of using it', () => {
    const flight = tool(
      { destination: { type: 'string' }, seat_class: { type: 'string', enum: ['economy class', 'business class', 'first class'] } },
      ['destination', 'seat_class'],
    );
    expect(mapArguments(flight, 'a flight to Lagos, I want to grow my business.').arguments.seat_class).toBeUndefined();
  });
});

describe('mapArguments: what the pi, number word, range end, label, stem, ruled-out value, time format and two-part name rules must not take', () => {
  it('keeps a name whose first word is a label word', () => {
    const trip = tool({ places: { type: 'array', items: { type: 'string' }, description: 'Places to visit.' } }, ['places']);
    expect(mapArguments(trip, 'road trip to Key West and Key Largo', undefined, { now }).arguments.places).toEqual([
      'Key West',
      'Key Largo',
    ]);
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
    expect(
      mapArguments(rooms, 'Can you find me a three-star hotel in New York?', undefined, { now }).arguments.number_of_rooms,
    ).toBeUndefined();
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
    // a party's total is read, not the others it names
    const table = tool({ party_size: { type: 'integer', description: 'The number of people in the party.' } }, ['party_size']);
    expect(mapArguments(table, 'Book a table at Nobu for a party of 6 including me and 2 friends').arguments.party_size).toBe(6);
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
    // no generic word as the detail
    const sculpture = tool(
      {
        title: { type: 'string', description: 'The title of the sculpture.' },
        detail: { type: 'string', description: 'The specific detail wanted about the sculpture.' },
      },
      ['title'],
    );
    expect(mapArguments(sculpture, "Describe the rest of the sculpture with title 'David'").arguments.detail).toBeUndefined();
  });
});
