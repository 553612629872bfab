// Preloaded (`node --import`) into a third-party server the local stack starts, so that a server
// that listens on a port alone listens on LISTEN_HOST (default 127.0.0.1) instead of on every
// interface. server-everything's Streamable HTTP transport calls `app.listen(PORT)` with no host
// and reads none from its environment: under `npm start` it would be reachable from the network,
// while the four services listen on 127.0.0.1 (docs/security.md). Plain JavaScript: it runs before any
// TypeScript loader. A listen call that names a host, a path or a handle is left as it is.
import net from 'node:net';

const host = process.env.LISTEN_HOST || '127.0.0.1';
const listen = net.Server.prototype.listen;

/** A port as `listen` takes it: a number, or a string of digits (an environment variable's). */
function isPort(v) {
  return typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v));
}

net.Server.prototype.listen = function listenOnHost(...args) {
  if (isPort(args[0]) && typeof args[1] !== 'string') args.splice(1, 0, host);
  else if (
    args[0] !== null &&
    typeof args[0] === 'object' &&
    !Array.isArray(args[0]) &&
    'port' in args[0] &&
    !('host' in args[0]) &&
    !('path' in args[0]) &&
    !('handle' in args[0]) &&
    !('fd' in args[0])
  )
    args[0] = { ...args[0], host };
  return listen.apply(this, args);
};
