/**
 * A lock between processes: a folder only one process can create (`mkdir`), holding its owner's
 * pid. Used where processes share a file-system resource: Agent Canvas's fetch into the cache
 * (`fakehands canvas`, `npm test`'s early fetch, the Canvas test files) and the tests' fixed port.
 * Hand-written because it is one loop over `mkdir`: a lock package (proper-lockfile) would be a
 * runtime dependency for this alone. A lock whose owner is gone (its pid no longer runs), or older
 * than `staleMs`, is taken over rather than waited out.
 */
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Options of `withFolderLock`. */
export interface FolderLockOptions {
  /** How long to wait for another holder before giving up with an error (default: 10 minutes). */
  waitMs?: number;
  /** A lock older than this is taken over whoever holds it (default: never by age alone). */
  staleMs?: number;
  /** How often a waiting process looks again (default: 100 ms). */
  pollMs?: number;
}

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock folder `dir` was left by a process that is gone, or is older than `staleMs`. */
async function leftOver(dir: string, staleMs: number): Promise<boolean> {
  const age = await stat(dir).then(
    (s) => Date.now() - s.mtimeMs,
    () => 0,
  );
  if (age > staleMs) return true;
  const holder = Number(await readFile(join(dir, 'pid'), 'utf8').catch(() => ''));
  // No pid yet: its owner has just made the folder and is writing it.
  return Number.isInteger(holder) && holder > 0 && !alive(holder);
}

/** Runs `use` while holding the lock folder `dir`, waiting for another holder to let go first. */
export async function withFolderLock<T>(dir: string, use: () => Promise<T>, options: FolderLockOptions = {}): Promise<T> {
  const { waitMs = 10 * 60_000, staleMs = Number.POSITIVE_INFINITY, pollMs = 100 } = options;
  await mkdir(dirname(dir), { recursive: true });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await mkdir(dir);
      await writeFile(join(dir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await leftOver(dir, staleMs)) await rm(dir, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`${dir} stayed locked for ${waitMs} ms`);
    else await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  try {
    return await use();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
