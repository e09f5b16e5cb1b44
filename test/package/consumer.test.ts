/**
 * What a user installs is what CI tests: `npm pack`, then a fresh project installs the tarball
 * with the lowest supported msw (2.8.0) and without Pact, runs the docs' in-test examples (each
 * asserting with vitest's `expect`),
 * `require`s every entry from CommonJS, type-checks imports under each `moduleResolution`, runs
 * `npx fakehands serve`; then adds Pact and runs `npx fakehands verify` against it.
 *
 * What it costs (about a third of `npm test`'s time went here): the tarball is packed from the
 * `dist/` the suite's global setup has just built (`--ignore-scripts`: `prepare` would rebuild it,
 * deleting it under the other test files, for the same output), the installs take what the npm cache
 * holds without asking the registry again (`--prefer-offline`), and the README's examples run one
 * after another in one tsx process, as test/readme.test.ts runs them in one vitest worker.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeExamples } from '../support/readme.js';

const run = promisify(execFile);
const ROOT = new URL('../..', import.meta.url).pathname;
/** The lowest msw 2.x fakehands supports (its peer range starts here). */
const LOWEST_MSW = '2.8.0';
const tsBlocks = nodeExamples();

let project = '';
const sh = (command: string, args: string[], timeout = 240_000) =>
  run(command, args, {
    cwd: project,
    timeout,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true', npm_config_audit: 'false', npm_config_fund: 'false' },
  });

/**
 * Runs README examples in the consumer project with tsx, each written as its own module
 * (`NAME-N.ts`) and imported in turn by one process; the first that throws ends the run, named.
 */
async function runExamples(codes: string[], name: string): Promise<void> {
  const files: string[] = [];
  for (const [i, code] of codes.entries()) {
    const file = `${name}-${i + 1}.ts`;
    await writeFile(join(project, file), `${code}\nexport {};\n`);
    files.push(file);
  }
  await writeFile(
    join(project, `${name}s.ts`),
    [
      `for (const file of ${JSON.stringify(files)}) {`,
      '  try {',
      "    await import('./' + file);",
      '  } catch (error) {',
      "    throw new Error(file + ': ' + ((error as Error).stack ?? String(error)));",
      '  }',
      '}',
      'export {};',
      '',
    ].join('\n'),
  );
  await sh(join(project, 'node_modules/.bin/tsx'), [join(project, `${name}s.ts`)], 200_000);
}

/** Starts `npx fakehands serve --port 0` in the project; resolves with its URL and a stop function. */
function serve(args: string[] = []): Promise<{ url: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(join(project, 'node_modules/.bin/fakehands'), ['serve', '--port', '0', '--quiet', ...args], { cwd: project });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`fakehands serve did not start: ${out}`)), 20_000);
    proc.stdout.on('data', (d: Buffer) => {
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match && out.includes('control API')) {
        clearTimeout(timer);
        resolve({ url: match[1]!, stop: () => proc.kill() });
      }
    });
  });
}

/** The `moduleResolution`s a consumer's project may use, each type-checked against the package's types. */
const RESOLUTIONS = ['bundler', 'node16', 'nodenext', 'node'];
let typeChecks: Promise<Map<string, string[]>> | undefined;

/**
 * Writes a project per `moduleResolution` (a file importing every entry, its tsconfig) and checks
 * them all with one `tsc -b` (it reads the package's types once for the four); resolves with what
 * tsc said about each, its status lines left out.
 */
