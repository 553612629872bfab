import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { tool } from './test-tool.js';

const NOW = new Date(Date.UTC(2023, 9, 1));

describe('mapArguments: trace and skipModules', () => {
  const t = tool(
    {
      count: { type: 'integer', description: 'Number of results' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit' },
      q: { type: 'string', description: 'Search term' },
    },
    ['count', 'unit', 'q'],
  );
  const request = 'search for "solar panels", 5 results, in fahrenheit';

  it('attributes each value to the module that proposed it, with why and the runner-up', () => {
    const m = mapArguments(t, request, undefined, { now: NOW, trace: true });
    expect(m.arguments).toEqual({ count: 5, unit: 'fahrenheit', q: 'solar panels' });
    expect(m.trace?.count).toMatchObject({ value: 5, module: 'numbers' });
    expect(m.trace?.count.why).toContain('"5"');
    expect(m.trace?.unit).toMatchObject({ value: 'fahrenheit', module: 'enums' });
    expect(m.trace?.q).toMatchObject({ value: 'solar panels', module: 'spans' });
    expect(m.trace?.q.why).toBe('quoted "solar panels"');
    // the runner-up is the best other value offered, here the words after "search for"
    expect(m.trace?.q.runnerUp).toMatchObject({ module: 'searchPhrase' });
    expect(m.trace?.q.runnerUp?.value).not.toBe('solar panels');
  });

  it('names the mapObject step for a value no module proposed (name=value)', () => {
    const m = mapArguments(t, 'count=7 unit=celsius q=panels', undefined, { now: NOW, trace: true });
    expect(m.trace?.count).toMatchObject({ value: 7, module: 'pair' });
  });

  it('reports no trace and maps the same when the option is off', () => {
    const off = mapArguments(t, request, undefined, { now: NOW });
    const on = mapArguments(t, request, undefined, { now: NOW, trace: true });
    expect(off.trace).toBeUndefined();
    expect(off.arguments).toEqual(on.arguments);
    expect(off.missingArguments).toEqual(on.missingArguments);
  });

  it('leaves out a skipped module: its values come from elsewhere or not at all, the others stay', () => {
    const m = mapArguments(t, request, undefined, { now: NOW, skipModules: ['numbers'], trace: true });
    // (mapObject's last resort, numbers left over in reading order, still fills a required count)
    expect(m.trace?.count?.module).not.toBe('numbers');
    expect(['positional', 'order']).toContain(m.trace?.count?.module);
    expect(m.arguments).toMatchObject({ unit: 'fahrenheit', q: 'solar panels' });
    const e = mapArguments(t, request, undefined, { now: NOW, skipModules: ['enums'] });
    expect(e.arguments).not.toHaveProperty('unit');
    expect(e.missingArguments).toContain('unit');
  });
});
