/**
 * The real OpenHands web app (frontend/ of OpenHands/OpenHands) against the standalone fake, in
 * Chromium: the flows the README promises. It needs the app's source with its dependencies
 * installed, which CI does not have (it cannot fetch it): point OPENHANDS_FRONTEND_DIR at a prepared
 * `frontend/` (`npm install --ignore-scripts && npm run make-i18n` there) to run it; without it the
 * suite is skipped. The app runs as its README says: its dev server with VITE_BACKEND_BASE_URL at
 * the fake, V1 conversations on (the Nov 2025 client's `FEATURE_USE_V1_CONVERSATION_API` flag), the
 * fake speaking the agent server the app pinned (`--agent-server-version 1.1.0`). Its findings
 * (issue 32) are flows here: the Changes panel follows the edit's action
 * (`frontend/src/utils/cache-utils.ts`, `handleActionEventCacheInvalidation`), the saved confirmation
 * mode (`live_status_app_conversation_service.py`, `_build_start_conversation_request_for_user`)
 * with the app's accept buttons (`components/shared/buttons/v1-confirmation-buttons.tsx`), the
 * VS Code tab's iframe (`hooks/query/use-unified-vscode-url.ts`), a failed sandbox's reason in the
 * banner (`contexts/conversation-websocket-context.tsx`, `onClose`), and the showcase.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { browserSuitesSkipped } from '../support/chromium-path.js';
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

describe.skipIf(!ready || (ready && browserSuitesSkipped()))('the OpenHands web app on the fake (OPENHANDS_FRONTEND_DIR)', () => {
  let cli: RunningCli;
  let dev: ChildProcess;
  let web: string;
  let browser: Browser;
  let page: Page;
  const failed: string[] = [];
  const calls: string[] = [];
  /** The page's requests to the agent host, `METHOD /path`. */
  const agentCalls: string[] = [];
  /** Frames the page's event sockets (`/sockets/events/{id}` on the agent host) received. */
  const eventFrames: string[] = [];
  /** What the page saw, in order: each socket frame (`frame`, with its conversation) and each git changes answer (`changes`). */
  const seen: ({ type: 'frame'; conversation: string; event: Record<string, unknown> } | { type: 'changes'; body: string })[] = [];
  /** The conversation id in the page's URL. */
  const current = () => /\/conversations\/([0-9a-f]{32})/.exec(page.url())?.[1] ?? '';
  /** The frames of conversation `id` so far. */
  const framesOf = (id: string) => seen.flatMap((s) => (s.type === 'frame' && s.conversation === id ? [s.event] : []));

  beforeAll(async () => {
    cli = await startCli(['--quiet', '--auth', 'none', '--agent-server-version', '1.1.0'], {}, { forSuite: true });
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
    const paths = [
      '/',
      '/settings',
      '/settings/mcp',
      '/settings/integrations',
      '/settings/app',
      '/settings/secrets',
      `/conversations/${'0'.repeat(32)}`,
    ];
    for (const path of paths) {
      await page.goto(`${web}${path}`, { waitUntil: 'networkidle', timeout: 120_000 });
    }
    await page.waitForTimeout(5000);
    page.on('websocket', (socket) => {
      const conversation = /\/sockets\/events\/([0-9a-f]{32})/.exec(socket.url())?.[1];
      if (!conversation) return;
      socket.on('framereceived', (frame) => {
        eventFrames.push(String(frame.payload));
        seen.push({ type: 'frame', conversation, event: JSON.parse(String(frame.payload)) as Record<string, unknown> });
      });
    });
    page.on('response', async (response) => {
      if (response.url().startsWith(cli.agentUrl)) agentCalls.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
      if (response.url().startsWith(`${cli.agentUrl}/api/git/changes`))
        seen.push({ type: 'changes', body: await response.text().catch(() => '') });
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

  /** Starts a new conversation from the home page and waits until its socket delivered the history. */
  const startConversation = async () => {
    await go('/');
    await page.getByTestId('launch-new-conversation-button').click({ timeout: 60_000 });
    await page.waitForURL(/\/conversations\/[0-9a-f]{32}/, { timeout: 120_000 });
    const id = current();
    // The app sends a message once its event socket is connected ("Waiting for task" until then):
    // typed earlier, Enter does nothing, as in the real app.
    await expect.poll(() => framesOf(id).length, { timeout: 90_000 }).toBeGreaterThan(1);
    return id;
  };
  /** Types a message in the chat box and sends it. */
  const say = async (text: string) => {
    const box = page.locator('[contenteditable="true"], textarea').first();
    await box.click({ timeout: 60_000 });
    await box.type(text);
    await page.keyboard.press('Enter');
  };
  const kindOf = (event: Record<string, unknown>) =>
    event.kind === 'ActionEvent' || event.kind === 'ObservationEvent'
      ? `${event.kind}:${((event.action ?? event.observation) as { kind: string }).kind}`
      : String(event.kind);
  const shots = join(new URL('../..', import.meta.url).pathname, '.tmp');

  it('starts a new conversation as a V1 one and opens its page', async () => {
    await startConversation();
    expect(calls).toContain('POST /api/v1/app-conversations');
    expect(calls).not.toContain('POST /api/conversations');
  }, 240_000);

  it("a typed message gets the scripted agent's answer, and the open Changes panel lists its edit once the edit's action arrives (cache-utils.ts)", async () => {
    const id = current();
    await say('Please fix the flaky test');
    await page
      .getByText(/Done: I changed .+\. Have a look at the Changes tab\./)
      .first()
      .waitFor({ timeout: 90_000 });
    // For a human to look at: the conversation page with the scripted agent's events.
    await page.screenshot({ path: join(shots, 'web-app-conversation.png') });
    // The panel was never clicked: only the refetch the FileEditorAction triggered can show the file.
    await page.getByTestId('file-diff-viewer-outer').filter({ hasText: 'PLAN.md' }).first().waitFor({ timeout: 30_000 });
    const action = seen.findIndex((s) => s.type === 'frame' && s.conversation === id && kindOf(s.event) === 'ActionEvent:FileEditorAction');
    expect(action).toBeGreaterThan(-1);
    const after = seen.slice(action).filter((s) => s.type === 'changes');
    expect(after.some((s) => s.type === 'changes' && s.body.includes('"path":"PLAN.md"'))).toBe(true);
    // The terminal's events in the dialect of the agent server the app pinned (1.1.0).
    expect(framesOf(id).map(kindOf)).toContain('ActionEvent:ExecuteBashAction');
  }, 180_000);

  it("the VS Code tab's iframe shows the fake's editor page on the agent host (the sandbox's VSCODE URL)", async () => {
    await page.getByLabel('Code', { exact: true }).first().click({ timeout: 30_000 });
    const frame = page.frameLocator('iframe').first();
    await frame.getByTestId('fakehands-editor').waitFor({ timeout: 60_000 });
    expect(await frame.getByTestId('fakehands-editor').textContent()).toContain("fakehands' editor");
    expect(await page.locator('iframe').first().getAttribute('src')).toMatch(
      new RegExp(`^${cli.agentUrl.replace('127.0.0.1', '(127\\.0\\.0\\.1|localhost)')}/_fakehands/vscode/\\?tkn=vsc-[0-9a-f]{8}&folder=/`),
    );
    await page.screenshot({ path: join(shots, 'web-app-vscode.png') });
    await page.getByLabel('Changes', { exact: true }).first().click({ timeout: 30_000 });
  }, 120_000);

  it('with confirmation mode saved on the LLM screen, a new conversation waits for Continue at each action (respond_to_confirmation)', async () => {
    const confirmation = async () => (await api<{ confirmation_mode: boolean }>('/api/settings')).confirmation_mode;
    const toggle = async () => {
      await go('/settings');
      // The screen opens on its advanced view when the saved model is a custom one (an earlier flow's).
      await page.getByText('Advanced', { exact: true }).waitFor({ timeout: 60_000 });
      await page.getByTestId('submit-button').waitFor({ timeout: 60_000 });
      // The switch's checkbox is hidden: its label takes the click.
      const modeSwitch = page.locator('label', { has: page.getByTestId('enable-confirmation-mode-switch') });
      const shown = await modeSwitch.waitFor({ timeout: 15_000 }).then(
        () => true,
        () => false,
      );
      if (!shown) await page.getByText('Advanced', { exact: true }).click();
      await modeSwitch.click({ timeout: 30_000 });
      await page.getByTestId('submit-button').click();
    };
    await toggle();
    await expect.poll(confirmation, { timeout: 30_000 }).toBe(true);
    const id = await startConversation();
    await say('Please fix the flaky test');
    for (const waiting of ['ActionEvent:ExecuteBashAction', 'ActionEvent:FileEditorAction']) {
      await page.getByTestId('action-confirm-button').waitFor({ timeout: 90_000 });
      await page.getByText('Waiting for user confirmation').first().waitFor({ timeout: 30_000 });
      const kinds = framesOf(id).map((e) => (e.kind === 'ConversationStateUpdateEvent' ? `${e.key}=${String(e.value)}` : kindOf(e)));
      expect(kinds.slice(-2)).toEqual([waiting, 'execution_status=waiting_for_confirmation']);
      if (waiting.endsWith('FileEditorAction')) await page.screenshot({ path: join(shots, 'web-app-confirmation.png') });
      await page.getByTestId('action-confirm-button').click();
      await expect.poll(() => framesOf(id).map(kindOf).at(-1), { timeout: 60_000 }).not.toBe('ConversationStateUpdateEvent');
    }
    await page
      .getByText(/Done: I changed .+\. Have a look at the Changes tab\./)
      .first()
      .waitFor({ timeout: 90_000 });
    const confirmations = `POST /api/conversations/${id}/events/respond_to_confirmation`;
    expect(agentCalls.filter((c) => c === confirmations)).toHaveLength(2);
    await toggle();
    await expect.poll(confirmation, { timeout: 30_000 }).toBe(false);
  }, 400_000);

  it('a message containing "showcase" shows every card the Nov 2025 app renders; its last step, a fail, reads "Error occurred" as with the real server', async () => {
    const id = await startConversation();
    await say('Run the showcase');
    await page.getByText('Showcase done.').first().waitFor({ timeout: 120_000 });
    await page.getByText('Error occurred').first().waitFor({ timeout: 60_000 });
    // Every kind the showcase stores reached the page over its socket, the failure's reason with it.
    await expect.poll(() => new Set(framesOf(id).map((e) => String(e.kind))).size, { timeout: 30_000 }).toBe(17);
    expect(framesOf(id).find((e) => e.kind === 'ConversationErrorEvent')).toMatchObject({
      code: 'LLMRateLimitError',
      detail: 'Showcase: a run ending with a classified error (rate limit).',
    });
    for (const card of [
      'Look around',
      'GLOB',
      'GREP',
      'Ran ls',
      'Edited README.md',
      'MCP Tool Result: fetch_fetch',
      'That was every card of the showcase.',
    ])
      await page.getByText(card).first().waitFor({ timeout: 30_000 });
    // The AgentErrorEvent's text in the app's error banner.
    await page.getByText('The command was blocked by a hook.').first().waitFor({ timeout: 30_000 });
    // For the README (docs/showcase-web-app-nov2025.png): a taller page shows more of the cards.
    await page.setViewportSize({ width: 1280, height: 1400 });
    await page
      .getByText('Run the showcase')
      .first()
      .evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(shots, 'web-app-showcase.png') });
    await page.setViewportSize({ width: 1400, height: 900 });
  }, 300_000);

  it("a sandbox failing while the page is open: the banner reads the sandbox's reason (the socket's close reason)", async () => {
    const [conversation] = await api<{ sandbox_id: string }[]>(`/api/v1/app-conversations?ids=${current()}`);
    const failed = await fetch(`${cli.url}/_fakehands/sandboxes/${conversation!.sandbox_id}/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ detail: 'Container exited with code 137 (out of memory)' }),
    });
    expect(failed.status).toBe(200);
    await page
      .getByText('Connection lost: Sandbox ERROR: Container exited with code 137 (out of memory)')
      .first()
      .waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(shots, 'web-app-sandbox-failed.png') });
  }, 120_000);

  it('got no 404, 405 or other error answer from the fake in these flows', () => {
    expect([...new Set(failed)]).toEqual([]);
  });
});
