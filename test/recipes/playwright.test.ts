/**
 * The README's Playwright recipe, run by Playwright itself: one `fakehands serve` as the
 * `webServer`, two tests in parallel workers, each in its own tenant through the README's fixture
 * (`e2e/fakehands.ts`), each seeing exactly the sandbox it created.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readmeBlocks } from '../support/readme.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** A free port on 127.0.0.1. */
const freePort = () => new Promise<number>((resolve) => {
  const probe = createServer();
  probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});

describe('the Playwright recipe', () => {
  it('gives each test its own tenant on one webServer (two tests in parallel see only their own sandbox)', async () => {
    const fixture = readmeBlocks('ts').find((code) => code.startsWith('// e2e/fakehands.ts'))!;
    expect(fixture).toContain("'X-Fakehands-Tenant'");
    const dir = join(ROOT, '.tmp/playwright-recipe');
    await mkdir(join(dir, 'e2e'), { recursive: true });
    const port = await freePort();
    await writeFile(join(dir, 'e2e/fakehands.ts'), fixture);
    await writeFile(join(dir, 'playwright.config.ts'), [
      "import { defineConfig } from '@playwright/test';",
      'export default defineConfig({',
      "  testDir: './e2e', workers: 2, fullyParallel: true, reporter: 'line',",
      `  webServer: { command: 'node ${join(ROOT, 'bin/fakehands.js')} serve --port ${port} --agent-port 0 --auth none --timings instant --fixture empty --quiet', url: 'http://127.0.0.1:${port}/_fakehands/health', reuseExistingServer: false },`,
      `  use: { baseURL: 'http://127.0.0.1:${port}' },`,
      '});',
    ].join('\n'));
    const spec = (n: number) => [
      "import { test, expect } from './fakehands';",
      `test('worker test ${n} sees only its own sandbox', async ({ request }) => {`,
      "  const created = await (await request.post('/api/v1/sandboxes')).json();",
      "  await new Promise((resolve) => setTimeout(resolve, 300));",
      "  const page = await (await request.get('/api/v1/sandboxes/search')).json();",
      '  expect(page.items.map((s: { id: string }) => s.id)).toEqual([created.id]);',
      '});',
    ].join('\n');
    await writeFile(join(dir, 'e2e/one.spec.ts'), spec(1));
    await writeFile(join(dir, 'e2e/two.spec.ts'), spec(2));
    const run = await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', join(dir, 'playwright.config.ts')], { cwd: dir, env: { ...process.env, CI: '1' } })
      .catch((error: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: error.stdout ?? '', stderr: `${error.stderr ?? ''} (exit ${error.code})` }));
    expect(run.stdout, run.stderr).toMatch(/2 passed/);
  }, 120_000);
});
