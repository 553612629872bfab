import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { Readable } from 'node:stream';
import type { ClientTls } from './tls';

/** The fetch the MCP SDK's transports take. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Statuses whose response has no body (a Response refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A fetch for https:// URLs that verifies the server against the CA bundle of `tls` and, where it
 * has a certificate and key, presents them (mutual TLS): the global fetch takes neither. Other URLs
 * go to the global fetch. Bodies are strings (what the MCP SDK sends); responses stream.
 * @throws Error when a file cannot be read (checked first with checkClientTls)
 */
export function httpsFetch(tls: ClientTls): FetchLike {
  const ca = tls.caFile ? readFileSync(tls.caFile) : undefined;
  const cert = tls.certFile ? readFileSync(tls.certFile) : undefined;
  const key = tls.keyFile ? readFileSync(tls.keyFile) : undefined;
  return (input, init = {}) => {
    const url = new URL(input);
    if (url.protocol !== 'https:') return fetch(url, init);
    const method = init.method ?? 'GET';
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          headers: Object.fromEntries(new Headers(init.headers).entries()),
          ...(ca ? { ca } : {}),
          ...(cert && key ? { cert, key } : {}),
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (res) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
          }
          const status = res.statusCode ?? 502;
          const empty = NULL_BODY.has(status) || method === 'HEAD';
          if (empty) res.resume();
          resolve(
            new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
              status,
              statusText: res.statusMessage ?? '',
              headers,
            }),
          );
        },
      );
      req.on('error', reject);
      if (init.body !== undefined && init.body !== null) {
        if (typeof init.body !== 'string') return reject(new TypeError('httpsFetch sends string bodies only'));
        req.end(init.body);
      } else req.end();
    });
  };
}
