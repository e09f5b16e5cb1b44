/**
 * Agent Canvas (npm `@openhands/agent-canvas`, the pinned version), the newest OpenHands web app, on
 * the fake in headless Chromium: its pre-built page (`build/`) served by fakehands' small ingress
 * (src/canvas/ingress.ts) with the app server registered as its cloud backend and the agent host as
 * its local backend. The package is packed from the npm registry on first run and cached under
 * `.cache/`; without the registry (and no cache) the suite is skipped with one line saying so.
 * Every request to the fake must succeed, but the automation service's (`/api/automation`, a
 * separate service the fake does not serve: out of scope).
 *
 * Speed: one fake, one ingress, one browser; a context per backend, and both backends' flows run at
 * once (`concurrent` suites, each backend's steps in order), the cloud's on a tenant of its own
 * (the `fakehands_tenant` cookie) so neither sees the other's changes. Each page is loaded once;
 * later screens are reached by the page's own routing (`nav`), the fake's clock is moved forward
 * (`/_fakehands/clock`) instead of waiting for the scripted agent's realistic run, and a list the
 * page must read again is read when the page hears the user come back (`comeBack`), not at its
 * 30-second poll (two steps waited 22 and 32 s for it).
 *
 * Real sources the flows follow: Canvas's `src/api/cloud/*.ts` (its cloud client), its
 * `hooks/mutation/use-create-conversation.ts` (agent profiles are read before every create),
 * `routes/conversation.tsx` (a PAUSED cloud conversation is resumed once on sight),
 * `conversation-layouts-menu.tsx` (the list's presets and tag filters),
 * `onboarding` (agent, LLM, hello steps); the app server's
 * `openhands/app_server/app_conversation/app_conversation_router.py` and
 * `sandbox/sandbox_router.py` (github:OpenHands/OpenHands); the SaaS routes' shapes from the
 * published app-server OpenAPI document (`enterprise/server/routes/orgs.py`, `api_keys.py`,
 * `shared_conversation*`).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect as globalExpect, it, type ExpectStatic } from 'vitest';
import { ensureAgentCanvas } from '../../src/canvas/package.js';
import {
  AUTOMATION_PREFIX,
  CLOUD_BACKEND_ID,
  isLocalBackendPath,
  startCanvasIngress,
  type CanvasIngress,
} from '../../src/canvas/ingress.js';
import { launchChromium } from '../support/browser.js';
import { browserSuitesSkipped } from '../support/chromium-path.js';
import { startCli, type RunningCli } from '../support/cli.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const SHOTS = join(ROOT, '.tmp/canvas-shots');
const API_KEY = 'fakehands-dev-key';
/** The tenant of the cloud backend's flows (the local backend's run on the default tenant, as `npm run canvas`). */
const CLOUD_TENANT = 'canvas-cloud';

/** No Chromium here (and not required): the file is skipped, one line saying how to get it. */
const NO_BROWSER = browserSuitesSkipped();
/** The unpacked package, or null when the npm registry cannot be reached (and nothing is cached), or without a browser to show it. */
const canvasDir = NO_BROWSER
  ? null
  : await ensureAgentCanvas(join(ROOT, '.cache')).catch((error: Error) => {
      console.warn(
        `Agent Canvas suite skipped: the npm registry cannot be reached to pack @openhands/agent-canvas (${error.message.split('\n')[0]})`,
      );
      return null;
    });

/** One run of the fake and the ingress, shared by both backends' suites. */
interface Rig {
  cli: RunningCli;
  ingress: CanvasIngress;
  browser: Browser;
  sessionKey: string;
}
let rigStarting: Promise<Rig> | undefined;
let rig: Rig | undefined;
function startRig(): Promise<Rig> {
  rigStarting ??= (async () => {
    // The browser starts while the fake does (each takes a second or more on a busy machine).
    const launching = launchChromium();
    const cli = await startCli(['--quiet', '--auth', 'none'], {}, { forSuite: true }).catch(async (error: Error) => {
      await launching.then((browser) => browser.close()).catch(() => undefined);
      throw error;
    });
    const sandboxes = (await (await fetch(`${cli.url}/api/v1/sandboxes/search?limit=100`)).json()) as {
      items: { status: string; session_api_key: string | null }[];
    };
    const sessionKey = sandboxes.items.find((s) => s.status === 'RUNNING' && s.session_api_key)?.session_api_key ?? '';
    const ingress = await startCanvasIngress({
      buildDir: join(canvasDir!, 'build'),
      agentUrl: cli.agentUrl,
      sessionApiKey: sessionKey,
      cloud: { url: cli.url, apiKey: API_KEY },
    });
    const browser = await launching;
    await mkdir(SHOTS, { recursive: true });
    rig = { cli, ingress, browser, sessionKey };
    return rig;
  })();
  return rigStarting;
}
async function stopRig() {
  if (!rig) return;
  const { browser, ingress, cli } = rig;
  rig = undefined;
  await browser.close();
  await ingress.close();
  cli.proc.kill();
}

