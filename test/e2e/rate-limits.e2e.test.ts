import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { credentials } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DispatchServiceClient, type CallToolResponse } from '@toolsurface/proto';
import { startGateway, unaryCall, type GatewayFixture } from '../support';

// Rate limits kept in NATS (docs/DESIGN.md, "Rate limits"): a limit used up before dispatch is
// killed with SIGKILL still holds after its restart, and two dispatch replicas share one budget.

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'toolsurface-limits-'));
let g: GatewayFixture;

const callVia = (client: DispatchServiceClient, surfaceId: string): Promise<CallToolResponse> =>
  unaryCall<CallToolResponse>(client, 'callTool', { surfaceId, name: 'read_graph', argumentsJson: '{}', callId: `c-${Math.random()}` });

beforeAll(async () => {
  const config = {
    version: 1,
    capabilities: {
      memory: {
        transport: 'stdio',
        command: 'node',
        args: [join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
        env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
      },
    },
    principals: [
      { kind: 'agent', id: 'killed', mode: 'direct', capabilities: ['memory'] },
      { kind: 'agent', id: 'spread', mode: 'direct', capabilities: ['memory'] },
    ],
    admission: {
      default: 'allow',
      rules: [],
      limits: [
        { id: 'five-an-hour', principals: ['agent:killed'], rate: { calls: 5, per_seconds: 3600, per: 'principal' } },
        { id: 'twelve-an-hour', principals: ['agent:spread'], rate: { calls: 12, per_seconds: 3600, per: 'principal' } },
      ],
    },
  };
  const configPath = join(dir, 'limits.yaml');
  writeFileSync(configPath, stringify(config));
  g = await startGateway(configPath, ['memory']);
}, 180_000);

afterAll(async () => {
  await g?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('rate limits that hold across restarts and replicas', () => {
  it('a limit used up before dispatch is killed (SIGKILL) still holds after the restart', async () => {
    const s = await g.clients.open('agent:killed');
    for (let i = 0; i < 5; i++) expect((await g.clients.call(s.surfaceId, 'read_graph')).isError).toBe(false);
    expect(await g.clients.call(s.surfaceId, 'read_graph')).toMatchObject({ isError: true, reason: 'RATE_LIMITED' });

    const dispatch = g.stack.processes.find((p) => p.name === 'dispatch')!;
    process.kill(dispatch.pid, 'SIGKILL');
    await g.stack.restart('dispatch');
    const after = await g.clients.call(s.surfaceId, 'read_graph');
    expect(after).toMatchObject({ isError: true, reason: 'RATE_LIMITED' });
    expect(after.message).toMatch(/wait \d+ s/);
  }, 120_000);

  it('two dispatch replicas share one budget', async () => {
    const second = await g.stack.addDispatchReplica();
    const other = new DispatchServiceClient(second.dispatch, credentials.createInsecure());
    try {
      const s = await g.clients.open('agent:spread');
      const replicas = [g.clients.dispatch, other];
      // 32 calls, alternating replicas, four at a time: one budget of 12 between them.
      const results: CallToolResponse[] = [];
      for (let i = 0; i < 30; i += 4) {
        results.push(...(await Promise.all([0, 1, 2, 3].map((j) => callVia(replicas[(i + j) % 2], s.surfaceId)))));
      }
      const ran = results.filter((r) => !r.isError).length;
      const limited = results.filter((r) => r.reason === 'RATE_LIMITED').length;
      expect(ran).toBe(12);
      expect(limited).toBe(results.length - 12);
    } finally {
      other.close();
      await second.stop();
    }
  }, 120_000);
});
