/**
 * fakehands in a real browser (Debian's headless Chromium, driven by playwright-core):
 * `fakehands/browser` behind msw's service worker, the inspector on the dev server, the inspector's
 * screenshot, and the recorded session answered by the worker exactly as by `setupServer`.
 */
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPage, launchChromium, serveStatic } from '../support/browser.js';
import { browserSuitesSkipped } from '../support/chromium-path.js';
import { startCli } from '../support/cli.js';
import { OPTIONS, SEQUENCE, playThroughSetupServer, type Step } from '../support/sequence.js';
import { readmeBlocks } from '../support/readme.js';

const ROOT = new URL('../..', import.meta.url).pathname;
let browser: Browser;
let site: { url: string; server: Server };
let tab: Page;
/** No Chromium here (and not required): every suite of the file is skipped, one line saying how to get it. */
const NO_BROWSER = browserSuitesSkipped();

beforeAll(async () => {
  if (NO_BROWSER) return;
  // The browser starts while esbuild bundles the page (and is there for afterAll to close if that fails).
  const launching = launchChromium().then((launched) => {
    browser = launched;
  });
  try {
    site = await serveStatic(await buildPage());
  } finally {
    await launching;
  }
  tab = await (await browser.newContext()).newPage();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  site?.server.close();
});

/**
 * The file's one tab, handed to each test in turn: opening a page in headless Chromium opens a
 * browser window (about 1.2 s of CPU on 2 cores, which the file paid 16 times), navigating a tab
 * costs what the page itself costs. Each test gets it on a blank page, at the default viewport, with
 * no listener of an earlier test's and the test page's storage emptied (a kept state of one test
 * never reaches the next). msw's worker, once installed for the test page's origin, stays: a test
 * that needs the first load's install serves its page on an origin of its own (the README examples).
 */
async function newTab(): Promise<Page> {
  for (const event of ['request', 'console', 'pageerror'] as const) tab.removeAllListeners(event);
  if (tab.url().startsWith(`${site.url}/`)) await tab.evaluate(() => localStorage.clear());
  await tab.goto('about:blank');
  await tab.setViewportSize({ width: 1280, height: 720 });
  return tab;
}

/** Opens the test page and waits until its fake intercepts requests. */
async function openApp(query = ''): Promise<Page> {
  const page = await newTab();
  await page.goto(`${site.url}/${query}`);
  await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, undefined, { timeout: 20_000 });
  return page;
}

