import { describe, expect, it } from 'vitest';
import { ToolIndex } from './tool-index.js';
import { valueTypeTerms } from './value-types.js';

describe('valueTypeTerms', () => {
  it('finds a date in English and Chinese wordings', () => {
    for (const q of ['the forecast on March 4th, 2023', 'on the 4th of march', 'due 2023-03-08', 'on 3/8/2023', 'tomorrow in Paris', 'next Wednesday', 'this weekend', '明天北京的天气', '3月8日的航班']) {
      expect(valueTypeTerms(q), q).toContain('date');
    }
  });

  it('finds a clock time', () => {
    for (const q of ['move it to 4:30 PM', 'remind me at 9pm', 'at 11:00 a.m. sharp', 'the 16:45 train']) expect(valueTypeTerms(q), q).toContain('time');
  });

  it('finds nothing in requests without such values', () => {
    for (const q of ['market 12 stocks', 'a ratio of 3/4', 'version 1.2.3', 'find 5 apples', 'get the weather']) expect(valueTypeTerms(q), q).toEqual([]);
  });

  it('lets a request that holds a date prefer the tool that takes a date', () => {
    const tools = [
      { name: 'city_weather', description: 'Weather conditions and forecast for a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
      {
        name: 'city_weather_v2',
        description: 'Weather report of a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' }, date: { type: 'string', description: 'Day, YYYY-MM-DD' } } },
      },
    ];
    const query = 'weather in Campbell on March 4th, 2023';
    expect(ToolIndex.build(tools).search(query, 2)[0].name).toBe('city_weather_v2');
    // without the value type the other tool wins: the date is what decides
    expect(ToolIndex.build(tools, { valueTypeWeight: 0 }).search(query, 2)[0].name).toBe('city_weather');
  });
});
