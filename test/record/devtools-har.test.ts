/**
 * A HAR a browser's devtools exported while the web app ran imports too: its OpenHands hosts' routes
 * seed the fake (the app server's conversations and sandboxes, the user's settings, the custom
 * secrets by name, a conversation's events from a socket's frames); the page's other hosts (fonts,
 * telemetry) are left out and counted in the one line `fakehands serve --from-recording` prints.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Har, HarEntry } from '../../src/domain/recording/har.js';
import { createFake } from '../../src/index.js';
import { startCli } from '../support/cli.js';
import { freshDir } from './support.js';

const APP = 'http://localhost:3000';
const AGENT = 'http://localhost:8000';

/** An entry as Chromium's devtools write one (with their own extra fields). */
function entry(method: string, url: string, status: number, body: unknown, request?: unknown): HarEntry & Record<string, unknown> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return {
    _initiator: { type: 'script' },
    _priority: 'High',
    _resourceType: 'fetch',
    cache: {},
    connection: '4242',
    pageref: 'page_1',
    request: {
      method,
      url,
      httpVersion: 'http/1.1',
      headers: [{ name: 'Accept', value: 'application/json' }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: request === undefined ? 0 : JSON.stringify(request).length,
      ...(request === undefined ? {} : { postData: { mimeType: 'application/json', text: JSON.stringify(request) } }),
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'http/1.1',
      headers: [{ name: 'content-type', value: 'application/json' }],
      cookies: [],
      content: {
        size: text?.length ?? 0,
        mimeType: 'application/json',
        ...(text === undefined ? {} : { text }),
        compression: 0,
      } as HarEntry['response']['content'],
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _transferSize: 100,
      _error: null,
    } as HarEntry['response'],
    serverIPAddress: '127.0.0.1',
    startedDateTime: '2026-12-01T10:00:00.000Z',
    time: 12.5,
    timings: {
      blocked: 1,
      dns: -1,
      ssl: -1,
      connect: -1,
      send: 0.1,
      wait: 10,
      receive: 1.4,
      _blocked_queueing: 0.5,
    } as HarEntry['timings'],
  };
}

let har: Har;
let answers: { conversations: { items: Record<string, unknown>[] }; settings: Record<string, unknown> };
let running: string;
const events = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    timestamp: '2026-12-01T10:00:01.000000',
    source: 'user',
    kind: 'MessageEvent',
    llm_message: { role: 'user', content: [{ type: 'text', text: 'Fix the flaky test' }] },
    activated_skills: [],
    extended_content: [],
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    timestamp: '2026-12-01T10:00:02.000000',
    source: 'agent',
    kind: 'MessageEvent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text: 'On it.' }] },
    activated_skills: [],
    extended_content: [],
  },
];

beforeAll(async () => {
  // The app server's answers are a fake's (the default fixture): the shapes a real session has.
  const source = await createFake({ auth: 'none', agentUrl: AGENT, baseUrl: APP });
  const get = async (path: string) => (await source.fetch(new Request(`${APP}${path}`))).json() as Promise<Record<string, unknown>>;
  const conversations = (await get('/api/v1/app-conversations/search?limit=100')) as { items: Record<string, unknown>[] };
  const settings = await get('/api/v1/settings');
  running = conversations.items.find((c) => c.sandbox_status === 'RUNNING')!.id as string;
  answers = { conversations, settings };
  const socket = entry('GET', `ws://localhost:8000/sockets/events/${running}?resend_mode=all`, 101, undefined);
  socket._resourceType = 'websocket';
  socket._webSocketMessages = [
    { type: 'send', time: 1764583200.1, opcode: 1, data: '{"session_api_key":"**********"}' },
    ...events.map((e, i) => ({ type: 'receive' as const, time: 1764583201 + i, opcode: 1, data: JSON.stringify(e) })),
  ];
  har = {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [{ id: 'page_1', title: 'OpenHands', startedDateTime: '2026-12-01T10:00:00.000Z', pageTimings: {} }],
      entries: [
        entry('GET', 'https://fonts.googleapis.com/css2?family=Inter', 200, 'body{}'),
        entry('GET', `${APP}/api/v1/app-conversations/search?limit=100`, 200, conversations),
        entry('GET', `${APP}/api/v1/sandboxes/search?limit=100`, 200, await get('/api/v1/sandboxes/search?limit=100')),
        entry('GET', `${APP}/api/v1/sandbox-specs/search`, 200, await get('/api/v1/sandbox-specs/search')),
        entry('GET', `${APP}/api/v1/settings`, 200, settings),
        entry('GET', `${APP}/api/secrets`, 200, await get('/api/secrets')),
        entry(
          'POST',
          `${APP}/api/secrets`,
          201,
          { message: 'Secret created successfully' },
          { name: 'DEPLOY_KEY', value: '**********', description: 'made in the session' },
        ),
        entry('GET', `${APP}/assets/root-BkQ3x.js`, 200, 'export {}'),
        entry('POST', 'https://o4507.ingest.sentry.io/api/4507/envelope/?sentry_key=abc', 200, {}),
        entry('GET', 'https://fonts.gstatic.com/s/inter/v13/a.woff2', 200, ''),
        socket,
      ],
    },
  };
});

