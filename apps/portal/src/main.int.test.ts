import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
// A stand-in build, so the test never waits for Vite: start-up stops before anything is served.
const webDist = mkdtempSync(join(tmpdir(), 'portal-main-'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>t</title>');
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

/** Runs the portal's main as `npx tsx apps/portal/src/main.ts` would, with `env` added; resolves on exit. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { NATS_URL: _nats, ...base } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...base, PORTAL_WEB_DIST: webDist, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('portal main: start-up errors a person can act on', () => {
  it('names the taken port and PORTAL_PORT, without a stack trace', async () => {
    const squatter = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => squatter.once('listening', r));
    const { port } = squatter.address() as { port: number };
    try {
      const run = await runMain({ PORTAL_PORT: String(port) });
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(
        `portal: error: port ${port} is in use (\`npm start\` serves its own portal on 3200); set PORTAL_PORT to another port, or to 0 for a free one`,
      );
      expect(run.stdout).toBe('');
    } finally {
      squatter.close();
    }
  }, 60_000);

  it('names a bad variable in one line', async () => {
    const run = await runMain({ PORTAL_PORT: 'x' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^portal: error: PORTAL_PORT must be a whole number/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
