// Builds what tsc does not:
// - dist/cli.bundle.js: the fakehands command in one file, so `fakehands serve` starts fast (one
//   file to load; tree-shaking keeps only what serving uses). Pact stays external: only
//   `fakehands verify` loads it, lazily, and it is an optional peer dependency.
// - dist/cjs/*.cjs: CommonJS builds of every entry point, for `require('fakehands')` (Jest on
//   CommonJS). msw and Pact stay external (peer dependencies: the project's own copies are used);
//   ESM-only dependencies (@msw/data) are bundled in.
import { build } from 'esbuild';

const src = (path) => new URL(`../src/${path}`, import.meta.url).pathname;
const dist = (path) => new URL(`../dist/${path}`, import.meta.url).pathname;

await build({
  entryPoints: [src('cli.ts')],
  outfile: dist('cli.bundle.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@pact-foundation/pact'],
  banner: { js: "import { createRequire as __fakehandsRequire } from 'node:module'; const require = __fakehandsRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});

/**
 * Entry points and their CommonJS file. One CommonJS bundle holds them all (dist/cjs/shared.cjs),
 * and each entry's file re-exports its part, so `require('fakehands').FakehandsError` and
 * `require('fakehands/node').FakehandsError` are the same class (instanceof holds across entries).
 */
const ENTRIES = {
  index: 'index.ts',
  node: 'node.ts',
  client: 'client/index.ts',
  pact: 'pact.ts',
  server: 'server.ts',
  drift: 'drift/index.ts',
};
// - dist/domain/store/msw-data.js: @msw/data in one file, over tsc's re-export of it (its ESM build
//   imports es-toolkit's `compat` index, ~550 modules Node would load one by one at import).
await build({
  stdin: { contents: "export { Collection } from '@msw/data';", resolveDir: src(''), sourcefile: 'msw-data.ts', loader: 'ts' },
  outfile: dist('domain/store/msw-data.js'),
  allowOverwrite: true,
  bundle: true,
  platform: 'neutral',
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
});

const shared = Object.entries(ENTRIES)
  .map(([name, path]) => `export * as ${name} from ${JSON.stringify(src(path))};`)
  .join('\n');
await build({
  stdin: { contents: shared, resolveDir: src(''), sourcefile: 'shared.ts', loader: 'ts' },
  outfile: dist('cjs/shared.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Every dependency stays external (one copy of each in the consumer's node_modules) but @msw/data,
  // bundled as in the ESM build (dist/domain/store/msw-data.js: its es-toolkit index is ~550 modules).
  external: ['msw', 'msw/*', '@pact-foundation/pact', 'zod', 'zod/*', '@faker-js/faker', '@faker-js/faker/*', 'ws'],
  // import.meta.url (used to find the package's files) becomes the CommonJS file's own URL.
  define: { 'import.meta.url': '__fakehandsFileUrl' },
  banner: { js: "const __fakehandsFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  logLevel: 'warning',
});
const { writeFile } = await import('node:fs/promises');
for (const name of Object.keys(ENTRIES)) {
  await writeFile(
    dist(`cjs/${name}.cjs`),
    `'use strict';\n// fakehands/${name === 'index' ? '' : name}: one part of the one CommonJS bundle (shared.cjs).\nmodule.exports = require('./shared.cjs').${name};\n`,
  );
}

// - the check that nothing under `fakehands/browser` imports a Node built-in: it is bundled for the
//   browser platform (in memory, never shipped: a page's own bundler builds the entry), esbuild
//   refuses to resolve a built-in for the browser, and the output is searched for any that slipped through.
const { builtinModules } = await import('node:module');
const browser = await build({
  entryPoints: [src('browser.ts')],
  outfile: dist('browser.bundle.js'),
  write: false,
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  external: ['msw', 'msw/*'],
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const nodeInputs = Object.keys(browser.metafile.inputs).filter((input) => input.startsWith('node:') || builtinModules.includes(input));
const nodeImports = Object.values(browser.metafile.outputs)
  .flatMap((output) => output.imports.map((i) => i.path))
  .filter((path) => path.startsWith('node:') || builtinModules.includes(path));
if (nodeInputs.length + nodeImports.length > 0) {
  console.error(`fakehands/browser must not use Node built-ins, but imports ${[...nodeInputs, ...nodeImports].join(', ')}`);
  process.exit(1);
}
