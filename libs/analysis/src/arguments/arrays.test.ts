import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { now, tool } from './test-tool.js';

describe('mapArguments: arrays and objects', () => {
  it('parses list literals, written lists and enum items', () => {
    const v = tool({ vector: { type: 'array', items: { type: 'integer' } } }, ['vector']);
    expect(mapArguments(v, 'similarity of vector [3, 2, 1]').arguments).toEqual({ vector: [3, 2, 1] });
    const tags = tool({ tags: { type: 'array', items: { type: 'string' } } }, ['tags']);
    expect(mapArguments(tags, 'tags: red, green and blue').arguments).toEqual({ tags: ['red', 'green', 'blue'] });
    const avoid = tool({ avoid: { type: 'array', items: { type: 'string', enum: ['tolls', 'highways', 'ferries'] } } }, []);
    expect(mapArguments(avoid, 'avoid highways and toll roads').arguments).toEqual({ avoid: ['highways', 'tolls'] });
  });

  it('fills nested objects from the same text', () => {
    const t = tool(
      {
        budget: {
          type: 'object',
          properties: { min: { type: 'integer', description: 'Minimum price.' }, max: { type: 'integer', description: 'Maximum price.' } },
          required: ['min', 'max'],
        },
      },
      ['budget'],
    );
    expect(mapArguments(t, 'a villa with a budget from $300,000 to $400,000').arguments).toEqual({ budget: { min: 300000, max: 400000 } });
  });
});

describe('mapArguments: context, defaults and refusals', () => {
  it('maps a context object by name, including snake/camel variants', () => {
    const t = tool({ user_id: { type: 'integer' }, apiKey: { type: 'string' } }, ['user_id', 'apiKey']);
    expect(mapArguments(t, 'fetch my profile', { userId: '42', api_key: 'k-1' }).arguments).toEqual({ user_id: 42, apiKey: 'k-1' });
  });
});

describe('mapArguments: values written around other values', () => {
  it('reads a required list of plain words joined by "and"', () => {
    const t = tool({ toppings: { type: 'array', items: { type: 'string' }, description: 'Toppings to add.' } }, ['toppings']);
    expect(mapArguments(t, 'Make me a pizza that has olives, sweet corn and fresh basil.').arguments).toEqual({
      toppings: ['olives', 'sweet corn', 'fresh basil'],
    });
  });
});

describe('mapArguments: commands around the word, numbered words, nested objects last', () => {
  it('fills top-level parameters before a nested object takes what is left', () => {
    const t = tool(
      {
        url: { type: 'string', description: 'The endpoint URL.' },
        params: {
          type: 'object',
          description: 'Query parameters.',
          properties: {
            query: { type: 'string', description: 'The query string to send, for example a URL or keywords.' },
            limit: { type: 'integer', description: 'Max results.' },
          },
        },
      },
      ['url'],
    );
    expect(mapArguments(t, "fetch 'https://api.example.org/v2/items' with a limit of 20").arguments).toEqual({
      url: 'https://api.example.org/v2/items',
      params: { limit: 20 },
    });
  });
});

describe('mapArguments: no value from prose defaults, plain English, regions, adverbs or periods only mentioned', () => {
  it('takes no adverbs or day words as numbered word values or list items', () => {
    expect(
      mapArguments(
        tool({ color1: { type: 'string' }, color2: { type: 'string' } }, ['color1', 'color2']),
        'mix the colors quickly and carefully',
      ).arguments,
    ).toEqual({});
    expect(
      mapArguments(
        tool({ date1: { type: 'string' }, date2: { type: 'string' } }, ['date1', 'date2']),
        'days between today and tomorrow',
        undefined,
        { now },
      ).arguments,
    ).toEqual({});
    expect(
      mapArguments(
        tool({ ingredients: { type: 'array', items: { type: 'string' } } }, ['ingredients']),
        'Find a recipe I can cook quickly and easily',
      ).arguments,
    ).toEqual({});
  });
});

describe('mapArguments: counted items', () => {
  const order = tool(
    {
      store: { type: 'string', description: 'The store or restaurant name.' },
      items: { type: 'array', items: { type: 'string' }, description: 'Items to order.' },
    },
    ['store', 'items'],
  );

  it('fills the items, dropping what holds or measures an item', () => {
    expect(mapArguments(order, 'Order three bottles of olive oil and a five pound bag of rice from Safeway.').arguments).toEqual({
      store: 'Safeway',
      items: ['olive oil', 'rice'],
    });
    expect(mapArguments(order, 'the price of three pumpkins and two dozen eggs at Walmart').arguments).toEqual({
      store: 'Walmart',
      items: ['pumpkins', 'eggs'],
    });
  });
});

