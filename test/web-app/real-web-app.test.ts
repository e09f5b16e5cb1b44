/**
 * The real OpenHands web app (frontend/ of OpenHands/OpenHands) against the standalone fake, in
 * Chromium: the flows the README promises. It needs the app's source with its dependencies
 * installed, which CI does not have (it cannot fetch it): point OPENHANDS_FRONTEND_DIR at a prepared
 * `frontend/` (`npm install --ignore-scripts && npm run make-i18n` there) to run it; without it the
 * suite is skipped. The app runs as its README says: its dev server with VITE_BACKEND_BASE_URL at
 * the fake, V1 conversations on (the Nov 2025 client's `FEATURE_USE_V1_CONVERSATION_API` flag).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { startCli, type RunningCli } from '../support/cli.js';

const FRONTEND = process.env.OPENHANDS_FRONTEND_DIR;
const ready = Boolean(FRONTEND && existsSync(join(FRONTEND, 'node_modules/.bin/react-router')));

/** A free port on 127.0.0.1. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe.skipIf(!ready)('the OpenHands web app on the fake (OPENHANDS_FRONTEND_DIR)', () => {
  let cli: RunningCli;
  let dev: ChildProcess;
  let web: string;
  let browser: Browser;
  let page: Page;
  const failed: string[] = [];
  const calls: string[] = [];
  /** Frames the page's event sockets (`/sockets/events/{id}` on the agent host) received. */
  const eventFrames: string[] = [];

  beforeAll(async () => {
    cli = await startCli(['--quiet', '--auth', 'none'], {}, { forSuite: true });
    const port = await freePort();
    const backend = new URL(cli.url).host;
    // The app's Vite config leaves its React Router plugin out under vitest (VITEST set): start it clean of vitest's variables.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'TEST'),
    );
    dev = spawn(join(FRONTEND!, 'node_modules/.bin/react-router'), ['dev', '--port', String(port), '--strictPort'], {
      cwd: FRONTEND,
      env: { ...env, VITE_BACKEND_BASE_URL: backend, VITE_BACKEND_HOST: backend },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the web app's dev server did not start in 120 s")), 120_000);
      let out = '';
      dev.stdout!.on('data', (chunk: Buffer) => {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the ANSI colours of Vite's banner
        out += String(chunk).replace(/\x1b\[[0-9;]*m/g, '');
        if (out.includes('Local:')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    web = `http://localhost:${port}`;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript(() => localStorage.setItem('FEATURE_USE_V1_CONVERSATION_API', 'true'));
    page = await context.newPage();
    // A fresh dev server optimizes dependencies on the first visit of each screen and reloads the
    // page: visit each once before the flows, so no flow is cut by a reload.
    for (const path of ['/', '/settings', '/settings/mcp', '/settings/integrations', '/settings/app', '/settings/secrets']) {
      await page.goto(`${web}${path}`, { waitUntil: 'networkidle', timeout: 120_000 });
    }
    await page.waitForTimeout(5000);
    page.on('websocket', (socket) => {
      if (socket.url().includes('/sockets/events/')) socket.on('framereceived', (frame) => eventFrames.push(String(frame.payload)));
    });
    page.on('response', (response) => {
      if (!response.url().startsWith(cli.url)) return;
      calls.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
      if (response.status() >= 400) failed.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
    });
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    dev?.kill();
    cli?.proc.kill();
  });

  const go = (path: string) => page.goto(`${web}${path}`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  const api = async <T>(path: string): Promise<T> => (await fetch(`${cli.url}${path}`)).json() as Promise<T>;

  it('saves a GitHub token from the integrations screen (POST /api/add-git-providers)', async () => {
    await go('/settings/integrations');
    await page.getByTestId('github-token-input').fill('ghp_fakehandsWebAppToken');
    await page.getByTestId('submit-button').click();
    await expect
      .poll(async () => (await api<{ provider_tokens_set: Record<string, unknown> }>('/api/settings')).provider_tokens_set, {
        timeout: 10_000,
      })
      .toHaveProperty('github');
  }, 180_000);

  it("lists the token's repositories and a repository's branches on the home page", async () => {
    await go('/');
    await page.getByPlaceholder('user/repo').click({ timeout: 60_000 });
    const repos = page.locator('[data-testid="git-repo-dropdown-menu"] li, [role="option"]');
    await repos.first().waitFor();
    expect(await repos.count()).toBeGreaterThan(5);
    await repos.first().click();
    await page.getByPlaceholder('Select branch...').click();
    const branches = page.locator('[data-testid="git-branch-dropdown-menu"] li, [role="option"]');
    await branches.first().waitFor();
    expect(await branches.allInnerTexts()).toContain('main');
  }, 120_000);

  it('saves the application settings and shows them after a reload', async () => {
    await go('/settings/app');
    const name = `Web App Tester ${Date.now()}`;
    await page.getByTestId('git-user-name-input').fill(name);
    await page.getByTestId('submit-button').click();
    await expect.poll(async () => (await api<{ git_user_name: string }>('/api/settings')).git_user_name).toBe(name);
    await page.reload();
    await expect.poll(() => page.getByTestId('git-user-name-input').inputValue()).toBe(name);
  }, 120_000);

  it('saves the LLM settings (advanced: a custom model) and shows them after a reload', async () => {
    await go('/settings');
    await page.getByText('Advanced', { exact: true }).click();
    const model = `openai/gpt-5-mini-${Date.now()}`;
    await page.getByTestId('llm-custom-model-input').fill(model);
    await page.getByTestId('submit-button').click();
    await expect.poll(async () => (await api<{ llm_model: string }>('/api/settings')).llm_model).toBe(model);
    await page.reload();
    await expect.poll(() => page.getByTestId('llm-custom-model-input').inputValue()).toBe(model);
  }, 120_000);

  it('adds an MCP server and shows it after a reload', async () => {
    await go('/settings/mcp');
    await page.getByTestId('add-mcp-server-button').click();
    await page.getByTestId('url-input').fill('https://mcp.example.com/sse');
    await page.getByTestId('submit-button').click();
    await expect
      .poll(async () => JSON.stringify((await api<{ mcp_config: unknown }>('/api/settings')).mcp_config))
      .toContain('https://mcp.example.com/sse');
    await page.reload();
    await page.getByText('https://mcp.example.com/sse').first().waitFor({ timeout: 30_000 });
  }, 120_000);

  it('adds, renames and deletes a secret', async () => {
    const names = async () => (await api<{ custom_secrets: { name: string }[] }>('/api/secrets')).custom_secrets.map((s) => s.name);
    await go('/settings/secrets');
    await page.getByTestId('add-secret-button').click();
    await page.locator('[name="secret-name"]').fill('WEB_APP_SECRET');
    await page.locator('[name="secret-value"]').fill('a-value-the-app-never-reads-back');
    await page.locator('[name="secret-description"]').fill('made in the web app');
    await page.getByTestId('submit-button').click();
    await expect.poll(names).toContain('WEB_APP_SECRET');
    await page.getByTestId('secret-item').filter({ hasText: 'WEB_APP_SECRET' }).getByTestId('edit-secret-button').click();
    await page.locator('[name="secret-name"]').fill('WEB_APP_SECRET_RENAMED');
    await page.getByTestId('submit-button').click();
    await expect.poll(names).toContain('WEB_APP_SECRET_RENAMED');
    await page.getByTestId('secret-item').filter({ hasText: 'WEB_APP_SECRET_RENAMED' }).getByTestId('delete-secret-button').click();
    const confirm = page.getByTestId('confirm-button');
    if (await confirm.isVisible().catch(() => false)) await confirm.click();
    await expect.poll(names).not.toContain('WEB_APP_SECRET_RENAMED');
  }, 120_000);

  it('starts a new conversation as a V1 one and opens its page', async () => {
    await go('/');
    await page.getByTestId('launch-new-conversation-button').click();
    await page.waitForURL(/\/conversations\//, { timeout: 60_000 });
    expect(calls).toContain('POST /api/v1/app-conversations');
    expect(calls).not.toContain('POST /api/conversations');
  }, 120_000);

  it("on the conversation page, a typed message gets the scripted agent's answer, and its edit shows in the Changes tab", async () => {
    // The app sends a message once its event socket is connected ("Waiting for task" until then):
    // typed earlier, Enter does nothing, as in the real app.
    await expect.poll(() => eventFrames.length, { timeout: 60_000 }).toBeGreaterThan(0);
    const box = page.locator('[contenteditable="true"], textarea').first();
    await box.click({ timeout: 60_000 });
    await box.type('Please fix the flaky test');
    await page.keyboard.press('Enter');
    await page
      .getByText(/Done: I changed .+\. Have a look at the Changes tab\./)
      .first()
      .waitFor({ timeout: 60_000 });
    // For a human to look at: the conversation page with the scripted agent's events.
    await page.screenshot({ path: join(new URL('../..', import.meta.url).pathname, '.tmp/web-app-conversation.png') });
    await page.getByText('Changes', { exact: true }).first().click();
    await page.getByText('PLAN.md').first().waitFor({ timeout: 30_000 });
  }, 120_000);

  it('got no 404, 405 or other error answer from the fake in these flows', () => {
    expect([...new Set(failed)]).toEqual([]);
  });
});
