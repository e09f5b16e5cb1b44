/**
 * Test support: the built package (dist/, rebuilt by the global setup whenever src/ is newer),
 * loaded as a user's project loads it: by Node itself (vitest.config.ts keeps dist/ out of vite's
 * transform, which cost a test file more than the code it tests), typed by the sources it is built
 * from, so `tsc --noEmit` needs no build.
 */

/** The built entries a test may load, with the sources that type them. */
interface BuiltEntries {
  /** `import('fakehands')`: dist/index.js. */
  fakehands: typeof import('../../src/index.js');
  /** `import('fakehands/drift')`: dist/drift/index.js. */
  'fakehands/drift': typeof import('../../src/drift/index.js');
  /** `import('fakehands/server')`: dist/server.js. */
  'fakehands/server': typeof import('../../src/server.js');
  /** The `fakehands` command's bundle, dist/cli.bundle.js (what bin/fakehands.js runs). */
  command: typeof import('../../src/cli.js');
  /** The app server's route table as tsc builds it, dist/surfaces/app-server/routes/all.js (not an entry of the package: for tests that count its routes; vite's transform of its sources cost 2.3 s of CPU, Node's load 0.4). */
  'app-server routes': typeof import('../../src/surfaces/app-server/routes/all.js');
}

const SPECIFIERS: Record<keyof BuiltEntries, string> = {
  fakehands: 'fakehands',
  'fakehands/drift': 'fakehands/drift',
  'fakehands/server': 'fakehands/server',
  command: new URL('../../dist/cli.bundle.js', import.meta.url).href,
  'app-server routes': new URL('../../dist/surfaces/app-server/routes/all.js', import.meta.url).href,
};

/** Loads a built entry of the package. */
export function built<K extends keyof BuiltEntries>(entry: K): Promise<BuiltEntries[K]> {
  return import(/* @vite-ignore */ SPECIFIERS[entry]) as Promise<BuiltEntries[K]>;
}
