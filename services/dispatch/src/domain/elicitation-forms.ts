import type { ElicitRequestFormParams, PrimitiveSchemaDefinition } from '@modelcontextprotocol/sdk/types.js';

// The pure parts of supervised elicitation (src/mcp/elicitation.ts): the forms that ask a person,
// through MCP `elicitation/create` in form mode, whether to run the call unified_tool proposed, or
// which candidate and which missing values they meant when it refused; and the call their answer
// makes. MCP's form mode takes a flat object of primitive fields only (string, number, integer,
// boolean, string enum), so a value of any other type is never asked.

/** The form's field of a proposal: run it or not. */
export const CONFIRM_FIELD = 'confirm';
/** The form's field of a rescue with several candidates: which tool the person meant. */
export const TOOL_FIELD = 'tool';

/** A call to ask about or to run: a bound tool's presented name and its arguments. */
export interface AskedCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** One tool a refused unified_tool request may have meant, with what the mapper found for it. */
export interface RescueCandidate {
  name: string;
  /** The arguments the mapper found (JSON of an object; "" for none). */
  argumentsJson: string;
  /** Required arguments the request did not give. */
  missingArguments: string[];
  /** The tool's input schema in the surface's snapshot ({} when unknown). */
  inputSchema: Record<string, unknown>;
}

/** Candidates a rescue form offers at most (the mapper's best first). */
export const RESCUE_CANDIDATES_MAX = 5;

/** unified_tool's answer as a rescue reads it (UnifiedInfo, or the mapper's metadata). */
export interface UnifiedAnswer {
  tool: string;
  argumentsJson: string;
  missingArguments: string[];
  candidates: Array<{ name: string; confidence: number; argumentsJson: string; missingArguments: string[] }>;
}

/**
 * The tools a rescue offers for a refusal: for MISSING_ARGUMENTS the tool the mapper chose (only
 * its values are missing), for LOW_CONFIDENCE its best candidates by confidence, at most
 * RESCUE_CANDIDATES_MAX; none for any other reason. Their schemas are added by the caller.
 */
export function rescueNames(reason: string, u: UnifiedAnswer): Array<Omit<RescueCandidate, 'inputSchema'>> {
  if (reason === 'MISSING_ARGUMENTS' && u.tool)
    return [{ name: u.tool, argumentsJson: u.argumentsJson, missingArguments: u.missingArguments }];
  if (reason !== 'LOW_CONFIDENCE') return [];
  return [...u.candidates]
    .sort((x, y) => y.confidence - x.confidence)
    .slice(0, RESCUE_CANDIDATES_MAX)
    .filter((c) => c.name !== '')
    .map((c) => ({ name: c.name, argumentsJson: c.argumentsJson, missingArguments: c.missingArguments }));
}

/** What is asked: `elicitation/create`'s form-mode parameters. */
export type ElicitationForm = ElicitRequestFormParams & { mode: 'form' };

type FormSchema = ElicitationForm['requestedSchema'];

/**
 * Whether an MCP client declared form elicitation at initialize: `elicitation: {}` (protocol
 * 2025-06-18, where form is the only mode) or `elicitation: { form: {} }` (2025-11-25); a client
 * that declared only `url` cannot answer a form.
 */
