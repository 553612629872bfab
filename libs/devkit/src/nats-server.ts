import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { probeTcp, findFreePort, waitForPort } from './net';
import { describeExit, spawnManaged, type ManagedProcess } from './process';
import { DEFAULT_LOG_DIR, DEFAULT_NATS_DATA_DIR, REPO_ROOT } from './paths';

/** A failure to start part of the local stack; `logTail` holds the end of the failing process's log. */
export class StackError extends Error {
  override readonly name = 'StackError';
  readonly logTail: string | undefined;
  constructor(message: string, options?: { cause?: unknown; logTail?: string }) {
    super(options?.logTail ? `${message}\n--- last lines of its log ---\n${options.logTail}` : message, { cause: options?.cause });
    this.logTail = options?.logTail;
  }
}

/** The default NATS URL of every service and of `npm start`. */
export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

/** How to get a nats-server, for the error shown when the binary is missing. */
export const NATS_BINARY_HINT =
  'Install nats-server 2.9 or later: `sudo apt-get install nats-server` on Debian/Ubuntu, or the official release from ' +
  'https://github.com/nats-io/nats-server/releases (put `nats-server` on PATH or set NATS_SERVER_BIN).';

/** How to get a NATS server where none answers: install one (NATS_BINARY_HINT), or point NATS_URL at one. */
export const NATS_INSTALL_HINT = `${NATS_BINARY_HINT} Or point NATS_URL at a running server started with JetStream (\`nats-server -js\`).`;

/** A NATS server the stack can use. */
export interface NatsHandle {
  url: string;
  /** True when ensureNats started the server (then `stop` stops it); false for one already running. */
  startedByUs: boolean;
  /** PID of the server ensureNats started, if it did. */
  pid?: number;
  /** Stops the server if ensureNats started it (SIGTERM, SIGKILL after 5 s); otherwise does nothing. */
  stop(): Promise<void>;
}

/** Options of `ensureNats`. */
export interface EnsureNatsOptions {
  /** nats://host:port (default DEFAULT_NATS_URL). */
  url?: string;
  /** JetStream store folder when a server is started (default `<repo>/.data/nats`). */
  dataDir?: string;
  /** Log file of a started server (default `<repo>/.data/logs/nats.log`). */
  logPath?: string;
  /** The nats-server binary (default: defaultNatsBinary()). */
  binary?: string;
  /** How long a started server may take to accept connections, ms (default 10 000). */
  timeoutMs?: number;
  /** A nats-server config file for a started server (`-c`; users and permissions); the flags above still set address, port and store. */
  configFile?: string;
  /** Extra environment of a started server (a config file's `$VARIABLE`s, such as passwords). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Uses the NATS server answering at `url` (it must have JetStream), or starts
 * `nats-server -js -a <host> -p <port> -sd <dataDir>` and waits until it accepts connections.
 * Throws StackError when the port answers but is not NATS, when a running server lacks JetStream,
 * or when the binary is missing (the message says how to install it; see NATS_INSTALL_HINT).
 */
export async function ensureNats(opts: EnsureNatsOptions = {}): Promise<NatsHandle> {
  const url = opts.url ?? DEFAULT_NATS_URL;
  const { host, port } = parseNatsUrl(url);
  const greeting = await probeTcp(host, port, 1000);
  if (greeting !== undefined) {
    const info = parseNatsInfo(greeting);
    if (!info) throw new StackError(`something that is not NATS answers at ${host}:${port}; set NATS_URL to a NATS server`);
    if (info.jetstream !== true) {
      throw new StackError(`the NATS server at ${url} runs without JetStream; restart it with -js or set NATS_URL to another one`);
    }
    return { url, startedByUs: false, stop: async () => undefined };
  }
  const binary = opts.binary ?? defaultNatsBinary();
  if (!findExecutable(binary)) {
    throw new StackError(`no NATS server answers at ${url} and the \`${binary}\` binary was not found to start one. ${NATS_INSTALL_HINT}`);
  }
  const dataDir = resolve(opts.dataDir ?? DEFAULT_NATS_DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const args = [...(opts.configFile ? ['-c', opts.configFile] : []), '-js', '-a', host, '-p', String(port), '-sd', dataDir];
  const proc = spawnManaged('nats-server', binary, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...opts.env },
    logPath: opts.logPath ?? join(DEFAULT_LOG_DIR, 'nats.log'),
  });
  try {
    await waitForPort(host, port, { timeoutMs: opts.timeoutMs ?? 10_000, check: failIfExited(proc) });
  } catch (e) {
    await proc.stop(1000);
    throw new StackError(`nats-server did not start on ${host}:${port}: ${(e as Error).message}`, { cause: e, logTail: proc.tail(30) });
  }
  return { url, startedByUs: true, pid: proc.pid, stop: () => proc.stop(5000) };
}

