/**
 * The pinned Agent Canvas (npm `@openhands/agent-canvas`), fetched with the npm client on first use
 * and kept under `.cache/` so later runs work offline. Only its pre-built static page (`build/`) is
 * used: its own CLI needs Node 24 and `uvx` to start a real agent server.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withFolderLock } from '../server/folder-lock.js';

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
  await withFolderLock(
    join(cacheDir, `agent-canvas-${version}.lock`),
    // Another process may have fetched it while this one waited for the lock.
    async () => (ready() ? undefined : fetchAgentCanvas(cacheDir, version)),
    { staleMs: LOCK_STALE_MS, pollMs: LOCK_POLL_MS },
  );
  return dir;
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
