/**
 * Every example of the README and the guides runs here: the TypeScript blocks as modules (each
 * asserting with vitest's `expect`, so a false claim fails), the control API's curl block against
 * the real CLI.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { built } from './support/built.js';
import { startCli } from './support/cli.js';
import { freeLocalPort, onFreePorts } from './support/free-port.js';
import { README, README_FILE, nodeExamples, readmeBlocks as blocks, readmeFile, section } from './support/readme.js';
const TMP = new URL('../.tmp/', import.meta.url);

describe('README', () => {
  it('has the two set-up commands', () => {
    expect(blocks('sh', README_FILE).slice(0, 2)).toEqual(['npm ci && npm start\n', 'npm ci && npm test\n']);
  });

  // The setup-file recipe and the browser example run elsewhere (a vitest run below, Chromium in test/browser).
  const examples = nodeExamples();
  it.each(examples.map((code, i) => [i + 1, code]))('TypeScript example %i runs and its assertions hold', async (n, code) => {
    await mkdir(TMP, { recursive: true });
    const file = new URL(`readme-example-${n}.ts`, TMP);
    await writeFile(file, `${code}\nexport {};\n`);
    await import(/* @vite-ignore */ `${file.href}?t=${Date.now()}`);
    expect(code).toContain("import { expect } from 'vitest';");
    expect(code).toMatch(/^\s*expect\(/m);
    expect(code).not.toContain('console.assert');
  });

  it('finding 3: the vitest setup-file recipe and its test file run as printed in a real vitest run, following conversation_url to the agent host', async () => {
    const dir = new URL('recipe-vitest/', TMP);
    await mkdir(new URL('test/', dir), { recursive: true });
    await writeFile(new URL('test/fake.ts', dir), readmeFile('test/fake.ts'));
    await writeFile(new URL('test/conversation.test.ts', dir), readmeFile('test/conversation.test.ts'));
    // The README names the setup file in vitest.config.ts: setupFiles: ['./test/fake.ts']. The package
    // (`fakehands` here is this package's dist/) is loaded by Node, not transformed, as vitest loads a
    // consumer's node_modules: 1.6 s of CPU for the run instead of 3.2 (and 3.9 through npx; issue 34).
    expect(README).toContain("`setupFiles: ['./test/fake.ts']` in `vitest.config.ts`");
    await writeFile(
      new URL('vitest.config.ts', dir),
      "export default { test: { root: new URL('.', import.meta.url).pathname, include: ['test/*.test.ts'], setupFiles: ['./test/fake.ts'], server: { deps: { external: [/\\/dist\\//] } } } };\n",
    );
    const root = new URL('..', import.meta.url).pathname;
    const run = await promisify(execFile)(
      process.execPath,
      [`${root}node_modules/vitest/vitest.mjs`, 'run', '--config', new URL('vitest.config.ts', dir).pathname],
      { cwd: root },
    ).catch((error: { stdout: string; stderr: string }) => error);
    expect(`${run.stdout}${run.stderr}`).toContain('1 passed');
  }, 90_000);

  it("the Playwright recipe's webServer command serves its url, as Playwright waits for it", async () => {
    // On a free port, not the recipe's 3100: the user's own recipe may be running beside npm test.
    const block = onFreePorts(blocks('js').find((code) => code.includes('webServer'))!, 3100, await freeLocalPort());
    const config = (await import(/* @vite-ignore */ `data:text/javascript,${encodeURIComponent(block)}`)).default as {
      webServer: { command: string; url: string };
    };
    const [, ...args] = config.webServer.command.replace(/^npx fakehands /, 'fakehands ').split(' ');
    const { spawn } = await import('node:child_process');
    const proc = spawn(process.execPath, [new URL('../bin/fakehands.js', import.meta.url).pathname, ...args], { stdio: 'ignore' });
    const exited = new Promise((resolve) => proc.on('exit', resolve));
    try {
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = await fetch(config.webServer.url).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
    } finally {
      proc.kill();
      await exited;
    }
  });

  it('the Vite recipe proxies to where `npm start` serves', async () => {
    const block = blocks('js').find((code) => code.includes('proxy'))!;
    const config = (await import(/* @vite-ignore */ `data:text/javascript,${encodeURIComponent(block)}`)).default as {
      server: { proxy: Record<string, string> };
    };
    const { DEFAULT_HOST, DEFAULT_PORT } = await built('command');
    expect(config.server.proxy['/api']).toBe(`http://${DEFAULT_HOST}:${DEFAULT_PORT}`);
  });

  it('the control API curl examples work against the real server', async () => {
    const cli = await startCli(['--quiet']);
    const script = blocks('sh')
      .find((b) => b.includes('/_fakehands/health') && !b.includes('fakehands drift'))!
      .replaceAll('http://127.0.0.1:3000', cli.url);
    const { stdout } = await promisify(execFile)('bash', [
      '-c',
      `set -e\n${script.replaceAll(/^curl /gm, 'curl -f ').replaceAll('\ncurl', '\necho\ncurl')}`,
    ]);
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

  it('finding 8: the fakehands.config.json example is valid, and fakehands serve runs on it (a flag winning over it)', async () => {
    const [example] = blocks('json');
    const { ConfigFile } = await built('command');
    expect(ConfigFile.safeParse(JSON.parse(example!)).success).toBe(true);
    expect(JSON.parse(example!).$schema).toBe('./node_modules/fakehands/fakehands.config.schema.json');
    const dir = new URL('config-example/', TMP);
    await mkdir(dir, { recursive: true });
    await writeFile(new URL('fakehands.config.json', dir), example!);
    const { spawn } = await import('node:child_process');
    const proc = spawn(
      process.execPath,
      [new URL('../bin/fakehands.js', import.meta.url).pathname, 'serve', '--port', '0', '--agent-port', '0'],
      { cwd: dir.pathname, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let stdout = '';
      proc.stdout.on('data', (d: Buffer) => {
        stdout += d;
      });
      for (let i = 0; i < 300 && !stdout.includes('agent server:'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(stdout).toContain('API key: none checked');
      const url = /listening on (\S+)/.exec(stdout)![1]!;
      expect(await (await fetch(`${url}/api/v1/sandboxes/search`)).json()).toEqual({ items: [], next_page_id: null });
    } finally {
      proc.kill();
    }
  });

  it('finding 7: the --known example is a valid file: its declarations are reported with their reasons, a stale one names the file', async () => {
    const example = blocks('json').find((code) => code.includes('"reason"'))!;
    const file = new URL('drift-known.json', TMP);
    await mkdir(TMP, { recursive: true });
    await writeFile(file, example);
    const { checkDrift, fakeDocument, formatReport, readKnownDifferences } = await built('fakehands/drift');
    const provider = structuredClone(fakeDocument()) as { paths: Record<string, unknown> };
    delete provider.paths['/api/v1/sandbox-specs/search'];
    const report = await checkDrift({ specs: [provider], extraKnown: await readKnownDifferences(file.pathname) });
    expect(report.differences).toEqual([]);
    expect(formatReport(report)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/sandbox-specs/search → operation: provider absent, fake served [known: our server lists no sandbox specs]',
        `stale declaration: GET /api/v1/sandboxes/search → response items[].status (enum) no longer differs; remove it from ${file.pathname}`,
      ]),
    );
  });

  describe('stale or contradictory text (finding 4)', () => {
    it('finding 4: names no issue numbers, one variable for the web app, and says what the browser tests need', () => {
      expect(README.match(/\bissues? \d+/gi)).toBeNull();
      expect(README).not.toContain('VITE_API_BASE_URL');
      expect(README).toContain('VITE_BACKEND_BASE_URL=127.0.0.1:3000');
      const setUp = section('## Set-up', README_FILE);
      expect(setUp).toContain('`/usr/bin/chromium`, or the path in `CHROMIUM_PATH`');
      expect(setUp).toMatch(/`npm test` \([^)]*\) took \d+(?:\.\d+)? minutes on a 2-core machine/);
    });

    it("finding 4: /api/options/config and a conversation's /config answer 200, as the README's table says", async () => {
      const { createFake } = await built('fakehands');
      const fake = await createFake({ auth: 'none' });
      const config = await fake.fetch(new Request('http://localhost:3000/api/options/config'));
      expect(config.status).toBe(200);
      const { results } = (await (await fake.fetch(new Request('http://localhost:3000/api/conversations'))).json()) as {
        results: { conversation_id: string; status: string }[];
      };
      const running = results.find((c) => c.status === 'RUNNING')!;
      const runtime = await fake.fetch(new Request(`http://localhost:3000/api/conversations/${running.conversation_id}/config`));
      expect(runtime.status).toBe(200);
      expect(README).not.toMatch(/answer\s+404 until/);
    });
  });
});
