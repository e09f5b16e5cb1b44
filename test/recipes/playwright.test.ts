/**
 * The README's Playwright tenants recipe, run by Playwright itself exactly as printed: its
 * `playwright.config.ts` (one `npx fakehands serve` as the `webServer`, on port 3100), its fixture
 * `e2e/fakehands.ts` and its spec `e2e/sandboxes.spec.ts`, two tests in parallel workers, each in
 * its own tenant, each seeing exactly the sandbox it created. Its ports are free ones (the recipe's
 * 3100 and the agent host's 8000 may be the user's own recipe, running beside `npm test`).
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freeLocalPort, onFreePorts } from '../support/free-port.js';
import { readmeFile } from '../support/readme.js';

const ROOT = new URL('../..', import.meta.url).pathname;

describe('the Playwright recipe', () => {
  it('finding 1: runs as printed: each test gets its own tenant on one webServer (two tests in parallel see only their own sandbox)', async () => {
    const dir = join(ROOT, '.tmp/playwright-recipe');
    await rm(dir, { recursive: true, force: true });
    const port = await freeLocalPort();
    for (const path of ['playwright.config.ts', 'e2e/fakehands.ts', 'e2e/sandboxes.spec.ts']) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), onFreePorts(readmeFile(path), 3100, port));
    }
    expect(readmeFile('e2e/fakehands.ts')).toContain("'X-Fakehands-Tenant'");
    // `npx fakehands` finds the package's binary where an installed package puts it.
    await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
    await symlink(join(ROOT, 'bin/fakehands.js'), join(dir, 'node_modules/.bin/fakehands'));
    const run = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--workers', '2', '--reporter', 'line'],
      { cwd: dir, env: { ...process.env, CI: '1' } },
    ).catch((error: { stdout?: string; stderr?: string; code?: number }) => ({
      stdout: error.stdout ?? '',
      stderr: `${error.stderr ?? ''} (exit ${error.code})`,
    }));
    expect(run.stdout, run.stderr).toMatch(/2 passed/);
  }, 120_000);
});
