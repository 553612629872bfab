import { describe, expect, it } from 'vitest';
import { ToolIndex } from './tool-index.js';
import { impliedToolWords } from './value-types.js';

describe('impliedToolWords: shell commands, currencies, units and orders (request-cues.ts)', () => {
  it('reads a shell command asked for as "execute command"', () => {
    for (const q of [
      'say hi using the echo command',
      'shutdown the pc, using the exact command shutdown /s /t 0',
      'remove shortcut of putty from desktop, using the instruction del "%userprofile%\\Desktop\\putty.lnk"',
      'list c drive',
      'LIST C DRIIVE',
      'Run the Python script located at d:/playground/test.py',
      'open a command prompt',
      'run it in PowerShell',
    ]) {
      expect(impliedToolWords(q), q).toEqual(['execute', 'command']);
    }
    for (const q of [
      'I drive 20 miles a day',
      'go for a drive',
      'Welcome: Command not found.',
      'the commander of the fleet',
      'https://example.com/a:b',
      // (near misses: a company, an airport, a trip's length, URL escapes, a topic)
      "What's the stock price of Shell?",
      'Which terminal does flight UA123 leave from?',
      'How long is a 4 h drive from Boston to New York?',
      'Navigate to http://site.com/a%20b%20c%20d',
      'Search Slack for messages about the PowerShell outage',
    ])
      expect(impliedToolWords(q), q).toEqual([]);
  });

  it('reads two currencies named as a conversion', () => {
    for (const q of [
      'How many Canadian dollars can I get for 500 US dollars?',
      'How much will 20000 Japanese Yen be in United States Dollar?',
      'I have 100 euro. How much is it in USD?',
      'What is $20 in British pounds?',
      'Convert 150 EUR to JPY',
    ]) {
      expect(impliedToolWords(q), q).toEqual(['currency', 'convert', 'exchange']);
    }
    // one currency, however written, is no conversion; nor are words that are mostly something else
    for (const q of [
      'Transfer $20 to Bob and $30 to Alice',
      'a budget of 500 dollars for 2 dollars a day',
      'I won the game',
      'Remind me to pay $1,200 USD rent on Friday',
      'Try to find flights under $800',
      'A 5 pound bag of rice costs $12',
      'I have a budget of $200 dollars',
    ])
      expect(impliedToolWords(q), q).toEqual([]);
  });

  it('reads a unit asked for in another as a unit conversion', () => {
    for (const q of ['How many ounces in 2 pounds of butter?', 'how many cups are in a gallon', 'How many seconds are there in 3 hours?'])
      expect(impliedToolWords(q), q).toEqual(['convert', 'conversion', 'unit']);
    for (const q of [
      'how many pounds did I lose in 3 weeks',
      'How many people live in 2 cities',
      'how many miles did I run',
      'How many calories in 2 pounds of chicken?',
      'How many hours in a week are booked on my calendar?',
    ])
      expect(impliedToolWords(q), q).toEqual([]);
  });

  it('reads an order asked for between two ends as a sort', () => {
    for (const q of ['I need the numbers [1, 54, 3] arranged from the smallest to the largest.', 'list them from highest to lowest'])
      expect(impliedToolWords(q), q).toEqual(['sort', 'order']);
    for (const q of [
      'the largest city',
      'drive from the first to the last street of town in order to park',
      'Show my orders from newest to oldest',
    ])
      expect(impliedToolWords(q), q).toEqual([]);
  });

  it('lets "list c drive" reach the tool that executes a command', () => {
    const tools = [
      {
        name: 'cmd_controller.execute',
        description: 'Executes a command in the Windows operating system using os.system().',
        inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
      },
      {
        name: 'get_shortest_driving_distance',
        description: 'Shortest driving distance between two places.',
        inputSchema: { type: 'object', properties: { origin: { type: 'string' } } },
      },
    ];
    expect(ToolIndex.build(tools).search('list c drive', 2)[0].name).toBe('cmd_controller.execute');
    expect(ToolIndex.build(tools, { impliedWordWeight: 0 }).search('list c drive', 2)[0].name).toBe('get_shortest_driving_distance');
  });
});
