/**
 * The domain, the instance and the request pipeline are a plain library of static imports (issue 30):
 * a page's bundler splits the code only at the surfaces (their later route tables and on-demand
 * helpers, `src/surfaces/`) and at the one lazily loaded service facade (`src/service-facade.ts`).
 * A dynamic `import(...)` there (or a type written `import('x').T`) is a split point hidden inside
 * the library: it fails this test.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['src/domain', 'src/instance', 'src/http'];

/** Every `.ts` file under `dir`. */
async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
}

/** The `import(` calls of a source, as `path:line: text` (comments included: a commented-out split point is one too). */
function dynamicImports(path: string, text: string): string[] {
  return text
    .split('\n')
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => /(^|[^\w$.])import\s*\(/.test(line))
    .map(({ line, index }) => `${relative(ROOT, path)}:${index + 1}: ${line.trim()}`);
}

describe('src/domain, src/instance and src/http', () => {
  it('import every module statically: no import( call, no import() type', async () => {
    const found: string[] = [];
    let files = 0;
    for (const folder of FOLDERS) {
      for (const path of await sources(folder)) {
        files += 1;
        found.push(...dynamicImports(path, await readFile(path, 'utf8')));
      }
    }
    expect(files).toBeGreaterThan(50);
    expect(found).toEqual([]);
  });

  it('finds a dynamic import, a type written import("x").T and one across lines', () => {
    const text = [
      "const m = await import('./a.js');",
      "let t: typeof import('@x/y').z;",
      'const n = await import(',
      "  './b.js');",
      "import { a } from './a.js';",
      'reimport(x);',
    ].join('\n');
    expect(dynamicImports(join(ROOT, 'src/domain/x.ts'), text).map((hit) => hit.split(': ')[0])).toEqual([
      'src/domain/x.ts:1',
      'src/domain/x.ts:2',
      'src/domain/x.ts:3',
    ]);
  });
});
