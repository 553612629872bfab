import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { Buckets, SNAPSHOT_OBJECT_STORE, STREAM, Subjects, connectNats, inboxPrefixOf } from '@toolsurface/platform';
import { CONFIG_DOCUMENT_KEY } from '@toolsurface/state';
import { PresentationMode } from '@toolsurface/proto';
import { NatsSessionStore } from '@toolsurface/portal';
import { principalOf, startGateway, textOf, unaryCall, type GatewayFixture } from '../support';

// The NATS users and subject permissions shipped in deploy/k8s/components/nats-auth/nats.conf,
// run for real: the whole gateway works with each service logged in as its own user, and each
// user is refused what the file says it may not do (docs/security.md, "NATS is the trust root").

const ROOT = join(import.meta.dirname, '..', '..');
const SHIPPED = join(ROOT, 'deploy', 'k8s', 'components', 'nats-auth', 'nats.conf');
const PASSWORDS = {
  'surface-resolver': 'resolver-pw-1',
  dispatch: 'dispatch-pw-2',
  discovery: 'discovery-pw-3',
  'unified-mapper': 'unified-pw-4',
} as const;
type Service = keyof typeof PASSWORDS;
const SERVICES = Object.keys(PASSWORDS) as Service[];
const PORTAL_PASSWORD = 'portal-pw-6';
// The suite's own connection (events, the catalog wait) is a user of the test's, added to a copy.
const OBSERVER = { user: 'observer', pass: 'observer-pw-5' };

let dir: string;
let g: GatewayFixture;
const conns = new Map<Service, NatsConnection>();

