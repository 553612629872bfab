import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, ensureStream, Subjects } from '@toolsurface/platform';
import { ensureNats, findFreePort, type NatsHandle } from '@toolsurface/devkit';
import { ActivityFeed } from '@toolsurface/portal';
import { PrincipalKind, ToolCalled } from '@toolsurface/proto';

// The portal's recent-activity reader against a real nats-server: it waits for the stream, reads
// only the bounded window at start, stays live, and comes back after NATS restarts, neither losing
// nor repeating calls.

let dir: string;
let url: string;
let nats: NatsHandle;
let nc: NatsConnection | undefined;
let feed: ActivityFeed | undefined;
const POLL = { timeout: 60_000, interval: 100 };

const startNats = () => ensureNats({ url, dataDir: join(dir, 'js'), logPath: join(dir, 'nats.log') });

/** Publishes one tool.called event of agent:a for tool `tool-<n>` on the stream. */
async function publishCall(n: number): Promise<void> {
  const e = ToolCalled.fromPartial({
    principal: { kind: PrincipalKind.PRINCIPAL_KIND_AGENT, id: 'a' },
    calledName: `tool-${n}`,
    toolName: `tool-${n}`,
    via: 'direct',
    outcome: 'ok',
    atMs: Date.now(),
  });
  await jetstream(nc!).publish(Subjects.toolCalled, ToolCalled.encode(e).finish(), { msgID: `call-${n}` });
}

const tools = () => feed!.store.recent('agent:a').map((e) => e.tool);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-portal-activity-'));
  url = `nats://127.0.0.1:${await findFreePort()}`;
  nats = await startNats();
}, 30_000);

afterAll(async () => {
  await feed?.stop();
  await nc?.close().catch(() => undefined);
  await nats?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the portal's activity feed", { timeout: 120_000 }, () => {
  it('says there is no stream yet, then reads only the last PORTAL_ACTIVITY_REPLAY messages, then new calls live', async () => {
    const early = new ActivityFeed({ natsUrl: url, nats: {}, perPrincipal: 10, principals: 10, replay: 1000 });
    early.start();
    try {
      await expect.poll(() => early.view('agent:a', false).message, POLL).toContain('no TOOLSURFACE stream yet');
      expect(early.view('agent:a', false).status).toBe('unavailable');
      nc = await connectNats(url, 'test');
      await ensureStream(nc);
      // Another subject's message counts in the window: the window is the stream's last messages.
      await jetstream(nc).publish(Subjects.catalogChanged, new Uint8Array(), { msgID: 'catalog-1' });
      for (let n = 1; n <= 5; n++) await publishCall(n);
      // It tries again on its own (every 5 s) and finds the stream.
      await expect.poll(() => early.store.recent('agent:a')[0]?.tool, POLL).toBe('tool-5');
      expect(early.view('agent:a', false).status).toBe('live');
    } finally {
      await early.stop();
    }
    feed = new ActivityFeed({ natsUrl: url, nats: {}, perPrincipal: 10, principals: 10, replay: 3 });
    feed.start();
    // Stream messages 4, 5 and 6: tool-3 to tool-5.
    await expect.poll(() => feed!.view('agent:a', false).status, POLL).toBe('live');
    expect(tools()).toEqual(['tool-5', 'tool-4', 'tool-3']);
    await publishCall(6);
    await expect.poll(tools, POLL).toEqual(['tool-6', 'tool-5', 'tool-4', 'tool-3']);
  });

  it('says it is unavailable while NATS is down, and afterwards reads on from where it was, each call once', async () => {
    await nats.stop();
    await expect.poll(() => feed!.view('agent:a', false).status, POLL).toBe('unavailable');
    expect(feed!.view('agent:a', false).message).toContain(url);
    nats = await startNats();
    await expect.poll(() => feed!.view('agent:a', false).status, POLL).toBe('live');
    // The suite's own connection reconnects too; a publish may need it back first.
    await expect
      .poll(async () => {
        await publishCall(7).catch(() => undefined);
        return tools()[0];
      }, POLL)
      .toBe('tool-7');
    expect(tools()).toEqual(['tool-7', 'tool-6', 'tool-5', 'tool-4', 'tool-3']);
  });

  it('reads a stream re-created since (NATS lost its store) from its start', async () => {
    const jsm = await jetstreamManager(nc!);
    await jsm.streams.delete('TOOLSURFACE');
    await ensureStream(nc!);
    await publishCall(8);
    await expect.poll(tools, POLL).toEqual(['tool-8', 'tool-7', 'tool-6', 'tool-5', 'tool-4', 'tool-3']);
    expect(feed!.view('agent:a', false).status).toBe('live');
  });
});
