/**
 * Test support: whether the browser suites can run. They drive Debian's Chromium (`/usr/bin/chromium`,
 * or the binary `CHROMIUM_PATH` names). Without it a suite is skipped, with one line saying how to
 * get it, so `npm ci && npm test` passes on a machine without a browser; where the environment asks
 * for the browser (`FAKEHANDS_REQUIRE_BROWSER=1`, as .ci/run sets), a missing one fails instead.
 */
import { existsSync } from 'node:fs';

/** The environment variable that makes a missing Chromium a failure rather than a skip. */
export const REQUIRE_BROWSER = 'FAKEHANDS_REQUIRE_BROWSER';

/** Where Chromium is looked for: `CHROMIUM_PATH`, else where Debian installs it (`apt-get install chromium`). */
export const chromiumPath = (env: NodeJS.ProcessEnv = process.env): string => env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Whether a browser suite runs, and the one line it prints when skipped. */
export interface BrowserAvailability {
  /** True when the suite is skipped (no Chromium, and the environment does not require it). */
  skip: boolean;
  /** The line printed once when skipped; null when the suite runs. */
  line: string | null;
}

/** Whether the browser suites run under `env`, given whether a file exists (`exists`, the file system's by default). */
export function browserAvailability(
  env: NodeJS.ProcessEnv = process.env,
  exists: (path: string) => boolean = existsSync,
): BrowserAvailability {
  const path = chromiumPath(env);
  if (exists(path) || ['1', 'true', 'yes'].includes((env[REQUIRE_BROWSER] ?? '').toLowerCase())) return { skip: false, line: null };
  return {
    skip: true,
    line: `Browser tests skipped: no Chromium at ${path}; install it (apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary (${REQUIRE_BROWSER}=1 makes this a failure)`,
  };
}

/** This process's answer, its line printed once per file that asks. */
export function browserSuitesSkipped(): boolean {
  const { skip, line } = browserAvailability();
  if (line) console.warn(line);
  return skip;
}
