import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { now, tool } from './test-tool.js';

describe('mapArguments: booleans and enums', () => {
  it('sets a flag when its name is written and clears it when negated', () => {
    const t = tool({ detailed: { type: 'boolean' }, has_garage: { type: 'boolean' } }, []);
    expect(mapArguments(t, 'Show the standings with details, no garage needed').arguments).toEqual({ detailed: true, has_garage: false });
  });

  it('matches enum values, including near spellings and abbreviations', () => {
    const t = tool({ genre: { type: 'string', enum: ['Comedy', 'Thriller', 'Sci-fi', 'dontcare'] } }, ['genre']);
    expect(mapArguments(t, 'find me a thriler tonight').arguments).toEqual({ genre: 'Thriller' });
    expect(mapArguments(t, 'some science fiction please').arguments).toEqual({ genre: 'Sci-fi' });
    expect(mapArguments(t, 'any movie').arguments).toEqual({ genre: 'dontcare' });
  });

  it('matches enum language codes by the language written out ("French" for "fr")', () => {
    const t = tool(
      {
        source_language: { type: 'string', enum: ['en', 'fr', 'de'] },
        target_language: { type: 'string', enum: ['en', 'fr', 'de'] },
        voice: { type: 'string', enum: ['es-ES', 'en-US', 'zh-CN'] },
      },
      ['source_language', 'target_language'],
    );
    expect(mapArguments(t, 'translate this from English to French').arguments).toEqual({ source_language: 'en', target_language: 'fr' });
    expect(
      mapArguments(tool({ language: { type: 'string', enum: ['es-ES', 'en-US', 'zh-CN'] } }, ['language']), 'read it aloud in Spanish')
        .arguments,
    ).toEqual({ language: 'es-ES' });
  });
});

describe('mapArguments: values written around other values', () => {
  it('does not read a function word as a misspelt enum value ("would" is not "World")', () => {
    const t = tool({ genre: { type: 'string', enum: ['World', 'Jazz', 'dontcare'], description: 'Music genre.' } }, ['genre']);
    expect(mapArguments(t, 'I would like to hear something new.').arguments).toEqual({ genre: 'dontcare' });
  });
});

describe('mapArguments: lists of labels, numbers inside values, abbreviations, time zones', () => {
  it('matches an abbreviated enum value written out in full, even for an optional parameter', () => {
    const t = tool(
      {
        city: { type: 'string', description: 'City.' },
        genre: { type: 'string', enum: ['Drama', 'Sci-fi', 'Horror'], description: 'Genre.' },
      },
      ['city'],
    );
    expect(mapArguments(t, 'any science fiction films showing in Oakland?').arguments).toEqual({ city: 'Oakland', genre: 'Sci-fi' });
  });
});

describe('mapArguments: flags, name lists, coordinates', () => {
  it('sets a consider_/account_for_ flag from its subject word', () => {
    const t = tool(
      {
        origin: { type: 'string', description: 'Start city.' },
        consider_traffic: { type: 'boolean', description: 'Whether to take traffic into account.' },
      },
      ['origin'],
    );
    expect(mapArguments(t, 'How long from Denver, accounting for traffic?').arguments).toEqual({
      origin: 'Denver',
      consider_traffic: true,
    });
  });
});

describe('mapArguments: enum phrases, glued labels, airport codes', () => {
  it('prefers the longer enum value written in the request ("Premium Economy" over "Economy")', () => {
    const t = tool({ cabin: { type: 'string', enum: ['Economy', 'Premium Economy', 'Business'], description: 'Cabin class.' } }, ['cabin']);
    expect(mapArguments(t, 'a seat in premium economy please').arguments).toEqual({ cabin: 'Premium Economy' });
  });
});

