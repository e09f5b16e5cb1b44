/**
 * The pinned Agent Canvas (npm `@openhands/agent-canvas`), fetched with the npm client on first use
 * and kept under `.cache/` so later runs work offline. Only its pre-built static page (`build/`) is
 * used: its own CLI needs Node 24 and `uvx` to start a real agent server.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** How often a process waiting for another's fetch looks again, and when a lock is left over from a process that died. */
const LOCK_POLL_MS = 200;
const LOCK_STALE_MS = 5 * 60_000;

/** The npm package of Agent Canvas. */
export const AGENT_CANVAS_PACKAGE = '@openhands/agent-canvas';
/** The Agent Canvas version fakehands is checked against. */
export const AGENT_CANVAS_VERSION = '1.20.0';

/** Where a version of Agent Canvas is unpacked: `CACHE/agent-canvas-VERSION/package`. */
export function agentCanvasDir(cacheDir: string, version = AGENT_CANVAS_VERSION): string {
  return join(cacheDir, `agent-canvas-${version}`, 'package');
}

/**
 * The unpacked Agent Canvas package (its folder, holding `build/`): from the cache, or packed from
 * the npm registry with `npm pack` and untarred into it. Rejects when the registry cannot be reached.
 * One process fetches at a time (a lock folder beside the cache's): `npm test` starts a fetch before
 * vitest, whose Canvas files then wait for it, and two of them in parallel workers never unpack
 * into one staging folder at once.
 */
export async function ensureAgentCanvas(cacheDir: string, version = AGENT_CANVAS_VERSION): Promise<string> {
  const dir = agentCanvasDir(cacheDir, version);
  const ready = () => existsSync(join(dir, 'build', 'index.html'));
  if (ready()) return dir;
  await mkdir(cacheDir, { recursive: true });
  const lock = join(cacheDir, `agent-canvas-${version}.lock`);
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (ready()) return dir;
    if (await lockLeftOver(lock)) await rm(lock, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
  try {
    // Another process may have finished while this one waited for the lock.
    if (!ready()) await fetchAgentCanvas(cacheDir, version);
    return dir;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Whether a lock folder was left by a process that is gone (its pid no longer runs) or is older than any fetch takes. */
async function lockLeftOver(lock: string): Promise<boolean> {
  const age = await stat(lock).then(
    (s) => Date.now() - s.mtimeMs,
    () => 0,
  );
  if (age > LOCK_STALE_MS) return true;
  const pid = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 0) return false; // being written: its owner has just taken it
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Packs `version` from the npm registry and unpacks it into the cache in one rename. */
async function fetchAgentCanvas(cacheDir: string, version: string): Promise<void> {
  const staging = join(cacheDir, `agent-canvas-${version}.partial`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await run(npm, ['pack', `${AGENT_CANVAS_PACKAGE}@${version}`, '--pack-destination', staging, '--silent'], {
    timeout: 300_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const tarball = (await readdir(staging)).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${AGENT_CANVAS_PACKAGE}@${version} wrote no tarball`);
  await run('tar', ['xzf', tarball], { cwd: staging, timeout: 300_000 });
  await rm(join(staging, tarball));
  // One rename: a cache folder is whole or absent, never half-unpacked.
  await rm(join(cacheDir, `agent-canvas-${version}`), { recursive: true, force: true });
  await rename(staging, join(cacheDir, `agent-canvas-${version}`));
}
