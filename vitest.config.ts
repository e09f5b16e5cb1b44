import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run at once: half the cores, at least one. Most files start server processes (and
 * the contract tests Pact's native verifier besides), each busy on a core of its own; vitest's
 * default (all cores but one) overloads a machine shared with other work (#29 finding 17).
 */
const maxWorkers = Math.max(1, Math.floor(availableParallelism() / 2));

/** Where CI wants vitest's JSON report (see .ci/run); unset locally. */
const jsonReport = process.env.FAKEHANDS_VITEST_JSON;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/support/build-dist.ts'],
    maxWorkers,
    // Generous: a test that spawns the CLI may wait seconds for a core on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
    reporters: jsonReport ? ['default', 'json'] : ['default'],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
  },
});
