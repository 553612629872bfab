import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
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

describe('mapArguments: very long requests', () => {
  it('reads e-mail addresses within RFC 5321 lengths only', () => {
    const t = tool({ to: { type: 'string', description: 'Recipient e-mail address.' } }, ['to']);
    const local = 'a'.repeat(64);
    expect(mapArguments(t, `mail ${local}@example.com`).arguments).toEqual({ to: `${local}@example.com` });
    expect(mapArguments(t, `mail ${'a'.repeat(65)}@example.com`).arguments.to).not.toBe(`${'a'.repeat(65)}@example.com`);
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
  it('takes a quoted address whole', () => {
    const uber = tool({ loc: { type: 'string', description: "Pickup address, e.g. '123 Main St, Springfield, IL'." } }, ['loc']);
    expect(mapArguments(uber, "đón tôi ở '77 Grove Ave, Fresno, CA' nhé").arguments.loc).toBe('77 Grove Ave, Fresno, CA');
  });
});

describe('mapArguments: limits of the coordinate, example list, country, deck, probability, duration, rating and acronym rules', () => {
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
