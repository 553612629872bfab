import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root (this file is libs/devkit/src/paths.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The default declarative config of `npm start` and `npm run demo`. */
export const DEFAULT_CONFIG_PATH = join(REPO_ROOT, 'deploy', 'local', 'toolsurface.yaml');

/** The folder the default config's filesystem capability serves. */
export const SAMPLE_DIR = join(REPO_ROOT, 'deploy', 'local', 'sample');

/** Where local runs keep NATS data and logs (git-ignored). */
export const DATA_DIR = join(REPO_ROOT, '.data');

/** Default folder of service logs: `<repo>/.data/logs/<service>.log`. */
export const DEFAULT_LOG_DIR = join(DATA_DIR, 'logs');

/** Default JetStream store folder of a nats-server started by `ensureNats`. */
export const DEFAULT_NATS_DATA_DIR = join(DATA_DIR, 'nats');
