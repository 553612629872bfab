// The small catalog the ToolIndex tests search.
import type { SearchableTool } from './types.js';

export const SMALL: SearchableTool[] = [
  {
    name: 'get_current_weather',
    title: 'Current Weather',
    description: 'Get the current weather conditions for a city.',
    inputSchema: {
      type: 'object',
      properties: { location: { type: 'string', description: 'City name' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    },
  },
  {
    name: 'math.factorial',
    description: 'Calculate the factorial of a given number.',
    inputSchema: { type: 'object', properties: { number: { type: 'integer' } } },
  },
  {
    name: 'search_flights',
    description: 'Search for flights between two airports on a date.',
    inputSchema: { type: 'object', properties: { origin: { type: 'string' }, destination: { type: 'string' } } },
  },
  {
    name: 'bing_search',
    description: '使用必应搜索指定的关键词，并返回搜索结果列表',
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: '搜索关键词' } } },
  },
  { name: 'send_email', description: 'Send an e-mail message to a recipient.' },
  { name: 'weather', description: 'Weather forecast for the next days.' },
];