const typeCheckAll = () =>
  (typeChecks ??= (async () => {
    for (const resolution of RESOLUTIONS) {
      const module = resolution === 'bundler' ? 'esnext' : resolution === 'node' ? 'commonjs' : resolution;
      await writeFile(
        join(project, `types-${resolution}.ts`),
        [
          "import { createFake, type Fake, type FakeOptionsInput } from 'fakehands';",
          "import { startFake } from 'fakehands/node';",
          "import { createClient } from 'fakehands/client';",
          "import { createFakeServer } from 'fakehands/server';",
          "import { checkDrift } from 'fakehands/drift';",
          'const options: FakeOptionsInput = { auth: "none" };',
          'export const used: [typeof createFake, typeof startFake, typeof createClient, typeof createFakeServer, typeof checkDrift, FakeOptionsInput] = [createFake, startFake, createClient, createFakeServer, checkDrift, options];',
          'export type F = Fake;',
        ].join('\n'),
      );
      await writeFile(
        join(project, `tsconfig-${resolution}.json`),
        JSON.stringify({
          compilerOptions: {
            module,
            moduleResolution: resolution,
            target: 'es2022',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
          },
          files: [`types-${resolution}.ts`],
        }),
      );
    }
    const configs = RESOLUTIONS.map((resolution) => `tsconfig-${resolution}.json`);
    const result = await sh(join(project, 'node_modules/.bin/tsc'), ['-b', '--verbose', ...configs]).catch(
      (error: { stdout: string }) => error,
    );
    // --verbose heads each project's diagnostics with "TIME - Building project '/…/tsconfig-R.json'...".
    const said = new Map<string, string[]>();
    let current: string[] = [];
    for (const line of result.stdout.split('\n')) {
      const building = / - Building project '.*\/tsconfig-(\w+)\.json'\.\.\.$/.exec(line);
      if (building) said.set(building[1]!, (current = []));
      else if (line.trim() !== '' && !/^\S.* - (Projects in this build|Project '| {4}\* )/.test(line) && !/^ {4}\* /.test(line))
        current.push(line);
    }
    return said;
  })());

describe('the packed package in a fresh project', () => {
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'fakehands-consumer-'));
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', project], {
      cwd: ROOT,
      timeout: 180_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const tarball = (await readdir(project)).find((f) => f.endsWith('.tgz'))!;
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await sh('npm', [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      `./${tarball}`,
      `msw@${LOWEST_MSW}`,
      '@openhands/typescript-client@1.39.0',
      'tsx@^4',
      // The examples assert with vitest's `expect`, as a test file of the project would.
      'vitest@^4',
      'typescript@~5.9.3',
      '@types/node@^20',
    ]);
  }, 400_000);

  afterAll(() => undefined);

  it(`installs one msw, the project's ${LOWEST_MSW}, and no Pact`, async () => {
    const { stdout } = await sh('npm', ['ls', 'msw', '@pact-foundation/pact', '--all', '--json']).catch(
      (error: { stdout: string }) => error,
    );
    const tree = JSON.stringify(JSON.parse(stdout));
    expect([...new Set(tree.match(/"msw":\{"version":"([^"]+)"/g)?.map((m) => m.split('"')[5]))]).toEqual([LOWEST_MSW]);
    expect(tree).not.toContain('@pact-foundation/pact');
    const shipped = await readdir(join(project, 'node_modules/fakehands'));
    expect(shipped).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', 'SECURITY.md', 'BENCHMARKS.md', 'dist', 'contracts', 'fixtures']),
    );
    // Nothing unused: the browser entry is built by the page's own bundler, never shipped pre-bundled.
    expect(await readdir(join(project, 'node_modules/fakehands/dist'))).not.toContain('browser.bundle.js');
    expect(shipped).not.toContain('src'); // no source maps point there: the TypeScript sources would be dead weight
  });

  it('ships no JavaScript file that no entry point, the command or a lazily loaded chunk reaches', async () => {
    const installed = join(project, 'node_modules/fakehands');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      bin: Record<string, string>;
    };
    const targets = (value: unknown): string[] =>
      typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(targets) : [];
    const start = [...targets(manifest.exports), ...Object.values(manifest.bin)]
      .filter((path) => /\.c?js$/.test(path))
      .map((path) => join(installed, path));
    const reached = new Set<string>();
    for (const queue = [...start]; queue.length > 0; ) {
      const file = queue.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      // Comments left out: a JSDoc example names files too.
      const code = (await readFile(file, 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      // Static and dynamic imports, re-exports and requires of the package's own files.
      for (const match of code.matchAll(/(?:from|import|require)\s*\(?\s*['"](\.{1,2}\/[^'"$]+)['"]/g))
        queue.push(join(dirname(file), match[1]!));
    }
    const all = (await readdir(join(installed, 'dist'), { recursive: true }))
      .filter((path) => /\.c?js$/.test(path))
      .map((path) => join(installed, 'dist', path));
    expect(all.filter((file) => !reached.has(file)).map((file) => file.slice(installed.length + 1))).toEqual([]);
    expect(reached.size).toBeGreaterThan(100);
  });

  it("runs the README's in-test examples", async () => {
    const withoutPact = tsBlocks.filter((code) => !code.includes("'fakehands/pact'"));
    expect(withoutPact.length).toBeGreaterThan(8);
    await runExamples(withoutPact, 'example');
  }, 240_000);

  it('is required from CommonJS, every entry', async () => {
    const script = [
      "const { createFake } = require('fakehands');",
      "for (const entry of ['fakehands/node', 'fakehands/client', 'fakehands/server', 'fakehands/drift']) require(entry);",
      // One copy of the code behind every entry: instanceof holds across them (Jest on CommonJS).
      "if (require('fakehands').FakehandsError !== require('fakehands/node').FakehandsError) throw new Error('two copies of FakehandsError');",
      "if (require('fakehands/server').StateFileWriter !== require('fakehands/server').StateFileWriter) throw new Error('unreachable');",
      "createFake({ fixture: 'empty', auth: 'none' }).then(async (fake) => {",
      "  const answer = await fake.fetch(new Request('http://localhost:3000/api/v1/sandbox-specs/search'));",
      '  console.log(answer.status);',
      '});',
    ].join('\n');
    await writeFile(join(project, 'cjs.cjs'), script);
    expect((await sh(process.execPath, ['cjs.cjs'])).stdout.trim()).toBe('200');
  });

  it.each(RESOLUTIONS)(
    'type-checks its imports under moduleResolution %s',
    async (resolution) => {
      expect((await typeCheckAll()).get(resolution)).toEqual([]);
    },
    120_000,
  );

  it('runs `npx fakehands serve`, and `verify` without Pact exits 2 naming the command that installs it', async () => {
    const server = await serve();
    try {
      expect((await fetch(`${server.url}/_fakehands/health`)).status).toBe(200);
      const verify = (await sh(join(project, 'node_modules/.bin/fakehands'), ['verify', '--base-url', server.url]).catch(
        (error: { code: number; stderr: string }) => error,
      )) as { code: number; stderr: string };
      expect([verify.code, verify.stderr]).toEqual([
        2,
        'fakehands: fakehands verify needs Pact, an optional peer dependency; install it with: npm install --save-dev @pact-foundation/pact@^16\n',
      ]);
    } finally {
      server.stop();
    }
  });

  it('with Pact added, `npx fakehands verify` passes against `npx fakehands serve`, and fails fast on a provider that is not there', async () => {
    await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '@pact-foundation/pact@^16']);
    const server = await serve(['--timings', 'instant', '--fixture', 'empty']);
    try {
      const verify = await sh(join(project, 'node_modules/.bin/fakehands'), [
        'verify',
        '--base-url',
        server.url,
        '--api-key',
        'fakehands-dev-key',
      ]);
      expect(verify.stdout).toContain('OK: every interaction passed');
    } finally {
      server.stop();
    }
    // How soon it gives up (three refused questions, 200 ms apart) is proven with fake timers in
    // test/contract/provider-watch.test.ts; a hang would hit this test's own timeout.
    const down = (await sh(join(project, 'node_modules/.bin/fakehands'), ['verify', '--base-url', 'http://127.0.0.1:9']).catch(
      (error: { code: number; stderr: string }) => error,
    )) as { code: number; stderr: string };
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(
      /^fakehands: cannot reach the provider at http:\/\/127\.0\.0\.1:9: .+; start it first \(or check --base-url\)\n$/,
    );
    await runExamples(
      tsBlocks.filter((c) => c.includes("'fakehands/pact'")),
      'example-pact',
    );
  }, 300_000);
});
