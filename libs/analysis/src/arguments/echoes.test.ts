import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import type { MapperTool } from '../types.js';
import {} from './test-tool.js';

describe("mapArguments: the tool's own name", () => {
  it("takes no word before a parameter's head noun that only repeats the tool's name", () => {
    const scale = {
      name: 'musical_scale',
      description: '',
      inputSchema: {
        type: 'object',
        properties: {
          key: { type: 'string', description: 'The musical key.' },
          scale_type: { type: 'string', description: 'Type of scale.', default: 'major' },
        },
        required: ['key'],
      },
    };
    expect(mapArguments(scale, 'the musical scale of D major').arguments.scale_type).toBeUndefined();
    // a word that is no part of the tool's name is still read ("a deluxe room" for hotel_booking's room_type)
    const hotel = {
      name: 'hotel_booking',
      description: '',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, room_type: { type: 'string', description: 'Type of room.' } },
        required: ['city'],
      },
    };
    expect(mapArguments(hotel, 'a deluxe room in Lyon').arguments.room_type).toBe('deluxe');
    expect(mapArguments(hotel, 'a hotel room in Lyon').arguments.room_type).toBeUndefined();
  });

  it('leaves out an optional parameter whose best value only repeats the tool\'s name ("at Walmart")', () => {
    const walmart = {
      name: 'walmart.check_price',
      description: 'Total price of items at a Walmart store.',
      inputSchema: {
        type: 'object',
        properties: {
          items: { type: 'array', items: { type: 'string' } },
          store_location: { type: 'string', description: 'Location of the store.' },
        },
        required: ['items'],
      },
    };
    expect(mapArguments(walmart, 'Check the total price for pumpkins and eggs at Walmart.').arguments.store_location).toBeUndefined();
    // another place is still the store's location
    expect(
      mapArguments(walmart, 'Check the total price for pumpkins and eggs at the Walmart in Austin, TX.').arguments.store_location,
    ).toMatch(/Austin/);
    // left out, not filled with the next place the request names
    const tax = {
      name: 'california_tax.calculate',
      description: 'State income tax in California.',
      inputSchema: {
        type: 'object',
        properties: {
          income: { type: 'number', description: 'Yearly income in dollars.' },
          state: { type: 'string', description: 'The US state.' },
        },
        required: ['income'],
      },
    };
    expect(mapArguments(tax, 'I moved from Texas. What is my California state tax on 80000 income?').arguments).toEqual({ income: 80000 });
    // a required place parameter keeps a known place: the tool's subject is then its value
    const tokyo = {
      name: 'get_tokyo_weather',
      description: 'Weather in Tokyo.',
      inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'The city.' } }, required: ['city'] },
    };
    expect(mapArguments(tokyo, 'Weather in Tokyo for my trip from Osaka').arguments.city).toBe('Tokyo');
    // a name that is not of the parameter's kind is no value of it, and the next one is
    const netflix = {
      name: 'netflix.search',
      description: 'Search Netflix.',
      inputSchema: { type: 'object', properties: { title: { type: 'string', description: 'Title of the show.' } }, required: ['title'] },
    };
    expect(mapArguments(netflix, 'search Netflix for Stranger Things').arguments.title).toBe('Stranger Things');
    const store = {
      ...walmart,
      inputSchema: {
        ...walmart.inputSchema,
        properties: {
          product: { type: 'string', description: 'Product.' },
          store_location: { type: 'string', description: 'Location of the store.' },
        },
        required: ['product'],
      },
    };
    expect(mapArguments(store, 'check the price of "milk" at Walmart in Dallas').arguments).toEqual({
      product: 'milk',
      store_location: 'Dallas',
    });
  });
});

describe('mapArguments: bare clock times, purposes, counted nouns, positions, makers, teams, ranges, venues and changes of value', () => {
  it("drops the tool's own verb from a whole request, where the tool is named by two words or more", () => {
    const reverse: MapperTool = {
      name: 'reverse_input',
      inputSchema: {
        type: 'object',
        properties: { input_value: { type: 'string', description: 'The user input to reverse.' } },
        required: ['input_value'],
      },
    };
    expect(mapArguments(reverse, 'Reverse say hi').arguments).toEqual({ input_value: 'say hi' });
    const post: MapperTool = {
      name: 'post_message',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'The text of the message the user wants posted.' } },
        required: ['text'],
      },
    };
    expect(mapArguments(post, 'Post that the launch went great').arguments).toEqual({ text: 'the launch went great' });
    const echo: MapperTool = {
      name: 'echo',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'The user message to echo.' } },
        required: ['message'],
      },
    };
    expect(mapArguments(echo, 'Echo chambers are dangerous').arguments).toEqual({ message: 'Echo chambers are dangerous' });
    // a search's quoted terms stay as written
    const search: MapperTool = {
      name: 'search_engine.query',
      inputSchema: { type: 'object', properties: { prompt: { type: 'string', description: 'The search query.' } }, required: ['prompt'] },
    };
    expect(mapArguments(search, "Search for 'the lord of the rings'").arguments).toEqual({ prompt: 'the lord of the rings' });
  });
});
