import { describe, expect, it } from 'vitest';
import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/sdk/types.js';
import { confirmed, declaresFormElicitation, proposalForm, rescuedCall, rescueForm, type RescueCandidate } from './elicitation-forms';

const sum: RescueCandidate = {
  name: 'get-sum',
  argumentsJson: '{"a":17}',
  missingArguments: ['b'],
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number', description: 'Second number' } },
    required: ['a', 'b'],
  },
};
const weather: RescueCandidate = {
  name: 'get-weather',
  argumentsJson: '',
  missingArguments: ['city', 'units', 'days', 'tags'],
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1, format: 'hostname' },
      units: { enum: ['metric', 'imperial'] },
      days: { type: ['integer', 'null'], minimum: 1, maximum: 7 },
      tags: { type: 'array', items: { type: 'string' } },
    },
  },
};

describe('declaresFormElicitation', () => {
  it.each([
    [{ elicitation: {} }, true],
    [{ elicitation: { form: {} } }, true],
    [{ elicitation: { form: {}, url: {} } }, true],
    [{ elicitation: { url: {} } }, false],
    [{ sampling: {} }, false],
    [undefined, false],
    [{ elicitation: true }, false],
  ])('%j → %s', (caps, expected) => expect(declaresFormElicitation(caps)).toBe(expected));
});

describe('proposalForm', () => {
  it('shows the tool and its arguments and asks one required boolean, valid as MCP form params', () => {
    const form = proposalForm({ tool: 'get-sum', arguments: { a: 17, b: 25 } }, 0.97);
    expect(ElicitRequestFormParamsSchema.safeParse(form).success).toBe(true);
    expect(form.message).toContain('get-sum');
    expect(form.message).toContain('"b": 25');
    expect(form.requestedSchema.required).toEqual(['confirm']);
    expect(confirmed({ confirm: true })).toBe(true);
    expect(confirmed({ confirm: false })).toBe(false);
    expect(confirmed(undefined)).toBe(false);
  });
});

describe('rescueForm and rescuedCall', () => {
  it('one candidate: its missing primitive values, required; the answer completes its arguments', () => {
    const form = rescueForm('add 17 to something', 'MISSING_ARGUMENTS', [sum])!;
    expect(ElicitRequestFormParamsSchema.safeParse(form).success).toBe(true);
    expect(form.requestedSchema).toEqual({
      type: 'object',
      properties: { b: { type: 'number', title: 'b', description: 'Second number' } },
      required: ['b'],
    });
    expect(rescuedCall([sum], { b: 25 })).toEqual({ tool: 'get-sum', arguments: { a: 17, b: 25 } });
  });

  it('several candidates: an enum of their names, each missing value optional and labelled with its tool', () => {
    const form = rescueForm('weather or a sum', 'LOW_CONFIDENCE', [sum, weather])!;
    expect(ElicitRequestFormParamsSchema.safeParse(form).success).toBe(true);
    const p = form.requestedSchema.properties;
    expect(p.tool).toMatchObject({ type: 'string', enum: ['get-sum', 'get-weather'] });
    expect(form.requestedSchema.required).toEqual(['tool']);
    // Only MCP's string formats are kept; a type with null is the type; an enum without a type is a string enum.
    expect(p.city).toEqual({ type: 'string', title: 'city', description: '(for get-weather)', minLength: 1 });
    expect(p.units).toMatchObject({ type: 'string', enum: ['metric', 'imperial'] });
    expect(p.days).toMatchObject({ type: 'integer', minimum: 1, maximum: 7 });
    // An array is no primitive: not asked.
    expect(p.tags).toBeUndefined();
    // Only the chosen candidate's values are used.
    expect(rescuedCall([sum, weather], { tool: 'get-weather', city: 'Oslo', b: 3, days: 2 })).toEqual({
      tool: 'get-weather',
      arguments: { city: 'Oslo', days: 2 },
    });
    expect(rescuedCall([sum, weather], { tool: 'something-else' })).toBeUndefined();
  });

  it('one candidate with nothing missing asks to confirm; no means nothing runs', () => {
    const echo: RescueCandidate = { name: 'echo', argumentsJson: '{"message":"hi"}', missingArguments: [], inputSchema: {} };
    const form = rescueForm('echo hi', 'LOW_CONFIDENCE', [echo])!;
    expect(Object.keys(form.requestedSchema.properties)).toEqual(['confirm']);
    expect(rescuedCall([echo], { confirm: true })).toEqual({ tool: 'echo', arguments: { message: 'hi' } });
    expect(rescuedCall([echo], { confirm: false })).toBeUndefined();
  });

  it('nothing a form can ask: no candidate, or one whose missing value is not a primitive', () => {
    expect(rescueForm('x', 'LOW_CONFIDENCE', [])).toBeUndefined();
    const tags: RescueCandidate = { ...weather, missingArguments: ['tags'] };
    expect(rescueForm('x', 'MISSING_ARGUMENTS', [tags])).toBeUndefined();
  });
});