describe.skipIf(NO_BROWSER)('fakehands/browser in Chromium', () => {
  it('answers a create → poll → pause flow through the service worker, with a 401 and a 422 in the real shapes', async () => {
    const page = await openApp();
    const result = await page.evaluate(async () => {
      const fake = (window as unknown as { __fake: { clock: { advance(ms: number): void } } }).__fake;
      const key = { 'x-session-api-key': 'browser-key' };
      const created = (await (await fetch('/api/v1/sandboxes', { method: 'POST', headers: key })).json()) as { id: string; status: string };
      fake.clock.advance(2000);
      const [polled] = (await (await fetch(`/api/v1/sandboxes?id=${created.id}`, { headers: key })).json()) as { status: string }[];
      const paused = await (await fetch(`/api/v1/sandboxes/${created.id}/pause`, { method: 'POST', headers: key })).json();
      const [after] = (await (await fetch(`/api/v1/sandboxes?id=${created.id}`, { headers: key })).json()) as { status: string }[];
      const keyless = await fetch('/api/v1/sandboxes/search');
      const invalid = await fetch('/api/v1/sandboxes/search?limit=0', { headers: key });
      return {
        statuses: [created.status, polled!.status, after!.status],
        paused,
        unauthorized: [keyless.status, await keyless.json()],
        unprocessable: [invalid.status, await invalid.json()],
      };
    });
    expect(result).toEqual({
      statuses: ['STARTING', 'RUNNING', 'PAUSED'],
      paused: { success: true },
      unauthorized: [401, { detail: 'Unauthorized' }],
      unprocessable: [
        422,
        { detail: [{ type: 'greater_than', loc: ['query', 'limit'], msg: 'Input should be greater than 0', input: '0', ctx: { gt: 0 } }] },
      ],
    });
  });

  it('keeps its state across a reload with persist: localStorage', async () => {
    const page = await openApp('?persist=1');
    const id = await page.evaluate(
      async () =>
        (
          (await (await fetch('/api/v1/sandboxes', { method: 'POST', headers: { 'x-session-api-key': 'browser-key' } })).json()) as {
            id: string;
          }
        ).id,
    );
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true);
    const ids = await page.evaluate(async () =>
      (
        (await (await fetch('/api/v1/sandboxes/search', { headers: { 'x-session-api-key': 'browser-key' } })).json()) as {
          items: { id: string }[];
        }
      ).items.map((s) => s.id),
    );
    expect(ids).toEqual([id]);
    await page.evaluate(() => localStorage.clear());
  });

  it('answers the recorded session exactly as setupServer does (the differential test, in a browser)', async () => {
    const viaMsw = await playThroughSetupServer();

    const page = await openApp(`?fixture=${OPTIONS.fixture}&seed=${OPTIONS.seed}&key=${OPTIONS.apiKey}`);
    const viaWorker = await page.evaluate(async (steps: Step[]) => {
      const fake = (window as unknown as { __fake: { clock: { advance(ms: number): void } } }).__fake;
      const results: { status: number; body: string }[] = [];
      let sandbox = '';
      for (const step of steps) {
        if (step.advance) fake.clock.advance(step.advance);
        const response = await fetch(step.path.replace('{sandbox}', sandbox), {
          method: step.method,
          headers: {
            'x-session-api-key': 'differential-key',
            ...(step.body ? { 'content-type': 'application/json' } : {}),
            ...step.headers,
          },
          body: step.body,
        });
        const body = await response.text();
        if (!sandbox && step.path.startsWith('/api/v1/sandboxes/search'))
          sandbox = (JSON.parse(body) as { items: { id: string }[] }).items[0]!.id;
        results.push({ status: response.status, body });
      }
      return results;
    }, SEQUENCE);
    expect(viaWorker).toEqual(viaMsw);
  }, 60_000);

  it('bundles for the browser platform without any Node built-in (and the check catches one)', async () => {
    const built = await build({
      entryPoints: [join(ROOT, 'src/browser.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      external: ['msw', 'msw/*'],
      write: false,
      logLevel: 'silent',
    });
    expect(built.outputFiles[0]!.text).not.toMatch(/from\s*["']node:|require\(["']node:/);
    // Only checked, never shipped: a page's own bundler builds the entry.
    expect(await readFile(join(ROOT, 'dist/browser.bundle.js'), 'utf8').catch(() => 'absent')).toBe('absent');
    const failing = await build({
      stdin: { contents: "import { readFileSync } from 'node:fs'; export const x = readFileSync;", resolveDir: ROOT },
      bundle: true,
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    }).then(
      () => 'built',
      () => 'refused',
    );
    expect(failing).toBe('refused');
  });
});

/** Builds a README example as the module of a page served with msw's worker, and opens it; `check` runs in the page once it is ready. */
async function runReadmeExample(
  firstLine: string,
  entry: string,
  check: () => Promise<unknown>,
): Promise<{ errors: string[]; checked: unknown }> {
  const example = readmeBlocks('ts').find((code) => code.startsWith(firstLine))!;
  await mkdir(join(ROOT, '.tmp'), { recursive: true });
  const dir = await mkdtemp(join(ROOT, '.tmp/readme-browser-'));
  await writeFile(join(dir, 'example.ts'), example.replace("'fakehands/browser'", JSON.stringify(join(ROOT, 'src/browser.ts'))));
  await writeFile(join(dir, 'entry.ts'), `${entry}\nObject.assign(window, { __ready: true });\n`);
  await build({
    entryPoints: [join(dir, 'entry.ts')],
    outfile: join(dir, 'app.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    logLevel: 'warning',
  });
  await copyFile(join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), join(dir, 'mockServiceWorker.js'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><script type="module" src="/app.js"></script>');
  const page = await newTab();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const site = await serveStatic(dir);
  try {
    await page.goto(site.url);
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, undefined, { timeout: 20_000 });
    return { errors, checked: await page.evaluate(check) };
  } finally {
    site.server.close();
  }
}

describe.skipIf(NO_BROWSER)("the README's browser examples", () => {
  it("src/mocks.ts runs as a page in Chromium: the worker starts, the page's fetch reaches the fake, the fake is on window", async () => {
    const { errors, checked } = await runReadmeExample('// src/mocks.ts', "import './example.ts';", async () => ({
      clock: typeof (window as unknown as { fake?: { clock?: unknown } }).fake?.clock,
      sandboxes: ((await (await fetch('/api/v1/sandboxes/search')).json()) as { items: unknown[] }).items.length,
    }));
    expect(errors).toEqual([]);
    expect(checked).toEqual({ clock: 'object', sandboxes: expect.any(Number) });
    expect((checked as { sandboxes: number }).sandboxes).toBeGreaterThan(0);
  }, 60_000);

  it(".storybook/preview.ts: a story's loader receives the fake, and the page's fetch reaches it", async () => {
    const entry =
      "import { loaders } from './example.ts';\nconst { fake } = await loaders[0]();\nconst page = await (await fetch('/api/v1/sandboxes/search')).json();\nObject.assign(window, { story: { clock: typeof fake.clock, sandboxes: page.items.length, fixture: (await fake.snapshot()).sandboxes.length } });";
    const { errors, checked } = await runReadmeExample(
      '// .storybook/preview.ts',
      entry,
      async () => (window as unknown as { story: unknown }).story,
    );
    expect(errors).toEqual([]);
    const story = checked as { clock: string; sandboxes: number; fixture: number };
    expect(story.clock).toBe('object');
    expect(story.sandboxes).toBeGreaterThan(0);
    expect(story.sandboxes).toBe(Math.min(story.fixture, 100));
  }, 60_000);
});

describe.skipIf(NO_BROWSER)('the agent server behind the browser worker', () => {
  it("serves conversation_url in the page: the REST through the worker, the events socket through msw's ws.link", async () => {
    const page = await openApp('?agent=1&key=k');
    const result = await page.evaluate(async () => {
      const headers = { 'x-session-api-key': 'k', 'content-type': 'application/json' };
      const fake = (window as unknown as { __fake: { clock: { advance(ms: number): void } } }).__fake;
      const task = (await (
        await fetch('/api/v1/app-conversations', {
          method: 'POST',
          headers,
          body: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix it' }] } }),
        })
      ).json()) as { id: string };
      fake.clock.advance(60_000);
      const [ready] = (await (await fetch(`/api/v1/app-conversations/start-tasks?ids=${task.id}`, { headers })).json()) as {
        app_conversation_id: string;
      }[];
      fake.clock.advance(60_000);
      const [conversation] = (await (await fetch(`/api/v1/app-conversations?ids=${ready!.app_conversation_id}`, { headers })).json()) as {
        id: string;
        conversation_url: string;
        session_api_key: string;
      }[];
      const host = new URL(conversation!.conversation_url).host;
      const count = (await (
        await fetch(`http://${host}/api/conversations/${conversation!.id}/events/count`, {
          headers: { 'x-session-api-key': conversation!.session_api_key },
        })
      ).json()) as number;
      const frames = await new Promise<string[]>((resolve) => {
        const kinds: string[] = [];
        const socket = new WebSocket(
          `ws://${host}/sockets/events/${conversation!.id}?resend_all=true&session_api_key=${conversation!.session_api_key}`,
        );
        socket.onmessage = (event) => {
          kinds.push(JSON.parse(event.data as string).kind as string);
          if (kinds.length === count + 1) {
            socket.close();
            resolve(kinds);
          }
        };
      });
      return { host, count, frames };
    });
    expect(result.host).toBe('agent.localhost:3001');
    expect(result.count).toBe(10);
    // full_state; then the log: the message and its last_user_message_id (local_conversation.py, _track_last_user_message), the run.
    expect(result.frames).toEqual([
      'ConversationStateUpdateEvent',
      'SystemPromptEvent',
      'MessageEvent',
      'ConversationStateUpdateEvent',
      'ConversationStateUpdateEvent',
      'ActionEvent',
      'ObservationEvent',
      'ActionEvent',
      'ObservationEvent',
      'ConversationStateUpdateEvent',
      'MessageEvent',
    ]);
  }, 60_000);
});

describe.skipIf(NO_BROWSER)('what a page loads, and when (issue 23)', () => {
  it('answers its first V1 request from the first chunks; the settings, the control API and the agent host load on first need', async () => {
    const page = await newTab();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script' && !request.url().endsWith('mockServiceWorker.js'))
        scripts.push(new URL(request.url()).pathname.slice(1));
    });
    await page.goto(`${site.url}/?agent=1&key=k`);
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, undefined, { timeout: 20_000 });
    const headers = { 'x-session-api-key': 'k' };
    const search = await page.evaluate(async (h) => (await fetch('/api/v1/sandboxes/search?limit=1', { headers: h })).status, headers);
    const first = [...scripts];
    const later = async (path: string) => {
      const before = scripts.length;
      const answer = await page.evaluate(
        async ([url, h]) => {
          const response = await fetch(url, { headers: h });
          return { status: response.status, type: response.headers.get('content-type') };
        },
        [path, headers] as const,
      );
      return { ...answer, loaded: scripts.slice(before) };
    };
    const settings = await later('/api/settings');
    const settingsAgain = await later('/api/options/models');
    const control = await later('/_fakehands/health');
    const agent = await later('http://agent.localhost:3001/alive');
    expect(search).toBe(200);
    expect(first).toContain('app.js');
    // The later routes are chunks the page had not fetched before the first answer.
    expect(first.some((name) => name.startsWith('later-') || name.startsWith('routes-') || name.startsWith('document-'))).toBe(false);
    expect(settings.status).toBe(404); // never saved in the empty fixture: the real 404
    expect(settings.loaded.some((name) => name.startsWith('later-'))).toBe(true);
    expect([settingsAgain.status, settingsAgain.loaded]).toEqual([200, []]);
    expect([control.status, control.loaded.length > 0]).toEqual([200, true]);
    expect([agent.status, agent.loaded.length > 0]).toEqual([200, true]);
  }, 60_000);

  it("starts on the default fixture generated in the page, the same sandboxes as fixtures/default.json, without downloading the fixture's schemas; the 422 mapping loads with the first bad request", async () => {
    const page = await newTab();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script' && !request.url().endsWith('mockServiceWorker.js'))
        scripts.push(new URL(request.url()).pathname.slice(1));
    });
    await page.goto(`${site.url}/?fixture=default&key=k`);
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, undefined, { timeout: 20_000 });
    const first = await page.evaluate(async () => {
      const page_ = (await (await fetch('/api/v1/sandboxes/search?limit=100', { headers: { 'x-session-api-key': 'k' } })).json()) as {
        items: { id: string }[];
      };
      return page_.items.map((item) => item.id);
    });
    const loadedFirst = [...scripts];
    const invalid = await page.evaluate(async () => {
      const response = await fetch('/api/v1/sandboxes/search?limit=0', { headers: { 'x-session-api-key': 'k' } });
      return [response.status, await response.json()] as const;
    });
    const loadedThen = scripts.slice(loadedFirst.length);
    const file = JSON.parse(await readFile(join(ROOT, 'fixtures/default.json'), 'utf8')) as { sandboxes: { id: string }[] };
    expect([...first].sort()).toEqual(file.sandboxes.map((s) => s.id).sort());
    const chunkOf = (names: string[], module: string) => names.some((name) => name.startsWith(`${module}-`));
    for (const module of ['fixture-check', 'validation', 'snapshot', 'start-conversation', 'conversation-ops', 'legacy-conversations']) {
      expect([module, chunkOf(loadedFirst, module)]).toEqual([module, false]);
    }
    expect(invalid).toEqual([
      422,
      { detail: [{ type: 'greater_than', loc: ['query', 'limit'], msg: 'Input should be greater than 0', input: '0', ctx: { gt: 0 } }] },
    ]);
    expect(chunkOf(loadedThen, 'validation')).toBe(true);
  }, 60_000);

  it("leaves the page's own files to the network, and still answers any API path as the real server does", async () => {
    const page = await openApp('?key=k');
    const result = await page.evaluate(async () => {
      const get = async (path: string) => {
        const response = await fetch(path, { headers: { 'x-session-api-key': 'k' } });
        return [response.status, response.headers.get('content-type'), (await response.text()).slice(0, 20)];
      };
      return { script: await get('/app.js'), missingImage: await get('/logo.png'), unknownApi: await get('/api/nothing') };
    });
    expect(result.script.slice(0, 2)).toEqual([200, 'text/javascript']); // the static server's file, not the fake's 404
    expect(result.missingImage).toEqual([404, null, '']); // the static server's own 404
    expect(result.unknownApi).toEqual([404, 'application/json', '{"detail":"Not Found']);
  }, 60_000);
});

describe.skipIf(NO_BROWSER)('fakehands/browser keeps going when storage fails', () => {
  it('answers 507 (not a 500 with a stack) past the localStorage quota, and the change is not made', async () => {
    const page = await openApp('?persist=1&key=k');
    const result = await page.evaluate(async () => {
      const fake = (window as unknown as { __fake: { snapshot(): Promise<{ sandboxes: unknown[] }> } }).__fake;
      const before = (await fake.snapshot()).sandboxes.length;
      // A full storage: every write past this point throws the browser's quota error.
      Storage.prototype.setItem = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
      const answer = await fetch('/api/v1/sandboxes', { method: 'POST', headers: { 'x-session-api-key': 'k' } });
      return {
        status: answer.status,
        body: (await answer.json()) as { detail: string },
        before,
        after: (await fake.snapshot()).sandboxes.length,
      };
    });
    expect(result.status).toBe(507);
    expect(result.body.detail).toMatch(/^Insufficient Storage: localStorage is full, the change was not kept/);
    expect(result.after).toBe(result.before);
  }, 60_000);

  it('drops a kept state that is valid JSON but not a fixture, and the app starts with its fixture', async () => {
    const page = await newTab();
    await page.goto(`${site.url}/?persist=1`);
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, undefined, { timeout: 20_000 });
    await page.evaluate(() => localStorage.setItem('fakehands-state', JSON.stringify({ sandboxes: 'not a list' })));
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, undefined, { timeout: 20_000 });
    expect(
      await page.evaluate(
        async () => (await fetch('/api/v1/sandboxes/search', { headers: { 'x-session-api-key': 'browser-key' } })).status,
      ),
    ).toBe(200);
    expect(warnings.some((w) => w.startsWith('fakehands: the state kept in localStorage["fakehands-state"] does not load'))).toBe(true);
  }, 60_000);

  it('becomes the inspector when the page is opened at /_fakehands/, its requests answered by the worker', async () => {
    const page = await newTab();
    await page.goto(`${site.url}/_fakehands/`);
    // The first load installs the worker; the inspector page is served under it once the worker
    // controls the page (under a loaded machine that may take more than one reload).
    // The test page's fake wants a key (auth "all"): the inspector's first read is the worker's 401,
    // which shows the key banner (the static server alone would answer the page itself, never a 401).
    for (let attempt = 0; attempt < 4; attempt++) {
      await page.reload();
      if (
        await page
          .getByTestId('banner')
          .waitFor({ state: 'visible', timeout: 12_000 })
          .then(
            () => true,
            () => false,
          )
      )
        break;
    }
    await page.getByTestId('banner').waitFor({ state: 'visible', timeout: 1_000 });
    expect(await page.title()).toContain('fakehands');
  }, 60_000);
});

