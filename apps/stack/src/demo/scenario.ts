import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { admit, type PrincipalRef } from '@toolsurface/core';
import { DEFAULT_CONFIG_PATH, REPO_ROOT } from '@toolsurface/devkit';
import type { CallToolResponse, Surface } from '@toolsurface/proto';
import {
  extractHits,
  extractToolDefinition,
  formatHits,
  formatToolDefinition,
  indentText,
  modeName,
  oneLine,
  parseJsonText,
  renderContent,
  resolvedModeName,
  table,
  toolKindName,
  type GatewayClient,
} from '@toolsurface/client';
import { formatMs, percentile, timeRepeated } from './stats';
import { check, StepFailure, type Report, type StepContext } from './report';
import { describeRule, hidingRules, loadPolicy, SCORE_NOTE, TOKENS_NOTE, type ToolRef } from './explain';

/** What the scripted session needs besides the gateway. */
export interface ScenarioOptions {
  /** Folder the filesystem capability serves (deploy/local/sample). */
  sampleDir: string;
  /** OpenSurface calls measured in part f (default 50). */
  opens?: number;
  /** execute_tool round trips measured in part f (default 200). */
  calls?: number;
  /** Width of the printed lines. */
  width?: number;
  /**
   * The config file whose admission rules the demo names when it explains a refusal or a hidden
   * tool (default deploy/local/toolsurface.yaml). The gateway does not say which rule decided.
   */
  configPath?: string;
}

const agent = (id: string): PrincipalRef => ({ kind: 'agent', id });
const RESEARCHER = agent('researcher');
const NOTETAKER = agent('notetaker');
const ASSISTANT = agent('assistant');
/** The demo's own principals: it may change their bindings and modes on every run. */
const LATECOMER = agent('latecomer');
const DEMO_DIRECT = agent('demo-direct');
const DEMO_UNIFIED = agent('demo-unified');
/** The researcher's capabilities in deploy/local/toolsurface.yaml (36 bound tools there). */
const RESEARCHER_CAPABILITIES = ['everything', 'filesystem', 'memory'];

/** "agent:researcher". */
const key = (p: PrincipalRef) => `${p.kind}:${p.id}`;

/** Names of a surface's tools, the mode's own first, system tools after a "+". */
function presented(s: Surface): string {
  const own = s.tools.filter((t) => toolKindName(t.kind) !== 'system').map((t) => t.name);
  const system = s.tools.filter((t) => toolKindName(t.kind) === 'system').map((t) => t.name);
  const head = own.length > 8 ? `${own.slice(0, 8).join(', ')}, … (${own.length})` : own.join(', ');
  return system.length > 0 ? `${head} + system tools ${system.join(', ')}` : head;
}

/** The text of a tool result, cut to `maxLines` lines. */
function resultText(res: CallToolResponse, maxLines = 6): string {
  const text = renderContent(parseJsonText(res.contentJson)) || res.structuredContentJson || '(empty result)';
  const lines = text.trimEnd().split('\n');
  return lines.length > maxLines ? [...lines.slice(0, maxLines), `… (${lines.length - maxLines} more lines)`].join('\n') : lines.join('\n');
}

/** Fails the step when a call that should succeed came back with is_error. */
function expectOk(s: StepContext, res: CallToolResponse): void {
  check(!res.isError, `expected a result, got ${res.reason || 'an error'}: ${res.message}`);
}

/**
 * Runs a call that must be refused with `reason`: a tool result with is_error (what the model sees)
 * or, failing that, a caller error with that reason. Prints the reason and the message.
 */
async function expectRefusal(s: StepContext, reason: string, call: () => Promise<CallToolResponse>): Promise<void> {
  let res: CallToolResponse;
  try {
    res = await s.timed(call);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    s.kv('status', `gRPC error ${String(code)}: ${(e as Error).message}`);
    check(code === reason, `expected a ${reason} tool result, got a caller error ${String(code)}`);
    s.note = `refused: ${reason} (as a gRPC status, not a tool result)`;
    return;
  }
  s.kv('is_error', String(res.isError));
  s.kv('reason', res.reason || '(none)');
  s.kv('model sees', oneLine(res.message || resultText(res, 3)));
  check(res.isError && res.reason === reason, `expected refusal ${reason}, got ${res.isError ? res.reason : 'a successful result'}`);
  s.note = `refused: ${reason}`;
}

/**
 * Plays the scripted agent session of `npm run demo` through the gRPC APIs only (parts a-f),
 * printing every step to `report`. Closes the surfaces it opened. Step failures are counted in the
 * report; nothing is thrown for them.
 */
