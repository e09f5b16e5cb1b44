/**
 * Every example in the README runs here: the TypeScript blocks as modules (with console.assert
 * made to throw, so a false claim fails), the control API's curl block against the real CLI.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCli } from './support/cli.js';
import { nodeExamples, readmeBlocks as blocks } from './support/readme.js';
const TMP = new URL('../.tmp/', import.meta.url);

describe('README', () => {
  const original = console.assert;
  beforeEach(() => {
    console.assert = (condition?: boolean, ...data: unknown[]) => {
      if (!condition) throw new Error(`README assertion failed ${data.join(' ')}`);
    };
  });
  afterEach(() => {
    console.assert = original;
  });

  it('has the two set-up commands', () => {
    expect(blocks('sh').slice(0, 2)).toEqual(['npm ci && npm start\n', 'npm ci && npm test\n']);
  });

  // The setup-file recipe and the browser example run elsewhere (a vitest run below, Chromium in test/browser).
  const examples = nodeExamples();
  it.each(examples.map((code, i) => [i + 1, code]))('TypeScript example %i runs and its assertions hold', async (n, code) => {
    await mkdir(TMP, { recursive: true });
    const file = new URL(`readme-example-${n}.ts`, TMP);
    await writeFile(file, `${code}\nexport {};\n`);
    await import(/* @vite-ignore */ `${file.href}?t=${Date.now()}`);
    expect(code).toContain('console.assert');
  });

  it('the vitest setup-file recipe works as a setup file of a real vitest run', async () => {
    const recipe = blocks('ts').find((code) => code.startsWith('// test/fake.ts'))!;
    const dir = new URL('recipe-vitest/', TMP);
    await mkdir(dir, { recursive: true });
    await writeFile(new URL('fake.ts', dir), recipe);
    await writeFile(new URL('recipe.test.ts', dir), [
      "import { expect, it } from 'vitest';",
      "import { fake } from './fake.js';",
      "it('reaches the fake the setup file started', async () => {",
      "  expect(fake.options.auth).toBe('none');",
      "  expect((await fetch('http://localhost:3000/api/v1/sandbox-specs/search')).status).toBe(200);",
      '});',
    ].join('\n'));
    await writeFile(new URL('vitest.config.ts', dir), "export default { test: { root: new URL('.', import.meta.url).pathname, include: ['recipe.test.ts'], setupFiles: ['./fake.ts'] } };\n");
    const run = await promisify(execFile)('npx', ['vitest', 'run', '--config', new URL('vitest.config.ts', dir).pathname], { cwd: new URL('..', import.meta.url).pathname }).catch((error: { stdout: string; stderr: string }) => error);
    expect(`${run.stdout}${run.stderr}`).toContain('1 passed');
  }, 60_000);

  it('the Playwright recipe\'s webServer command serves its url, as Playwright waits for it', async () => {
    const block = blocks('js').find((code) => code.includes('webServer'))!;
    const config = (await import(/* @vite-ignore */ `data:text/javascript,${encodeURIComponent(block)}`)).default as { webServer: { command: string; url: string } };
    const [, ...args] = config.webServer.command.replace(/^npx fakehands /, 'fakehands ').split(' ');
    const { spawn } = await import('node:child_process');
    const proc = spawn(process.execPath, [new URL('../bin/fakehands.js', import.meta.url).pathname, ...args], { stdio: 'ignore' });
    try {
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = await fetch(config.webServer.url).then((r) => r.status, () => 0);
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
    } finally {
      proc.kill();
    }
  });

  it('the Vite recipe proxies to where `npm start` serves', async () => {
    const block = blocks('js').find((code) => code.includes('proxy'))!;
    const config = (await import(/* @vite-ignore */ `data:text/javascript,${encodeURIComponent(block)}`)).default as { server: { proxy: Record<string, string> } };
    const { DEFAULT_HOST, DEFAULT_PORT } = await import('../src/cli.js');
    expect(config.server.proxy['/api']).toBe(`http://${DEFAULT_HOST}:${DEFAULT_PORT}`);
  });

  it('the control API curl examples work against the real server', async () => {
    const cli = await startCli(['--quiet']);
    const script = blocks('sh').find((b) => b.includes('/_fakehands/health'))!.replaceAll('http://127.0.0.1:3000', cli.url);
    const { stdout } = await promisify(execFile)('bash', ['-c', `set -e\n${script.replaceAll(/^curl /gm, 'curl -f ').replaceAll('\ncurl', '\necho\ncurl')}`]);
    const lines = stdout.split('\n').filter(Boolean);
    expect(JSON.parse(lines[0]!)).toEqual({ status: 'ok' });
    expect(JSON.parse(lines[1]!)).toEqual({ status: 'ok' });
    expect(JSON.parse(lines[2]!)).toMatchObject({ status: 'STARTING' });
    expect(JSON.parse(lines[3]!)).toEqual({ now: expect.any(String) });
    expect(JSON.parse(lines[4]!)).toMatchObject({ kind: 'status', status: 503, remaining: 2 });
    expect(JSON.parse(lines[5]!)).toMatchObject({ faults: [{ path: '/api/v1/sandboxes/:sandbox_id/pause' }] });
    expect(JSON.parse(lines[6]!)).toEqual({ cleared: 1 });
    expect(JSON.parse(lines[7]!).requests).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/sandboxes', status: 200 })]);
    expect(JSON.parse(lines[8]!)).toMatchObject({ sandboxes: [{ status: 'RUNNING' }] });
  });
});
