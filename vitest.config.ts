import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files run at once: half the cores, but two on a machine of two (or more), never more than
 * its cores. Most files start server processes (and the contract tests Pact's native verifier
 * besides), each busy on a core of its own; vitest's default (all cores but one) overloads a
 * machine shared with other work (#29 finding 17). On two cores, one file at a time left a core
 * idle while a file waited on its processes: two take `npm test` under 4 minutes there (README,
 * Set-up), and the suite holds on a busy machine (60 s timeouts, a listen backlog of 4096). Every
 * test listens on a free port (the README's recipes run on free ones: test/support/free-port.ts);
 * the package tests pack the built dist/ without rebuilding it under the others.
 */
const cores = availableParallelism();
const maxWorkers = Math.min(cores, Math.max(2, Math.floor(cores / 2)));

/**
 * Files that share their worker's module cache (`isolate: false`) instead of importing the fake
 * afresh per file, which was most of their time: these 44 files take about 44 s of CPU shared,
 * about 110 s isolated (measured in groups: test/http and test/domain 60 s → 21 s; the 11 whose
 * tests start the CLI 33 s → 25 s; the 8 others 20 s). The 11 of the last three lines joined later:
 * 45 s of CPU isolated, 31 s shared, measured as a group in the same minutes on a busy machine.
 * Four agent-server files (conversation-workspace, openai-gateway, run-plan, stats) joined next: with
 * two others, 22 s of CPU isolated, 12 to 16 s shared; then four that import little of the fake (the
 * layering checks, the public API's declarations, the canvas command): 19 s → 15 to 17 s.
 * Each closes what it opens (msw servers, fake timers, servers on port 0); the CLI processes their
 * tests start are killed after each test by test/support/stop-started.ts, which a setup file runs
 * for every file (test/support/cli.ts's own `afterEach` is registered once per module load).
 * Running them together in one worker, in any order (`--sequence.shuffle.files`), is their check.
 * Files that need a fresh module state stay isolated: `later-routes` asserts what the first import
 * loads, `round-four-sockets` installs a global WebSocket that msw patches, and
 * `agent-server/differential` compares msw's in-process socket with the standalone one (shared, it
 * saw a second socket's opening frames in 2 runs of about 6 under load).
 */
const sharedModules = [
  'test/http/!(later-routes).test.ts',
  'test/domain/*.test.ts',
  'test/agent-server/{client,connections-api,conversation-workspace,mcp-api,openai-gateway,run-plan,scripts,socket,stats,streaming,vocabulary,web-app-findings,workspace,world-api}.test.ts',
  'test/agent-server/typescript-client-*.test.ts',
  'test/contract/{asyncapi,provider-watch}.test.ts',
  'test/reliability/{hostile-input,round-four-tenants,round-four-turns}.test.ts',
  'test/{mounts/mounts,server/differential}.test.ts',
  'test/agent-server/{conversations-api,replay,rest,showcase-schemas}.test.ts',
  'test/reliability/{round-four-data,round-four-loop}.test.ts',
  'test/{tenants/tenants,drift/agent-newest-routes,web-canvas/canvas-extensions-api,server/state-file}.test.ts',
  'test/{layering/file-size,layering/dependency-rules,package/public-api,web-canvas/canvas-command,web-canvas/canvas-package}.test.ts',
];

/**
 * The longest files, longest first (seconds in a CI run on 2 cores: Canvas 92 to 114, 54 of them spent
 * waiting out the page's 30-second list poll, which its steps no longer do; Chromium 34 to 40; Pact 58
 * to 82 before issue 34 cut its CPU to about 2/5 (one full run of the verifier for four breakages, pacts
 * of a few interactions, the verifier in-process where the command's output is not the point); the
 * package 28 after its pack and install; …): started first, they no longer end the run alone on one
 * worker while the other idles. The rest follow in vitest's own order.
 */
const LONGEST_FIRST = [
  'test/web-canvas/canvas.test.ts',
  'test/browser/chromium.test.ts',
  'test/contract/pact.test.ts',
  'test/package/consumer.test.ts',
  'test/server/cli.test.ts',
  'test/drift/drift.test.ts',
  'test/reliability/server.test.ts',
  'test/contract/messages.test.ts',
  'test/readme.test.ts',
  'test/reliability/round-three.test.ts',
  'test/reliability/hardening.test.ts',
];

/** vitest's order, with `LONGEST_FIRST` moved to the front. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The built package (dist/, rebuilt by the global setup whenever src/ is newer) is loaded by Node
 * itself, not transformed by vite: a test that imports what users install (`fakehands`,
 * `fakehands/drift`, the command's bundle) then pays Node's load of a few chunks instead of vite's
 * transform of them (a test file that imports `fakehands/drift`: 1.8 s of CPU in all, 2.6 through
 * vite, 4.0 importing `src/drift/index.ts` instead; one that imports nothing: 1.9; issue 34).
 */
const BUILT_PACKAGE = new RegExp(`^${new URL('./dist/', import.meta.url).pathname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

/** Where CI wants vitest's JSON report (see .ci/run); unset locally. */
const jsonReport = process.env.FAKEHANDS_VITEST_JSON;

export default defineConfig({
  test: {
    environment: 'node',
    globalSetup: ['test/support/build-dist.ts'],
    maxWorkers,
    sequence: { sequencer: LongestFirst },
    // Generous: a test that spawns the CLI may wait seconds for a core on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
    server: { deps: { external: [BUILT_PACKAGE] } },
    projects: [
      {
        extends: true,
        test: { name: 'shared-modules', include: sharedModules, isolate: false, setupFiles: ['test/support/stop-started.ts'] },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...sharedModules, 'test/real/**'] },
      },
    ],
    // Coverage (v8, `npm test` turns it on for a full run): one summary line per measure, of the
    // src/ code that ran in the test processes (the CLI processes tests start are not measured).
    coverage: { provider: 'v8', include: ['src/**/*.ts'], reporter: ['text-summary'], reportsDirectory: '.cache/coverage' },
    reporters: jsonReport ? ['default', 'json'] : ['default'],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
  },
});
