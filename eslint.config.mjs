// ESLint for the source only (apps/*/src, the portal's web/, libs/*/src, tools/*/src,
// examples): typescript-eslint's recommended rules (syntax only, no type information, so
// a run stays fast) and the architecture as it is drawn, over the Nx projects' tags:
//
//   type:app      an app depends on libs, never on another app (nor on a tool)
//   type:lib      a lib depends on libs, never on an app or a tool
//   type:tool     a tool depends on libs and other tools, and on an app only through its
//   type:e2e      public entry, `apps/<app>/src/<app>.definition.ts`
//   type:example  an integrator's client: only libs tagged scope:public (@swap/client)
//
// Nx's @nx/enforce-module-boundaries checks the projects: it refuses every import of an
// app and every relative import into another project. Tools and end-to-end tests have no
// aliases, so their relative imports of an app's definition and of tools are let through
// by its `allow` patterns below; no-restricted-imports then says in words what an import
// that crosses a boundary breaks. Unused variables and parameters are tsc's
// (noUnusedLocals, noUnusedParameters in tsconfig.base.json), not ESLint's.
import js from '@eslint/js';
import nxDevkit from '@nx/devkit';
import nx from '@nx/eslint-plugin';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The boundary rule reads Nx's cached project graph and silently skips itself when there
// is none (a fresh clone): compute it first, so the rule always runs.
const graph = await nxDevkit.createProjectGraphAsync({ exitOnError: true });

const depConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
  { sourceTag: 'type:example', onlyDependOnLibsWithTags: ['scope:public'] },
];
// Libs' specs use @swap/testing, which builds on the libs they test: a cycle through
// `testing` is test wiring, not architecture; any other cycle between projects fails.
const ignoredCircularDependencies = [['testing', 'tag:type:lib']];
const boundaries = (allow = []) => ['error', { allow, depConstraints, ignoredCircularDependencies }];
const restrict = (...patterns) => ['error', { patterns: patterns.map(([regex, message]) => ({ regex, message })) }];

// An app's public entry, seen from tools/<t>/src (../../../apps/<app>/src/<app>.definition)
// and from apps/platform-e2e/src (../../<app>/src/<app>.definition).
const APP_DEFINITION = String.raw`^(\.\./)+(apps/)?[\w-]+/src/[\w-]+\.definition$`;
const APP_ENTRY_ONLY =
  'Tools and end-to-end tests import an app only through its public entry, apps/<app>/src/<app>.definition.ts: export what they need there, or move it into a lib.';
const appInternals = (appsPrefix) => String.raw`^(\.\./)+${appsPrefix}(?!platform-e2e/)[\w-]+/src/(?![\w-]+\.definition$)`;

const apps = Object.values(graph.nodes).filter((node) => node.data.tags?.includes('type:app'));

export default defineConfig([
  globalIgnores([
    '**/*',
    '!**/',
    '!apps/*/src/**',
    '!apps/partner-portal/web/**',
    '!apps/swap-explorer/web/**',
    '!libs/*/src/**',
    '!tools/*/src/**',
    '!examples/**',
    '**/node_modules/',
    'dist/',
    '.data/',
    '.nx/',
    'coverage/',
    'tmp/',
    '**/generated/',
    'libs/swap-client/src/schema.ts', // openapi-typescript's output (npm run client:generate)
    '**/*.css',
    '**/*.json',
  ]),
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(),
      // tsc reports these (noUnusedLocals, noUnusedParameters).
      '@typescript-eslint/no-unused-vars': 'off',
      // A `let` read by a callback before its one assignment stays `let`: as a `const` it
      // would throw there (temporal dead zone), e.g. a handle a callback may need before it is returned.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  // No source file over 400 lines, specs aside (generated files are ignored above): docs/development.md#conventions.
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    ignores: ['**/*spec.ts', '**/*spec.tsx'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  // Apps: one block per app, which knows its own folder.
  ...apps.map((app) => {
    const folder = app.data.root.split('/').pop();
    return {
      files: [`${app.data.root}/**/*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': restrict(
          [
            String.raw`^(\.\./)+(apps/)?(?!${folder}/)[\w-]+/src(/|$)`,
            'An app never imports another app: what both need belongs in a lib (@swap/…), or travels over the bus or HTTP.',
          ],
          [String.raw`(^|/)tools/`, 'An app never imports a tool: what both need belongs in a lib (@swap/…).'],
        ),
      },
    };
  }),
  {
    files: ['libs/*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([String.raw`(^|/)(apps|tools)/`, 'A lib never imports an app or a tool: libs sit below them.']),
    },
  },
  {
    files: ['tools/*/src/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries([APP_DEFINITION, String.raw`^\.\./\.\./[\w-]+/src(/|$)`]),
      'no-restricted-imports': restrict([appInternals('apps/'), APP_ENTRY_ONLY]),
    },
  },
  {
    files: ['apps/platform-e2e/src/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries([APP_DEFINITION, String.raw`^\.\./\.\./\.\./tools/[\w-]+/src(/|$)`]),
      'no-restricted-imports': restrict([appInternals('(apps/)?'), APP_ENTRY_ONLY]),
    },
  },
  {
    // The classic rules of hooks (the React Compiler's rules assume the compiler, which the web apps do not use).
    files: ['apps/partner-portal/web/**/*.{ts,tsx}', 'apps/swap-explorer/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // CommonJS files run by jest and node.
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { process: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
  },
]);
