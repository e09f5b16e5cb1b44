/**
 * What a consumer installs (issue 23): the packed tarball, and a fresh project's `node_modules`
 * with fakehands and msw (no Pact: an optional peer) against one with msw alone, same msw version.
 * Sizes are the bytes of the files (what `du --apparent-size` counts), so the figure does not depend
 * on the file system's block size. Needs the npm registry.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Bytes of every file under `dir`. */
async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** A fresh project with `packages` installed; resolves with its node_modules size. */
async function installed(packages: string[], cwd: string): Promise<number> {
  await writeFile(join(cwd, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...packages], {
    cwd,
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return bytesUnder(join(cwd, 'node_modules'));
}

/** The tarball and a consumer's install, with and without fakehands. */
export async function installSize(
  mswVersion: string,
): Promise<{ tarball: { packed: number; unpacked: number; files: number }; withFakehands: number; mswAlone: number }> {
  const work = await mkdtemp(join(tmpdir(), 'fakehands-install-'));
  try {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: ROOT,
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const packed = (
      JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; size: number; unpackedSize: number; entryCount: number }[]
    )[0]!;
    const withDir = await mkdtemp(join(work, 'with-'));
    const aloneDir = await mkdtemp(join(work, 'alone-'));
    const withFakehands = await installed([join(work, packed.filename), `msw@${mswVersion}`], withDir);
    const mswAlone = await installed([`msw@${mswVersion}`], aloneDir);
    return { tarball: { packed: packed.size, unpacked: packed.unpackedSize, files: packed.entryCount }, withFakehands, mswAlone };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
