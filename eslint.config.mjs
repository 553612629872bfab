// ESLint (flat config): typescript-eslint's recommended rules, Nx's module boundaries and a size
// warning. Formatting is Prettier's (eslint-config-prettier turns off the rules it owns).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Nx's module-boundary rule reads Nx's cached project graph and skips itself, with only a warning,
// where there is none: `npm run lint` runs `nx show projects` first to make it.
//
// Who may import whom, by the tags in each project.json:
// - services use libraries only, never each other, apps, tools or the devkit;
// - libraries use libraries only; search and the discovery service never use the mapper (search
//   ranks for the mapper, not with it);
// - apps (the CLI) use libraries and the devkit; the portal's server and web app (type:web) use
//   libraries only (the launcher starts it in-process); the launcher (apps/stack) also starts the services
//   from their packages, which it declares, without importing them;
// - tools (eval, fitting, probe and bench scripts) and the cross-service tests in test/ use anything.
const PRODUCT_CONSTRAINTS = [
  { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'scope:search', notDependOnLibsWithTags: ['scope:mapper'] },
  { sourceTag: 'scope:discovery', notDependOnLibsWithTags: ['scope:mapper'] },
  { sourceTag: 'type:devkit', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:devkit'] },
  { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:launcher', onlyDependOnLibsWithTags: ['type:lib', 'type:devkit', 'type:service', 'type:web'] },
  {
    sourceTag: 'type:tool',
    onlyDependOnLibsWithTags: ['type:lib', 'type:devkit', 'type:tool', 'type:app', 'type:web', 'type:launcher', 'type:service'],
  },
  { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['*'] },
];
// Tests beside the code may also start processes with the devkit and read the eval data with the eval kit.
const TEST_CONSTRAINTS = PRODUCT_CONSTRAINTS.map((c) =>
  c.sourceTag === 'type:service' || c.sourceTag === 'type:lib'
    ? { ...c, onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, 'type:devkit', 'type:tool'] }
    : c,
);
// The cross-service suites in test/ run the whole gateway through the local stack's launcher.
const boundaries = (depConstraints, allow = []) => ['error', { enforceBuildableLibDependency: false, allow, depConstraints }];
// Ways to load another package that the module-boundary rule cannot follow.
const HIDDEN_LOADS = [
  {
    selector: 'CallExpression[arguments.0.value=/^@toolsurface\\u002F/]',
    message: 'load a workspace package with a static import, so the module-boundary rule can check it',
  },
  {
    selector: "ImportExpression[source.type!='Literal']",
    message: 'import() takes a literal specifier here, so the module-boundary rule can check it',
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'libs/proto/src/gen/**', '.data/**', 'dist/**', 'apps/portal/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: globals.node } },
  // The portal's web app runs in the browser.
  { files: ['apps/portal/src/web/**'], languageOptions: { globals: globals.browser } },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(PRODUCT_CONSTRAINTS),
      // A file past 500 lines is a sign that two things share one room (CONTRIBUTING.md).
      'max-lines': ['warn', { max: 500, skipBlankLines: true, skipComments: true }],
      // Input is checked for control characters on purpose (refused or cut before it reaches a tool).
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  { files: ['libs/**', 'services/**'], ignores: ['**/*.test.ts'], rules: { 'no-restricted-syntax': ['error', ...HIDDEN_LOADS] } },
  // Test helpers of a service (services have no public entry, and no production file imports them:
  // test/architecture.test.ts) and tests beside the code.
  { files: ['**/*.test.ts', 'services/*/src/testing/**'], rules: { '@nx/enforce-module-boundaries': boundaries(TEST_CONSTRAINTS) } },
  {
    // Said in words as well as by the Nx rule, whose message for this case is "Imports of apps are forbidden".
    files: ['services/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@toolsurface/surface-resolver',
                '@toolsurface/discovery',
                '@toolsurface/dispatch',
                '@toolsurface/unified-mapper',
                '**/surface-resolver/src/**',
                '**/discovery/src/**',
                '**/dispatch/src/**',
                '**/unified-mapper/src/**',
              ],
              message: 'services never import each other: call the other service over gRPC, or react to its NATS events',
            },
          ],
        },
      ],
    },
  },
  // The portal's browser suite starts the portal server in-process beside the gateway.
  {
    files: ['test/**'],
    rules: { '@nx/enforce-module-boundaries': boundaries(TEST_CONSTRAINTS, ['@toolsurface/stack', '@toolsurface/portal']) },
  },
  // `npm start` serves the portal in-process beside the stack it launches.
  {
    files: ['apps/stack/**'],
    ignores: ['**/*.test.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(PRODUCT_CONSTRAINTS, ['@toolsurface/portal']) },
  },
  // The benches start the services from their packages, as the launcher does (serviceEntry); the
  // build builds the portal's web app with the portal's own builder.
  {
    files: ['tools/**'],
    ignores: ['**/*.test.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(PRODUCT_CONSTRAINTS, ['@toolsurface/stack', '@toolsurface/portal']) },
  },
  // Generated tables and data are long by nature.
  {
    files: ['libs/search/src/head-rerank-weights.ts', 'libs/mapper/src/calibration.ts', '**/*.test.ts'],
    rules: { 'max-lines': 'off' },
  },
  prettier,
);