/** Resolves to 'ok' or to the error's message: what the server let the user do. */
async function attempt(p: () => Promise<unknown>): Promise<string> {
  try {
    await p();
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

/** The permission violations nats-server logged ("Publish Violation - User ..., Subject ..."). */
function violations(): string[] {
  return readFileSync(g.natsLog, 'utf8')
    .split('\n')
    .filter((l) => /(Publish|Subscription) Violation/.test(l));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-nats-perm-'));
  const conf = join(dir, 'nats.conf');
  const shipped = readFileSync(SHIPPED, 'utf8');
  if (!/users:\s*\[/.test(shipped)) throw new Error(`${SHIPPED} has no users list`);
  writeFileSync(conf, shipped.replace(/users:\s*\[/, `users: [\n    { user: ${OBSERVER.user}, password: "${OBSERVER.pass}" }`));
  g = await startGateway(join(ROOT, 'test', 'fixtures', 'nats-permissions.yaml'), ['filesystem', 'memory'], {
    nats: {
      configFile: conf,
      env: {
        TOOLSURFACE_NATS_RESOLVER_PASSWORD: PASSWORDS['surface-resolver'],
        TOOLSURFACE_NATS_DISPATCH_PASSWORD: PASSWORDS.dispatch,
        TOOLSURFACE_NATS_DISCOVERY_PASSWORD: PASSWORDS.discovery,
        TOOLSURFACE_NATS_UNIFIED_PASSWORD: PASSWORDS['unified-mapper'],
        TOOLSURFACE_NATS_PORTAL_PASSWORD: PORTAL_PASSWORD,
      },
      ...OBSERVER,
    },
    serviceEnv: Object.fromEntries(SERVICES.map((s) => [s, { NATS_USER: s, NATS_PASSWORD: PASSWORDS[s] }])),
  });
  // As the services connect: with the user's own inbox prefix.
  for (const s of SERVICES) conns.set(s, await connectNats(g.nats.url, `probe-${s}`, { user: s, pass: PASSWORDS[s] }));
}, 180_000);

afterAll(async () => {
  for (const nc of conns.values()) await nc.close().catch(() => undefined);
  await g?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the gateway under the shipped NATS permissions', () => {
  it('works end to end with each service logged in as its own user, and nothing is refused on the way', async () => {
    const seeker = await g.clients.open('agent:seeker');
    expect(seeker.snapshotId).toMatch(/^snap_/);
    // discovery: the snapshot.created consumer and the snapshot store
    const found = await g.clients.call(seeker.surfaceId, 'discover_tools', { query: 'read a text file', limit: 5 });
    expect(found.isError, found.message).toBe(false);
    expect(textOf(found.contentJson)).toContain('read_text_file');
    // dispatch: snapshot validation, a real call, the audit event
    const ran = await g.clients.call(seeker.surfaceId, 'execute_tool', {
      name: 'list_directory',
      arguments: { path: join(ROOT, 'test', 'fixtures', 'sample') },
    });
    expect(ran.isError, ran.message).toBe(false);
    // unified-mapper: its own read of the snapshot
    const asker = await g.clients.open('agent:asker');
    const mapped = await g.clients.call(asker.surfaceId, 'unified_tool', {
      request: `list the directory ${join(ROOT, 'test', 'fixtures', 'sample')}`,
    });
    // (ranked from the snapshot it read; whether it runs depends on its confidence, not on NATS)
    expect(mapped.reason === '' || mapped.reason === 'LOW_CONFIDENCE', mapped.message).toBe(true);
    expect(mapped.unified?.candidates[0]?.name).toBe('list_directory');
    // the journal system tool: dispatch's own bucket
    const journal = await g.clients.call(seeker.surfaceId, 'journal_append', { entry: 'permissions suite' });
    expect(journal.isError, journal.message).toBe(false);
    // surface-resolver: a presentation change and a closed surface (config and surfaces buckets, events)
    await unaryCall(g.clients.presentation, 'setPresentation', {
      principal: principalOf('agent:asker'),
      mode: PresentationMode.PRESENTATION_MODE_DIRECT,
      autonomy: 0,
    });
    const direct = await g.clients.open('agent:asker');
    expect(direct.tools.map((t) => t.name)).toContain('list_directory');
    await unaryCall(g.clients.surface, 'closeSurface', { surfaceId: seeker.surfaceId });
    await new Promise((r) => setTimeout(r, 300));
    // every event of every service reached the stream (catalog.changed went out at dispatch's start)
    const jsm = await jetstreamManager(g.nc);
    for (const subject of [
      Subjects.snapshotCreated,
      Subjects.surfaceOpened,
      Subjects.surfaceClosed,
      Subjects.presentationChanged,
      Subjects.toolCalled,
      Subjects.catalogChanged,
    ]) {
      expect(await jsm.streams.getMessage(STREAM, { last_by_subj: subject }).catch(() => null), subject).not.toBeNull();
    }
    expect(violations()).toEqual([]);
  });
});

describe('the portal under the shipped NATS permissions', () => {
  it('keeps its sessions in its own bucket, unrefused, and may read or publish nothing else', async () => {
    const nc = await connectNats(g.nats.url, 'probe-portal', { user: 'portal', pass: PORTAL_PASSWORD });
    try {
      const store = await NatsSessionStore.open(nc, 60_000, 1);
      const s = await store.create('some-admin-token');
      expect((await store.fromCookie(`ts_portal_session=${s.id}`))?.csrf).toBe(s.csrf);
      await store.delete(s.id);
      expect(await store.fromCookie(`ts_portal_session=${s.id}`)).toBeUndefined();
      expect(violations().filter((l) => l.includes('"portal"'))).toEqual([]);
      const read = await attempt(async () => (await new Kvm(nc).open(Buckets.config)).get(CONFIG_DOCUMENT_KEY));
      expect(read).toMatch(/permission|timeout/i);
      const forged = await attempt(() => jetstream(nc).publish(Subjects.presentationChanged, new Uint8Array([1]), { timeout: 2000 }));
      expect(forged).toMatch(/permission/i);
    } finally {
      await nc.close();
    }
  });
});

describe('what each service user may not do', () => {
  it('only surface-resolver writes the config bucket (admission, orchestrators, capability commands)', async () => {
    const observer = new Kvm(g.nc);
    const config = await observer.open(Buckets.config);
    const before = (await config.get(CONFIG_DOCUMENT_KEY))?.string();
    expect(before).toBeDefined();
    for (const s of SERVICES.filter((x) => x !== 'surface-resolver')) {
      const kv = await new Kvm(conns.get(s)!).open(Buckets.config);
      const put = await attempt(() =>
        kv.put(CONFIG_DOCUMENT_KEY, JSON.stringify({ ...(JSON.parse(before!) as object), admission: { default: 'allow', rules: [] } })),
      );
      expect(put, s).toMatch(/permission/i);
      const del = await attempt(() => kv.delete(CONFIG_DOCUMENT_KEY));
      expect(del, s).toMatch(/permission/i);
    }
    expect((await config.get(CONFIG_DOCUMENT_KEY))?.string()).toBe(before);
    // and surface-resolver can (the same value written back)
    const own = await new Kvm(conns.get('surface-resolver')!).open(Buckets.config);
    expect(await attempt(() => own.put(CONFIG_DOCUMENT_KEY, before!))).toBe('ok');
  });

  it('only dispatch publishes tool.called: the audit trail cannot be forged', async () => {
    for (const s of SERVICES.filter((x) => x !== 'dispatch')) {
      const r = await attempt(() => jetstream(conns.get(s)!).publish(Subjects.toolCalled, new Uint8Array([1, 2, 3]), { timeout: 2000 }));
      expect(r, s).toMatch(/permission/i);
    }
  });

  it("no service deletes, updates or purges a stream (but surface-resolver its snapshot store), or deletes discovery's consumer", async () => {
    for (const s of SERVICES) {
      const jsm = await jetstreamManager(conns.get(s)!, { timeout: 2000 });
      for (const stream of [STREAM, `KV_${Buckets.config}`, `KV_${Buckets.surfaces}`, `OBJ_${SNAPSHOT_OBJECT_STORE}`]) {
        expect(await attempt(() => jsm.streams.delete(stream)), `${s} deletes ${stream}`).toMatch(/permission|timeout/i);
        if (!(s === 'surface-resolver' && stream.startsWith('OBJ_')))
          expect(await attempt(() => jsm.streams.purge(stream)), `${s} purges ${stream}`).toMatch(/permission|timeout/i);
        // (the event stream's retention holds the audit trail)
        expect(await attempt(() => jsm.streams.update(stream, { max_age: 3600 * 1e9 })), `${s} updates ${stream}`).toMatch(
          /permission|timeout/i,
        );
      }
      if (s !== 'discovery') {
        const del = await attempt(() => jsm.consumers.delete(STREAM, 'discovery-indexer'));
        expect(del, `${s} deletes discovery's consumer`).toMatch(/permission|timeout/i);
      }
    }
    const jsm = await jetstreamManager(g.nc);
    expect((await jsm.streams.info(STREAM)).config.max_age).toBe(7 * 24 * 3600 * 1e9);
    expect((await jsm.consumers.info(STREAM, 'discovery-indexer')).name).toBe('discovery-indexer');
  });

  it('only dispatch and surface-resolver read events beyond snapshot.created (tool.called records who called what)', async () => {
    for (const s of ['discovery', 'unified-mapper'] as const) {
      const jsm = await jetstreamManager(conns.get(s)!, { timeout: 2000 });
      // a named consumer, an unnamed one, and discovery's own name with another filter
      const r = await Promise.all([
        attempt(() => jsm.consumers.add(STREAM, { name: 'peek', filter_subject: Subjects.toolCalled, ack_policy: AckPolicy.None })),
        attempt(() => jsm.consumers.add(STREAM, { filter_subject: Subjects.toolCalled, ack_policy: AckPolicy.None })),
        attempt(() =>
          jsm.consumers.add(STREAM, {
            durable_name: 'discovery-indexer',
            filter_subject: Subjects.toolCalled,
            ack_policy: AckPolicy.Explicit,
          }),
        ),
      ]);
      for (const x of r) expect(x, s).toMatch(/permission|timeout/i);
    }
  });

  it('discovery and unified-mapper read no configuration at all', async () => {
    for (const s of ['discovery', 'unified-mapper'] as const) {
      const r = await attempt(async () => (await new Kvm(conns.get(s)!).open(Buckets.config)).get(CONFIG_DOCUMENT_KEY));
      expect(r, s).toMatch(/permission|timeout/i);
    }
  });

  it('no service reads the replies another service gets (its inboxes are its own)', async () => {
    for (const s of SERVICES) {
      for (const subject of ['_INBOX.>', `${inboxPrefixOf(s === 'dispatch' ? 'surface-resolver' : 'dispatch')}.>`, '>']) {
        const refused = new Promise<string>((resolve) => {
          conns.get(s)!.subscribe(subject, { callback: (err) => resolve(err ? err.message : 'a message arrived') });
          setTimeout(() => resolve('no refusal within 3 s'), 3000);
        });
        expect(await refused, `${s} subscribes to ${subject}`).toMatch(/permission/i);
      }
    }
  });

  it('refuses unknown users and wrong passwords', async () => {
    expect(await attempt(() => connect({ servers: g.nats.url }))).toMatch(/Authorization Violation/i);
    expect(await attempt(() => connect({ servers: g.nats.url, user: 'dispatch', pass: 'wrong' }))).toMatch(/Authorization Violation/i);
  });
});
