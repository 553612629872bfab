import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on 127.0.0.1 (asks the OS for one, then releases it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on 127.0.0.1:port; rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
}

/** A child process started for a test, with its temp dir; `stop()` kills it and removes the dir. */
export interface TestProcess {
  port: number;
  dir: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startProcess(
  command: string,
  args: (port: number, dir: string) => string[],
  env: (port: number, dir: string) => NodeJS.ProcessEnv,
): Promise<TestProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'toolsurface-dispatch-'));
  const child = spawn(command, args(port, dir), { env: env(port, dir), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c) => (stderr = (stderr + String(c)).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForPort(port),
      exited.then(() => {
        throw new Error(`${command} exited early: ${stderr}`);
      }),
    ]);
  } catch (e) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    port,
    dir,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** nats-server with JetStream on a free port, storing in a temp dir. */
export function startNatsServer(): Promise<TestProcess> {
  return startProcess(
    'nats-server',
    (port, dir) => ['-js', '-p', String(port), '-sd', dir, '-a', '127.0.0.1'],
    () => process.env,
  );
}

/** server-everything over Streamable HTTP on a free port (its endpoint is /mcp). */
export function startEverythingHttp(root: string): Promise<TestProcess> {
  return startProcess(
    process.execPath,
    () => [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'],
    (port) => ({ ...process.env, PORT: String(port) }),
  );
}
