/**
 * The pinned Agent Canvas in the cache (src/canvas/package.ts, `ensureAgentCanvas`): a cached copy is
 * used as it is, and a process that finds another fetching (its lock folder) waits for that fetch
 * instead of unpacking into the same staging folder (`npm test` fetches before vitest's Canvas files
 * ask; two Canvas files may ask at once in parallel workers). No registry is needed here: the other
 * process's fetch is played by the test.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_CANVAS_VERSION, agentCanvasDir, ensureAgentCanvas } from '../../src/canvas/package.js';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function cacheDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fakehands-canvas-cache-'));
  made.push(dir);
  return dir;
}

/** What a finished fetch leaves: the unpacked package with its page. */
async function unpack(cache: string): Promise<void> {
  await mkdir(join(agentCanvasDir(cache), 'build'), { recursive: true });
  await writeFile(join(agentCanvasDir(cache), 'build', 'index.html'), '<!doctype html>');
}

describe('ensureAgentCanvas', () => {
  it('answers the cached package without fetching or locking', async () => {
    const cache = await cacheDir();
    await unpack(cache);
    expect(await ensureAgentCanvas(cache)).toBe(agentCanvasDir(cache));
    expect(existsSync(join(cache, `agent-canvas-${AGENT_CANVAS_VERSION}.lock`))).toBe(false);
  });

  it('waits while another process fetches (its lock), then answers what it unpacked without fetching itself', async () => {
    const cache = await cacheDir();
    const lock = join(cache, `agent-canvas-${AGENT_CANVAS_VERSION}.lock`);
    // The other process: alive (this one's pid), holding the lock while it fetches.
    await mkdir(lock);
    await writeFile(join(lock, 'pid'), String(process.pid));
    let answered: string | undefined;
    const asking = ensureAgentCanvas(cache).then((dir) => {
      answered = dir;
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(answered).toBeUndefined(); // still waiting: no fetch of its own while the lock is held
    expect(existsSync(join(cache, `agent-canvas-${AGENT_CANVAS_VERSION}.partial`))).toBe(false);
    await unpack(cache);
    await rm(lock, { recursive: true });
    await asking;
    expect(answered).toBe(agentCanvasDir(cache));
    expect(existsSync(join(cache, `agent-canvas-${AGENT_CANVAS_VERSION}.partial`))).toBe(false);
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock whose process is gone, fetches itself, and removes the lock whatever the fetch gave', async () => {
    const cache = await cacheDir();
    const version = '0.0.0-fakehands-no-such-version';
    const lock = join(cache, `agent-canvas-${version}.lock`);
    await mkdir(lock);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    await writeFile(join(lock, 'pid'), gone);
    // The version does not exist: its own fetch (npm pack) fails, where waiting would have hung.
    await expect(ensureAgentCanvas(cache, version)).rejects.toThrow(/npm pack|Command failed/);
    expect(existsSync(lock)).toBe(false);
  }, 120_000);
});
