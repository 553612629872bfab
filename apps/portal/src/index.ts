// Public API of @toolsurface/portal: the portal server, for the launcher and the browser tests.
export { createPortal } from './server';
export type { Portal } from './server';
export { loadPortalConfig } from './config';
export type { PortalConfig } from './config';
export { buildWeb } from './web-build';
export { ActivityFeed } from './activity-feed';
export type { ActivityConfig } from './activity-feed';
export { NatsSessionStore, PORTAL_SESSIONS_BUCKET } from './session-kv';