describe('a devtools HAR as a recording', () => {
  it('seeds the app server: the same conversations, sandboxes, settings and secret names', async () => {
    const fake = await createFake({ recording: { har }, auth: 'none', agentUrl: AGENT, baseUrl: APP });
    const get = async (path: string) => (await fake.fetch(new Request(`${APP}${path}`))).json() as Promise<Record<string, unknown>>;
    const listed = (await get('/api/v1/app-conversations/search?limit=100')) as { items: Record<string, unknown>[] };
    const shown = (c: Record<string, unknown>) => [
      c.id,
      c.title,
      c.sandbox_id,
      c.sandbox_status,
      c.selected_repository,
      c.git_provider,
      c.created_at,
    ];
    expect(listed.items.map(shown)).toEqual(answers.conversations.items.map(shown));
    const settings = await get('/api/v1/settings');
    expect([settings.language, settings.llm_api_key_set, (settings.agent_settings as { llm: { model: string } }).llm.model]).toEqual([
      answers.settings.language,
      answers.settings.llm_api_key_set,
      (answers.settings.agent_settings as { llm: { model: string } }).llm.model,
    ]);
    expect(await get('/api/secrets')).toEqual({
      custom_secrets: [
        { name: 'NPM_TOKEN', description: 'Publishes the packages' },
        { name: 'SENTRY_DSN', description: null },
        { name: 'DEPLOY_KEY', description: 'made in the session' },
      ],
    });
  });

  it("gives a conversation the events its socket's frames carried", async () => {
    const fake = await createFake({ recording: { har }, auth: 'none', agentUrl: AGENT, baseUrl: APP });
    const page = (await (await fake.fetch(new Request(`${APP}/api/v1/conversation/${running}/events/search`))).json()) as {
      items: unknown[];
    };
    expect(page.items).toEqual(events);
  });

  it("keeps an app conversation's tags as the app server answered them, when its agent server's info has others", async () => {
    // The real app server adds tags of its own (archiveworkspacepath) that the sandbox's agent server does not hold.
    const app = structuredClone(answers.conversations.items.find((c) => c.id === running)!);
    app.tags = { archiveworkspacepath: '/workspace/archive' };
    const info = { id: running, agent: { kind: 'Agent', llm: { model: 'openai/fakehands' } }, execution_status: 'finished', tags: {} };
    const both: Har = {
      log: {
        ...har.log,
        entries: [
          ...har.log.entries,
          entry('GET', `${APP}/api/v1/app-conversations?ids=${running}`, 200, [app]),
          entry('GET', `${AGENT}/api/conversations/${running.replace(/-/g, '')}`, 200, info),
        ],
      },
    };
    const fake = await createFake({ recording: { har: both }, auth: 'none', agentUrl: AGENT, baseUrl: APP });
    const [served] = (await (await fake.fetch(new Request(`${APP}/api/v1/app-conversations?ids=${running}`))).json()) as [
      { tags: Record<string, string> },
    ];
    expect(served.tags).toEqual({ archiveworkspacepath: '/workspace/archive' });
  });

  it('is served by fakehands serve --from-recording FILE.har, the other hosts counted in one line', async () => {
    const file = join(await freshDir(), 'session.har');
    await writeFile(file, JSON.stringify(har));
    const cli = await startCli(['--agent-port', '0', '--auth', 'none', '--from-recording', file]);
    expect(cli.stdout()).toContain(
      `from recording ${file}: 31 conversation(s), 2 event(s) from 8 exchange(s) of localhost:3000, localhost:8000; skipped 3 exchange(s) of 3 other host(s) (fonts.googleapis.com, fonts.gstatic.com, o4507.ingest.sentry.io)\n`,
    );
    const listed = (await (await fetch(`${cli.url}/api/v1/app-conversations/search?limit=100`)).json()) as { items: unknown[] };
    expect(listed.items).toHaveLength(31);
  });
});
