/**
 * Finding 2 of issue 34: every TypeScript block of the README type-checks under `--strict`, as a
 * consumer's project would compile it (the package's own published types, `dist/*.d.ts`, through
 * its `exports`; the DOM too, for the browser blocks). Blocks that name their file on the first
 * line (`// test/fake.ts`, `// e2e/fakehands.ts`) are written there, so their imports of each
 * other resolve; the others are written as `example-N.ts`.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fileOf, readmeBlocks } from './support/readme.js';

const ROOT = new URL('..', import.meta.url).pathname;

describe('the README under strict TypeScript', () => {
  it('finding 2: every TypeScript block type-checks with tsc --strict, as printed', async () => {
    const dir = join(ROOT, '.tmp/readme-strict');
    await rm(dir, { recursive: true, force: true });
    const blocks = readmeBlocks('ts');
    expect(blocks.length).toBeGreaterThan(15);
    const files = blocks.map((code, i) => [fileOf(code) ?? `example-${i + 1}.ts`, code] as const);
    for (const [path, code] of files) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), code);
    }
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          moduleDetection: 'force',
          lib: ['es2022', 'dom', 'dom.iterable'],
          types: ['node'],
          skipLibCheck: true,
        },
        include: files.map(([path]) => path),
      }),
    );
    const run = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')],
      { cwd: dir },
    ).then(
      () => ({ stdout: '' }),
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(run.stdout).toBe('');
  }, 120_000);
});
