/**
 * What loading the built package reads (issue 34, finding 9: import cost): the Node entry points
 * ship as esbuild bundles with code splitting (scripts/bundle-cli.mjs), so an entry loads a few
 * dozen chunks instead of one file per module, zod comes bundled in (its public entries load 92
 * files), and the parts loaded on first need (the later route tables, the service's domain, Pact's
 * verifier) stay out of the first load. The CommonJS files are the same chunks, so `require` loads
 * the same set. Timings are in bench/import-cost.ts (BENCHMARKS.md "Import cost"), not here.
 */
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = new URL('../..', import.meta.url).pathname;

/** A resolve hook that prints every file a module import resolves to, registered from a data: URL. */
const HOOK = `export async function resolve(specifier, context, next) { const resolved = await next(specifier, context); if (resolved.url.startsWith('file:')) process.stderr.write('LOADED ' + resolved.url + '\\n'); return resolved; }`;

/**
 * Each script runs once per file, in its own fresh Node process: two tests that ask what the same
 * script loads share that process's answer (it does not change between them; issue 34).
 */
const once = (load: (code: string) => Promise<string[]>) => {
  const answers = new Map<string, Promise<string[]>>();
  return (code: string): Promise<string[]> => {
    if (!answers.has(code)) answers.set(code, load(code));
    return answers.get(code)!;
  };
};

/** The files a fresh Node process resolves while it runs `code` (ESM), relative to the package root. */
const loadedByImport = once(async (code: string): Promise<string[]> => {
  const script = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)})); ${code}`;
  const { stderr } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, timeout: 60_000 });
  const files = stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => new URL(line.slice('LOADED '.length)).pathname.slice(ROOT.length));
  return [...new Set(files)].sort();
});

/** The files a fresh Node process has in its CommonJS cache after it runs `code`, relative to the package root. */
const loadedByRequire = once(async (code: string): Promise<string[]> => {
  const script = `${code}; process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const { stdout } = await run(process.execPath, ['-e', script], { cwd: ROOT, timeout: 60_000 });
  return (JSON.parse(stdout) as string[]).map((path) => path.slice(ROOT.length)).sort();
});

const own = (files: string[]) => files.filter((file) => file.startsWith('dist/'));
/** The chunks esbuild names after the modules loaded with a dynamic import() (later routes, the domain, Pact's verifier, …). */
const LAZY = /\/chunks\/(later|document|routes|service|sockets|bash-socket|verify|messages|replay-zip|validation|python-json|form|check)-/;
/** A chunk's name without its folder and extension: the same in dist/chunks/ and dist/cjs/chunks/. */
const chunkName = (file: string) => file.replace(/^dist\/(cjs\/)?/, '').replace(/\.c?js$/, '');

describe("import('fakehands')", () => {
  it('loads the entry and its shared chunks, none of the parts loaded on first need, and no file of zod', async () => {
    const files = await loadedByImport("await import('fakehands');");
    const ours = own(files);
    expect(ours).toContain('dist/index.js');
    expect(ours.filter((file) => file !== 'dist/index.js').every((file) => file.startsWith('dist/chunks/chunk-'))).toBe(true);
    expect(ours.filter((file) => LAZY.test(file))).toEqual([]);
    expect(ours.length).toBeLessThan(60); // one file per module was about 340
    expect(files.filter((file) => file.includes('node_modules/zod/'))).toEqual([]);
  });

  it("loads the later route tables' chunks when a fake is created (in Node, createFake loads every route)", async () => {
    const files = await loadedByImport(
      "const { createFake } = await import('fakehands'); const fake = await createFake({ fixture: 'empty', auth: 'none' }); const answer = await fake.fetch(new Request('http://localhost:3000/api/v1/sandbox-specs/search')); if (answer.status !== 200) throw new Error(String(answer.status));",
    );
    expect(own(files).filter((file) => LAZY.test(file)).length).toBeGreaterThan(0);
  });

  it("shares one FakehandsError with 'fakehands/node'", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const [a, b] = await Promise.all([import('fakehands'), import('fakehands/node')]); process.stdout.write(String(a.FakehandsError === b.FakehandsError));",
      ],
      { cwd: ROOT, timeout: 60_000 },
    );
    expect(stdout).toBe('true');
  });
});

describe("require('fakehands')", () => {
  it("evaluates the CommonJS twins of exactly the chunks import('fakehands') loads, and no file of zod", async () => {
    const [required, imported] = await Promise.all([loadedByRequire("require('fakehands')"), loadedByImport("await import('fakehands');")]);
    expect(own(required).every((file) => file.startsWith('dist/cjs/'))).toBe(true);
    expect(own(required).map(chunkName)).toEqual(own(imported).map(chunkName));
    expect(required.filter((file) => file.includes('node_modules/zod/'))).toEqual([]);
  });

  it("does not evaluate the drift, Pact or server entries' chunks until they are required", async () => {
    const [index, all] = await Promise.all([
      loadedByRequire("require('fakehands')"),
      loadedByRequire("for (const entry of ['fakehands', 'fakehands/drift', 'fakehands/pact', 'fakehands/server']) require(entry)"),
    ]);
    expect(all).toEqual(expect.arrayContaining(['dist/cjs/drift.cjs', 'dist/cjs/pact.cjs', 'dist/cjs/server.cjs']));
    expect(index).not.toEqual(expect.arrayContaining(['dist/cjs/drift.cjs']));
    expect(own(all).length).toBeGreaterThan(own(index).length + 3);
  });

  it('runs strict code, as the ESM it is built from (a write to a frozen table throws there too)', async () => {
    const files = (await readdir(`${ROOT}dist/cjs`, { recursive: true })).filter((file) => file.endsWith('.cjs'));
    expect(files.length).toBeGreaterThan(10);
    const sloppy: string[] = [];
    for (const file of files) if (!(await readFile(`${ROOT}dist/cjs/${file}`, 'utf8')).startsWith("'use strict';")) sloppy.push(file);
    expect(sloppy).toEqual([]);
  });
});
