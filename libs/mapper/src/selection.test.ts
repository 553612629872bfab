import { describe, it, expect } from 'vitest';
import { CONFIDENCE_THRESHOLD } from '@toolsurface/core';
import { UnifiedMapper } from './index.js';
import { baseName, namespaceStems } from './mapper.js';
import { FEATURE_NAMES, nameOperation } from '@toolsurface/search';
import { arithmeticClash, forbidsDeletion, requestOperation } from './selection.js';
import type { MapperTool, RankedCandidate } from './index.js';

describe('UnifiedMapper: destructive actions on one side only', () => {
  const files: MapperTool[] = [
    {
      name: 'delete_files',
      description: 'Delete files of a type.',
      inputSchema: {
        type: 'object',
        properties: { file_type: { type: 'string', description: 'File extension.' } },
        required: ['file_type'],
      },
    },
    {
      name: 'list_files',
      description: 'List files of a type.',
      inputSchema: {
        type: 'object',
        properties: { file_type: { type: 'string', description: 'File extension.' } },
        required: ['file_type'],
      },
    },
  ];
  const m = new UnifiedMapper(files, (_q, limit) => files.map((t, i) => ({ name: t.name, score: 2 - i })).slice(0, limit));
  // a confident candidate as the reranker would give it, with the clash rank() computes
  const confident = (name: string, clash?: { asked: string; does: string }): RankedCandidate => ({
    name,
    retrieval: { name, score: 1, rank: 0 },
    mapping: {
      arguments: { file_type: 'txt' },
      missingArguments: [],
      filledRatio: 1,
      evidence: {},
      unusedSalient: 0,
      unusedValues: [],
      coordinated: [],
      salient: 1,
      requiredCount: 1,
      covered: [],
      mentionedUnfilled: 0,
      weakKinds: 0,
      paramCount: 1,
      datesAsWritten: 0,
    },
    features: [],
    rerankScore: 5,
    prob: 0.95,
    confFeatures: [],
    toolConfidence: 0.95,
    fullConfidence: 0.93,
    clash,
  });

  it('never runs a tool named for deleting unless deleting is asked, nor another tool for a delete request', () => {
    const r = m.decide([confident('list_files', { asked: 'delete', does: 'find' })]);
    expect(r.decision).toBe('low_confidence');
    expect(r.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
    expect(r.explanation).toMatch(/asks to delete/);
    expect(m.decide([confident('list_files')]).decision).toBe('execute');
  });

  it('runs neither of two versions of one call (the same parameters) that read the request differently', () => {
    const version = (name: string, args: Record<string, unknown>, shape = 'file_type'): RankedCandidate => ({
      ...confident(name),
      shape,
      mapping: { ...confident(name).mapping, arguments: args },
    });
    const r = m.decide([version('files:list_files:v1', { file_type: 'True' }), version('files:list_files:v2', { file_type: true })]);
    expect(r.decision).toBe('low_confidence');
    expect(r.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
    expect(r.explanation).toMatch(/files:list_files:v1 and files:list_files:v2 take the same parameters but read the request differently/);
    // the same reading, another shape, or a version that lacks a required value: no doubt which call is made
    expect(
      m.decide([version('files:list_files:v1', { file_type: 'txt' }), version('files:list_files:v2', { file_type: 'txt' })]).decision,
    ).toBe('execute');
    expect(
      m.decide([version('list_files_v1', { file_type: 'txt' }), version('find_files', { file_type: 'md' }, 'file_type,folder')]).decision,
    ).toBe('execute');
    // another call of the same parameters is no version of it ("list" and "delete" files)
    expect(m.decide([version('list_files', { file_type: 'txt' }), version('delete_files', { file_type: 'md' })]).decision).toBe('execute');
    expect(m.decide([version('github.list_files', { file_type: 'txt' }), version('gitlab.list_files', { file_type: 'md' })]).decision).toBe(
      'low_confidence',
    );
    const lacking = version('files:list_files:v2', {});
    expect(
      m.decide([
        version('files:list_files:v1', { file_type: 'txt' }),
        { ...lacking, mapping: { ...lacking.mapping, missingArguments: ['file_type'] } },
      ]).decision,
    ).toBe('execute');
    expect(
      [
        'bfcl:Homes_2_FindHomeByArea:481a7ef4',
        'github.search_issues',
        'gitlab/search_issues',
        'srv__search_issues',
        'search_issues:v2',
      ].map(baseName),
    ).toEqual(['homes_2_findhomebyarea', 'search_issues', 'search_issues', 'search_issues', 'search_issues']);
    // the same values in another order are one reading; a preferred tool, or one whose namespace the request names, is meant
    expect(m.decide([version('google.create_event', { a: 1, b: 2 }), version('outlook.create_event', { b: 2, a: 1 })]).decision).toBe(
      'execute',
    );
    const preferredFeatures = Array.from({ length: FEATURE_NAMES.length }, (_, i) => (FEATURE_NAMES[i] === 'preferred' ? 1 : 0));
    expect(
      m.decide([
        { ...version('google.create_event', { date: '2023-10-12' }), features: preferredFeatures },
        version('outlook.create_event', { date: '10/12/2023' }),
      ]).decision,
    ).toBe('execute');
    expect(
      m.decide([
        { ...version('google.create_event', { date: '2023-10-12' }), namespaceNamed: true },
        version('outlook.create_event', { date: '10/12/2023' }),
      ]).decision,
    ).toBe('execute');
    expect(namespaceStems('google_calendar.create_event')).toEqual(['googl', 'calendar']);
    // rank() gives each candidate its tool's shape
    expect(m.rank({ request: 'list txt files' }, new Set()).map((c) => c.shape)).toEqual(['file_type', 'file_type']);
  });

  it('finds the clash from the request and the tool name, and a preferred tool has none', () => {
    const ranked = m.rank({ request: 'delete all txt files' }, new Set());
    expect(ranked.find((c) => c.name === 'list_files')?.clash).toEqual({ asked: 'delete', does: 'find' });
    expect(ranked.find((c) => c.name === 'delete_files')?.clash).toBeUndefined();
    expect(m.rank({ request: 'list the txt files' }, new Set()).find((c) => c.name === 'delete_files')?.clash).toEqual({
      asked: 'find',
      does: 'delete',
    });
    expect(m.rank({ request: 'show me the txt files' }, new Set()).find((c) => c.name === 'delete_files')?.clash).toEqual({
      asked: 'something else',
      does: 'delete',
    });
    expect(
      m.rank({ request: 'show me the txt files' }, new Set(['delete_files'])).find((c) => c.name === 'delete_files')?.clash,
    ).toBeUndefined();
    // the name's first action word is its action: get_drop_rate gets, it drops nothing
    const games: MapperTool[] = [
      {
        name: 'get_drop_rate',
        description: 'Get the drop rate of an item.',
        inputSchema: { type: 'object', properties: { item: { type: 'string', description: 'The item.' } }, required: ['item'] },
      },
    ];
    const g = new UnifiedMapper(games, (_q, limit) => games.map((t) => ({ name: t.name, score: 1 })).slice(0, limit));
    expect(g.rank({ request: "how rare is the 'Dragon Sword'?" }, new Set())[0].clash).toBeUndefined();
  });

  it('reads a negated deletion as no deletion: the delete tool is not run, another tool may be', () => {
    for (const request of [
      'do not delete the txt files',
      "don't remove any txt files, just list them",
      'list the txt files without deleting them',
      'never erase the txt files',
    ]) {
      expect(forbidsDeletion(request), request).toBe(true);
      expect(m.rank({ request }, new Set()).find((c) => c.name === 'delete_files')?.clash, request).toEqual({
        asked: 'not delete',
        does: 'delete',
      });
    }
    expect(
      m.rank({ request: "don't remove any txt files, just list them" }, new Set()).find((c) => c.name === 'list_files')?.clash,
    ).toBeUndefined();
    for (const request of [
      'don’t delete the txt files',
      "you mustn't remove them",
      'do not, under any circumstances, delete the txt files',
      'stop deleting the txt files',
      'refrain from deleting the txt files',
    ])
      expect(forbidsDeletion(request), request).toBe(true);
    for (const request of [
      'delete all txt files',
      'remove the notes file',
      'No, delete the txt files',
      'is there a way to delete txt files?',
      "please don't forget to delete the txt files",
      "don't hesitate to delete them",
      'without a doubt, delete the txt files',
      'delete the txt files if they are not needed',
      'cancel order 123 since the payment did not clear',
      "the file isn't removed yet, delete it",
    ])
      expect(forbidsDeletion(request), request).toBe(false);
    expect(m.rank({ request: 'delete all txt files' }, new Set()).find((c) => c.name === 'delete_files')?.clash).toBeUndefined();
  });
});

describe('UnifiedMapper: arithmetic the tool does not do', () => {
  const calc: MapperTool[] = [
    {
      name: 'everything:get-sum',
      description: 'Returns the sum of two numbers.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
        required: ['a', 'b'],
      },
    },
  ];
  const m = new UnifiedMapper(calc, (_q, limit) => calc.map((t) => ({ name: t.name, score: 1 })).slice(0, limit));

  it('finds the clash between the operation asked for and the one the name says', () => {
    const clash = (request: string, toolName: string): ReturnType<typeof arithmeticClash> =>
      arithmeticClash(requestOperation(request), nameOperation(toolName));
    expect(clash('What is 100 minus 40?', 'everything:get-sum')).toEqual({ asked: 'subtract', does: 'add' });
    expect(clash('what is 6 times 7', 'get-sum')).toEqual({ asked: 'multiply', does: 'add' });
    expect(clash('divide 84 by 7', 'sum_numbers')).toEqual({ asked: 'divide', does: 'add' });
    // a sign is no subtraction; the same operation, or none named, is no clash
    expect(clash('What is the sum of 17 and minus 25?', 'get-sum')).toBeUndefined();
    expect(clash('add 17 and 25', 'get-sum')).toBeUndefined();
    expect(clash('what do 17 and 25 make', 'get-sum')).toBeUndefined();
    expect(clash('What is 100 minus 40?', 'calculate')).toBeUndefined();
    expect(clash('What is 100 minus 40?', 'CalcProduct')).toEqual({ asked: 'subtract', does: 'multiply' });
    // only arithmetic tools, and "add" only with two numbers
    expect(clash('subtract 5 users from the plan', 'add_to_cart')).toBeUndefined();
    expect(clash('What is 100 minus 40?', 'get_product_details')).toBeUndefined();
    expect(clash('add a user to my sub account', 'get_sub_accounts')).toBeUndefined();
    expect(clash('add 17 and 25', 'math.subtract')).toEqual({ asked: 'add', does: 'subtract' });
    // a sign after "to"/"by" is no subtraction; a dotted or calculator name is still an arithmetic tool
    expect(clash('add 17 to minus 25', 'get-sum')).toBeUndefined();
    expect(clash('What is 6 times minus 3?', 'multiply')).toBeUndefined();
    expect(clash('What is 100 minus 40?', 'calculator.add')).toEqual({ asked: 'subtract', does: 'add' });
    expect(clash('What is 100 minus 40?', 'sum_list')).toEqual({ asked: 'subtract', does: 'add' });
  });

  it('does not run a sum for a subtraction, and reads "minus 25" after a word as a negative number', () => {
    const r = m.map({ request: 'What is 100 minus 40?' });
    expect(r.decision).not.toBe('execute');
    expect(m.rank({ request: 'What is 100 minus 40?' }, new Set())[0].clash).toEqual({ asked: 'subtract', does: 'add' });
    const neg = m.rank({ request: 'What is the sum of 17 and minus 25?' }, new Set())[0];
    expect(neg.clash).toBeUndefined();
    expect(neg.mapping.arguments).toEqual({ a: 17, b: -25 });
  });
});

describe('UnifiedMapper: values the call would leave out', () => {
  const calc: MapperTool[] = [
    {
      name: 'add',
      description: 'Add two numbers.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
        required: ['a', 'b'],
      },
    },
  ];
  const m = new UnifiedMapper(calc, (_q, limit) => calc.map((t) => ({ name: t.name, score: 1 })).slice(0, limit));

  it('lists the request values no argument takes', () => {
    const r = m.rank({ request: 'add 17 and 25 and 3' }, new Set())[0];
    expect(r.mapping.arguments).toEqual({ a: 17, b: 25 });
    expect(r.mapping.unusedValues).toEqual(['3']);
    expect(m.rank({ request: 'add 17 and 25' }, new Set())[0].mapping.unusedValues).toEqual([]);
  });

  it('does not run a call that leaves out a value of the request, however confident', () => {
    const [top] = m.rank({ request: 'add 17 and 25 and 3' }, new Set());
    const r = m.decide([{ ...top, toolConfidence: 0.95, fullConfidence: 0.93 }]);
    expect(r.decision).toBe('low_confidence');
    expect(r.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
    expect(r.explanation).toMatch(/leave out "3"/);
    // a number no parameter could take is no value left out ("I'm 30" for a weather call)
    const wx: MapperTool[] = [
      {
        name: 'get_weather',
        description: 'Weather in a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
      },
    ];
    const w = new UnifiedMapper(wx, (_q, limit) => wx.map((t) => ({ name: t.name, score: 1 })).slice(0, limit));
    expect(w.rank({ request: "I'm 30, what's the weather in Paris?" }, new Set())[0].mapping.unusedValues).toEqual([]);
    const [whole] = m.rank({ request: 'add 17 and 25' }, new Set());
    expect(m.decide([{ ...whole, toolConfidence: 0.95, fullConfidence: 0.93 }]).decision).toBe('execute');
  });

  it('does not run a call that takes one of two values joined by "and"', () => {
    const stocks: MapperTool[] = [
      {
        name: 'get_stock_price',
        description: 'Latest price of a stock.',
        inputSchema: {
          type: 'object',
          properties: { ticker: { type: 'string', description: 'Ticker symbol, e.g. AAPL' } },
          required: ['ticker'],
        },
      },
      {
        name: 'cosine_similarity',
        description: 'Cosine similarity of two vectors.',
        inputSchema: {
          type: 'object',
          properties: { vector1: { type: 'array', items: { type: 'number' } }, vector2: { type: 'array', items: { type: 'number' } } },
          required: ['vector1', 'vector2'],
        },
      },
    ];
    const s = new UnifiedMapper(stocks, (_q, limit) => stocks.map((t, i) => ({ name: t.name, score: 2 - i })).slice(0, limit));
    const [two] = s.rank({ request: 'stock price of AAPL and MSFT' }, new Set());
    expect(two.mapping.arguments).toEqual({ ticker: 'AAPL' });
    expect(two.mapping.coordinated).toEqual(['ticker']);
    const r = s.decide([{ ...two, toolConfidence: 0.95, fullConfidence: 0.93 }]);
    expect(r.decision).toBe('low_confidence');
    expect(r.explanation).toMatch(/joins another/);
    expect(s.rank({ request: 'stock price of AAPL' }, new Set())[0].mapping.coordinated).toEqual([]);
    // the other value written first, and codes joined by a comma or "or"
    for (const request of ['stock price of JNJ and AAPL', 'stock price of AAPL, MSFT', 'stock price of AAPL or MSFT'])
      expect(s.rank({ request }, new Set())[0].mapping.coordinated, request).toEqual(['ticker']);
    // "I" is no second value, and a comma joins no words ("Paris, France" is one place)
    const wx: MapperTool[] = [
      {
        name: 'get_weather',
        description: 'Weather in a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
      },
    ];
    const w = new UnifiedMapper(wx, (_q, limit) => wx.map((t) => ({ name: t.name, score: 1 })).slice(0, limit));
    for (const request of ['weather in Paris and what should I wear', 'weather in Paris, France'])
      expect(w.rank({ request }, new Set())[0].mapping.coordinated, request).toEqual([]);
    expect(w.rank({ request: 'weather in Paris and London' }, new Set())[0].mapping.coordinated).toEqual(['city']);
    // a capital that labels another argument's value is no second value
    const vec = s
      .rank({ request: 'cosine similarity between vector A [3, 2, 1] and vector B [1, 2, 3]' }, new Set())
      .find((c) => c.name === 'cosine_similarity')!;
    expect(vec.mapping.arguments).toEqual({ vector1: [3, 2, 1], vector2: [1, 2, 3] });
    expect(vec.mapping.coordinated).toEqual([]);
  });
});
