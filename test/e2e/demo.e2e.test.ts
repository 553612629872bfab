import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { loadConfigFile } from '@toolsurface/core';
import { DEFAULT_PORTS } from '@toolsurface/stack';
import { DEFAULT_CONFIG_PATH, isPortOpen, privateNats, REPO_ROOT, type NatsHandle } from '@toolsurface/devkit';

// `npm run demo` with no stack running starts a throwaway one. It must run on a nats-server of its
// own: a stack writes its config (server-everything's URL on a free port among it) to the config
// bucket of the NATS it uses, and the demo stops that server-everything at the end, so on a shared
// server another stack would be left calling a server that is gone (`npm start`'s dispatch would
// answer CAPABILITY_UNAVAILABLE after one demo run).

/** What a run of the demo printed, and its exit code. */
async function runDemo(env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'apps/stack/src/demo.ts')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, out };
}

/** The demo's environment: this process's, NATS_URL at `natsUrl`, no stack address, TLS or token of the caller's. */
function demoEnv(natsUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NATS_URL: natsUrl, NO_COLOR: '1', ...extra };
  for (const k of [
    'TOOLSURFACE_RESOLVER',
    'TOOLSURFACE_DISPATCH',
    'TOOLSURFACE_TLS_CA',
    'TOOLSURFACE_TLS_CERT',
    'TOOLSURFACE_TLS_KEY',
    'TOOLSURFACE_TOKEN',
  ])
    delete env[k];
  return env;
}

const defaultPortsTaken = (await Promise.all(Object.values(DEFAULT_PORTS).map((p) => isPortOpen('127.0.0.1', p)))).some(Boolean);
if (defaultPortsTaken)
  console.log(
    'demo.e2e skipped: something answers on a default port of the stack (50051-50054, 3001), so the demo would use it instead of starting its own',
  );

