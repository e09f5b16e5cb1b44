/**
 * No import circle anywhere in `src` (issue 30): every entry point's graph, type-only and dynamic
 * imports included, checked with dpdm (the same check as `npx dpdm --exit-code circular:1` over the
 * package's entry points), so a new circle fails `npm test`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCircular, parseDependencyTree } from 'dpdm';

/** The package's entry points (its `exports` and its binary). */
const ENTRIES = [
  'src/index.ts',
  'src/node.ts',
  'src/server.ts',
  'src/browser.ts',
  'src/cli.ts',
  'src/pact.ts',
  'src/drift/index.ts',
  'src/client/index.ts',
];

/** The files reachable from `entries` under `root`, and the import circles among them (each as its files relative to `root`). */
async function circlesOf(root: string, entries: string[]): Promise<{ files: number; circles: string[][] }> {
  const tree = await parseDependencyTree(entries, {
    cwd: root,
    context: root,
    transform: false,
    skipDynamicImports: false,
    onProgress: () => undefined,
  });
  return { files: Object.keys(tree).length, circles: parseCircular(tree, false) };
}

describe('the import graph of src', () => {
  it('has no import circle, type-only and dynamic imports included', { timeout: 120_000 }, async () => {
    const { files, circles } = await circlesOf(resolve('.'), ENTRIES);
    // The whole of src was read (its `.js` specifiers resolved to the `.ts` files), not only the entries.
    expect(files).toBeGreaterThan(150);
    expect(circles).toEqual([]);
  });

  it('a circle made only of a type import is found (the check can fail)', { timeout: 60_000 }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'fakehands-cycles-'));
    try {
      await writeFile(join(root, 'a.ts'), "import type { B } from './b.js';\nexport type A = { b?: B };\n");
      await writeFile(join(root, 'b.ts'), "import type { A } from './a.js';\nexport type B = { a?: A };\n");
      await writeFile(join(root, 'tsconfig.json'), '{"compilerOptions": {"module": "nodenext", "moduleResolution": "nodenext"}}');
      expect((await circlesOf(root, ['a.ts'])).circles).toEqual([['a.ts', 'b.ts']]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
