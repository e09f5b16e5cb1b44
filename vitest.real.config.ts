import { defineConfig } from 'vitest/config';

/**
 * The differential suite against the real OpenHands servers (`npm run test:real`): its files start
 * a real server each (seconds, hundreds of MB), so they run one at a time, with long timeouts; the
 * real servers install on first use (minutes). Not part of `npm test`.
 */
export default defineConfig({
  test: {
    include: ['test/real/**/*.real.test.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 900_000,
    // record.real.test.ts runs the built command: dist/ is rebuilt first when a source is newer.
    globalSetup: ['test/support/build-dist.ts'],
    reporters: process.env.FAKEHANDS_VITEST_JSON ? ['default', ['json', { outputFile: process.env.FAKEHANDS_VITEST_JSON }]] : ['default'],
  },
});