describe.skipIf(defaultPortsTaken)('npm run demo with no stack running', () => {
  let shared: NatsHandle;
  let run: { code: number | null; out: string };

  beforeAll(async () => {
    // stands for the NATS server other stacks share (NATS_URL)
    const started = await privateNats();
    if (started === undefined) throw new Error('nats-server is needed for this test (README: npm test also needs nats-server)');
    shared = started;
    run = await runDemo(demoEnv(shared.url));
  }, 180_000);

  afterAll(async () => {
    await shared?.stop();
  });

  it('plays every step against a stack of its own and exits 0', () => {
    expect(run.out).toMatch(/starting one on free ports for this demo/);
    expect(run.out, run.out).toMatch(/\b(\d+) steps: \1 passed, 0 failed/);
    expect(run.code).toBe(0);
  });

  // A first reader of the output must be able to tell what counted the tokens, what a score means,
  // and why memory shows 9 tools to one agent and 6 to the notetaker.
  it('explains its figures: the tokenizer, what a discover_tools score is, and the rule that hides memory tools', () => {
    const out = run.out;
    expect(out).toMatch(/tokens +\d[\d,]* for the whole tool list.*\n +counted with gpt-tokenizer's o200k_base encoding \(GPT-4o family\)/);
    expect(out).toMatch(/counted with gpt-tokenizer's o200k_base encoding \(GPT-4o family\), as in a1/);
    // the explanation follows the first hits shown
    const hits = out.indexOf('read_text_file         ');
    const score = out.indexOf('score      BM25F relevance to this query');
    expect(hits, out).toBeGreaterThan(0);
    expect(score).toBeGreaterThan(hits);
    expect(out).toMatch(/higher is better; comparable only within one search; not a probability/);
    // the rule as deploy/local/toolsurface.yaml names it, and as many tools hidden as the counts differ by
    const rule = loadConfigFile(DEFAULT_CONFIG_PATH).admission.rules.find(
      (r) => r.effect === 'deny' && r.principals.includes('agent:notetaker'),
    );
    expect(rule).toBeDefined();
    const bound = /bound +(\d+) tools for agent:demo-direct, (\d+) for agent:notetaker/.exec(out);
    expect(bound, out).not.toBeNull();
    const hidden =
      /hidden +(.+)\n +admission refuses them to agent:notetaker whatever the arguments, so its surface does not list them\n +rule +(\S+) in deploy\/local\/toolsurface\.yaml: deny for agent:notetaker, capability memory, tools delete_\*\n/.exec(
        out,
      );
    expect(hidden, out).not.toBeNull();
    expect(hidden![2]).toBe(rule!.id);
    expect(hidden![1].split(', ')).toHaveLength(Number(bound![1]) - Number(bound![2]));
    expect(hidden![1].split(', ').every((t) => t.startsWith('delete_'))).toBe(true);
    // the refusal of d1 names its rule too
    expect(out).toMatch(/rule +no-secrets in deploy\/local\/toolsurface\.yaml: deny capability filesystem, when path matches \*secret\*/);
  });

  // Part g: the MCP SDK's client on the stack's MCP endpoint, as the discovery-mode gateway.
  it('connects an MCP client as gateway:agent-hub: lists, discovers, reads welcome.txt and ends the session', () => {
    const out = run.out;
    const g = out.slice(out.indexOf("\ng. an MCP client: the MCP SDK's Client over Streamable HTTP, as gateway:agent-hub"));
    expect(g.length, out).toBeGreaterThan(1);
    for (const step of [
      'g1 connect and list tools',
      'g2 discover_tools "read a text file"',
      'g3 get_tool_schema ',
      'g4 execute_tool ',
      'g5 end the session',
    ])
      expect(g).toContain(`✓ ${step}`);
    expect(g).not.toContain('✗');
    expect(g).toMatch(/→ initialize +POST http:\/\/127\.0\.0\.1:\d+\/mcp\/gateway\/agent-hub\n/);
    expect(g).toMatch(/→ tools\/list\n +tools +\d+: discover_tools, get_tool_schema, execute_tool \+ system tools journal_/);
    expect(g).toContain('→ tools/call discover_tools {"query":"read a text file"');
    expect(g).toMatch(/→ tools\/call get_tool_schema \{"name":"read_text_file"\}/);
    expect(g).toMatch(
      /→ tools\/call execute_tool \{"name":"read_text_file","arguments":\{"path":"[^"]*notes\/welcome\.txt"\}\}\n +Welcome to Toolsurface\./,
    );
    expect(g).toMatch(/→ DELETE http:\/\/127\.0\.0\.1:\d+\/mcp\/gateway\/agent-hub +\(Mcp-Session-Id mcp_[0-9a-f]{32}\)/);
    expect(g).toMatch(/status +404 \(the session is gone\)/);
    // its endpoint stopped with the demo's stack: the line before the last points to `npm start`'s and docs/mcp.md
    expect(out.trimEnd().split('\n').at(-2)).toMatch(
      /MCP clients: `npm start` serves http:\/\/127\.0\.0\.1:3100\/mcp\/<agent\|gateway>\/<id>.*docs\/mcp\.md$/,
    );
  });

  it("ends by pointing to the portal: `npm start`'s URL and how to sign in with the local config", () => {
    expect(run.out.trimEnd().split('\n').at(-1)).toMatch(
      /^ +Portal: `npm start` serves http:\/\/127\.0\.0\.1:3200\/ in a browser, .*; sign in with any token \(the config lists no orchestrators\); apps\/portal\/README\.md$/,
    );
  });

  it('leaves the NATS server at NATS_URL as it found it: no stream, bucket or config of the demo', async () => {
    const nc = await connect({ servers: shared.url });
    try {
      const jsm = await jetstreamManager(nc);
      const streams = await jsm.streams.names().next();
      expect(streams).toEqual([]);
    } finally {
      await nc.close();
    }
  });

  it('refuses, and leaves NATS_URL alone, where no nats-server binary can start a server of its own', async () => {
    const refused = await runDemo(demoEnv(shared.url, { NATS_SERVER_BIN: join(tmpdir(), `no-such-nats-server-${process.pid}`) }));
    expect(refused.code, refused.out).toBe(1);
    expect(refused.out).toContain('no nats-server binary');
    expect(refused.out).toContain('npm start');
    const nc = await connect({ servers: shared.url });
    try {
      expect(await (await jetstreamManager(nc)).streams.names().next()).toEqual([]);
    } finally {
      await nc.close();
    }
  }, 60_000);

  it('stops the nats-server it started', async () => {
    const m = /NATS nats:\/\/127\.0\.0\.1:(\d+) \(started for the demo/.exec(run.out);
    expect(m, run.out).not.toBeNull();
    const port = Number(m![1]);
    expect(`nats://127.0.0.1:${port}`).not.toBe(shared.url);
    expect(await isPortOpen('127.0.0.1', port)).toBe(false);
  });
});

describe('privateNats', () => {
  it('is undefined where the nats-server binary is not found', async () => {
    expect(await privateNats({ binary: join(tmpdir(), `no-such-nats-server-${process.pid}`) })).toBeUndefined();
  });

  it('starts a JetStream server of its own on a free port, and stop ends it', async () => {
    const nats = await privateNats();
    if (nats === undefined) throw new Error('nats-server is needed for this test (see README: npm test also needs nats-server)');
    try {
      expect(nats.startedByUs).toBe(true);
      const nc = await connect({ servers: nats.url });
      const jsm = await jetstreamManager(nc);
      expect((await jsm.getAccountInfo()).streams).toBe(0);
      await nc.close();
    } finally {
      await nats.stop();
    }
    expect(await isPortOpen('127.0.0.1', Number(new URL(nats.url).port))).toBe(false);
  });
});
