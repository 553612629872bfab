import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { startMcpGateway, type GatewayFixture } from '../support';

// The MCP conformance suite (@modelcontextprotocol/conformance, its CLI run as a child process)
// against the whole gateway's MCP endpoint: its generic server scenarios, the ones that need none of
// the suite's own fixture tools. The suite sends no headers of its own (no Authorization), so the
// endpoint runs as a local user runs it: without mcp_keys, on loopback, where Host and Origin are
// checked (the dns-rebinding-protection scenario is about exactly that endpoint). The config is
// test/fixtures/mcp.yaml without its mcp_keys.
const root = join(import.meta.dirname, '..', '..');
const fixtures = join(root, 'test', 'fixtures');
const cli = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const PRINCIPAL = 'agent/small';
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-error',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
] as const;

/** One check of a scenario, as the suite writes it to checks.json. */
interface Check {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: unknown;
}

interface ScenarioRun {
  exitCode: number;
  output: string;
  checks: Check[];
}

let dir: string;
let g: GatewayFixture;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-conformance-'));
  const doc = parseDocument(readFileSync(join(fixtures, 'mcp.yaml'), 'utf8'));
  doc.delete('mcp_keys');
  // The copy lives elsewhere: its stdio capabilities keep pointing at the fixtures.
  const config = join(dir, 'mcp-keyless.yaml');
  writeFileSync(config, doc.toString({ lineWidth: 0 }).split('${CONFIG_DIR}').join(fixtures));
  g = await startMcpGateway(config, ['everything', 'filesystem', 'memory']);
}, 180_000);
afterAll(async () => {
  await g?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Runs one server scenario of the suite against the URL; its checks come from the checks.json it writes. */
function runScenario(scenario: string, url: string): Promise<ScenarioRun> {
  const out = join(dir, 'results', scenario);
  mkdirSync(out, { recursive: true });
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, 'server', '--url', url, '--scenario', scenario, '--output-dir', out],
      { timeout: 45_000, env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        const exitCode = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        const output = `${stdout}${stderr}`;
        // <out>/server-<scenario>-<timestamp>/checks.json
        const runDir = readdirSync(out).find((d) => d.startsWith(`server-${scenario}`));
        if (!runDir) return reject(new Error(`${scenario}: no checks.json (exit ${exitCode}):\n${output}`));
        const checks = JSON.parse(readFileSync(join(out, runDir, 'checks.json'), 'utf8')) as Check[];
        resolve({ exitCode, output, checks });
      },
    );
  });
}

const summary = (checks: Check[]) => checks.map((c) => `${c.status} ${c.id}${c.errorMessage ? `: ${c.errorMessage}` : ''}`).join('\n');

describe('MCP conformance suite (@modelcontextprotocol/conformance): generic server scenarios', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario} passes`, async () => {
      const url = `${g.stack.addresses.mcp}/mcp/${PRINCIPAL}`;
      const run = await runScenario(scenario, url);
      const failed = run.checks.filter((c) => c.status === 'FAILURE');
      expect(failed, `${summary(run.checks)}\n${run.output}`).toEqual([]);
      expect(run.checks.some((c) => c.status === 'SUCCESS')).toBe(true);
      expect(run.exitCode, run.output).toBe(0);
      const warnings = run.checks.filter((c) => c.status === 'WARNING');
      if (warnings.length > 0) console.warn(`${scenario}: warnings\n${summary(warnings)}`);
    }, 60_000);
  }
});
