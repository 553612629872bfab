// `npm run build`: each service as one ES module under dist/<service>/main.js, and the portal as
// dist/portal/main.js with its web app built into dist/portal/web, run by plain node (the image
// runs no TypeScript). The workspace's own code (@toolsurface/*) is bundled in; every
// third-party package stays an import, resolved from node_modules at run time, so the image's
// `npm ci --omit=dev` must install it: a bundle importing a devDependency fails the build.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { buildWeb } from '@toolsurface/portal';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The services: services/<name>/src/main.ts. */
export function serviceEntries(root = ROOT): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(root, 'services'))) {
    const main = join(root, 'services', name, 'src', 'main.ts');
    if (existsSync(main)) out[`${name}/main`] = main;
  }
  return out;
}

/** The portal's server: apps/portal/src/main.ts, serving the web app built beside it. */
export function portalEntry(root = ROOT): Record<string, string> {
  return { 'portal/main': join(root, 'apps', 'portal', 'src', 'main.ts') };
}

/** Where the build puts the portal's web app (PORTAL_WEB_DIST in the image: /app/dist/portal/web). */
export const PORTAL_WEB_DIR = join('portal', 'web');

/**
 * Packages a bundle imports that the image need not install: the portal loads Vite only to build
 * its web app when none is built, and the build ships it built.
 */
const BUILD_TIME_ONLY = new Set(['vite']);

/** The package name of a bare import: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Third-party packages the bundles import (from esbuild's metafile), node: built-ins left out. */
export function importedPackages(meta: Metafile): string[] {
  const names = new Set<string>();
  for (const out of Object.values(meta.outputs)) {
    for (const imp of out.imports) {
      if (imp.external && !imp.path.startsWith('node:') && !imp.path.startsWith('.')) names.add(packageOf(imp.path));
    }
  }
  return [...names].sort();
}

/** Builds into `outdir`; throws when a bundle imports a package that is not a runtime dependency. */
export async function buildServices(outdir = join(ROOT, 'dist')): Promise<{ entries: string[]; packages: string[] }> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const thirdParty = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)];
  rmSync(outdir, { recursive: true, force: true });
  const entryPoints = { ...serviceEntries(), ...portalEntry() };
  const result = await build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    // Third-party code loads from node_modules (some packages read files beside themselves).
    external: thirdParty,
  });
  const packages = importedPackages(result.metafile);
  const notRuntime = packages.filter((p) => !(p in pkg.dependencies) && !BUILD_TIME_ONLY.has(p));
  if (notRuntime.length > 0) {
    throw new Error(`the services import ${notRuntime.join(', ')}: move them to "dependencies", or npm ci --omit=dev leaves them out`);
  }
  // libs/search finds its data at ../data/ from its module: dist/<service>/../data.
  cpSync(join(ROOT, 'libs', 'search', 'data'), join(outdir, 'data'), { recursive: true });
  await buildWeb(join(outdir, PORTAL_WEB_DIR), true);
  // Node reads dist/**/*.js as ES modules.
  writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'module' }, null, 2)}\n`);
  return { entries: Object.keys(entryPoints), packages };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { entries, packages } = await buildServices();
  console.log(`built ${entries.map((e) => `dist/${e}.js`).join(', ')}; runtime packages imported: ${packages.join(', ')}`);
}
