import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Headers of every page: no framing (clickjacking), scripts and styles from the portal itself only. */
export const PAGE_HEADERS: Record<string, string> = {
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Headers of every JSON answer (API, refusals): as a page's, and never cached (it names a session's principals). */
export const JSON_HEADERS: Record<string, string> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  ...PAGE_HEADERS,
};

/** Serves a file of the built web app; any path that is not a file gets index.html (the app routes itself). */
export function serveStatic(dist: string, urlPath: string, res: ServerResponse): void {
  const rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  let file = join(dist, rel);
  // A path that climbs out of dist (../) is answered with the app, never with the file.
  if (!file.startsWith(dist + sep) || !existsSync(file) || !statSync(file).isFile()) file = join(dist, 'index.html');
  if (!existsSync(file)) {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('the web app is not built');
    return;
  }
  const immutable = file.includes(`${sep}assets${sep}`);
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...PAGE_HEADERS,
  });
  // A file that cannot be read after all (removed meanwhile) ends this response, not the process.
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