/**
 * A browser context on one backend; it records every request to the fake and every failed one
 * (automation excluded). The cloud context starts with its backend registered and its tenant's
 * cookie (onboarding shows); the local one starts as a fresh browser on `npm run canvas` (the ingress
 * registers both backends, onboarding shows).
 */
async function openContext(r: Rig, backend: 'cloud' | 'local') {
  // The cloud's requests name its tenant: the header (cross-origin fetches carry no cookie), the cookie (sockets).
  const context = await r.browser.newContext({
    viewport: { width: 1280, height: 800 },
    // As a user who asks for less motion: the page's transitions end at once and its spinners stand still (less to wait for and to draw).
    reducedMotion: 'reduce',
    ...(backend === 'cloud' ? { extraHTTPHeaders: { 'X-Fakehands-Tenant': CLOUD_TENANT } } : {}),
  });
  // The page also asks public hosts (fonts, icons, the registry's version check): none is reached.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort());
  if (backend === 'cloud') {
    await context.addCookies([{ name: 'fakehands_tenant', value: CLOUD_TENANT, domain: '127.0.0.1', path: '/' }]);
    const list = [{ id: CLOUD_BACKEND_ID, name: 'fakehands (app server)', host: r.cli.url, apiKey: API_KEY, kind: 'cloud' }];
    await context.addInitScript(
      ({ list, active }) => {
        if (sessionStorage.getItem('fakehands-init')) return;
        sessionStorage.setItem('fakehands-init', '1');
        localStorage.setItem('openhands-backends', JSON.stringify(list));
        localStorage.setItem('openhands-active-backend', JSON.stringify({ backendId: active, orgId: null }));
      },
      { list, active: CLOUD_BACKEND_ID },
    );
  }
  const failed: string[] = [];
  const calls: string[] = [];
  const fakeOrigins = [r.cli.url, r.cli.agentUrl];
  const page = await context.newPage();
  // Canvas asks once per backend for telemetry consent in a modal dialog over the page: the harness answers it whenever it shows.
  await page.addLocatorHandler(page.getByTestId('confirm-telemetry-preferences'), async () => {
    await page.getByTestId('confirm-telemetry-preferences').click();
  });
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(new URL(socket.url()).pathname));
  page.on('response', (response) => {
    const url = new URL(response.url());
    const toFake = fakeOrigins.includes(url.origin) || (url.origin === r.ingress.url && isLocalBackendPath(url.pathname));
    if (!toFake) return;
    const line = `${response.request().method()} ${url.pathname}`;
    calls.push(`${line} ${response.status()}`);
    if (response.status() >= 400 && !url.pathname.startsWith(AUTOMATION_PREFIX)) failed.push(`${response.status()} ${line}`);
  });
  await page.goto(`${r.ingress.url}/`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  return { context, page, failed, calls, sockets };
}

/** Moves to `path` by the page's own routing (a history entry and a popstate, as a link does): no reload. */
const nav = (page: Page, path: string) =>
  page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
/**
 * Both backends' steps run at once, so each step asserts with its own test's `expect` (a suite
 * keeps the running step's in `expect`, set before each step; the global one cannot tell two
 * running tests apart).
 */
function stepExpect(): { expect: ExpectStatic } {
  const holder = { expect: globalExpect };
  beforeEach((context) => {
    holder.expect = context.expect;
  });
  return holder;
}
/** Waits until the page has answered a request to the fake matching `line` (`METHOD /path STATUS`) more than `before` times. */
const answered = (expect: ExpectStatic, calls: string[], line: RegExp, before = 0) =>
  expect.poll(() => calls.filter((c) => line.test(c)).length, { timeout: 90_000 }).toBeGreaterThan(before);
/**
 * Moves to a pane by the page's routing and waits until it shows `shows`: the fake's data (a text),
 * an element of the pane (a test id), or, for a settings pane with nothing of the fake's to show,
 * its own subtitle in place of the previous pane's.
 */
async function openPane(expect: ExpectStatic, page: Page, path: string, shows: string | { testId: string } | null) {
  const subtitle = page.getByTestId('settings-page-subtitle').first();
  const before = (await subtitle.isVisible()) ? await subtitle.innerText() : null;
  await nav(page, path);
  if (typeof shows === 'string') await page.getByText(shows, { exact: true }).first().waitFor({ timeout: 90_000 });
  // A schema field's test id is on its input, hidden behind the styled switch: attached is enough.
  else if (shows) await page.getByTestId(shows.testId).first().waitFor({ state: 'attached', timeout: 90_000 });
  else
    await expect
      .poll(async () => ((await subtitle.isVisible()) ? await subtitle.innerText() : before), { timeout: 90_000 })
      .not.toBe(before);
}
/**
 * What the page hears when the user comes back to its tab: Canvas's data layer (react-query's focus
 * manager) re-reads its stale queries on the window's `visibilitychange`, instead of at its next
 * 30-second poll. The event goes to `window`, where react-query listens (on `document` it does not
 * bubble there, and nothing re-reads).
 */
