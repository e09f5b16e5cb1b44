/**
 * No file of `src` over 400 lines (issue 30): a file that grows past it is split along the API's
 * vocabulary (cli/options.ts beside cli/serve.ts, pact/provider-states.ts beside pact/verify.ts),
 * so every room stays one a newcomer reads in one sitting.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Most lines a source file may have. */
const MAX_LINES = 400;

/** The lines of every `.ts` file under `folder`, by path. */
async function lineCounts(folder: string): Promise<Map<string, number>> {
  const files = (await readdir(folder, { recursive: true })).filter((path) => path.endsWith('.ts'));
  const counts = new Map<string, number>();
  for (const path of files) {
    const text = await readFile(join(folder, path), 'utf8');
    counts.set(join(folder, path), text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
  }
  return counts;
}

describe('the source files of src', () => {
  it(`are each at most ${MAX_LINES} lines`, async () => {
    const counts = await lineCounts('src');
    // Every folder was read, not only the top one.
    expect(counts.size).toBeGreaterThan(150);
    expect(counts.has(join('src', 'domain', 'agent', 'status.ts'))).toBe(true);
    const over = [...counts].filter(([, lines]) => lines > MAX_LINES).map(([path, lines]) => `${path}: ${lines} lines`);
    expect(over).toEqual([]);
  });

  it('counts a file of 401 lines as one over (the check can fail)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'fakehands-lines-'));
    try {
      await writeFile(join(root, 'long.ts'), 'export {};\n'.repeat(401));
      await writeFile(join(root, 'short.ts'), 'export {};\n'.repeat(400));
      expect([...(await lineCounts(root))].sort()).toEqual([
        [join(root, 'long.ts'), 401],
        [join(root, 'short.ts'), 400],
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
