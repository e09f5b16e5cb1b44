import { defineConfig } from 'vitest/config';

/** Where CI wants vitest's JSON report (see .ci/run); unset locally. */
const jsonReport = process.env.FAKEHANDS_VITEST_JSON;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/support/build-dist.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
    reporters: jsonReport ? ['default', 'json'] : ['default'],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
  },
});
