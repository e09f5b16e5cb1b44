// Builds what tsc does not:
// - dist/cli.bundle.js: the fakehands command in one file, so `fakehands serve` starts fast (one
//   file to load; tree-shaking keeps only what serving uses). Pact stays external: only
//   `fakehands verify` loads it, lazily, and it is an optional peer dependency.
// - the Node entry points (ESM over tsc's entry modules, and CommonJS in dist/cjs/), bundled with
//   code splitting, and @msw/data in one file for `fakehands/browser`: see each below.
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

// - dist/{index,node,pact,server}.js, dist/client/index.js, dist/drift/index.js: the Node ESM entries
//   as one esbuild build with code splitting, over tsc's per-module output of the same names (whose
//   .d.ts files stay: the types). Node loads each module of a package one by one (resolve, read,
//   compile, link: about 0.3 ms each, 300-odd modules for `import('fakehands')`); a bundle loads a few
//   dozen chunks instead. One build for every entry, so the code they share is one chunk set and
//   `instanceof FakehandsError` holds across entries; what the entries load lazily (the surfaces'
//   later route tables, the service facade's domain, Pact's verifier) stays in chunks of its own,
//   evaluated only when first needed. Dependencies stay external (one copy of each in the consumer's
//   node_modules) but two, bundled for what loading them costs: @msw/data (as in msw-data.js above)
//   and zod, whose public entries (`zod/mini`, `zod/v4/core`) load 92 modules, every locale among
//   them, where the bundle keeps the functions the schemas use and the English locale: 0.45× of
//   msw's import alone, about half of what `import('fakehands')` then added to msw's (BENCHMARKS
//   "Import cost"). zod 4's schemas and errors work across copies (`instanceof` checks a schema's
//   traits, not its class), so a consumer's own zod composes with `schemas` as before; the types
//   (.d.ts) still name the `zod` package, a dependency; `fakehands/browser` keeps the consumer's zod.
// - dist/cjs/*.cjs: the same build in CommonJS for `require('fakehands')` (Jest on CommonJS): esbuild
//   splits only ESM, so its chunks are each turned into a CommonJS file (`require` for `import`,
//   dynamic imports too), and `require('fakehands')` evaluates only what `fakehands` needs, the same
//   way; `require('fakehands').FakehandsError === require('fakehands/node').FakehandsError`.
// - tsc's .js files that nothing reaches any more (the entries' former modules) are removed: what
//   stays is `fakehands/browser` (built by a page's own bundler from tsc's per-module output).
// import.meta.url (used to find the package's files, src/package-root.ts) is each chunk's own URL,
// in dist/chunks/ or dist/cjs/chunks/: the package root is still found above it.
const ENTRIES = {
  index: 'index.ts',
  node: 'node.ts',
  'client/index': 'client/index.ts',
  pact: 'pact.ts',
  server: 'server.ts',
  'drift/index': 'drift/index.ts',
};
const EXTERNAL = ['msw', 'msw/*', '@pact-foundation/pact', '@faker-js/faker', '@faker-js/faker/*', 'ws'];
const split = (names, outdir) =>
  build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [names(name), src(path)])),
    outdir,
    write: false,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    legalComments: 'none',
    logLevel: 'warning',
  });
const { mkdir, readFile, readdir, rm, writeFile } = await import('node:fs/promises');
const { dirname, join } = await import('node:path');
const writeOutput = async (path, text) => {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
};
// ESM, written over tsc's entry modules.
for (const file of (await split((name) => name, dist(''))).outputFiles) await writeOutput(file.path, file.text);
// CommonJS: the entries named as package.json's exports name them (dist/cjs/client.cjs, …).
const { transform } = await import('esbuild');
const cjs = await split((name) => name.replace('/index', ''), dist('cjs'));
for (const file of cjs.outputFiles) {
  const esm = file.text.replace(/(["'])(\.{1,2}\/[^"']+)\.js\1/g, '$1$2.cjs$1');
  const { code } = await transform(esm, {
    loader: 'js',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    supported: { 'dynamic-import': false }, // import('./chunk.cjs') → require: the same copy as the static requires
    define: { 'import.meta.url': '__fakehandsFileUrl' },
    // Strict, as the ESM it comes from (a write to a frozen table throws, as it does there).
    banner: "'use strict';\nconst __fakehandsFileUrl = require('node:url').pathToFileURL(__filename).href;",
    logLevel: 'warning',
  });
  await writeOutput(file.path.replace(/\.js$/, '.cjs'), code);
}
// What nothing reaches: tsc's modules that only the entries (now bundles) imported.
const reached = new Set();
for (const queue = [dist('browser.js')]; queue.length > 0; ) {
  const file = queue.pop();
  if (reached.has(file)) continue;
  reached.add(file);
  // Comments left out: a JSDoc example names files too.
  const code = (await readFile(file, 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const match of code.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"$]+)['"]/g)) queue.push(join(dirname(file), match[1]));
}
const bundled = new Set(Object.keys(ENTRIES).map((name) => dist(`${name}.js`)));
for (const path of await readdir(dist(''), { recursive: true })) {
  const file = dist(path);
  if (!path.endsWith('.js') || path.startsWith('chunks/') || path.startsWith('cjs/') || path === 'cli.bundle.js' || bundled.has(file))
    continue;
  if (!reached.has(file)) await rm(file);
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