const comeBack = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
/** A screenshot, the pointer moved off the list first (a hovered card opens a popover). */
const shot = async (page: Page, name: string) => {
  await page.mouse.move(1000, 780);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
};
/** The conversation id in the page's URL: hex on the cloud backend, a hyphenated UUID on the local one. */
const idInUrl = (page: Page) => /\/conversations\/([0-9a-f]{32}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})/.exec(page.url())?.[1] ?? null;
/** Opens the conversation's right panel on a tab (the panel's width animation covers the tabs a while: the click is dispatched to the tab itself). */
async function openTab(page: Page, tab: 'files' | 'terminal') {
  if (!(await page.getByTestId(`conversation-tab-${tab}`).isVisible()))
    await page.getByTestId('right-panel-toggle').dispatchEvent('click', undefined, { timeout: 60_000 });
  await page.getByTestId(`conversation-tab-${tab}`).dispatchEvent('click', undefined, { timeout: 60_000 });
}
/**
 * Picks the option `name` of the autocomplete `inputTestId`: the list is opened and filtered by the
 * name, then the option clicked. The list renders again as the fake's model list arrives, which on a
 * busy machine can take the option away under the pointer ("element is not stable", "detached"):
 * then the list is closed and the pick made again, up to four times.
 */
async function pickOption(page: Page, inputTestId: string, name: string) {
  let failure: unknown = null;
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      const input = page.getByTestId(inputTestId);
      await input.click({ timeout: 30_000 });
      await input.fill(name, { timeout: 10_000 });
      await page.getByRole('option', { name }).first().click({ timeout: 20_000 });
      return;
    } catch (error) {
      failure = error;
      await page.keyboard.press('Escape');
    }
  }
  throw failure;
}
/** Opens a conversation card's menu in the list. */
async function cardMenu(page: Page, id: string) {
  const card = page.locator(`a[href*="/conversations/${id}"]`).first();
  await card.hover({ timeout: 90_000 });
  await card.getByTestId('ellipsis-button').click({ timeout: 60_000 });
}

interface AppConversation {
  id: string;
  title: string | null;
  sandbox_id: string;
  sandbox_status: string;
  execution_status: string | null;
  selected_repository: string | null;
  selected_branch: string | null;
  tags: Record<string, string>;
}
interface AgentEvents {
  items: { kind: string; source?: string; llm_message?: { content: { text?: string }[] } }[];
}
const agentMessages = (events: AgentEvents) =>
  events.items.filter((e) => e.kind === 'MessageEvent' && e.source === 'agent').map((e) => e.llm_message?.content[0]?.text ?? '');