describe.skipIf(NO_BROWSER)('a hostile page on another origin', () => {
  it('cannot change the fake with no-cors requests, reach the control API, or frame the inspector', async () => {
    const cli = await startCli([
      '--quiet',
      '--auth',
      'none',
      '--fixture',
      'empty',
      '--timings',
      'instant',
      '--cors',
      'http://localhost:5173',
    ]);
    const before = await (await fetch(`${cli.url}/_fakehands/state`)).text();
    const page = await newTab();
    await page.goto(site.url); // 127.0.0.1:<another port>: not an origin the policy allows
    const framed = await page.evaluate(async (fake) => {
      const noCors = (path: string, body?: string) => fetch(`${fake}${path}`, { method: 'POST', mode: 'no-cors', body }).catch(() => null);
      await noCors('/api/v1/sandboxes');
      await noCors('/api/conversations', '{}');
      await noCors('/_fakehands/faults', '{"kind": "status", "path": "/*", "status": 503, "sticky": true}');
      await noCors('/_fakehands/clock', '{"advance_ms": 31536000000}');
      await noCors('/_fakehands/reset', '{"fixture": "default"}');
      const frame = document.createElement('iframe');
      frame.src = `${fake}/_fakehands/`;
      document.body.append(frame);
      await new Promise((resolve) => {
        frame.onload = resolve;
        setTimeout(resolve, 3000);
      });
      try {
        return frame.contentDocument?.body?.innerText ?? 'blocked';
      } catch {
        return 'blocked';
      }
    }, cli.url);
    expect(await (await fetch(`${cli.url}/_fakehands/state`)).text()).toBe(before);
    expect(framed).not.toContain('fakehands');
    const refused = await fetch(`${cli.url}/api/v1/sandboxes`, { method: 'POST', headers: { origin: site.url } });
    expect([refused.status, await refused.json()]).toEqual([
      403,
      {
        detail:
          'Forbidden: requests from this origin may not change the fake or reach its control API (allow the origin with --cors ORIGIN)',
      },
    ]);
    const inspector = await fetch(`${cli.url}/_fakehands/`);
    expect([inspector.headers.get('x-frame-options'), inspector.headers.get('content-security-policy')]).toEqual([
      'DENY',
      "frame-ancestors 'none'",
    ]);
  }, 60_000);

  it("with --cors *, allows any origin without credentials (a page never reads an answer with the developer's cookies)", async () => {
    const cli = await startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--cors', '*']);
    const answer = await fetch(`${cli.url}/api/v1/sandboxes/search`, { headers: { origin: 'http://evil.example' } });
    expect([answer.headers.get('access-control-allow-origin'), answer.headers.get('access-control-allow-credentials')]).toEqual([
      '*',
      null,
    ]);
  });
});

