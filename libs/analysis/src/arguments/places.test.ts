import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import type { MapperTool } from '../types.js';
import { now, tool } from './test-tool.js';

describe('mapArguments: strings', () => {
  it('formats places as the description asks ("City, State")', () => {
    const t = tool({ city: { type: 'string', description: "The city, in the format 'City, State' such as 'Berkeley, CA'." } }, ['city']);
    expect(mapArguments(t, 'Find a salon in Boston, MA').arguments).toEqual({ city: 'Boston, MA' });
    expect(mapArguments(t, 'Find a salon in berkeley').arguments).toEqual({ city: 'Berkeley, CA' });
    const plain = tool({ location: { type: 'string', description: 'The city.' } }, ['location']);
    expect(mapArguments(plain, 'weather in Paris').arguments).toEqual({ location: 'Paris' });
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
});

describe('mapArguments: numbered parameters, counts, codes and names', () => {
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
});

describe('mapArguments: names that hold places and numbers', () => {
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

describe('mapArguments: no value from prose defaults, plain English, regions, adverbs or periods only mentioned', () => {
  it('gives a country parameter no US state or region, and a state parameter no country', () => {
    const t = tool({ city: { type: 'string' }, country: { type: 'string' } }, ['city', 'country']);
    expect(mapArguments(t, 'Weather in Austin, Texas').arguments).toEqual({ city: 'Austin' });
    expect(mapArguments(t, 'Weather in Munich, Bavaria').arguments).toEqual({ city: 'Munich' });
    expect(mapArguments(t, 'Weather in Paris, Tomorrow please').arguments).toEqual({ city: 'Paris' });
    expect(mapArguments(t, 'Weather in Sydney, Australia').arguments).toEqual({ city: 'Sydney', country: 'Australia' });
    const s = tool({ city: { type: 'string' }, state: { type: 'string' } }, ['city', 'state']);
    expect(mapArguments(s, 'Weather in Lyon, France').arguments).toEqual({ city: 'Lyon' });
  });

  it('never throws, even for a missing tool', () => {
    expect(mapArguments(null as unknown as MapperTool, 'command ls').arguments).toEqual({});
  });
});

describe('mapArguments: very long requests', () => {
  it('reads e-mail addresses within RFC 5321 lengths only', () => {
    const t = tool({ to: { type: 'string', description: 'Recipient e-mail address.' } }, ['to']);
    const local = 'a'.repeat(64);
    expect(mapArguments(t, `mail ${local}@example.com`).arguments).toEqual({ to: `${local}@example.com` });
    expect(mapArguments(t, `mail ${'a'.repeat(65)}@example.com`).arguments.to).not.toBe(`${'a'.repeat(65)}@example.com`);
  });
});

describe('mapArguments: flags, name lists, coordinates', () => {
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

describe('mapArguments: enum phrases, glued labels, airport codes', () => {
  it('gives an airport parameter that asks for IATA codes the code, not "XXX Airport"', () => {
    const t = tool({ origin: { type: 'string', description: "The IATA airport code to depart from, such as 'SFO'." } }, ['origin']);
    expect(mapArguments(t, 'flights leaving from SEA Airport tomorrow').arguments).toEqual({ origin: 'SEA' });
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

describe('mapArguments: administrative areas', () => {
  const areas = tool(
    {
      province_id: { type: 'integer', description: "The province: '1' for Bangkok, '2' for Chiang Mai." },
      district_name: { type: 'string', description: "The district, such as 'Watthana'." },
      sub_district_name: { type: 'string', description: 'The subdistrict.' },
    },
    [],
  );

  it('takes no city for a district or subdistrict', () => {
    const m = mapArguments(areas, 'Find a service provider with a 5-star rating in Bangkok, specifically in the Lat Phrao district');
    expect(m.arguments).toMatchObject({ district_name: 'Lat Phrao' });
    expect(m.arguments.sub_district_name).toBeUndefined();
    expect(mapArguments(areas, 'Find a maid who provides ironing services in Chiang Mai.').arguments.district_name).toBeUndefined();
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
});

describe('mapArguments: limits of the rate, area name, country code and title rules', () => {
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
});

describe('mapArguments: places, times and labels', () => {
  it('reads a city nickname that is no English word in any case ("nyc"), and two-letter ones only in capitals', () => {
    const weather = tool({ location: { type: 'string', description: "City and state, e.g. 'San Francisco, CA'." } }, ['location']);
    expect(mapArguments(weather, 'weather in nyc tomorrow').arguments.location).toBe('New York, NY');
    expect(mapArguments(weather, 'is it going to rain in la la land').arguments.location).toBeUndefined();
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

describe('mapArguments: dotted acronyms', () => {
  it('reads "U.S" and "U.K." as names, and as countries for a country parameter', () => {
    const banks = tool({ country: { type: 'string', description: 'The country.' }, year: { type: 'integer' } }, ['country']);
    expect(mapArguments(banks, 'largest banks in the U.S for 2019').arguments.country).toBe('U.S');
    expect(mapArguments(banks, 'largest banks in the U.K. for 2019').arguments.country).toBe('U.K.');
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

describe('mapArguments: limits of the role, kind, entry fee, party, ride, stay, later date, hour, material and city rules', () => {
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

describe('mapArguments: types named by their description, stems of choices, example formats, pi', () => {
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

describe('mapArguments: numbers in words, smaller and larger, ends of a stated range', () => {
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

describe('mapArguments: bare clock times, purposes, counted nouns, positions, makers, teams, ranges, venues and changes of value', () => {
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
});

describe('mapArguments: labelled ids to the clause end, URL template hosts, country forms, time zones, dates and addresses', () => {
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
});