describe('mapArguments: what the item count, year, colour, negation, key and possessive rules must not take', () => {
  const order = tool(
    {
      store: { type: 'string', description: 'The store.' },
      items: { type: 'array', items: { type: 'string' }, description: 'Items to order.' },
    },
    [],
  );

  it('counts items only where a number counts things ordered', () => {
    expect(mapArguments(order, 'Order a large pizza and 2 cokes from Dominos').arguments).toMatchObject({
      items: ['large pizza', 'cokes'],
    });
    expect(mapArguments(order, 'Add 3 things to my list: laundry, dishes, and groceries').arguments.items).not.toEqual(['things']);
    expect(mapArguments(order, 'Order pizza from Dominos at 7 pm and 2 cokes').arguments.items ?? []).not.toContain('pm');
  });
});

describe('mapArguments: identifiers and names', () => {
  it('takes no count written in words for an identifier, and reads "the X I ordered is Y"', () => {
    const order = tool(
      {
        order_id: { type: 'string', description: 'The unique identifier of the order.' },
        product: { type: 'string', description: 'The name of the product that was ordered.' },
      },
      ['order_id', 'product'],
    );
    expect(
      mapArguments(order, 'where is my order? the order ID is #4410, and the product I bought was a pair of boots.').arguments,
    ).toEqual({ order_id: '#4410', product: 'pair of boots' });
  });
});

describe('mapArguments: limits of the coordinate, example list, country, deck, probability, duration, rating and acronym rules', () => {
  it('takes no example the request negates into a list, and no list for things to leave out', () => {
    const hotels = tool(
      {
        location: { type: 'string' },
        amenities: { type: 'array', items: { type: 'string' }, description: 'Required amenities, such as pool, gym, parking.' },
      },
      ['location'],
    );
    expect(mapArguments(hotels, "Hotels in Denver, I don't need a pool or parking").arguments.amenities).toBeUndefined();
    const recipes = tool(
      {
        query: { type: 'string' },
        exclude_ingredients: { type: 'array', items: { type: 'string' }, description: 'Ingredients to exclude, e.g. nuts, dairy, eggs.' },
      },
      ['query'],
    );
    expect(mapArguments(recipes, 'a cookie recipe with nuts and eggs').arguments.exclude_ingredients).toBeUndefined();
  });
});

describe('mapArguments: lists written as runs', () => {
  it('takes a run of quoted values joined by "and" whole, not its first value', () => {
    const t = tool(
      {
        networkId: { type: 'array', items: { type: 'string' }, description: 'The network IDs to filter by.' },
        perPage: { type: 'integer' },
      },
      [],
    );
    expect(
      mapArguments(t, "Get the latest readings from sensors within the networks 'n1' and 'n2'", undefined, { now }).arguments.networkId,
    ).toEqual(['n1', 'n2']);
    // quoted values apart from each other are no run
    expect(
      mapArguments(t, "Get the readings within the network 'n1'; label them 'urgent'", undefined, { now }).arguments.networkId,
    ).toEqual(['n1']);
  });

  it('drops a label word that opens a list item', () => {
    const t = tool(
      {
        order_id: { type: 'string', description: 'The order ID.' },
        items: { type: 'array', items: { type: 'string' }, description: 'List of unique identifiers for items included in the order.' },
      },
      ['order_id', 'items'],
    );
    expect(
      mapArguments(t, 'The order ID is ORD123, it includes the items with IDs ITM456 and ITM789.', undefined, { now }).arguments.items,
    ).toEqual(['ITM456', 'ITM789']);
  });
});

describe('mapArguments: bare clock times, purposes, counted nouns, positions, makers, teams, ranges, venues and changes of value', () => {
  it('fills a required range object from "within X to Y"', () => {
    const homes = tool(
      {
        bedrooms: { type: 'integer', description: 'Number of bedrooms required in the property.' },
        budget: {
          type: 'object',
          description: 'Budget range for the property.',
          properties: {
            min: { type: 'number', description: 'Minimum budget limit.' },
            max: { type: 'number', description: 'Maximum budget limit.' },
          },
        },
      },
      ['bedrooms', 'budget'],
    );
    expect(mapArguments(homes, 'Find a 3 bedroom villa for sale within $300,000 to $400,000 budget in San Diego.').arguments).toEqual({
      bedrooms: 3,
      budget: { min: 300000, max: 400000 },
    });
    // an optional object still needs a clear cue
    const optional = tool({ budget: { type: 'object', properties: { min: { type: 'number' }, max: { type: 'number' } } } });
    expect(mapArguments(optional, 'Show me 3 villas').arguments).toEqual({});
  });
});