describe('mapArguments: labelled identifiers and colours', () => {
  it('fills a colour parameter from a colour word', () => {
    const t = tool(
      {
        width: { type: 'integer', description: 'Width.' },
        height: { type: 'integer', description: 'Height.' },
        color: { type: 'string', description: "The color. Default is 'black'." },
      },
      ['width', 'height'],
    );
    expect(mapArguments(t, 'Draw a rectangle with a width of 20 units and height of 10 units in red.').arguments).toEqual({
      width: 20,
      height: 10,
      color: 'red',
    });
    expect(mapArguments(t, 'Draw a rectangle 20 wide and 10 high').arguments.color).toBeUndefined();
  });
});

describe('mapArguments: negated lists, cast cues and musical keys', () => {
  it('carries a negation across "or"/"and" to every flag it joins, but not into a new clause', () => {
    const t = tool(
      {
        has_garage: { type: 'boolean', description: 'Must have a garage.', default: false },
        in_unit_laundry: { type: 'boolean', description: 'Must have in-unit laundry.', default: false },
      },
      [],
    );
    expect(mapArguments(t, 'I want no garage or in-unit laundry facilities.').arguments).toEqual({
      has_garage: false,
      in_unit_laundry: false,
    });
    // (not minding is no "no": both left to their defaults)
    expect(mapArguments(t, "I don't care about garage or in-unit laundry facilities.").arguments).toEqual({});
    expect(mapArguments(t, "I don't have a car and I have laundry services.").arguments.in_unit_laundry).not.toBe(false);
  });

  it('reads a musical key ("C sharp major" -> "C#") for a key parameter', () => {
    const t = tool(
      {
        key: { type: 'string', description: 'The musical key.' },
        scale_type: { type: 'string', description: 'major or minor', default: 'major' },
      },
      ['key'],
    );
    expect(mapArguments(t, 'What is the musical scale associated with C sharp major?').arguments.key).toBe('C#');
    expect(mapArguments(t, 'Generate a melody in C major scale at tempo 80 BPM').arguments.key).toBe('C');
  });
});

