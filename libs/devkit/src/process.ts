import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How a managed process ended: its exit code or signal, or the spawn error (e.g. ENOENT). */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

/** A child process whose output goes to a log file, started in its own process group. */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logPath: string;
  /** Settles once the process has exited (never rejects). */
  readonly exited: Promise<ProcessExit>;
  /** The exit, once it happened; undefined while running. */
  exit(): ProcessExit | undefined;
  /** The last `lines` lines of the log file (default 40). */
  tail(lines?: number): string;
  /** SIGTERM to the process, SIGKILL to its whole group after `graceMs` (default 5000); idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/** What `spawnManaged` starts. */
export interface SpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** stdout and stderr go here; the file is truncated first unless `append`. */
  logPath: string;
  /** Write after what the log already holds (a process started again keeps its earlier runs' lines). */
  append?: boolean;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Kills every process group still running when this process exits, so nothing outlives a crash of its parent. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) killGroup(child.pid, 'SIGKILL');
  });
}

/** Sends `signal` to the process group led by `pid`; a group that is already gone is ignored. */
function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone.
  }
}

/**
 * Starts `command args` detached in its own process group (so the processes it starts itself, such
 * as dispatch's stdio MCP servers, are stopped with it), stdout and stderr written to `logPath`
 * (emptied first, so the log holds this run only, unless `append`).
 */
export function spawnManaged(name: string, command: string, args: string[], opts: SpawnOptions): ManagedProcess {
  mkdirSync(dirname(opts.logPath), { recursive: true });
  const fd = openSync(opts.logPath, opts.append ? 'a' : 'w');
  let child: ChildProcess;
  try {
    child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', fd, fd], detached: true });
  } finally {
    closeSync(fd);
  }
  installExitHook();
  live.add(child);
  let exit: ProcessExit | undefined;
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('error', (error) => {
      // A spawn failure emits 'error' without 'exit'; after a successful spawn, 'exit' follows.
      if (child.pid === undefined) {
        exit ??= { code: null, signal: null, error };
        live.delete(child);
        resolve(exit);
      }
    });
    child.once('exit', (code, signal) => {
      exit ??= { code, signal };
      live.delete(child);
      resolve(exit);
    });
  });
  let stopping: Promise<void> | undefined;
  return {
    name,
    pid: child.pid ?? -1,
    logPath: opts.logPath,
    exited,
    exit: () => exit,
    tail: (lines = 40) => tailFile(opts.logPath, lines),
    stop(graceMs = 5000) {
      stopping ??= (async () => {
        if (exit === undefined) {
          try {
            child.kill('SIGTERM');
          } catch {
            // Already gone.
          }
          const done = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
          if (!done) killGroup(child.pid, 'SIGKILL');
          await exited;
        }
        // Whatever the process started and left behind goes with it.
        killGroup(child.pid, 'SIGKILL');
        if (child.pid !== undefined) await waitGroupGone(child.pid, 2000);
      })();
      return stopping;
    },
  };
}

/**
 * PIDs of the live (not zombie) processes in process group `pgid`, read from /proc; where /proc is
 * missing, [pgid] while the group answers signal 0, else [].
 */
export function liveGroupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const members: number[] = [];
  for (const e of entries) {
    // Only the numeric entries of /proc are processes.
    if (!/^\d+$/.test(e)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${e}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the command name in parentheses: state, ppid, pgrp, ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(e));
  }
  return members;
}

/** Waits until group `pgid` has no live process, up to `timeoutMs`. */
async function waitGroupGone(pgid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (liveGroupMembers(pgid).length > 0 && Date.now() < deadline) await sleep(25);
}

/** The last `lines` lines of a text file, or '' when it cannot be read. */
export function tailFile(path: string, lines = 40): string {
  try {
    const text = readFileSync(path, 'utf8');
    // Splits on LF or CRLF line ends.
    return text.trimEnd().split(/\r?\n/).slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Describes an exit for a person: "exited with code 1", "was killed by SIGKILL" or the spawn error. */
export function describeExit(exit: ProcessExit): string {
  if (exit.error) return `could not start: ${exit.error.message}`;
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}