describe.skipIf(NO_BROWSER)('the inspector at /_fakehands/', () => {
  it('shows a sandbox created through the API, and pausing it from the page changes what the API answers', async () => {
    const key = 'inspector-key';
    const cli = await startCli(['--quiet', '--auth', 'all', '--api-key', key, '--fixture', 'empty', '--timings', 'instant']);
    const headers = { 'x-session-api-key': key };
    const sandbox = (await (await fetch(`${cli.url}/api/v1/sandboxes`, { method: 'POST', headers })).json()) as { id: string };
    const page = await newTab();
    await page.goto(`${cli.url}/_fakehands/`);
    await page.getByTestId('banner').waitFor({ state: 'visible' });
    await page.getByTestId('api-key').fill(key);
    await page.getByTestId('save-key').click();
    await page.getByTestId(`pause-${sandbox.id}`).click();
    await page.waitForFunction(
      async (args) => {
        const [s] = (await (await fetch(`/api/v1/sandboxes?id=${args.id}`, { headers: { 'x-session-api-key': args.key } })).json()) as {
          status: string;
        }[];
        return s?.status === 'PAUSED';
      },
      { id: sandbox.id, key },
    );
    const [answered] = (await (await fetch(`${cli.url}/api/v1/sandboxes?id=${sandbox.id}`, { headers })).json()) as { status: string }[];
    expect(answered!.status).toBe('PAUSED');
    await page.getByTestId('sandboxes').getByText('PAUSED').waitFor();
    // Text from the API is shown as text: a title with markup is not HTML on the page.
    expect(await page.evaluate(() => document.querySelectorAll('[data-testid="sandboxes"] script').length)).toBe(0);
  }, 60_000);

  it("shows a conversation's live events, and answers the agent's confirmation from the page", async () => {
    const cli = await startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', '--timings', 'instant']);
    const task = (await (
      await fetch(`${cli.url}/api/v1/app-conversations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    ).json()) as { id: string };
    const [ready] = (await (await fetch(`${cli.url}/api/v1/app-conversations/start-tasks?ids=${task.id}`)).json()) as {
      app_conversation_id: string;
    }[];
    const [conversation] = (await (await fetch(`${cli.url}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`)).json()) as {
      id: string;
      conversation_url: string;
      session_api_key: string;
    }[];
    const agent = (path: string, body: unknown) =>
      fetch(`${conversation!.conversation_url}${path}`, {
        method: 'POST',
        headers: { 'x-session-api-key': conversation!.session_api_key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await agent('/confirmation_policy', { policy: { kind: 'AlwaysConfirm' } });
    await agent('/events', { role: 'user', content: [{ type: 'text', text: 'Fix it' }], run: true });
    const page = await newTab();
    await page.goto(`${cli.url}/_fakehands/`);
    await page.getByTestId(`events-${conversation!.id}`).click();
    await page.getByTestId('events').getByText('waiting_for_confirmation').first().waitFor();
    await page.getByTestId('agent-accept').click();
    await page.getByTestId('events').getByText('ObservationEvent').first().waitFor();
    const kinds = await page.getByTestId('events').locator('tr td:nth-child(2)').allTextContents();
    expect(kinds.slice(0, 4)).toEqual(['ConversationStateUpdateEvent', 'ActionEvent', 'ObservationEvent', 'ConversationStateUpdateEvent']);
    const count = await (await fetch(`${cli.url}/api/v1/conversation/${conversation!.id}/events/count?kind__eq=ObservationEvent`)).json();
    expect(count).toBe(1);
  }, 60_000);

  it('lists the requests that missed with why: the nearest routes of a typo, the methods a path allows', async () => {
    const cli = await startCli(['--quiet', '--auth', 'none', '--fixture', 'empty']);
    await fetch(`${cli.url}/api/conversation`);
    await fetch(`${cli.url}/api/conversations`, { method: 'PUT' });
    await fetch(`${cli.url}/api/v1/sandboxes/search`);
    const page = await newTab();
    await page.goto(`${cli.url}/_fakehands/`);
    await page.getByTestId('misses').locator('tr').nth(1).waitFor();
    const rows = await page
      .getByTestId('misses')
      .locator('tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (td) => td.textContent)));
    expect(rows).toEqual([
      ['2', 'PUT', '/api/conversations', '405', 'PUT not allowed on /api/conversations; it allows POST, GET'],
      [
        '1',
        'GET',
        '/api/conversation',
        '404',
        'no route GET /api/conversation; nearest: GET /api/conversations, POST /api/conversations, GET /api/shared-conversations',
      ],
    ]);
  }, 60_000);

  it('writes a screenshot of the inspector with the default fixture (for the README)', async () => {
    const cli = await startCli(['--quiet', '--auth', 'none', '--fixture', 'default']);
    const page = await newTab();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${cli.url}/_fakehands/`);
    await page.getByTestId('sandboxes').locator('tr').first().waitFor();
    const file = join(ROOT, process.env.FAKEHANDS_SCREENSHOT ?? '.tmp/inspector.png');
    await page.screenshot({ path: file, fullPage: false });
    const png = await readFile(file);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png.length).toBeGreaterThan(20_000);
  }, 60_000);
});
