// A 3-node nats-server cluster with JetStream on loopback, every port free: each node has its own
// config file (server_name, cluster { name, listen, routes }, jetstream { store_dir }) and keeps
// its store across restarts, so a node killed and started again rejoins with its data.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultNatsBinary, findFreePorts, spawnManaged, waitForPort, type ManagedProcess } from '@toolsurface/devkit';

/** One node: its client port, config file and, while running, its process. */
export interface ClusterNode {
  name: string;
  clientPort: number;
  configFile: string;
  logPath: string;
  proc?: ManagedProcess;
}

/** A running cluster; `url` lists every node's client URL, comma-separated (NATS_URL). */
export class NatsCluster {
  private constructor(
    readonly nodes: ClusterNode[],
    readonly dir: string,
  ) {}

  /** Writes the three configs under `dir` and starts the nodes. */
  static async start(dir: string, size = 3): Promise<NatsCluster> {
    const ports = await findFreePorts(size * 2);
    const clusterPorts = ports.slice(size);
    const nodes: ClusterNode[] = [];
    for (let i = 0; i < size; i++) {
      const name = `n${i + 1}`;
      const store = join(dir, name, 'store');
      mkdirSync(store, { recursive: true });
      const routes = clusterPorts.filter((_, j) => j !== i).map((p) => `"nats-route://127.0.0.1:${p}"`);
      const configFile = join(dir, name, 'nats.conf');
      writeFileSync(
        configFile,
        [
          `server_name: ${name}`,
          `listen: "127.0.0.1:${ports[i]}"`,
          `jetstream { store_dir: ${JSON.stringify(store)} }`,
          `cluster { name: toolsurface-fault, listen: "127.0.0.1:${clusterPorts[i]}", routes: [${routes.join(', ')}] }`,
          '',
        ].join('\n'),
      );
      nodes.push({ name, clientPort: ports[i]!, configFile, logPath: join(dir, name, 'nats.log') });
    }
    const cluster = new NatsCluster(nodes, dir);
    await Promise.all(nodes.map((n) => cluster.startNode(n)));
    return cluster;
  }

  get url(): string {
    return this.nodes.map((n) => `nats://127.0.0.1:${n.clientPort}`).join(',');
  }

  node(name: string): ClusterNode {
    const n = this.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no node ${name}`);
    return n;
  }

  /**
   * Starts a node (again) on its config and store; resolves once its client port listens. Its log
   * keeps the earlier runs: how a node stopped ("Server Exiting..", or nothing after a SIGKILL) is
   * what tells a clean restart from a lossy one.
   */
  async startNode(n: ClusterNode): Promise<void> {
    n.proc = spawnManaged(`nats-${n.name}`, defaultNatsBinary(), ['-c', n.configFile], {
      cwd: this.dir,
      env: process.env,
      logPath: n.logPath,
      append: true,
    });
    await waitForPort('127.0.0.1', n.clientPort, { timeoutMs: 60_000 });
  }

  /**
   * Sends `signal` to a node and waits for it to exit. A node that outlives the 15 s grace after
   * SIGTERM is killed, and that is said on the console: a SIGKILL may lose writes the node had not
   * flushed, which a fault phase must not take for a product fault.
   */
  async stopNode(n: ClusterNode, signal: NodeJS.Signals): Promise<void> {
    const proc = n.proc;
    if (!proc || proc.exit()) return;
    if (signal === 'SIGKILL') process.kill(proc.pid, 'SIGKILL');
    else await proc.stop(15_000);
    const exit = await proc.exited;
    if (signal !== 'SIGKILL' && exit.signal === 'SIGKILL') {
      console.warn(`nats node ${n.name} did not exit within 15 s of ${signal} and was killed with SIGKILL (log: ${n.logPath})`);
    }
  }

  /** Stops every node with SIGTERM. */
  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => this.stopNode(n, 'SIGTERM')));
  }
}
