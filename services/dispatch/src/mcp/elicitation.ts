import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { ElicitResultSchema, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { ReasonCode, type Caller, type PrincipalRef } from '@toolsurface/core';
import type { Logger } from '@toolsurface/platform';
import {
  confirmed,
  proposalForm,
  rescueForm,
  rescuedCall,
  rescueNames,
  type AskedCall,
  type ElicitationForm,
  type RescueCandidate,
} from '../domain/elicitation-forms';
import { toCallToolResult } from '../domain/mcp';
import type { CallResult, PersonDecision, PersonRefusal } from '../domain/ports';
import type { ClientAnswer, ElicitationRelay } from './elicitation-relay';

/** `_meta` key of a CallToolResult a person answered for: approved, chose, declined or cancelled. */
export const PERSON_META_KEY = 'io.toolsurface/person';

/** How long a person may take to answer, ms (the client's own request timeout usually ends it sooner). */
export const ELICITATION_TIMEOUT_MS = 10 * 60_000;

/** The refusals a person can rescue. */
const RESCUABLE: ReadonlySet<string> = new Set<ReasonCode>([ReasonCode.MISSING_ARGUMENTS, ReasonCode.LOW_CONFIDENCE]);

/** What elicitation needs beside the endpoint. */
export interface ElicitationPorts {
  /** Runs a call a person answered for (DispatchService.callAnsweredByPerson). */
  callAnsweredByPerson(
    req: { surfaceId: string; name: string; argumentsJson: string; callId: string },
    person: PersonDecision,
    deadline: number,
    caller: Caller,
  ): Promise<CallResult>;
  /** Audits a person's no: nothing ran (DispatchService.auditPersonRefused). */
  auditPersonRefused(
    req: { surfaceId: string; callId: string; tool: string; reason: ReasonCode | '' },
    person: PersonRefusal,
    caller: Caller,
  ): Promise<void>;
  /** A bound tool's input schema in the surface's snapshot (undefined: not in it). */
  schemaOf(surfaceId: string, tool: string): Promise<Record<string, unknown> | undefined>;
  /** Whether the principal is a gateway set to supervised autonomy. */
  supervised(principal: PrincipalRef): boolean;
  relay: ElicitationRelay;
  validator: jsonSchemaValidator;
  logger: Logger;
  timeoutMs?: number;
}

/** The tools/call being answered: its session, caller, surface and how to reach the client. */
export interface ElicitingCall {
  sessionId: string;
  principal: PrincipalRef;
  surfaceId: string;
  caller: Caller;
  callId: string;
  /** unified_tool's `request` argument, shown in a rescue form. */
  request: string;
  /** Writes a JSON-RPC request to the client on the tools/call's SSE stream. */
  send(message: { jsonrpc: '2.0'; id: string; method: string; params: Record<string, unknown> }): Promise<void>;
  /** Aborts when the tools/call ends. */
  signal: AbortSignal;
}

/**
 * Supervised autonomy a person can answer (issue 37, part 6), for MCP clients that declared form
 * elicitation. After unified_tool answered:
 * - a proposal (a supervised gateway's) asks the person whether to run it; accept with confirm
 *   runs it through DispatchService.callAnsweredByPerson, the same call path and admission; a
 *   decline or cancel runs nothing and the result says so;
 * - MISSING_ARGUMENTS, or LOW_CONFIDENCE with candidates, on a supervised gateway asks which
 *   candidate was meant and the missing values; an accepted answer runs that call the same way;
 *   a decline or cancel leaves the refusal as it was.
 * The result of a call a person answered for carries `_meta["io.toolsurface/person"]`, and its
 * tool.called event `person`; a person's no is a tool.called event of its own (declined or cancelled).
 */
export class Elicitations {
  private readonly validators = new Map<string, JsonSchemaValidator<unknown>>();

  constructor(private readonly ports: ElicitationPorts) {}

  /** Whether a tools/call of unified_tool may ask the person, for a principal (its answer must then stream). */
  mayAsk(principal: PrincipalRef): boolean {
    return principal.kind === 'gateway' && this.ports.supervised(principal);
  }

  /** Hands a client's answer to the elicitation waiting for it (this replica or another); false when none waits. */
  deliver(sessionId: string, answer: ClientAnswer): Promise<boolean> {
    return this.ports.relay.deliver(sessionId, answer);
  }

  /** The client cancelled its tools/call `callId` (notifications/cancelled): if it waits for the person, nothing runs. */
  cancelled(sessionId: string, callId: string): Promise<void> {
    return this.ports.relay.cancelled(sessionId, callId);
  }

  /** The CallToolResult of unified_tool's `result`, once the person answered where one is asked. */
  async follow(call: ElicitingCall, result: CallResult): Promise<CallToolResult> {
    const unified = result.unified;
    if (!unified) return toCallToolResult(result);
    if (!result.isError && !unified.executed && unified.tool) {
      return this.proposal(call, result, { tool: unified.tool, arguments: objectOf(unified.argumentsJson) }, unified.confidence);
    }
    if (result.isError && RESCUABLE.has(result.reason) && this.ports.supervised(call.principal)) {
      return this.rescue(call, result);
    }
    return toCallToolResult(result);
  }

  private async proposal(call: ElicitingCall, result: CallResult, asked: AskedCall, confidence: number): Promise<CallToolResult> {
    const answer = await this.ask(call, proposalForm(asked, confidence));
    if (answer.action === 'accept' && confirmed(answer.content)) return this.run(call, asked, 'approved');
    const action = answer.action === 'accept' ? 'decline' : answer.action;
    await this.refused(call, asked.tool, '', action === 'cancel' ? 'cancelled' : 'declined');
    const text =
      `Not run: the person ${action === 'cancel' ? 'dismissed the request to run' : 'declined'} ${asked.tool} with ` +
      `${JSON.stringify(asked.arguments)}. Nothing ran; do not call it again unless they ask for it.`;
    // Not isError: the proposal was sound and a person chose not to run it (no fault to correct).
    return {
      content: [{ type: 'text', text }],
      structuredContent: { ...(structured(result) ?? {}), person: action === 'cancel' ? 'cancelled' : 'declined' },
      isError: false,
      _meta: { [PERSON_META_KEY]: action === 'cancel' ? 'cancelled' : 'declined' },
    };
  }

  private async rescue(call: ElicitingCall, refusal: CallResult): Promise<CallToolResult> {
    const candidates: RescueCandidate[] = [];
    for (const c of rescueNames(refusal.reason, refusal.unified!)) {
      const inputSchema = await this.ports.schemaOf(call.surfaceId, c.name);
      if (inputSchema) candidates.push({ name: c.name, argumentsJson: c.argumentsJson, missingArguments: c.missingArguments, inputSchema });
    }
    const form = rescueForm(call.request, refusal.reason, candidates);
    if (!form) return toCallToolResult(refusal);
    const answer = await this.ask(call, form);
    const chosen = answer.action === 'accept' ? rescuedCall(candidates, answer.content) : undefined;
    if (chosen) return this.run(call, chosen, 'chose');
    await this.refused(call, refusal.unified!.tool, refusal.reason as ReasonCode, answer.action === 'cancel' ? 'cancelled' : 'declined');
    return toCallToolResult(refusal);
  }

  /** Audits the person's no; a failure to audit is logged and leaves the result as it is (nothing ran either way). */
  private async refused(call: ElicitingCall, tool: string, reason: ReasonCode | '', person: PersonRefusal): Promise<void> {
    try {
      await this.ports.auditPersonRefused({ surfaceId: call.surfaceId, callId: call.callId, tool, reason }, person, call.caller);
    } catch (err) {
      this.ports.logger.warn({ err, sessionId: call.sessionId }, 'the audit of a person declining a call failed');
    }
  }

  /** Runs the call the person answered for, on the surface of the tools/call. */
  private async run(call: ElicitingCall, asked: AskedCall, person: PersonDecision): Promise<CallToolResult> {
    const result = await this.ports.callAnsweredByPerson(
      { surfaceId: call.surfaceId, name: asked.tool, argumentsJson: JSON.stringify(asked.arguments), callId: call.callId },
      person,
      Infinity,
      call.caller,
    );
    const out = toCallToolResult(result);
    out._meta = { ...out._meta, [PERSON_META_KEY]: person };
    return out;
  }

  /**
   * Asks the person with a form and returns their answer; an answer that is no ElicitResult, does
   * not fit the form, or comes as a JSON-RPC error counts as cancel (nothing runs), as does no
   * answer in time.
   */
  private async ask(call: ElicitingCall, form: ElicitationForm): Promise<ElicitResult> {
    const cancel: ElicitResult = { action: 'cancel' };
    let raw;
    try {
      raw = await this.ports.relay.request(
        call.sessionId,
        call.callId,
        'elicitation/create',
        form as unknown as Record<string, unknown>,
        call.send,
        call.signal,
        this.ports.timeoutMs ?? ELICITATION_TIMEOUT_MS,
      );
    } catch (err) {
      this.ports.logger.info({ err, sessionId: call.sessionId }, 'an elicitation got no answer; nothing ran');
      return cancel;
    }
    if ('error' in raw) {
      this.ports.logger.info({ error: raw.error, sessionId: call.sessionId }, 'the MCP client refused an elicitation; nothing ran');
      return cancel;
    }
    const parsed = ElicitResultSchema.safeParse(raw.result);
    if (!parsed.success) return cancel;
    if (parsed.data.action !== 'accept') return parsed.data;
    const check = this.validatorOf(form);
    const verdict = check(parsed.data.content ?? {});
    if (!verdict.valid) {
      this.ports.logger.info(
        { problem: verdict.errorMessage, sessionId: call.sessionId },
        'an elicitation answer does not fit its form; nothing ran',
      );
      return cancel;
    }
    return parsed.data;
  }

  private validatorOf(form: ElicitationForm): JsonSchemaValidator<unknown> {
    const key = JSON.stringify(form.requestedSchema);
    let v = this.validators.get(key);
    if (!v) {
      v = this.ports.validator.getValidator(form.requestedSchema as never);
      this.validators.set(key, v);
      if (this.validators.size > 1_000) this.validators.delete(this.validators.keys().next().value!);
    }
    return v;
  }
}

/** The tools/call ID a `notifications/cancelled` POST names (as a string), or undefined for any other message. */
export function cancelledCallId(body: unknown): string | undefined {
  const m = body as { method?: unknown; params?: { requestId?: unknown } } | null;
  if (m === null || typeof m !== 'object' || Array.isArray(m) || m.method !== 'notifications/cancelled') return undefined;
  const id = m.params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** Whether a JSON-RPC message of a POST is an answer to a request the server sent (no method; a result or an error). */
export function isClientAnswer(body: unknown): boolean {
  return (
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    !('method' in body) &&
    'id' in body &&
    ('result' in body || 'error' in body)
  );
}

function structured(r: CallResult): Record<string, unknown> | undefined {
  return objectOrUndefined(r.structuredContentJson);
}

function objectOf(json: string): Record<string, unknown> {
  return objectOrUndefined(json) ?? {};
}

function objectOrUndefined(json: string): Record<string, unknown> | undefined {
  if (!json) return undefined;
  try {
    const v: unknown = JSON.parse(json);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