export function declaresFormElicitation(capabilities: unknown): boolean {
  const e = (capabilities as { elicitation?: unknown } | undefined)?.elicitation;
  if (e === null || typeof e !== 'object') return false;
  const modes = e as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

/** The form asking whether to run a proposed call, showing its tool and arguments. */
export function proposalForm(call: AskedCall, confidence: number): ElicitationForm {
  return {
    mode: 'form',
    message:
      `The assistant asks to run ${call.tool} with these arguments (mapping confidence ${confidence.toFixed(2)}):\n` +
      `${JSON.stringify(call.arguments, null, 2)}\nRun it?`,
    requestedSchema: {
      type: 'object',
      properties: {
        [CONFIRM_FIELD]: {
          type: 'boolean',
          title: `Run ${call.tool}`,
          description: 'Yes runs this call once; no runs nothing.',
          default: false,
        },
      },
      required: [CONFIRM_FIELD],
    },
  };
}

/** Whether an accepted answer to a proposal form says to run it. */
export function confirmed(content: Record<string, unknown> | undefined): boolean {
  return content?.[CONFIRM_FIELD] === true;
}

/**
 * The form asking a person to complete a request unified_tool refused (MISSING_ARGUMENTS, or
 * LOW_CONFIDENCE with candidates): which candidate they meant (an enum of their names, when there
 * are several) and the missing values each candidate's schema describes as primitives (optional
 * fields with several candidates, as only the chosen one's are used). With one candidate and
 * nothing to fill in, it asks to confirm. Undefined when there is nothing a form can ask: no
 * candidate, or one whose missing values are not primitives.
 */
export function rescueForm(request: string, reason: string, candidates: RescueCandidate[]): ElicitationForm | undefined {
  if (candidates.length === 0) return undefined;
  const properties: FormSchema['properties'] = {};
  const required: string[] = [];
  const several = candidates.length > 1;
  if (several) {
    properties[TOOL_FIELD] = {
      type: 'string',
      title: 'Tool',
      description: 'The tool you meant',
      enum: candidates.map((c) => c.name),
    };
    required.push(TOOL_FIELD);
  }
  for (const c of candidates) {
    for (const arg of c.missingArguments) {
      if (arg === TOOL_FIELD || arg === CONFIRM_FIELD || properties[arg] !== undefined) continue;
      const field = primitiveField(propertyOf(c.inputSchema, arg), arg, several ? c.name : undefined);
      if (!field) {
        if (!several) return undefined;
        continue;
      }
      properties[arg] = field;
      if (!several) required.push(arg);
    }
  }
  if (!several && Object.keys(properties).length === 0) {
    properties[CONFIRM_FIELD] = { type: 'boolean', title: `Run ${candidates[0].name}`, default: false };
    required.push(CONFIRM_FIELD);
  }
  const listed = candidates.map((c) => `- ${c.name} ${c.argumentsJson || '{}'}`).join('\n');
  const ask = several ? 'Which tool did you mean, and with which values?' : `Fill in what ${candidates[0].name} needs to run.`;
  return {
    mode: 'form',
    message: `The assistant's request "${request}" could not be mapped to one call (${reason}).\n${listed}\n${ask}`,
    requestedSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
  };
}

/**
 * The call an accepted answer to a rescue form makes: the chosen candidate (the only one, or the
 * one named in `tool`), its mapped arguments with the missing ones the person filled in.
 * Undefined when the answer names no candidate or does not confirm.
 */
export function rescuedCall(candidates: RescueCandidate[], content: Record<string, unknown> | undefined): AskedCall | undefined {
  const answer = content ?? {};
  const chosen = candidates.length > 1 ? candidates.find((c) => c.name === answer[TOOL_FIELD]) : candidates[0];
  if (!chosen) return undefined;
  if (candidates.length === 1 && answer[CONFIRM_FIELD] === false) return undefined;
  const args = objectOf(chosen.argumentsJson);
  for (const arg of chosen.missingArguments) {
    if (answer[arg] !== undefined && arg !== TOOL_FIELD && arg !== CONFIRM_FIELD) args[arg] = answer[arg];
  }
  return { tool: chosen.name, arguments: args };
}

function propertyOf(schema: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const props = schema.properties;
  if (props === null || typeof props !== 'object') return undefined;
  const p = (props as Record<string, unknown>)[name];
  return p !== null && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : undefined;
}

/** MCP's string formats (2025-11-25 StringSchema). */
const STRING_FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * A JSON Schema property as one of MCP's primitive form fields, keeping what the form may show
 * (title, description, bounds, string enum, format, default); undefined for objects, arrays and
 * unions of several types. A field of one candidate among several says whose it is.
 */
function primitiveField(p: Record<string, unknown> | undefined, name: string, of?: string): PrimitiveSchemaDefinition | undefined {
  if (!p) return undefined;
  const types = (Array.isArray(p.type) ? p.type : [p.type]).filter((t) => t !== 'null' && t !== undefined);
  const enumValues = Array.isArray(p.enum) ? p.enum.filter((v) => v !== null) : undefined;
  const type = types.length === 1 ? types[0] : types.length === 0 && enumValues?.every((v) => typeof v === 'string') ? 'string' : undefined;
  const described = typeof p.description === 'string' ? p.description : undefined;
  const description = of ? `${described ? `${described} ` : ''}(for ${of})` : described;
  const common = {
    title: typeof p.title === 'string' ? p.title : name,
    ...(description ? { description } : {}),
  };
  const def = p.default;
  switch (type) {
    case 'string': {
      if (enumValues && enumValues.length > 0) {
        if (!enumValues.every((v) => typeof v === 'string')) return undefined;
        return { type: 'string', enum: enumValues as string[], ...common, ...(typeof def === 'string' ? { default: def } : {}) };
      }
      return {
        type: 'string',
        ...common,
        ...(typeof p.minLength === 'number' ? { minLength: p.minLength } : {}),
        ...(typeof p.maxLength === 'number' ? { maxLength: p.maxLength } : {}),
        ...(typeof p.format === 'string' && STRING_FORMATS.has(p.format) ? { format: p.format as 'email' } : {}),
        ...(typeof def === 'string' ? { default: def } : {}),
      };
    }
    case 'number':
    case 'integer':
      if (enumValues && enumValues.length > 0) return undefined;
      return {
        type,
        ...common,
        ...(typeof p.minimum === 'number' ? { minimum: p.minimum } : {}),
        ...(typeof p.maximum === 'number' ? { maximum: p.maximum } : {}),
        ...(typeof def === 'number' ? { default: def } : {}),
      };
    case 'boolean':
      return { type: 'boolean', ...common, ...(typeof def === 'boolean' ? { default: def } : {}) };
    default:
      return undefined;
  }
}

function objectOf(json: string): Record<string, unknown> {
  if (!json) return {};
  try {
    const v: unknown = JSON.parse(json);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
