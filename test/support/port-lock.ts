/**
 * Test support: a lock on a fixed port shared by test files. The README's Playwright recipe serves
 * on port 3100, and two files run it as printed (test/readme.test.ts, test/recipes/playwright.test.ts):
 * with vitest running files side by side, each takes the port only while it holds this lock.
 * Hand-written (a directory made with `mkdir`, which only one process can create): no lock library
 * is a dependency, and a dead holder's lock (its pid gone) is taken over rather than waited out.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const LOCKS = new URL('../../.tmp/locks/', import.meta.url).pathname;

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `use` while holding the lock of `port`, waiting (at most `ms`) for another holder to finish. */
export async function withPortLock<T>(port: number, use: () => Promise<T>, ms = 240_000): Promise<T> {
  const dir = join(LOCKS, `port-${port}`);
  await mkdir(LOCKS, { recursive: true });
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await mkdir(dir);
      await writeFile(join(dir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(join(dir, 'pid'), 'utf8').catch(() => ''));
      // A holder that died without letting go (or one still writing its pid: left to finish).
      if (holder > 0 && !alive(holder)) await rm(dir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`port ${port} stayed locked by pid ${holder} for ${ms} ms`);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await use();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
