import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATA_DIR,
  privateNats,
  REPO_ROOT,
  spawnManaged,
  findFreePorts,
  waitForServing,
  type ManagedProcess,
  type NatsHandle,
} from '@toolsurface/devkit';
import { buildServices, importedPackages, packageOf } from './build';

// `npm run build` as the image uses it: the four services and the portal built to plain ES modules
// start under node (no tsx) against a real nats-server, with the cluster's config file; the
// services serve gRPC health, the portal its built web app.

const OUT = join(DATA_DIR, `build-test-${process.pid}`);
const PORTS: Record<string, number> = {};
const procs: ManagedProcess[] = [];
let nats: NatsHandle | undefined;
let built: { entries: string[]; packages: string[] };

beforeAll(async () => {
  mkdirSync(DATA_DIR, { recursive: true });
  built = await buildServices(OUT);
  nats = await privateNats();
  if (!nats) throw new Error('nats-server not found (apt-get install nats-server; it lives in /usr/sbin)');
  const ports = await findFreePorts(5);
  ['surface-resolver', 'discovery', 'dispatch', 'unified-mapper'].forEach((s, i) => (PORTS[s] = ports[i]!));
  PORTS.portal = ports[4]!;
  procs.push(
    spawnManaged('portal', process.execPath, ['--enable-source-maps', join(OUT, 'portal', 'main.js')], {
      cwd: REPO_ROOT,
      logPath: join(OUT, 'portal.log'),
      env: {
        PATH: process.env.PATH,
        NATS_URL: nats.url,
        PORTAL_PORT: String(PORTS.portal),
        PORTAL_WEB_DIST: join(OUT, 'portal', 'web'),
        TOOLSURFACE_RESOLVER: `127.0.0.1:${PORTS['surface-resolver']}`,
      },
    }),
  );
  for (const svc of Object.keys(PORTS).filter((s) => s !== 'portal')) {
    procs.push(
      spawnManaged(svc, process.execPath, ['--enable-source-maps', join(OUT, svc, 'main.js')], {
        cwd: REPO_ROOT,
        logPath: join(OUT, `${svc}.log`),
        env: {
          PATH: process.env.PATH,
          NATS_URL: nats.url,
          GRPC_HOST: '127.0.0.1',
          GRPC_PORT: String(PORTS[svc]),
          LOG_LEVEL: 'warn',
          TOOLSURFACE_CONFIG: join(REPO_ROOT, 'deploy', 'k8s', 'base', 'toolsurface.yaml'),
          DISCOVERY_ADDR: `dns:///127.0.0.1:${PORTS.discovery}`,
          UNIFIED_ADDR: `dns:///127.0.0.1:${PORTS['unified-mapper']}`,
          CAPABILITY_STARTUP_WAIT_MS: '0',
        },
      }),
    );
  }
}, 180_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await nats?.stop();
  rmSync(OUT, { recursive: true, force: true });
});

describe('npm run build', () => {
  it('emits one bundle per service, with the search data beside them', () => {
    expect(built.entries.sort()).toEqual([
      'discovery/main',
      'dispatch/main',
      'portal/main',
      'surface-resolver/main',
      'unified-mapper/main',
    ]);
    for (const e of built.entries) expect(existsSync(join(OUT, `${e}.js`)), e).toBe(true);
    expect(existsSync(join(OUT, 'portal', 'web', 'index.html'))).toBe(true);
    expect(existsSync(join(OUT, 'data', 'word-vectors.bin'))).toBe(true);
    // what the image's npm ci --omit=dev must install: gRPC, NATS and OpenTelemetry at least, never a test tool
    expect(built.packages).toEqual(expect.arrayContaining(['@grpc/grpc-js', '@nats-io/transport-node', '@opentelemetry/api']));
    for (const dev of ['vitest', 'tsx', 'typescript', 'fast-check']) expect(built.packages).not.toContain(dev);
  });

  it.each(['surface-resolver', 'discovery', 'dispatch', 'unified-mapper'])(
    '%s starts from its bundle under plain node and serves',
    async (svc) => {
      const proc = procs.find((p) => p.name === svc)!;
      await waitForServing(`127.0.0.1:${PORTS[svc]}`, {
        timeoutMs: 90_000,
        check: () => {
          const exit = proc.exit();
          if (exit) throw new Error(`${svc} exited: ${proc.tail()}`);
        },
      });
    },
    120_000,
  );
});

describe('the portal bundle', () => {
  it('starts under plain node with NATS configured and serves the web app built beside it', async () => {
    const proc = procs.find((p) => p.name === 'portal')!;
    let page: Response | undefined;
    for (let i = 0; i < 600 && !page; i++) {
      if (proc.exit()) throw new Error(`portal exited: ${proc.tail()}`);
      page = await fetch(`http://127.0.0.1:${PORTS.portal}/`).catch(() => undefined);
      if (!page) await new Promise((r) => setTimeout(r, 200));
    }
    expect(page?.status).toBe(200);
    expect(await page!.text()).toContain('<div id="root">');
    expect(await (await fetch(`http://127.0.0.1:${PORTS.portal}/api/session`)).json()).toEqual({ signedIn: false });
  }, 150_000);
});

describe('packageOf and importedPackages', () => {
  it('name the package of a bare import, scoped or not', () => {
    expect(packageOf('@grpc/grpc-js')).toBe('@grpc/grpc-js');
    expect(packageOf('@modelcontextprotocol/sdk/server/mcp.js')).toBe('@modelcontextprotocol/sdk');
    expect(packageOf('yaml')).toBe('yaml');
    expect(packageOf('gpt-tokenizer/encoding/o200k_base')).toBe('gpt-tokenizer');
  });

  it('list external packages only, without node: built-ins', () => {
    const meta = {
      inputs: {},
      outputs: {
        'a.js': {
          bytes: 1,
          inputs: {},
          exports: [],
          imports: [
            { path: 'node:fs', kind: 'import-statement' as const, external: true },
            { path: 'pino', kind: 'import-statement' as const, external: true },
            { path: '@nats-io/kv/internal', kind: 'import-statement' as const, external: true },
            { path: './chunk.js', kind: 'import-statement' as const, external: false },
          ],
        },
      },
    };
    expect(importedPackages(meta)).toEqual(['@nats-io/kv', 'pino']);
  });
});
