import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { jetstreamManager, type StreamInfo } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultNatsBinary, findFreePorts, spawnManaged, waitForPort, type ManagedProcess } from '@toolsurface/devkit';
import { connectNats } from '@toolsurface/platform';
import { hasCommand, kustomizations, podSpec, render, type K8sObject } from './support/k8s-manifests';

// The NATS StatefulSet of deploy/k8s/overlays/production, run for real: three nats-servers started
// with the rendered arguments and nats.conf (pod names, volumes and ports mapped to this machine)
// form one JetStream cluster, hold a stream with 3 replicas, and refuse a client without a password.

const hasKubectl = hasCommand('kubectl', ['version', '--client']);
const natsBinary = defaultNatsBinary();
const hasNats = hasCommand(natsBinary, ['--version']);
if (!hasKubectl) console.warn('deploy-nats-cluster: kubectl not found, skipped (it is on these machines, not in Debian)');
if (!hasNats) console.warn(`deploy-nats-cluster: ${natsBinary} not found, skipped (apt-get install nats-server)`);

interface EnvVar {
  name: string;
  valueFrom?: { secretKeyRef?: { key: string } };
}

const dir = mkdtempSync(join(tmpdir(), 'toolsurface-nats-cluster-'));
const procs: ManagedProcess[] = [];
const passwords: Record<string, string> = {};
let clientPorts: number[] = [];
let nc: NatsConnection | undefined;

/** The pod's arguments with its name, volume, config file and ports mapped to this machine. */
function localArgs(args: string[], i: number, conf: string, ports: { client: number[]; cluster: number[]; monitor: number[] }): string[] {
  const out = args.map((a) =>
    a
      .replace('$(POD_NAME)', `nats-${i}`)
      .replace('/etc/nats/nats.conf', conf)
      .replace(/^\/data$/, join(dir, `data-${i}`))
      .replace('nats://0.0.0.0:6222', `nats://127.0.0.1:${ports.cluster[i]}`)
      // routes: nats://nats-<k>.nats-headless:6222, the StatefulSet's stable pod names
      .replace(/nats:\/\/nats-(\d)\.nats-headless:6222/g, (_m, k: string) => `nats://127.0.0.1:${ports.cluster[Number(k)]}`),
  );
  out[out.indexOf('-m') + 1] = String(ports.monitor[i]);
  return [...out, '-a', '127.0.0.1', '-p', String(ports.client[i])];
}

beforeAll(async () => {
  if (!hasKubectl || !hasNats) return;
  const production = kustomizations().overlays.find((o) => basename(o) === 'production')!;
  const objs = render(production);
  const sts = objs.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'nats')!;
  const replicas = (sts.spec as { replicas: number }).replicas;
  const container = podSpec(sts).containers[0]!;
  const confMap = objs.find((o): o is K8sObject => o.kind === 'ConfigMap' && o.metadata.name.startsWith('toolsurface-nats-conf'))!;
  const conf = join(dir, 'nats.conf');
  writeFileSync(conf, confMap.data!['nats.conf']!);
  const env: Record<string, string> = {};
  for (const e of (container.env ?? []) as EnvVar[]) {
    const key = e.valueFrom?.secretKeyRef?.key;
    // as deploy/README.md makes them: nats-server parses a variable's value as a config value, so a
    // password must start with a letter (a leading digit makes it a malformed number)
    if (key) env[e.name] = passwords[key] ??= `p${randomBytes(24).toString('hex')}`;
  }
  const free = await findFreePorts(replicas * 3);
  const ports = { client: free.slice(0, replicas), cluster: free.slice(replicas, 2 * replicas), monitor: free.slice(2 * replicas) };
  clientPorts = ports.client;
  for (let i = 0; i < replicas; i++) {
    mkdirSync(join(dir, `data-${i}`));
    procs.push(
      spawnManaged(`nats-${i}`, natsBinary, localArgs(container.args!, i, conf, ports), {
        cwd: dir,
        env: { PATH: process.env.PATH, ...env },
        logPath: join(dir, `nats-${i}.log`),
      }),
    );
  }
  for (const [i, p] of ports.client.entries())
    await waitForPort('127.0.0.1', p, {
      timeoutMs: 30_000,
      check: () => {
        const exit = procs[i]!.exit();
        if (exit) throw new Error(`nats-${i} exited (${JSON.stringify(exit)}):\n${procs[i]!.tail(15)}`);
      },
    });
  nc = await connectNats(ports.client.map((p) => `nats://127.0.0.1:${p}`).join(','), 'cluster-test', {
    user: 'surface-resolver',
    pass: passwords['surface-resolver'],
  });
}, 120_000);

afterAll(async () => {
  await nc?.close();
  await Promise.all(procs.map((p) => p.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasKubectl || !hasNats)('overlays/production NATS', () => {
  it('forms one 3-node JetStream cluster that keeps a stream on all three', async () => {
    expect(procs).toHaveLength(3);
    // The meta leader is elected after the routes connect: until then JetStream requests time out
    // or fail, so retry until the cluster takes the stream.
    let info: StreamInfo | undefined;
    const deadline = Date.now() + 60_000;
    while (!info) {
      try {
        const jsm = await jetstreamManager(nc!);
        info = await jsm.streams.add({ name: 'TOOLSURFACE', subjects: ['toolsurface.>'], num_replicas: 3 });
      } catch (e) {
        if (Date.now() > deadline) throw new Error(`no stream with 3 replicas: ${(e as Error).message}\n${procs[0]!.tail(20)}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    expect(info.cluster?.name).toBe('toolsurface');
    expect(info.config.num_replicas).toBe(3);
    // the leader and two more peers
    expect([info.cluster?.leader, ...(info.cluster?.replicas ?? []).map((r) => r.name)].sort()).toEqual(['nats-0', 'nats-1', 'nats-2']);
  }, 90_000);

  it('refuses a client without a service password', async () => {
    await expect(connectNats(`nats://127.0.0.1:${clientPorts[1]}`, 'intruder', {})).rejects.toThrow(/Authorization/i);
    await expect(connectNats(`nats://127.0.0.1:${clientPorts[2]}`, 'intruder', { user: 'dispatch', pass: 'wrong' })).rejects.toThrow(
      /Authorization/i,
    );
  }, 30_000);
});
