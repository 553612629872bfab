import { loadPortalConfig } from './config';
import { createPortal } from './server';

const portal = createPortal(loadPortalConfig());
await portal.start();
process.stdout.write(`Toolsurface portal: ${portal.url()}/\n`);
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void portal.stop().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
