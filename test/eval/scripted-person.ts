// The scripted "person" of `npm run eval:elicitation`: answers a rescue form (the one a supervised
// gateway's MCP client shows, services/dispatch/src/domain/elicitation-forms.ts) from the expected
// answer of an eval query, as a person who knows what they meant would.

import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the eval answers the very forms the endpoint builds
import {
  CONFIRM_FIELD,
  TOOL_FIELD,
  type ElicitationForm,
  type RescueCandidate,
} from '../../services/dispatch/src/domain/elicitation-forms';

/** One acceptable call of a query: the tool's name and, per argument, its acceptable values ("" first: may be left out). */
export interface ExpectedCall {
  name: string;
  arguments: Record<string, unknown[]>;
}

/** The person's answer: accept with content, or decline when the form does not offer what they meant. */
export type PersonAnswer =
  { action: 'accept'; content: Record<string, unknown> } | { action: 'decline'; why: 'tool not offered' | 'value not askable' };

const validator = new AjvJsonSchemaValidator();

/**
 * Answers a rescue form: picks the first candidate whose tool (`nameOf` maps a candidate's name to
 * the eval's tool name) is an expected call's, and fills each asked value of that candidate with
 * the call's first acceptable value that fits the field (a string field takes a number written as
 * digits; an optional value the eval lets be left out is left out). Declines when no candidate is
 * an expected tool, or when the answer would not fit the form (a value the form cannot take).
 */
export function answerRescue(
  form: ElicitationForm,
  candidates: RescueCandidate[],
  expected: ExpectedCall[],
  nameOf: (candidate: string) => string,
): PersonAnswer {
  let chosen: RescueCandidate | undefined;
  let call: ExpectedCall | undefined;
  for (const c of candidates) {
    call = expected.find((e) => e.name === nameOf(c.name));
    if (call) {
      chosen = c;
      break;
    }
  }
  if (!chosen || !call) return { action: 'decline', why: 'tool not offered' };
  const props = form.requestedSchema.properties;
  const content: Record<string, unknown> = {};
  if (props[TOOL_FIELD]) content[TOOL_FIELD] = chosen.name;
  if (props[CONFIRM_FIELD]) content[CONFIRM_FIELD] = true;
  for (const arg of chosen.missingArguments) {
    const field = props[arg] as { type?: string; enum?: unknown[] } | undefined;
    const acceptable = call.arguments[arg];
    if (!field || !acceptable || acceptable.length === 0 || acceptable.includes('')) continue;
    const value = acceptable.map((v) => fitting(v, field)).find((v) => v !== undefined);
    if (value !== undefined) content[arg] = value;
  }
  const verdict = validator.getValidator(form.requestedSchema as never)(content);
  return verdict.valid ? { action: 'accept', content } : { action: 'decline', why: 'value not askable' };
}

/** An expected value as the form's field takes it, or undefined when it cannot. */
function fitting(v: unknown, field: { type?: string; enum?: unknown[] }): unknown {
  if (field.enum && !field.enum.includes(v)) return undefined;
  switch (field.type) {
    case 'string':
      return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
    case 'number':
      return typeof v === 'number' ? v : undefined;
    case 'integer':
      return Number.isInteger(v) ? v : undefined;
    case 'boolean':
      return typeof v === 'boolean' ? v : undefined;
    default:
      return undefined;
  }
}
