import type { IncomingMessage } from 'node:http';

/** Why a request was refused before any handler ran. */
export interface Refusal {
  status: number;
  message: string;
}

/**
 * Checks the Host header against the hosts the portal answers (a page on another site that
 * rebinds its own name to this address sends its own name as Host), and, on a state-changing
 * request, that Origin names one of them too (a form or script of another site sends its own).
 */
export function checkRequest(req: IncomingMessage, allowedHosts: ReadonlySet<string>, scheme: 'http' | 'https'): Refusal | undefined {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowedHosts.has(host)) {
    return {
      status: 421,
      message: `this portal does not answer for host "${host.slice(0, 100)}"; set PORTAL_ALLOWED_HOSTS to serve it there`,
    };
  }
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return undefined;
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return { status: 403, message: 'a change needs an Origin header of this portal' };
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return { status: 403, message: 'the Origin header is not a URL' };
  }
  if (parsed.protocol !== `${scheme}:` || !allowedHosts.has(parsed.host.toLowerCase())) {
    return {
      status: 403,
      message: `a change from origin "${origin.slice(0, 100)}" is refused: only this portal's own pages may make changes`,
    };
  }
  return undefined;
}

/** The hosts answered by default: the given ones, else the listening address, localhost and 127.0.0.1 on `port`. */
export function defaultAllowedHosts(configured: readonly string[], listenHost: string, port: number): Set<string> {
  if (configured.length > 0) return new Set(configured);
  const hosts = new Set([`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
  if (listenHost !== '0.0.0.0' && listenHost !== '::') hosts.add(`${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}`);
  return hosts;
}