export async function runScenario(gw: GatewayClient, report: Report, opts: ScenarioOptions): Promise<void> {
  const width = opts.width ?? 100;
  const configPath = opts.configPath ?? DEFAULT_CONFIG_PATH;
  const configLabel = relative(REPO_ROOT, configPath) || configPath;
  const policy = loadPolicy(configPath);
  const opened: string[] = [];
  const open = async (s: StepContext, p: PrincipalRef) => {
    s.call(`SurfaceService.OpenSurface(${key(p)})`);
    const surface = await s.timed(() => gw.openSurface(p));
    opened.push(surface.surfaceId);
    return surface;
  };
  const call = (s: StepContext, surfaceId: string, name: string, args: Record<string, unknown>) => {
    s.call(`DispatchService.CallTool(${name} ${oneLine(JSON.stringify(args), 110)})`);
    return s.timed(() => gw.callTool(surfaceId, name, args, `demo-${Date.now()}`));
  };
  const welcomePath = join(opts.sampleDir, 'notes', 'welcome.txt');
  const secretPath = join(opts.sampleDir, 'notes', 'secret-plans.txt');

  try {
    // a. Discovery: 30 or more bound tools behind three meta-tools.
    report.section('a. researcher: adaptive in deploy/local/toolsurface.yaml, bound to everything, filesystem and memory');
    const researcher = await report.step('a1', 'open a surface', async (s) => {
      const surface = await open(s, RESEARCHER);
      const resolved = resolvedModeName(surface.resolvedMode);
      s.kv('surface', surface.surfaceId);
      s.kv('mode', `${modeName(surface.configuredMode)} → ${resolved} (${surface.boundToolCount} bound tools; 30 or more → discovery)`);
      s.kv('snapshot', `${surface.snapshotId.slice(0, 17)}…  the bound tools, frozen when this surface opened (see d3)`);
      s.kv('presents', presented(surface));
      s.kv('tokens', `${surface.presentedTokens.toLocaleString('en-US')} for the whole tool list (its JSON, as MCP tools/list sends it)`);
      s.kv('', `${TOKENS_NOTE}: an estimate, not a bill`);
      check(
        resolved === 'discovery',
        `expected resolved mode discovery, got ${resolved}` +
          (modeName(surface.configuredMode) !== 'adaptive'
            ? ` (agent:researcher is set to ${modeName(surface.configuredMode)}; \`npx toolsurface mode set agent:researcher adaptive\` puts it back)`
            : ''),
      );
      return surface;
    });
    let readTool = 'read_text_file';
    if (researcher) {
      await report.step('a2', 'discover_tools "read a text file"', async (s) => {
        const res = await call(s, researcher.surfaceId, 'discover_tools', { query: 'read a text file', limit: 5 });
        expectOk(s, res);
        const { hits, hint } = extractHits(res);
        s.block(formatHits(hits, width - 8, hint));
        s.kv('score', SCORE_NOTE[0]);
        s.kv('', SCORE_NOTE[1]);
        const hit = hits.find((h) => h.name === 'read_text_file') ?? hits.find((h) => h.name.endsWith('read_text_file'));
        check(hit, 'read_text_file is not among the hits');
        readTool = hit.name;
      });
      await report.step('a3', `get_tool_schema ${readTool}`, async (s) => {
        const res = await call(s, researcher.surfaceId, 'get_tool_schema', { name: readTool });
        expectOk(s, res);
        const def = extractToolDefinition(res);
        check(def, 'the result holds no tool definition');
        s.block(formatToolDefinition(def, width - 8));
        check(def.name === readTool, `asked for ${readTool}, got ${def.name}`);
      });
      await report.step('a4', `execute_tool ${readTool} notes/welcome.txt`, async (s) => {
        const res = await call(s, researcher.surfaceId, 'execute_tool', { name: readTool, arguments: { path: welcomePath } });
        expectOk(s, res);
        s.kv('ran', `${res.toolName || readTool} via ${res.via || '?'} (${formatMs(res.durationMs)} in the MCP server)`);
        const text = resultText(res, 10);
        s.block(indentText(text, 2));
        const expected = readFileSync(welcomePath, 'utf8').trim();
        check(text.includes(expected.split('\n')[0]), "the result is not the file's content");
      });
    }

    // b. Direct: fewer than 30 bound tools, each as itself.
    report.section('b. notetaker: adaptive in deploy/local/toolsurface.yaml, bound to memory');
    const notetaker = await report.step('b1', 'open a surface', async (s) => {
      const surface = await open(s, NOTETAKER);
      const resolved = resolvedModeName(surface.resolvedMode);
      s.kv('mode', `${modeName(surface.configuredMode)} → ${resolved} (${surface.boundToolCount} bound tools; under 30 → direct)`);
      s.kv('presents', presented(surface));
      s.kv('tokens', `${surface.presentedTokens.toLocaleString('en-US')} for the whole tool list`);
      check(resolved === 'direct', `expected resolved mode direct, got ${resolved}`);
      check(
        surface.tools.some((t) => t.name === 'create_entities'),
        'create_entities is not presented',
      );
      return surface;
    });
    if (notetaker) {
      // The same capabilities for a principal no rule names show what admission keeps off the notetaker's list.
      await report.step('b2', `tools admission hides from ${key(NOTETAKER)}`, async (s) => {
        s.call(`PresentationService.GetBindings(${key(NOTETAKER)})`);
        const caps = await s.timed(() => gw.getBindings(NOTETAKER));
        s.call(`PresentationService.SetBindings(${key(DEMO_DIRECT)}, [${caps.join(', ')}]) + SetPresentation(direct)`);
        await s.timed(() => gw.setBindings(DEMO_DIRECT, caps));
        await s.timed(() => gw.setPresentation(DEMO_DIRECT, 'direct'));
        const all = await open(s, DEMO_DIRECT);
        const listed = new Set(notetaker.tools.map((t) => t.name));
        const hidden: ToolRef[] = all.tools
          .filter((t) => toolKindName(t.kind) !== 'system' && !listed.has(t.name))
          .map((t) => ({ capability: t.capability || caps[0] || '', name: t.originalName || t.name }));
        s.kv(
          'bound',
          `${all.boundToolCount} tools for ${key(DEMO_DIRECT)}, ${notetaker.boundToolCount} for ${key(NOTETAKER)} (both bound to ${caps.join(', ')})`,
        );
        if (hidden.length === 0) {
          s.kv('hidden', 'none');
          return;
        }
        const rules = policy instanceof Error ? [] : hidingRules(policy, NOTETAKER, hidden);
        for (const r of rules) {
          const them = r.tools.length === 1 ? 'it' : 'them';
          s.kv('hidden', r.tools.join(', '));
          s.kv('', `admission refuses ${them} to ${key(NOTETAKER)} whatever the arguments, so its surface does not list ${them}`);
          s.kv('rule', `${r.id} in ${configLabel}: ${r.text}`);
        }
        const named = new Set(rules.flatMap((r) => r.tools));
        const rest = hidden.filter((t) => !named.has(t.name)).map((t) => t.name);
        if (rest.length > 0) {
          s.kv('hidden', rest.join(', '));
          s.kv(
            '',
            `by admission; ${policy instanceof Error ? policy.message : `no rule of ${configLabel} refuses ${rest.length === 1 ? 'it' : 'them'} (the stack may run another config)`}`,
          );
        }
      });
      await report.step('b3', 'create_entities, called by its own name', async (s) => {
        const res = await call(s, notetaker.surfaceId, 'create_entities', {
          entities: [{ name: 'Toolsurface demo', entityType: 'project', observations: ['A gateway that keeps tool lists small.'] }],
        });
        expectOk(s, res);
        s.kv('ran', `${res.toolName || 'create_entities'} via ${res.via || 'direct'} (${formatMs(res.durationMs)} in the MCP server)`);
        const text = resultText(res, 6);
        // The memory server returns only the entities it added: [] when an earlier run added it.
        s.block(indentText(text.trim() === '[]' ? '[] (already in the graph from an earlier run)' : text, 2));
      });
      await report.step('b4', 'open_nodes reads it back', async (s) => {
        const res = await call(s, notetaker.surfaceId, 'open_nodes', { names: ['Toolsurface demo'] });
        expectOk(s, res);
        const text = resultText(res, 8);
        s.block(indentText(text, 2));
        check(text.includes('Toolsurface demo'), 'the entity is not in the graph');
      });
    }

    // c. Unified: one plain-language tool.
    report.section('c. assistant: mode unified, bound to everything and filesystem');
    const assistant = await report.step('c1', 'open a surface', async (s) => {
      const surface = await open(s, ASSISTANT);
      const resolved = resolvedModeName(surface.resolvedMode);
      s.kv('mode', `${modeName(surface.configuredMode)} (${surface.boundToolCount} bound tools behind unified_tool)`);
      s.kv('presents', presented(surface));
      s.kv('tokens', `${surface.presentedTokens.toLocaleString('en-US')} for the whole tool list`);
      check(resolved === 'unified', `expected resolved mode unified, got ${resolved}`);
      return surface;
    });
    if (assistant) {
      const sumRequest = 'What is the sum of a=17 and b=25?';
      await report.step('c2', `unified_tool "${sumRequest}"`, async (s) => {
        const res = await call(s, assistant.surfaceId, 'unified_tool', { request: sumRequest });
        const u = res.unified;
        if (u?.tool)
          s.kv('picked', `${u.tool}  confidence ${u.confidence.toFixed(2)} (threshold 0.70)  ${u.executed ? 'ran it' : 'did not run it'}`);
        if (u?.argumentsJson) s.kv('arguments', u.argumentsJson);
        if (u && u.candidates.length > 0) s.kv('candidates', u.candidates.map((c) => `${c.name} ${c.confidence.toFixed(2)}`).join(', '));
        if (res.isError) {
          s.kv('refused', `${res.reason}: ${res.message}`);
          throw new StepFailure(`the mapper refused (${res.reason}) instead of running get-sum`);
        }
        const text = resultText(res, 4);
        s.kv('result', oneLine(text));
        check(u?.executed !== false, 'unified_tool did not run the tool');
        check(text.includes('42'), 'the result does not say 42');
      });
      // Below 0.7 nothing runs: the model gets the best candidates instead of a guess.
      const vague = 'Book a table for two at an Italian restaurant tonight';
      await report.step('c3', `unified_tool "${vague}"`, async (s) => {
        const res = await call(s, assistant.surfaceId, 'unified_tool', { request: vague });
        const u = res.unified;
        if (u && u.candidates.length > 0) s.kv('candidates', u.candidates.map((c) => `${c.name} ${c.confidence.toFixed(2)}`).join(', '));
        s.kv('reason', `${res.reason}: ${res.message}`);
        check(res.isError && res.reason === 'LOW_CONFIDENCE', `expected LOW_CONFIDENCE, got ${res.reason || 'success'}`);
        check(u?.executed === false, 'unified_tool ran a tool below the threshold');
      });
    }

    // d. Refusals: what the model is told, with the reason code.
    report.section('d. refusals');
    if (researcher) {
      await report.step('d1', 'admission: execute_tool on notes/secret-plans.txt', async (s) => {
        s.call(`DispatchService.CallTool(execute_tool {"name":"${readTool}","arguments":{"path":".../notes/secret-plans.txt"}})`);
        await expectRefusal(s, 'PERMISSION_DENIED', () =>
          gw.callTool(researcher.surfaceId, 'execute_tool', { name: readTool, arguments: { path: secretPath } }),
        );
        if (!(policy instanceof Error)) {
          // (the gateway records the rule in its tool.called event, not in the answer: the demo reads the config)
          const input = {
            principal: RESEARCHER,
            capability: 'filesystem',
            tool: readTool.replace(/^filesystem\./, ''),
            arguments: { path: secretPath },
            via: 'execute_tool' as const,
          };
          const decided = admit(input, policy);
          const rule = policy.rules.find((r) => r.id === decided.rule);
          if (decided.decision === 'deny')
            s.kv('rule', rule ? `${rule.id} in ${configLabel}: ${describeRule(rule)}` : `the default of ${configLabel}: deny`);
        }
      });
      await report.step('d2', `discovery surface: ${readTool} called by its own name`, async (s) => {
        s.call(`DispatchService.CallTool(${readTool} {"path":".../notes/welcome.txt"})`);
        await expectRefusal(s, 'TOOL_NOT_DIRECTLY_CALLABLE', () => gw.callTool(researcher.surfaceId, readTool, { path: welcomePath }));
      });
    }
    await report.step('d3', 'a tool bound after the surface opened', async (s) => {
      s.call(`PresentationService.SetBindings(${key(LATECOMER)}, [memory]) + SetPresentation(discovery)`);
      await s.timed(() => gw.setBindings(LATECOMER, ['memory']));
      await s.timed(() => gw.setPresentation(LATECOMER, 'discovery'));
      const before = await open(s, LATECOMER);
      s.kv('surface', `${before.surfaceId} (${before.boundToolCount} bound tools, ${before.snapshotId.slice(0, 17)}…)`);
      s.call(`PresentationService.SetBindings(${key(LATECOMER)}, [memory, filesystem])`);
      await s.timed(() => gw.setBindings(LATECOMER, ['memory', 'filesystem']));
      s.call(`DispatchService.CallTool(execute_tool {"name":"${readTool}",…}) on the surface opened before`);
      await expectRefusal(s, 'TOOL_NOT_IN_SNAPSHOT', () =>
        gw.callTool(before.surfaceId, 'execute_tool', { name: readTool, arguments: { path: welcomePath } }),
      );
      const after = await open(s, LATECOMER);
      s.kv('next one', `${after.surfaceId} (${after.boundToolCount} bound tools, ${after.snapshotId.slice(0, 17)}…): a new snapshot`);
      check(after.snapshotId !== before.snapshotId, 'the new surface kept the old snapshot');
    });

    // e. What the model reads for the same bound tools in each mode.
    report.section(`e. tokens presented for the researcher's tools (${RESEARCHER_CAPABILITIES.join(', ')}) in each mode`);
    await report.step('e1', 'one surface per mode', async (s) => {
      s.call(
        `SetBindings(${key(DEMO_DIRECT)}, ${key(DEMO_UNIFIED)} → [${RESEARCHER_CAPABILITIES.join(', ')}]) + SetPresentation(direct | unified)`,
      );
      await s.timed(() => gw.setBindings(DEMO_DIRECT, RESEARCHER_CAPABILITIES));
      await s.timed(() => gw.setPresentation(DEMO_DIRECT, 'direct'));
      await s.timed(() => gw.setBindings(DEMO_UNIFIED, RESEARCHER_CAPABILITIES));
      await s.timed(() => gw.setPresentation(DEMO_UNIFIED, 'unified'));
      const direct = await open(s, DEMO_DIRECT);
      const discovery = researcher ?? (await open(s, RESEARCHER));
      const unified = await open(s, DEMO_UNIFIED);
      const count = (x: Surface) => {
        const system = x.tools.filter((t) => toolKindName(t.kind) === 'system').length;
        return `${x.tools.length} (${x.tools.length - system} + ${system} system)`;
      };
      const rows = [
        ['mode', 'tools presented', 'tokens'],
        ...[direct, discovery, unified].map((x) => [resolvedModeName(x.resolvedMode), count(x), x.presentedTokens.toLocaleString('en-US')]),
      ];
      s.block(table(rows, { indent: 2 }));
      // (only where the researcher's surface is a discovery one: after a mode change it is not, and the check below says so)
      if (resolvedModeName(discovery.resolvedMode) === 'discovery' && discovery.presentedTokens > 0) {
        s.kv('saving', `discovery shows ${(direct.presentedTokens / discovery.presentedTokens).toFixed(1)}× fewer tokens than direct`);
      }
      s.kv('tokens', `${TOKENS_NOTE}, as in a1`);
      check(resolvedModeName(direct.resolvedMode) === 'direct', 'the direct surface did not resolve to direct');
      check(discovery.presentedTokens < direct.presentedTokens, 'discovery does not present fewer tokens than direct');
    });

    // f. Latency as a caller sees it (client wall time, sequential).
    report.section('f. latency (client wall time, one call at a time)');
    const opens = opts.opens ?? 50;
    await report.step('f1', `OpenSurface ×${opens} (${key(RESEARCHER)})`, async (s) => {
      const ids: string[] = [];
      await timeRepeated(3, async () => ids.push((await gw.openSurface(RESEARCHER)).surfaceId));
      const samples = await timeRepeated(opens, async () => ids.push((await gw.openSurface(RESEARCHER)).surfaceId));
      s.kv('p50', formatMs(percentile(samples, 50)));
      s.kv('p95', formatMs(percentile(samples, 95)));
      s.note = `p50 ${formatMs(percentile(samples, 50))}`;
      await Promise.all(ids.map((id) => gw.closeSurface(id).catch(() => undefined)));
    });
    const calls = opts.calls ?? 200;
    if (researcher) {
      await report.step('f2', `execute_tool echo ×${calls} (everything over Streamable HTTP)`, async (s) => {
        const durations: number[] = [];
        const run = async (i: number) => {
          const res = await gw.callTool(researcher.surfaceId, 'execute_tool', { name: 'echo', arguments: { message: `ping ${i}` } });
          if (res.isError) throw new StepFailure(`echo failed: ${res.reason}: ${res.message}`);
          durations.push(res.durationMs);
        };
        await timeRepeated(10, run);
        durations.length = 0;
        const samples = await timeRepeated(calls, run);
        const p50 = percentile(samples, 50);
        const inServer = percentile(durations, 50);
        s.kv('p50', `${formatMs(p50)} round trip; ${formatMs(inServer)} of it in the MCP server call`);
        s.kv('p95', formatMs(percentile(samples, 95)));
        s.kv('p99', formatMs(percentile(samples, 99)));
        s.kv('rate', `${Math.round(1000 / (samples.reduce((a, b) => a + b, 0) / samples.length))} calls/s with one caller`);
        s.note = `p50 ${formatMs(p50)}`;
      });
    }
  } finally {
    await Promise.all(opened.map((id) => gw.closeSurface(id).catch(() => undefined)));
  }
}
