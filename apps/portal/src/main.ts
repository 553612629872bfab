import { loadPortalConfig } from './config';
import { createPortal } from './server';

/** Ends start-up with one line a person can act on, rather than a stack trace. */
function failStart(e: unknown): never {
  const err = e as NodeJS.ErrnoException & { port?: number };
  const message =
    err.code === 'EADDRINUSE'
      ? `port ${err.port} is in use (\`npm start\` serves its own portal on 3200); set PORTAL_PORT to another port, or to 0 for a free one`
      : err.message;
  process.stderr.write(`portal: error: ${message}\n`);
  process.exit(1);
}

let portal: ReturnType<typeof createPortal>;
try {
  portal = createPortal(loadPortalConfig());
  await portal.start();
} catch (e) {
  failStart(e);
}
process.stdout.write(`Toolsurface portal: ${portal.url()}/\n`);
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void portal.stop().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