describe.skipIf(!canvasDir)('Agent Canvas on the app server (cloud backend)', { concurrent: true }, () => {
  const step = it.sequential;
  const running = stepExpect();
  let page: Page;
  let context: BrowserContext;
  let failed: string[];
  let calls: string[];
  let started: string;
  /** The app server's API on the cloud flows' tenant. */
  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const headers = { 'x-fakehands-tenant': CLOUD_TENANT, ...(init.body ? { 'content-type': 'application/json' } : {}) };
    const response = await fetch(`${rig!.cli.url}${path}`, { ...init, headers });
    return response.json() as Promise<T>;
  };
  /** The model the cloud onboarding picks. */
  const CLOUD_PICKED_MODEL = 'claude-sonnet-4-5-20250929';
  const conversation = async (id: string) => (await api<(AppConversation | null)[]>(`/api/v1/app-conversations?ids=${id}`))[0] ?? null;
  /** The scripted agent's messages in a conversation, after moving the tenant's clock 2 s on. */
  const agentAnswers = async (id: string) => {
    await api('/_fakehands/clock', { method: 'POST', body: JSON.stringify({ advance_ms: 2000 }) });
    return agentMessages(await api<AgentEvents>(`/api/v1/conversation/${id}/events/search?limit=100`));
  };
  /**
   * The new conversation's id, once the page has moved from its start task's page to the
   * conversation's: the tenant's clock moves on meanwhile, so the start task (its sandbox's start,
   * its steps) is READY at the page's next read of it (every 3 s) rather than some reads later.
   */
  const startedId = async () => {
    await running.expect
      .poll(
        async () => {
          if (!idInUrl(page)) await api('/_fakehands/clock', { method: 'POST', body: JSON.stringify({ advance_ms: 1000 }) });
          return idInUrl(page);
        },
        { timeout: 90_000, interval: 250 },
      )
      .not.toBeNull();
    return idInUrl(page)!;
  };

  beforeAll(async () => {
    const r = await startRig();
    // What the tenant holds before the page opens (the page reads these once, on load): a GitHub
    // token (Open Repository lists repositories with one), a secret and a saved LLM profile.
    await api('/api/v1/secrets/git-providers', {
      method: 'POST',
      body: JSON.stringify({ provider_tokens: { github: { token: 'ghp_fakehandsCanvasHarness' } } }),
    });
    await api('/api/v1/secrets', {
      method: 'POST',
      body: JSON.stringify({ name: 'CANVAS_HARNESS_SECRET', value: 'never-shown', description: 'made by the harness' }),
    });
    await api('/api/v1/settings/profiles/harness-profile', { method: 'POST', body: '{}' });
    ({ page, context, failed, calls } = await openContext(r, 'cloud'));
  }, 180_000);
  afterAll(async () => {
    await context?.close();
  });

  step(
    "onboarding passes: a provider from the fake's providers search and a model from its models search, saved as agent_settings_diff (POST /api/v1/settings)",
    async () => {
      await page.getByTestId('onboarding-agent-next').click({ timeout: 120_000 });
      await page.getByTestId('sdk-section-basic-toggle').click({ timeout: 60_000 });
      await page.getByTestId('llm-provider-input').click({ timeout: 60_000 });
      await answered(running.expect, calls, /^GET \/api\/v1\/config\/providers\/search 200/);
      await page.getByTestId('provider-item-anthropic').click({ timeout: 30_000 });
      await pickOption(page, 'llm-model-input', CLOUD_PICKED_MODEL);
      await shot(page, 'cloud-onboarding');
      const saves = calls.filter((c) => c.startsWith('POST /api/v1/settings 200')).length;
      await page.getByTestId('onboarding-llm-next').click();
      await page.getByTestId('onboarding-step-say-hello').waitFor({ timeout: 60_000 });
      await answered(running.expect, calls, /^POST \/api\/v1\/settings 200$/, saves);
      const settings = await api<{ agent_settings: { llm: { model: string } } }>('/api/v1/settings');
      running.expect(settings.agent_settings.llm.model).toBe(`anthropic/${CLOUD_PICKED_MODEL}`);
      await page.getByTestId('onboarding-hello-close').click({ timeout: 30_000 });
    },
    240_000,
  );

  step(
    "lists the fixture's conversations with the backend connected (organizations, current key)",
    async () => {
      const newest = (await api<{ items: AppConversation[] }>('/api/v1/app-conversations/search?limit=5&sort_order=UPDATED_AT_DESC')).items;
      await running.expect
        .poll(() => page.getByTestId('conversation-card-title').allInnerTexts(), { timeout: 120_000 })
        .toContain(newest[1]!.title);
      await answered(running.expect, calls, /^GET \/api\/organizations 200/);
      await answered(running.expect, calls, /^GET \/api\/keys\/current 200/);
      await page.getByText(newest[1]!.title!, { exact: true }).first().waitFor({ timeout: 60_000 });
      await shot(page, 'cloud-home');
    },
    180_000,
  );

  step(
    "starts a conversation from the home page with a plain prompt and streams the agent's answer",
    async () => {
      const box = page.getByTestId('chat-input');
      await box.click({ timeout: 90_000 });
      await box.fill('Say hello from the fakehands harness');
      await page.keyboard.press('Enter');
      started = await startedId();
      await answered(running.expect, calls, /^POST \/api\/v1\/app-conversations 200$/);
      await page.getByText('Say hello from the fakehands harness').first().waitFor({ timeout: 60_000 });
      // The scripted agent's message, read from the API, shows up on the page (over the event socket).
      await running.expect.poll(async () => (await agentAnswers(started)).length, { timeout: 90_000 }).toBeGreaterThan(0);
      const answer = (await agentAnswers(started))[0]!;
      await page.getByText(answer.slice(0, 40)).first().waitFor({ timeout: 90_000 });
      await shot(page, 'cloud-conversation');
    },
    240_000,
  );

  step(
    "lists the conversation's files (GET /api/v1/app-conversations/{id}/files)",
    async () => {
      await openTab(page, 'files');
      await answered(running.expect, calls, new RegExp(`^GET /api/v1/app-conversations/${started}/files 200$`));
      await page.getByText('package.json').first().waitFor({ timeout: 60_000 });
    },
    180_000,
  );

  step(
    'renames a conversation from its menu (PATCH title)',
    async () => {
      // The side list read the conversations before this one had its id: it shows it once it reads them again.
      await comeBack(page);
      await cardMenu(page, started);
      await page.getByTestId('edit-button').click({ timeout: 30_000 });
      await page.locator('input[data-testid="conversation-card-title"]').fill('Renamed by the harness');
      await page.keyboard.press('Enter');
      await running.expect.poll(async () => (await conversation(started))?.title, { timeout: 60_000 }).toBe('Renamed by the harness');
      await page.getByText('Renamed by the harness').first().waitFor({ timeout: 60_000 });
    },
    180_000,
  );

  step(
    'Stop pauses the sandbox and the list page leaves it paused; opening the conversation resumes it',
    async () => {
      const sandbox = (await conversation(started))!.sandbox_id;
      await nav(page, '/');
      const searches = calls.filter((c) => c.startsWith('GET /api/v1/app-conversations/search')).length;
      await cardMenu(page, started);
      await page.getByTestId('stop-button').click({ timeout: 30_000 });
      await page
        .getByRole('button', { name: /^Confirm/ })
        .last()
        .click({ timeout: 30_000 });
      await answered(running.expect, calls, new RegExp(`^POST /api/v1/sandboxes/${sandbox}/pause 200$`));
      await running.expect.poll(async () => (await conversation(started))?.sandbox_status, { timeout: 60_000 }).toBe('PAUSED');
      // The list re-reads the conversations (the window regains focus, as when the user comes back to the tab): nothing resumes it.
      await comeBack(page);
      await answered(running.expect, calls, /^GET \/api\/v1\/app-conversations\/search/, searches);
      running.expect(calls.filter((c) => c.startsWith(`POST /api/v1/sandboxes/${sandbox}/resume`))).toEqual([]);
      running.expect((await conversation(started))?.sandbox_status).toBe('PAUSED');
      await shot(page, 'cloud-stopped');
      // Canvas's conversation route resumes a PAUSED cloud conversation once, when it opens it (routes/conversation.tsx).
      await nav(page, `/conversations/${started}`);
      await answered(running.expect, calls, new RegExp(`^POST /api/v1/sandboxes/${sandbox}/resume 200$`));
      await running.expect
        .poll(
          async () => {
            await api('/_fakehands/clock', { method: 'POST', body: JSON.stringify({ advance_ms: 1000 }) });
            return (await conversation(started))?.sandbox_status;
          },
          { timeout: 90_000 },
        )
        .toBe('RUNNING');
    },
    300_000,
  );

  step(
    'deletes a conversation from its menu (DELETE)',
    async () => {
      await nav(page, '/');
      await cardMenu(page, started);
      await page.getByTestId('delete-button').click({ timeout: 30_000 });
      await page
        .getByRole('button', { name: /^(Delete|Confirm|Yes)/i })
        .last()
        .click({ timeout: 30_000 });
      await running.expect.poll(() => conversation(started), { timeout: 60_000 }).toBeNull();
      // The page hears its answer a moment after the fake has made the change: wait for it.
      await running.expect
        .poll(() => calls.filter((c) => c.startsWith(`DELETE /api/v1/app-conversations/${started} `)), { timeout: 30_000 })
        .toEqual([`DELETE /api/v1/app-conversations/${started} 200`]);
      await running.expect.poll(() => page.locator(`a[href*="/conversations/${started}"]`).count(), { timeout: 60_000 }).toBe(0);
    },
    180_000,
  );

  step(
    'starts a conversation on a repository and a branch (Open Repository, then a prompt)',
    async () => {
      await page.getByText('Open Repository').first().click({ timeout: 90_000 });
      await page.getByTestId('git-repo-dropdown').click({ timeout: 60_000 });
      const repos = page.getByTestId('git-repo-dropdown-menu').locator('li');
      await repos.first().waitFor({ timeout: 60_000 });
      const repository = (await repos.first().innerText()).trim().split('\n')[0]!;
      await repos.first().click();
      await page.getByTestId('git-branch-dropdown-input').click({ timeout: 60_000 });
      await page
        .getByTestId('git-branch-dropdown-menu')
        .locator('li, [role="option"]')
        .filter({ hasText: /^main$/ })
        .first()
        .click({ timeout: 60_000 });
      await page.getByTestId('repo-launch-button').click({ timeout: 30_000 });
      if (!idInUrl(page)) {
        const box = page.getByTestId('chat-input');
        await box.click({ timeout: 60_000 });
        await box.fill('Look at this repository');
        await page.keyboard.press('Enter');
      }
      const id = await startedId();
      running.expect(id).not.toBe(started);
      await running.expect
        .poll(
          async () => {
            const c = await conversation(id);
            return c && [c.selected_repository, c.selected_branch];
          },
          { timeout: 90_000 },
        )
        .toEqual([repository, 'main']);
      await shot(page, 'cloud-repository');
    },
    300_000,
  );

  step(
    'filters the list: by repository, by a tag ("Filter by tags"), the running ones ("Active")',
    async () => {
      await nav(page, '/');
      // The list read the conversations before the last one had its id (the repository's, which the grouping shows): read them again.
      await comeBack(page);
      const items = (await api<{ items: AppConversation[] }>('/api/v1/app-conversations/search?limit=100&sort_order=UPDATED_AT_DESC'))
        .items;
      const titles = () => page.getByTestId('conversation-card-title').allInnerTexts();
      const byTitle = new Map(items.map((c) => [c.title, c]));
      await running.expect.poll(async () => (await titles()).length, { timeout: 60_000 }).toBeGreaterThan(2);
      const menu = async (testId: string) => {
        await page.getByTestId('conversation-layouts-toggle').click({ timeout: 60_000 });
        await page.getByTestId(testId).click({ timeout: 30_000 });
      };
      // By repository: the list is grouped under each repository's name.
      await menu('layout-preset-by-workspace');
      const repository = items.find((c) => c.selected_repository)!.selected_repository!;
      await page.getByText(repository.split('/').at(-1)!).first().waitFor({ timeout: 60_000 });
      await shot(page, 'cloud-by-repository');
      await menu('layout-preset-recent-activity');
      // Filter by tags: the fixture's `team=frontend` tag leaves its conversations only.
      const tagged = new Set(items.filter((c) => c.tags?.team === 'frontend').map((c) => c.title));
      await page.getByTestId('conversation-layouts-toggle').click({ timeout: 60_000 });
      await page.getByTestId('tag-filters-section').click({ timeout: 30_000 });
      await page.getByTestId('tag-facet-row-team=frontend').click({ timeout: 30_000 });
      await page.keyboard.press('Escape');
      await running.expect
        .poll(
          async () => {
            const shown = await titles();
            return shown.length > 0 && shown.every((t) => tagged.has(t));
          },
          { timeout: 60_000 },
        )
        .toBe(true);
      await shot(page, 'cloud-tag-filter');
      await page.getByTestId('clear-tag-filters').click({ timeout: 30_000 });
      await running.expect.poll(async () => (await titles()).some((t) => !tagged.has(t)), { timeout: 60_000 }).toBe(true);
      // Active: the conversations whose agent is idle, running, waiting or finished (utils/status.ts, isExecutionActive).
      const active = new Set(['idle', 'running', 'waiting_for_confirmation', 'finished']);
      await menu('layout-preset-focused');
      await running.expect
        .poll(
          async () => {
            const shown = await titles();
            return shown.length > 0 && shown.every((t) => active.has(String(byTitle.get(t)?.execution_status ?? '').toLowerCase()));
          },
          { timeout: 60_000 },
        )
        .toBe(true);
      await shot(page, 'cloud-active');
      await menu('layout-preset-recent-activity');
      await page.getByTestId('conversation-layouts-menu').waitFor({ state: 'detached', timeout: 30_000 });
    },
    240_000,
  );

  // Every pane of the settings and the Customize screens; where the fake holds data the pane shows, that data.
  for (const [path, name, shows] of [
    ['/settings/agents', 'agents', 'default'],
    ['/settings/llm', 'llm', 'harness-profile'],
    // The sectioned schema of GET /api/v1/settings/agent-schema and conversation-schema: each pane renders its fields.
    ['/settings/condenser', 'condenser', { testId: 'sdk-settings-condenser.enabled' }],
    ['/settings/agent-context', 'agent-context', { testId: 'sdk-settings-agent_context.load_memory' }],
    ['/settings/verification', 'verification', { testId: 'sdk-settings-verification.critic_enabled' }],
    ['/settings/app', 'app', 'Git Settings'],
    ['/settings/secrets', 'secrets', 'CANVAS_HARNESS_SECRET'],
    ['/mcp', 'mcp', { testId: 'mcp-page' }],
    ['/skills', 'skills', 'github'],
  ] as const) {
    step(
      `shows the ${name} pane (${path})${typeof shows === 'string' ? ` with the fake's ${shows}` : ''}`,
      async () => {
        await openPane(running.expect, page, path, shows);
        running.expect(await page.getByText('SDK settings schema unavailable').count()).toBe(0);
        await shot(page, `cloud-${name}`);
      },
      180_000,
    );
  }

  step(
    "the LLM pane searches the fake's models (GET /api/v1/config/models/search) and lists its profiles",
    async () => {
      await nav(page, '/settings/llm');
      await answered(running.expect, calls, /^GET \/api\/v1\/config\/models\/search 200/);
      const profiles = await api<{ profiles: { name: string }[] }>('/api/v1/settings/profiles');
      await running.expect
        .poll(() => page.getByTestId('profile-row').allInnerTexts(), { timeout: 60_000 })
        .toEqual(profiles.profiles.map((p) => running.expect.stringContaining(p.name)));
    },
    180_000,
  );

  step(
    "the application pane shows the fake's git identity (GET /api/v1/settings)",
    async () => {
      await nav(page, '/settings/app');
      const settings = await api<{ git_user_name: string | null }>('/api/v1/settings');
      await running.expect
        .poll(() => page.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)), { timeout: 60_000 })
        .toContain(settings.git_user_name ?? 'openhands');
      await shot(page, 'cloud-app');
    },
    180_000,
  );

  step('no request to the fake failed (the automation service excluded)', () => {
    const automation = calls.filter((c) => c.includes(AUTOMATION_PREFIX)).length;
    console.info(
      `Agent Canvas, cloud backend: ${calls.length} requests to the fake, ${failed.length} failed; ${automation} to the automation service (out of scope)`,
    );
    running.expect(calls.length).toBeGreaterThan(20);
    running.expect(failed).toEqual([]);
  });
});

