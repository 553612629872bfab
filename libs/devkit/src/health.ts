import { credentials, makeGenericClientConstructor, type ChannelCredentials, status, type Client, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { setTimeout as sleep } from 'node:timers/promises';
import { isPortOpen } from './net';

/** A health answer: the statuses of grpc.health.v1, SERVICE_UNKNOWN (NOT_FOUND) or UNREACHABLE (no answer in time). */
export type HealthStatus = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN' | 'SERVICE_UNKNOWN' | 'UNREACHABLE';

/**
 * Deadline for asking whether a stack already answers on a port. Generous because on a loaded
 * machine a fresh channel's first call to a running stack took over a second, and a stack taken
 * for absent gets a second one started beside it; a port with nothing on it is refused at once,
 * so the wait costs nothing there.
 */
export const PROBE_TIMEOUT_MS = 5000;

const HealthClient = makeGenericClientConstructor(healthService as never, 'grpc.health.v1.Health');

type CheckFn = (
  req: { service: string },
  options: { deadline: number },
  cb: (err: ServiceError | null, res?: { status: string }) => void,
) => void;

/**
 * Asks the gRPC health service at `address` (host:port) for `service` ("" is the whole server) once.
 * A fresh channel with its own subchannel each time, so a server that just came up is seen at once.
 */
export async function checkHealth(
  address: string,
  service = '',
  timeoutMs = 1000,
  creds: ChannelCredentials = credentials.createInsecure(),
): Promise<HealthStatus> {
  const client = new HealthClient(address, creds, { 'grpc.use_local_subchannel_pool': 1 }) as unknown as Client & {
    check: CheckFn;
  };
  try {
    return await new Promise<HealthStatus>((resolve) => {
      client.check({ service }, { deadline: Date.now() + timeoutMs }, (err, res) => {
        if (err) resolve(err.code === status.NOT_FOUND ? 'SERVICE_UNKNOWN' : 'UNREACHABLE');
        else resolve((res?.status as HealthStatus | undefined) ?? 'UNKNOWN');
      });
    });
  } finally {
    client.close();
  }
}

/** Options of `waitForServing`. */
export interface WaitForServingOptions {
  /** Health service names to wait for, "" (the whole server) by default. */
  services?: string[];
  /** Give up after this many ms (default 30 000). */
  timeoutMs?: number;
  /** Poll interval in ms (default 150). */
  intervalMs?: number;
  /** Called before every attempt; throw from it to stop waiting (e.g. the server's process died). */
  check?: () => void;
  /** Channel credentials for a server that speaks TLS (default plaintext). */
  credentials?: ChannelCredentials;
}

/** Waits until every named health service at `address` answers SERVING; rejects with the last statuses seen after `timeoutMs`. */
export async function waitForServing(address: string, opts: WaitForServingOptions = {}): Promise<void> {
  const services = opts.services ?? [''];
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  const [host, portText] = splitHostPort(address);
  let last: HealthStatus[] = services.map(() => 'UNREACHABLE');
  for (;;) {
    opts.check?.();
    // A cheap TCP probe first: no gRPC channel until something listens.
    if (await isPortOpen(host, Number(portText), 300)) {
      last = await Promise.all(services.map((s) => checkHealth(address, s, 1000, opts.credentials)));
      if (last.every((s) => s === 'SERVING')) return;
    }
    if (Date.now() >= deadline) {
      const seen = services.map((s, i) => `${s === '' ? '""' : s}=${last[i]}`).join(', ');
      throw new Error(`${address} was not SERVING within ${timeoutMs} ms (${seen})`);
    }
    await sleep(opts.intervalMs ?? 150);
  }
}

/** Splits "host:port" (IPv6 hosts in brackets) into its parts. */
export function splitHostPort(address: string): [string, string] {
  const i = address.lastIndexOf(':');
  if (i <= 0 || i === address.length - 1) throw new Error(`"${address}" is not host:port`);
  const host = address.slice(0, i);
  // Strips the brackets of an IPv6 literal such as [::1].
  return [host.replace(/^\[(.*)\]$/, '$1'), address.slice(i + 1)];
}
