// Processes the dispatch tests and the execute_tool bench start: a nats-server and server-everything
// over Streamable HTTP, each on a free port with a temporary folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultNatsBinary, findFreePort, waitForPort } from '@toolsurface/devkit';

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
  const port = await findFreePort();
  const dir = mkdtempSync(join(tmpdir(), 'toolsurface-dispatch-'));
  const child = spawn(command, args(port, dir), { env: env(port, dir), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c) => (stderr = (stderr + String(c)).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForPort('127.0.0.1', port, { timeoutMs: 15_000 }),
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
    defaultNatsBinary(),
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
