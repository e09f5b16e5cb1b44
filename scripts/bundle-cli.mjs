// Bundles the fakehands command into dist/cli.bundle.js so `fakehands serve` starts fast:
// one file to load, and tree-shaking keeps only what serving uses (for instance three helpers
// of es-toolkit/compat, which @msw/data imports from a barrel that costs ~120 ms to load whole).
// Pact stays external: only `fakehands verify` loads it, lazily.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../src/cli.ts', import.meta.url).pathname],
  outfile: new URL('../dist/cli.bundle.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@pact-foundation/pact'],
  banner: { js: "import { createRequire as __fakehandsRequire } from 'node:module'; const require = __fakehandsRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});
