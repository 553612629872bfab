import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import type { MapperTool } from '../types.js';
import { tool } from './test-tool.js';

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

describe('mapArguments: countries alone', () => {
  it('gives a country written alone to the country parameter', () => {
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
    // a city written in Chinese is that city; a city is no country
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
    expect(mapArguments(cn, '我想知道上海目前的天气状况，可以帮我查询吗？顺便使用摄氏度来显示温度。').arguments.location).toBe(
      'Shanghai, China',
    );
    // (not inside a longer word, "上海路", "巴黎世家", "深圳北京路"; in the order written)
    expect(mapArguments(cn, '上海路的天气').arguments.location).toBeUndefined();
    expect(mapArguments(cn, '巴黎世家的天气').arguments.location).toBeUndefined();
    expect(mapArguments(cn, '深圳市南山区北京路的天气').arguments.location).toBe('Shenzhen, China');
    expect(mapArguments(cn, '上海和北京的天气').arguments.location).toBe('Shanghai, China');
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