describe('mapArguments: what the item count, year, colour, negation, key and possessive rules must not take', () => {
  it('reads no colour from a name, a negation, a kind of food, two colours or a pattern it breaks', () => {
    const t = tool({ product: { type: 'string', description: 'Product name.' }, color: { type: 'string', description: 'Colour.' } }, []);
    for (const q of ['Buy orange juice', 'Find a Red Hot Chili Peppers t-shirt', 'Find a shirt, not black', 'Find a red or blue shirt'])
      expect(mapArguments(t, q).arguments.color, q).toBeUndefined();
    const hex = tool({ bg_color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', description: 'Background colour.' } }, []);
    expect(mapArguments(hex, 'make a card with a red background').arguments.bg_color).toBeUndefined();
  });

  it('keeps a negation out of a flag joined by "and" to another verb, and reads no musical key into an API key', () => {
    const h = tool({ has_garage: { type: 'boolean', description: 'Must have a garage.', default: false } }, []);
    expect(mapArguments(h, "I don't need a pool and need a garage in Austin").arguments.has_garage).not.toBe(false);
    const k = tool(
      { key: { type: 'string', description: 'Your API key.' }, endpoint: { type: 'string', description: 'The endpoint.' } },
      [],
    );
    expect(mapArguments(k, 'Deploy A major update to the prod endpoint').arguments.key).not.toBe('A');
  });
});

describe('mapArguments: what the role, described choice, bold, translation, frequency and ID label rules must not take', () => {
  it('takes a described choice only when one is written, next to a word of the parameter', () => {
    const repo = tool(
      {
        name: { type: 'string', description: 'Repository name.' },
        visibility: { type: 'string', description: "Repository visibility, can be 'public' or 'private'." },
      },
      ['name'],
    );
    expect(mapArguments(repo, 'Make a private copy of the public repo named notes-app').arguments.visibility).toBeUndefined();
    const reddit = tool(
      {
        subreddit: { type: 'string', description: 'The subreddit.' },
        sort: { type: 'string', description: "Sort order. Can be 'new', 'top' or 'hot'." },
      },
      ['subreddit'],
    );
    expect(mapArguments(reddit, 'Show me posts from r/typescript, I am new here').arguments.sort).toBeUndefined();
  });
});

describe('mapArguments: enums read from one distinctive word', () => {
  it('never fills an optional enum from one word', () => {
    const t = tool(
      {
        city: { type: 'string', description: 'The city.' },
        type: { type: 'string', description: 'The type of therapist.', enum: ['Psychologist', 'Family Counselor', 'Psychiatrist'] },
      },
      ['city'],
    );
    expect(mapArguments(t, 'I need a family therapist in Berkeley.').arguments.type).toBeUndefined();
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

  it('takes a name written with its kind for the parameter of that kind, without the kind word', () => {
    expect(mapArguments(areas, 'a housekeeper in Bangkok, Chatuchak District, rated 4.5').arguments).toMatchObject({
      district_name: 'Chatuchak',
    });
    expect(mapArguments(areas, 'a housekeeper in Chiang Mai, Sankampang District, Ton Pao Subdistrict').arguments).toMatchObject({
      district_name: 'Sankampang',
      sub_district_name: 'Ton Pao',
    });
    expect(mapArguments(areas, 'a cleaner in Bangkok, specifically in the Chatuchak district').arguments).toMatchObject({
      district_name: 'Chatuchak',
    });
  });
});

describe('mapArguments: limits of the rate, area name, country code and title rules', () => {
  it('writes codes where the description asks for country codes, even ones that are US state codes', () => {
    const t = tool({ location: { type: 'string', description: "City and country code, e.g. 'Toronto, CA' or 'Berlin, DE'" } }, [
      'location',
    ]);
    expect(mapArguments(t, 'Weather in Munich, Germany').arguments.location).toBe('Munich, DE');
  });
});

describe('mapArguments: enum values that share a stem', () => {
  it('takes the enum value written as it is over one that only shares its stem', () => {
    const t = tool({ genre: { type: 'string', description: 'The genre.', enum: ['Animation', 'Anime', 'Drama', 'dontcare'] } }, ['genre']);
    expect(mapArguments(t, 'movies in the Anime genre').arguments.genre).toBe('Anime');
    expect(mapArguments(t, 'an animation movie').arguments.genre).toBe('Animation');
  });
});

describe('mapArguments: sentence breaks, bounds across a comparison, genre words, quotes glued to CJK text', () => {
  it('reads a genre from the word a request uses for it, for an optional enum too', () => {
    const movies = tool({
      genre: { type: 'string', enum: ['Comedy', 'Animation', 'Horror', 'Drama', 'dontcare'], default: 'dontcare' },
      director: { type: 'string' },
    });
    expect(mapArguments(movies, 'Something funny to watch tonight').arguments.genre).toBe('Comedy');
    expect(mapArguments(movies, 'a cartoon film for the kids').arguments.genre).toBe('Animation');
    // a genre written as itself wins ("Drama", not Theater's synonym); no genre word, no genre
    expect(mapArguments(movies, 'a drama directed by Greta Gerwig').arguments.genre).toBe('Drama');
    expect(mapArguments(movies, 'a film directed by Greta Gerwig').arguments.genre).toBeUndefined();
    const events = tool({ event_type: { type: 'string', enum: ['Music', 'Theater'] }, city: { type: 'string' } }, ['event_type', 'city']);
    expect(mapArguments(events, 'I love drama, anything on in Boston?').arguments.event_type).toBe('Theater');
  });
});

describe('mapArguments: places, times and labels', () => {
  it('reads a kind from the word a request uses for it ("a concert" for Music)', () => {
    const events = tool({ event_type: { type: 'string', enum: ['Music', 'Theater', 'Sports'] }, city: { type: 'string' } }, [
      'event_type',
      'city',
    ]);
    expect(mapArguments(events, 'any concerts in Austin this week?').arguments.event_type).toBe('Music');
  });
});

describe('mapArguments: review scores and areas of another kind', () => {
  it('gives a name written with one kind of area to no parameter of another kind', () => {
    const sub = tool({ sub_district_name: { type: 'string', description: 'The sub-district.' } }, ['sub_district_name']);
    expect(mapArguments(sub, 'a cleaner in Phuket Province').arguments.sub_district_name).toBeUndefined();
  });
});

describe('mapArguments: hours, materials and described kinds', () => {
  it('reads no adjective for a one-word type parameter', () => {
    const instrument = tool({ budget: { type: 'number' }, type: { type: 'string', description: 'Type of the instrument' } }, ['budget']);
    expect(mapArguments(instrument, 'a cheap instrument for my son under $200').arguments.type).toBeUndefined();
  });
});

describe('mapArguments: forms asked for', () => {
  it('reads a choice the description quotes when asked for "in the form of" it', () => {
    const factor = tool(
      {
        number: { type: 'integer' },
        return_type: { type: 'string', description: "Format of the result. Can be 'list' or 'dictionary'. Default is 'list'." },
      },
      ['number'],
    );
    expect(mapArguments(factor, 'factorize 84 and give it in the form of dictionary').arguments.return_type).toBe('dictionary');
  });
});

describe('mapArguments: limits of the role, kind, entry fee, party, ride, stay, later date, hour, material and city rules', () => {
  it('keeps "-based" and "-driven" in a kind', () => {
    const diet = tool({ diet_type: { type: 'string', description: 'Type of diet' } }, ['diet_type']);
    expect(mapArguments(diet, 'a plant-based diet meal plan').arguments.diet_type).not.toBe('plant');
  });
});

describe('mapArguments: types named by their description, stems of choices, example formats, pi', () => {
  it('finds a one-word described choice by its stem, beside a word of the description', () => {
    const t = tool(
      {
        company_name: { type: 'string', description: 'The name of the company.' },
        detail_level: { type: 'string', description: "Level of detail for stock information. Can be 'summary' or 'detailed'." },
      },
      ['company_name'],
    );
    expect(mapArguments(t, 'Give me detail information about stocks of Apple Inc.', undefined, { now }).arguments.detail_level).toBe(
      'detailed',
    );
    // the stem alone, away from the description's words, is no choice
    expect(mapArguments(t, 'Give me the stock of Apple Inc. in detail', undefined, { now }).arguments.detail_level).toBeUndefined();
  });
});

describe('mapArguments: values ruled out, area kinds and addresses as the examples write them', () => {
  it('takes no enum value the request rules out', () => {
    const t = tool(
      {
        user_id: { type: 'string' },
        status_filter: { type: 'string', enum: ['active', 'paused', 'completed'], description: 'Filter projects by status.' },
      },
      ['user_id'],
    );
    expect(
      mapArguments(t, 'What projects is "Adriel" working on? exclude any that are completed', undefined, { now }).arguments.status_filter,
    ).toBeUndefined();
    expect(
      mapArguments(t, 'Which projects of "Adriel" are paused, rather than completed?', undefined, { now }).arguments.status_filter,
    ).toBe('paused');
    expect(mapArguments(t, 'What completed projects does "Adriel" have?', undefined, { now }).arguments.status_filter).toBe('completed');
  });
});

describe("mapArguments: codes in a list, names that write another parameter's name", () => {
  it('reads a schema once for every request: the same tool gives each request its own codes and enum value', () => {
    // (codeMeanings and enumWords keep what the schema alone says, per parameter; nothing of a request)
    const t = tool(
      {
        province_id: { type: 'integer', description: 'ID of the province. Example: 1 for Bangkok, 2 for Chiang Mai.' },
        type: { type: 'string', description: 'The type of therapist.', enum: ['Psychologist', 'Family Counselor', 'Psychiatrist'] },
      },
      ['type'],
    );
    expect(mapArguments(t, 'A Family Therapist in Bangkok who offers ironing services', undefined, { now }).arguments).toEqual({
      province_id: 1,
      type: 'Family Counselor',
    });
    expect(mapArguments(t, 'A Psychiatrist in Chiang Mai who offers cleaning services', undefined, { now }).arguments).toEqual({
      province_id: 2,
      type: 'Psychiatrist',
    });
    expect(mapArguments(t, 'Someone in Chiang Mai, no massage', undefined, { now }).missingArguments).toEqual(['type']);
  });
});

describe('mapArguments: what the pi, number word, range end, label, stem, ruled-out value, time format and two-part name rules must not take', () => {
  it('finds a described choice by its stem only where one word starts the other', () => {
    const t = tool(
      { company: { type: 'string' }, scope: { type: 'string', description: "Scope of the information. Can be 'general' or 'financial'." } },
      ['company'],
    );
    expect(mapArguments(t, 'Generate information about Tesla', undefined, { now }).arguments.scope).toBeUndefined();
  });
});

describe('mapArguments: bare clock times, purposes, counted nouns, positions, makers, teams, ranges, venues and changes of value', () => {
  it('leaves a flag unset where the request does not mind either way, in that clause only', () => {
    const homes = tool({
      has_garage: { type: 'boolean', description: 'Indicates if the property must have a garage.' },
      in_unit_laundry: { type: 'boolean', description: 'Indicates if the property must have in-unit laundry facilities.' },
    });
    expect(mapArguments(homes, "I want 2 bedrooms, and I don't mind if it has a garage or not.").arguments).toEqual({});
    expect(mapArguments(homes, "I don't care about garage space, but I'd really like in-unit laundry.").arguments).toEqual({
      in_unit_laundry: true,
    });
  });
  it('reads a choice of several words whole, and a code of digit groups that opens with a zero', () => {
    // a choice of several words keeps its first word, however label-like ("Email")
    const post = tool({ platform: { type: 'string', enum: ['Social Media', 'Email Newsletter'] } }, ['platform']);
    expect(mapArguments(post, 'Send an email newsletter blast').arguments).toEqual({ platform: 'Email Newsletter' });
    const tokens = tool({ user_id: { type: 'string', description: 'The unique identifier for the user.' } }, ['user_id']);
    expect(mapArguments(tokens, "What's the API token for 098-293?").arguments).toEqual({ user_id: '098-293' });
    // a range of counts or a date is no code
    expect(mapArguments(tokens, 'tokens of users 100-200').arguments.user_id).not.toBe('100-200');
    expect(mapArguments(tokens, 'tokens made on 01-02-2023').arguments.user_id).not.toBe('01-02-2023');
  });
});

describe('mapArguments: an enum value squashed inside a longer number', () => {
  it('takes no value whose digits are the start or end of a longer number ("node_1" in "node 16")', () => {
    const t = tool({ runtime: { type: 'string', enum: ['node_1', 'node_18', 'python_3_1', 'python_3_9'] } }, ['runtime']);
    expect(mapArguments(t, 'create a runtime with node 16').arguments).toEqual({});
    expect(mapArguments(t, 'create a python 3.10 runtime').arguments).toEqual({});
    expect(mapArguments(t, 'create a runtime with python_3_10').arguments).toEqual({});
    // the squashed match itself stays: "Node-18", "python 3 9"
    expect(mapArguments(t, 'create a Node-18 runtime').arguments).toEqual({ runtime: 'node_18' });
    expect(mapArguments(t, 'create a runtime with python 3 9').arguments).toEqual({ runtime: 'python_3_9' });
  });

  it('reads no number as the abbreviation of a shorter one ("release 100" is no "rel_10")', () => {
    const t = tool({ release: { type: 'string', enum: ['rel_10_lts', 'rel_12_lts'] } }, ['release']);
    expect(mapArguments(t, 'pin the release 100 lts').arguments).toEqual({});
    expect(mapArguments(t, 'pin the release 12 lts').arguments).toEqual({ release: 'rel_12_lts' });
  });
});
