/**
 * Jest on CommonJS, as a user runs it: `npm pack`, then a fresh CommonJS project installs the
 * tarball with the msw this repository develops against (a current 2.x), Jest 30 and Babel's
 * CommonJS transform, and runs a test file that `require`s `msw/node` and `fakehands`.
 *
 * msw 2.15's own dependencies `rettime`, `until-async` and `@open-draft/deferred-promise` are ES
 * modules only; Jest's module loader cannot `require` them on Node 20 (it does from Node 24.9), so
 * `require('msw/node')` fails before any test runs, whatever fakehands ships. The Jest config below
 * (Babel turns those three packages into CommonJS) makes the same file pass: the docs print it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = new URL('../..', import.meta.url).pathname;

/** The Jest config the docs give for CommonJS projects (jest.config.js). */
const JEST_CONFIG = `module.exports = {
  transform: { '\\\\.[cm]?js$': ['babel-jest', { plugins: ['@babel/plugin-transform-modules-commonjs'] }] },
  transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft/deferred-promise)/)'],
};
`;

/** A Jest test file on CommonJS: the fake's handlers in msw's `setupServer`. */
const TEST_FILE = `const { setupServer } = require('msw/node');
const { createFake } = require('fakehands');

let server;
beforeAll(async () => {
  const fake = await createFake({ fixture: 'empty', auth: 'none' });
  server = setupServer(...fake.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => server.close());

test('lists no sandboxes', async () => {
  const answer = await fetch('http://localhost:3000/api/v1/sandboxes/search');
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ items: [], next_page_id: null });
});
`;

let project = '';
/** Runs Jest in the project; resolves with its exit code and output, never rejects. */
const jest = async (): Promise<{ code: number; output: string }> => {
  const result = await run(join(project, 'node_modules/.bin/jest'), ['--ci', '--colors=false'], {
    cwd: project,
    timeout: 120_000,
    env: { ...process.env, FORCE_COLOR: '0' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
  return result;
};

describe('Jest on CommonJS with the current msw', () => {
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'fakehands-jest-'));
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', project], { cwd: ROOT, timeout: 180_000 });
    const tarball = (await readdir(project)).find((f) => f.endsWith('.tgz'))!;
    const msw = (JSON.parse(await readFile(join(ROOT, 'node_modules/msw/package.json'), 'utf8')) as { version: string }).version;
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'jest-consumer', private: true }));
    await mkdir(join(project, 'test'));
    await writeFile(join(project, 'test/fake.test.js'), TEST_FILE);
    await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `./${tarball}`,
        `msw@${msw}`,
        'jest@^30',
        '@babel/plugin-transform-modules-commonjs@^7',
      ],
      { cwd: project, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
    );
  }, 400_000);

  it("without a transform, stops at msw's ES-module-only dependencies before any test runs", async () => {
    const { code, output } = await jest();
    expect(code).toBe(1);
    expect(output).toMatch(
      /Must use import to load ES Module: \S*\/node_modules\/(rettime|until-async|@open-draft\/deferred-promise)\/\S+\.m?js/,
    );
    expect(output).toContain('Tests:       0 total');
  }, 120_000);

  it('with the documented jest.config.js, passes', async () => {
    await writeFile(join(project, 'jest.config.js'), JEST_CONFIG);
    const { code, output } = await jest();
    expect(output).toContain('Tests:       1 passed, 1 total');
    expect(code).toBe(0);
  }, 120_000);
});