/**
 * Starts a nats-server of its own for a throwaway stack: JetStream on 127.0.0.1 at a free port,
 * its store in a new temporary folder that `stop` removes. A stack on it changes nothing that
 * another stack reads: a stack writes its config (its MCP servers' URLs among it) to the config
 * bucket of the NATS it uses, so a throwaway stack on a shared server left the others pointing at
 * MCP servers it had stopped. Resolves to undefined when the nats-server binary is not found
 * (`binary`, default defaultNatsBinary()); throws StackError when it
 * does not start.
 */
export async function privateNats(opts: { logPath?: string; binary?: string } = {}): Promise<NatsHandle | undefined> {
  const binary = opts.binary ?? defaultNatsBinary();
  if (!findExecutable(binary)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'toolsurface-nats-'));
  try {
    const handle = await ensureNats({
      url: `nats://127.0.0.1:${await findFreePort()}`,
      dataDir: join(dir, 'jetstream'),
      logPath: opts.logPath ?? join(dir, 'nats.log'),
      binary,
    });
    // (a server that answered at the free port in the meantime is not ours: refuse it rather than share it)
    if (!handle.startedByUs) throw new StackError(`another server took ${handle.url} before ours could`);
    return {
      ...handle,
      async stop() {
        await handle.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Host and port of a nats:// URL (port 4222 when absent); throws StackError for another scheme. */
export function parseNatsUrl(url: string): { host: string; port: number } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new StackError(`NATS_URL "${url}" is not a URL such as nats://127.0.0.1:4222`);
  }
  if (u.protocol !== 'nats:') throw new StackError(`NATS_URL "${url}" must start with nats://`);
  const host = u.hostname === 'localhost' || u.hostname === '' ? '127.0.0.1' : u.hostname;
  return { host, port: u.port ? Number(u.port) : 4222 };
}

/** The JSON of a NATS server's greeting line (`INFO {...}`), or undefined when `greeting` is not one. */
export function parseNatsInfo(greeting: string): { jetstream?: boolean; version?: string } | undefined {
  // Captures the JSON object after "INFO " on the first line.
  const m = /^INFO\s+(\{.*\})\s*$/m.exec(greeting);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]) as { jetstream?: boolean; version?: string };
  } catch {
    return undefined;
  }
}

/** Where Debian and Ubuntu's package puts nats-server: /usr/sbin, which a user's PATH often lacks. */
const SBIN_NATS_SERVERS = ['/usr/sbin/nats-server', '/usr/local/sbin/nats-server'];

/**
 * The nats-server binary to start: NATS_SERVER_BIN where set, else `nats-server` on PATH, else the
 * one the Debian package installs in /usr/sbin; `nats-server` (not found) when there is none.
 */
export function defaultNatsBinary(): string {
  if (process.env.NATS_SERVER_BIN) return process.env.NATS_SERVER_BIN;
  if (findExecutable('nats-server')) return 'nats-server';
  return SBIN_NATS_SERVERS.find((p) => findExecutable(p)) ?? 'nats-server';
}

/** True when `command` is an executable path, or an executable found on PATH. */
function findExecutable(command: string): boolean {
  const candidates = command.includes('/')
    ? [command]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((d) => join(d, command));
  return candidates.some((c) => {
    try {
      accessSync(c, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Throws when `proc` has already exited, so waits end at once instead of at their timeout. */
export function failIfExited(proc: ManagedProcess): () => void {
  return () => {
    const exit = proc.exit();
    if (exit) throw new Error(`${proc.name} ${describeExit(exit)}`);
  };
}