/** Whether the agent host serves the settings Agent Canvas's local backend reads first (issue 31). */
async function localRoutesServed(): Promise<boolean> {
  if (!canvasDir) return false;
  const r = await startRig();
  const response = await fetch(`${r.cli.agentUrl}/api/settings`, { headers: { 'X-Session-API-Key': r.sessionKey } });
  if (response.status === 404)
    console.warn(
      'Agent Canvas local-backend flows skipped: the agent host answers GET /api/settings with 404 (the agent server routes of issue 31 are not there yet)',
    );
  return response.status !== 404;
}
const localReady = await localRoutesServed();

describe.skipIf(!localReady)('Agent Canvas on the agent host (local backend)', { concurrent: true }, () => {
  const step = it.sequential;
  const running = stepExpect();
  let page: Page;
  let context: BrowserContext;
  let failed: string[];
  let calls: string[];
  let sockets: string[];
  let started: string;
  /** The local agent server's REST API, keyless (`--auth none`), as the page's own calls are. */
  const local = async <T>(path: string, init: RequestInit = {}): Promise<T> =>
    (
      await fetch(`${rig!.cli.agentUrl}${path}`, { ...init, headers: init.body ? { 'content-type': 'application/json' } : {} })
    ).json() as Promise<T>;
  /** The scripted agent's messages in a conversation, after moving the fake's clock 2 s on. */
  const agentAnswers = async (id: string) => {
    await fetch(`${rig!.cli.url}/_fakehands/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 2000 }),
    });
    return agentMessages(await local<AgentEvents>(`/api/conversations/${id}/events/search?limit=100`));
  };
  const PICKED_MODEL = 'claude-sonnet-4-5-20250929';

  beforeAll(async () => {
    // A secret of the host's, for the secrets pane (the page reads the list once).
    await local('/api/settings/secrets', { method: 'PUT', body: JSON.stringify({ name: 'CANVAS_LOCAL_SECRET', value: 'never-shown' }) });
    ({ page, context, failed, calls, sockets } = await openContext(rig!, 'local'));
  }, 180_000);
  afterAll(async () => {
    await context?.close();
  });

  step(
    "onboarding passes: an agent, then a provider and a model picked from the fake's lists (PATCH /api/settings, POST /api/profiles)",
    async () => {
      await page.getByTestId('onboarding-agent-next').click({ timeout: 120_000 });
      await page.getByTestId('sdk-section-basic-toggle').click({ timeout: 60_000 });
      await page.getByTestId('llm-provider-input').click({ timeout: 60_000 });
      await page.getByTestId('provider-item-anthropic').click({ timeout: 30_000 });
      await pickOption(page, 'llm-model-input', PICKED_MODEL);
      await shot(page, 'local-onboarding');
      const saves = calls.filter((c) => c.startsWith('PATCH /api/settings 200')).length;
      await page.getByTestId('onboarding-llm-next').click();
      await page.getByTestId('onboarding-step-say-hello').waitFor({ timeout: 60_000 });
      await answered(running.expect, calls, /^PATCH \/api\/settings 200$/, saves);
      await answered(running.expect, calls, new RegExp(`^POST /api/profiles/${PICKED_MODEL} 201$`));
      const settings = await local<{ agent_settings: { llm: { model: string } } }>('/api/settings');
      running.expect(settings.agent_settings.llm.model).toBe(`anthropic/${PICKED_MODEL}`);
      await page.getByTestId('onboarding-hello-close').click({ timeout: 30_000 });
    },
    240_000,
  );

  step(
    'the home page is connected: no "Disconnected", the picked model in the LLM pill (GET /api/settings, /api/profiles, /server_info)',
    async () => {
      await page.getByTestId('chat-input').waitFor({ timeout: 90_000 });
      await answered(running.expect, calls, /^GET \/server_info 200$/);
      await running.expect
        .poll(() => page.getByTestId('chat-input-llm-profile').first().innerText(), { timeout: 60_000 })
        .toMatch(/^claude-sonnet-4-5/);
      running.expect(await page.getByText('Disconnected').count()).toBe(0);
      await shot(page, 'local-home');
    },
    180_000,
  );

  step(
    "starts a conversation on the agent host (POST /api/conversations) and streams the agent's answer over /sockets/events/{id}",
    async () => {
      const box = page.getByTestId('chat-input');
      await box.click({ timeout: 90_000 });
      await box.fill('Say hello to the local backend');
      await page.keyboard.press('Enter');
      await running.expect.poll(() => idInUrl(page), { timeout: 90_000 }).not.toBeNull();
      started = idInUrl(page)!;
      await answered(running.expect, calls, /^POST \/api\/conversations 201$/);
      await page.getByText('Say hello to the local backend').first().waitFor({ timeout: 60_000 });
      await running.expect.poll(() => sockets.includes(`/sockets/events/${started}`), { timeout: 60_000 }).toBe(true);
      await running.expect.poll(async () => (await agentAnswers(started)).length, { timeout: 90_000 }).toBeGreaterThan(0);
      await page
        .getByText((await agentAnswers(started))[0]!.slice(0, 40))
        .first()
        .waitFor({ timeout: 90_000 });
      await shot(page, 'local-conversation');
    },
    240_000,
  );

  step(
    'chat: a second message gets its own answer',
    async () => {
      const before = (await agentAnswers(started)).length;
      await page.getByTestId('chat-input').fill('And one more thing');
      await page.keyboard.press('Enter');
      await page.getByText('And one more thing').first().waitFor({ timeout: 60_000 });
      await running.expect.poll(async () => (await agentAnswers(started)).length, { timeout: 90_000 }).toBeGreaterThan(before);
      // The page shows the new answer (as often as the conversation holds its text: the scripted agent may say the same again).
      const answers = await agentAnswers(started);
      const latest = answers.at(-1)!;
      await running.expect
        .poll(() => page.getByText(latest.slice(0, 40)).count(), { timeout: 90_000 })
        .toBeGreaterThanOrEqual(answers.filter((a) => a.slice(0, 40) === latest.slice(0, 40)).length);
    },
    240_000,
  );

  step(
    "the file tree lists the workspace's files through the shell (POST /api/bash/execute_bash_command, /sockets/bash-events)",
    async () => {
      await openTab(page, 'files');
      await answered(running.expect, calls, /^POST \/api\/bash\/execute_bash_command 200$/);
      running.expect(sockets).toContain('/sockets/bash-events');
      await page.getByText('package.json').first().waitFor({ timeout: 60_000 });
      await shot(page, 'local-files');
    },
    180_000,
  );

  step(
    'the shell panel opens (the Terminal tab)',
    async () => {
      await openTab(page, 'terminal');
      // The agent's terminal commands of this page's life (TerminalAction events over the socket) are written to the terminal.
      await page.locator('.xterm-rows').getByText('git ls-files').first().waitFor({ timeout: 60_000 });
      await shot(page, 'local-terminal');
      running.expect(await page.getByText('Disconnected').count()).toBe(0);
    },
    180_000,
  );

  step(
    'Stop interrupts the agent (POST /api/conversations/{id}/interrupt)',
    async () => {
      await page.getByTestId('chat-input').fill('Another turn to stop');
      await page.keyboard.press('Enter');
      await page.getByTestId('stop-button').first().click({ timeout: 90_000 });
      await answered(running.expect, calls, new RegExp(`^POST /api/conversations/${started}/interrupt 200$`));
    },
    180_000,
  );

  step(
    'renames and deletes the conversation (PATCH, DELETE /api/conversations/{id})',
    async () => {
      await nav(page, '/');
      await cardMenu(page, started);
      await page.getByTestId('edit-button').click();
      await page.locator('input[data-testid="conversation-card-title"]').fill('Local renamed');
      await page.keyboard.press('Enter');
      await page.getByText('Local renamed').first().waitFor({ timeout: 60_000 });
      await running.expect
        .poll(async () => (await local<{ title: string | null }>(`/api/conversations/${started}`)).title, { timeout: 60_000 })
        .toBe('Local renamed');
      await cardMenu(page, started);
      await page.getByTestId('delete-button').click();
      await page
        .getByRole('button', { name: /^(Delete|Confirm|Yes)/i })
        .last()
        .click();
      await answered(running.expect, calls, new RegExp(`^DELETE /api/conversations/${started} 200$`));
      await running.expect
        .poll(async () => (await fetch(`${rig!.cli.agentUrl}/api/conversations/${started}`)).status, { timeout: 60_000 })
        .toBe(404);
    },
    180_000,
  );

  step(
    "the workspace picker browses the host's folders (Open Workspace, + Add Workspace: GET /api/file/home, /search_subdirs)",
    async () => {
      await page.getByText('Open Workspace').first().click({ timeout: 90_000 });
      await page.getByTestId('workspace-dropdown').click({ timeout: 60_000 });
      await page.getByText('+ Add Workspace').click({ timeout: 30_000 });
      await page.getByTestId('folder-browser-list').getByText('todo-app').first().waitFor({ timeout: 60_000 });
      await answered(running.expect, calls, /^GET \/api\/file\/search_subdirs 200$/);
      await shot(page, 'local-workspace');
      await page.getByTestId('folder-browser-cancel').click();
      await page.getByTestId('close-open-workspace-dialog').click();
    },
    180_000,
  );

  for (const [path, name, shows] of [
    ['/settings/llm', 'llm', PICKED_MODEL],
    ['/settings/agents', 'agents', 'default'],
    ['/settings/condenser', 'condenser', 'Enable Memory Condensation'],
    ['/settings/agent-context', 'agent-context', null],
    ['/settings/verification', 'verification', null],
    ['/settings/secrets', 'secrets', 'CANVAS_LOCAL_SECRET'],
    ['/settings/app', 'app', null],
    ['/mcp', 'mcp', { testId: 'mcp-page' }],
    ['/skills', 'skills', 'github'],
  ] as const) {
    step(
      `shows the ${name} pane (${path})${typeof shows === 'string' ? ` with the fake's ${shows}` : ''}`,
      async () => {
        await openPane(running.expect, page, path, shows);
        await shot(page, `local-${name}`);
        running.expect(await page.getByText('Disconnected').count()).toBe(0);
      },
      180_000,
    );
  }

  step('no request to the fake failed (the automation service excluded)', () => {
    const automation = calls.filter((c) => c.includes(AUTOMATION_PREFIX)).length;
    console.info(
      `Agent Canvas, local backend: ${calls.length} requests to the fake, ${failed.length} failed; ${automation} to the automation service (out of scope)`,
    );
    running.expect(calls.length).toBeGreaterThan(20);
    running.expect(failed).toEqual([]);
    // The home page's automation list, which it toasts when it fails, answered (the ingress's empty stand-in) and was not retried.
    const lists = calls.filter((c) => c.startsWith(`GET ${AUTOMATION_PREFIX}/v1 `));
    running.expect(lists.length).toBeGreaterThan(0);
    running.expect(lists.filter((c) => !c.endsWith(' 200'))).toEqual([]);
  });
});

afterAll(stopRig, 60_000);
