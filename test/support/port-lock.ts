/**
 * Test support: a lock on a fixed port shared by test files. The README's Playwright recipe serves
 * on port 3100, and two files run it as printed (test/readme.test.ts, test/recipes/playwright.test.ts):
 * with vitest running files side by side, each takes the port only while it holds this lock.
 * The lock is src/server/folder-lock.ts's: a dead holder's lock (its pid gone) is taken over.
 */
import { join } from 'node:path';
import { withFolderLock } from '../../src/server/folder-lock.js';

const LOCKS = new URL('../../.tmp/locks/', import.meta.url).pathname;

/** Runs `use` while holding the lock of `port`, waiting (at most `ms`) for another holder to finish. */
export function withPortLock<T>(port: number, use: () => Promise<T>, ms = 240_000): Promise<T> {
  return withFolderLock(join(LOCKS, `port-${port}`), use, { waitMs: ms });
}
