import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Folder of the web app's sources (index.html and the React code). */
export const WEB_ROOT = fileURLToPath(new URL('./web', import.meta.url));

/**
 * Builds the web app into `outDir` with Vite (Vite 8 transforms JSX itself, React's automatic
 * runtime). Skipped when `outDir` already holds a build, unless `force`.
 */
export async function buildWeb(outDir: string, force = false): Promise<void> {
  if (!force && existsSync(`${outDir}/index.html`)) return;
  // Loaded only to build: an install without dev tools (an image with the web app built in) never needs Vite.
  const { build } = await import('vite');
  await build({
    root: WEB_ROOT,
    base: '/',
    logLevel: 'warn',
    configFile: false,
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
}
