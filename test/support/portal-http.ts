import { request } from 'node:http';
import type { Portal } from '@toolsurface/portal';

/** What a portal answered: status, body text and Set-Cookie values. */
export interface PortalAnswer {
  status: number;
  text: string;
  setCookie: string[];
}

/** A request to a portal as its own page sends it (Host and Origin of that portal), with a JSON body when `body` is given. */
export function portalRequest(
  p: Pick<Portal, 'port' | 'url'>,
  method: string,
  path: string,
  opts: { cookie?: string; csrf?: string; body?: unknown } = {},
): Promise<PortalAnswer> {
  const headers: Record<string, string> = { host: `127.0.0.1:${p.port()}`, origin: p.url() };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.csrf) headers['x-csrf-token'] = opts.csrf;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: p.port(), method, path, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, setCookie: res.headers['set-cookie'] ?? [] }));
    });
    req.on('error', reject);
    req.end(opts.body === undefined ? '' : JSON.stringify(opts.body));
  });
}
