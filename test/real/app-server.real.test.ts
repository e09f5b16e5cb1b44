/**
 * The real app server (openhands-ai, pinned in real/requirements/, process sandboxes) and the
 * fake's app server, side by side on the seed's own flows: an app conversation started through its
 * start task, its sandbox through STARTING → RUNNING → PAUSED → RUNNING → deleted, searches, counts,
 * the 401, 404 and 422 bodies. The real server takes up to ~15 s to bring a sandbox up; the fake's
 * clock is instant, so what is compared is where each flow ends and what each answer looks like.
 * The real one limits a client to 10 requests a second, so requests go one at a time and polls
 * wait half a second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealServer } from '../../src/real/processes.js';
import { REAL_PACKAGES } from '../../src/real/provision.js';
import { REAL_SESSION_KEY, startRealAppServer, useScriptedLlm } from '../../src/real/servers.js';
import { startLlmServer, type LlmServer } from '../../src/server/llm-server.js';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';
import { type Answered, call, compareServer, compareAnswers, compareValues, sleep, type Target, writeFacts } from './support.js';

const SCRIPTS = [{ match: 'say hello', steps: [{ finish: 'Said hello.' }] }];

compareServer('app server');

let llm: LlmServer;
let real: RealServer;
let fakeServers: FakeServers;
const targets: Record<'real' | 'fake', Target> = {} as never;

beforeAll(async () => {
  llm = await startLlmServer({ scripts: SCRIPTS });
  [real, fakeServers] = await Promise.all([
    startRealAppServer({ log: (line) => process.stderr.write(`${line}\n`) }),
    startFakeServers({ fake: { fixture: 'empty', timings: 'instant', auth: 'all', apiKey: REAL_SESSION_KEY, agentScripts: SCRIPTS } }),
  ]);
  targets.real = { side: 'real', url: real.url, key: REAL_SESSION_KEY };
  targets.fake = { side: 'fake', url: fakeServers.url, key: REAL_SESSION_KEY };
  const settings = {
    agent_settings_diff: { llm: { model: 'openai/fakehands', base_url: `${llm.url}/v1`, api_key: 'sk-fakehands', num_retries: 0 } },
  };
  await useScriptedLlm(real, llm.url);
  expect((await call(targets.fake, 'POST', '/api/v1/settings', settings)).status).toBe(200);
}, 900_000);

afterAll(async () => {
  writeFacts(import.meta.filename, { 'app server': REAL_PACKAGES['app-server'].version });
  await Promise.all([real?.stop(), fakeServers?.close(), llm?.close()]);
});

/** Runs `step` on the real server, then on the fake (one at a time: the real one limits request rates). */
async function both(step: (t: Target) => Promise<Answered>): Promise<{ real: Answered; fake: Answered }> {
  const r = await step(targets.real);
  const f = await step(targets.fake);
  return { real: r, fake: f };
}

/** Polls `read` every half second until `done` holds, or 120 s pass. */
async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(500);
  }
}

/** Starts an app conversation and waits for its start task to end; the task's last answer. */
async function startAppConversation(t: Target, text: string): Promise<Record<string, unknown>> {
  const started = await call(t, 'POST', '/api/v1/app-conversations', {
    initial_message: { role: 'user', content: [{ type: 'text', text }] },
  });
  expect(started.status, JSON.stringify(started.body).slice(0, 300)).toBe(200);
  const id = (started.body as { id: string }).id;
  const task = await poll(
    () => call(t, 'GET', `/api/v1/app-conversations/start-tasks?ids=${id}`),
    (a) => ['READY', 'ERROR'].includes(((a.body as { status?: string }[])[0] ?? {}).status ?? ''),
  );
  return (task.body as Record<string, unknown>[])[0]!;
}

describe('health: GET /alive, /health, /ready, /server_info', () => {
  it('answer alike without a key', async () => {
    const differences: string[] = [];
    for (const path of ['/alive', '/health', '/ready', '/server_info']) {
      const { real: r, fake: f } = await both((t) => call(t, 'GET', path, undefined, { key: null }));
      differences.push(...compareAnswers(`GET ${path}`, r, f));
    }
    expect(differences).toEqual([]);
  });
});

describe('X-Session-API-Key', () => {
  it('refuses a request without it, or with a wrong one, with 401 alike', async () => {
    const differences: string[] = [];
    for (const path of ['/api/v1/app-conversations/search', '/api/v1/sandboxes/search', '/api/v1/sandbox-specs/search']) {
      for (const [name, key] of [
        ['no key', null],
        ['a wrong key', 'wrong'],
      ] as const) {
        const { real: r, fake: f } = await both((t) => call(t, 'GET', path, undefined, { key }));
        differences.push(...compareAnswers(`GET ${path} with ${name}`, r, f));
      }
    }
    expect(differences).toEqual([]);
  });
});

describe('POST /api/v1/app-conversations', () => {
  it('starts a conversation through its start task to READY, with the same shapes', async () => {
    const started = await both((t) =>
      call(t, 'POST', '/api/v1/app-conversations', {
        initial_message: { role: 'user', content: [{ type: 'text', text: 'Please say hello' }] },
      }),
    );
    const differences = compareAnswers('POST /api/v1/app-conversations', started.real, started.fake);
    const tasks = { real: {} as Record<string, unknown>, fake: {} as Record<string, unknown> };
    for (const side of ['real', 'fake'] as const) {
      const id = (started[side].body as { id: string }).id;
      const last = await poll(
        () => call(targets[side], 'GET', `/api/v1/app-conversations/start-tasks?ids=${id}`),
        (a) => ['READY', 'ERROR'].includes(((a.body as { status?: string }[])[0] ?? {}).status ?? ''),
      );
      tasks[side] = (last.body as Record<string, unknown>[])[0]!;
    }
    differences.push(...compareValues('start task › final status', tasks.real.status, tasks.fake.status));
    differences.push(
      ...compareAnswers(
        'GET /api/v1/app-conversations/start-tasks?ids= (READY)',
        { status: 200, body: tasks.real },
        { status: 200, body: tasks.fake },
      ),
    );
    // Once the agent's first run has ended on each side (the real one is still running when its task is READY).
    const settled = async (side: 'real' | 'fake') =>
      poll(
        () => call(targets[side], 'GET', `/api/v1/app-conversations?ids=${String(tasks[side].app_conversation_id)}`),
        (a) => ((a.body as { execution_status?: string }[])[0] ?? {}).execution_status !== 'running',
      );
    const conversations = { real: await settled('real'), fake: await settled('fake') };
    differences.push(...compareAnswers('GET /api/v1/app-conversations?ids= (run ended)', conversations.real, conversations.fake));
    expect(differences).toEqual([]);
  });

  it('refuses malformed bodies alike (status and 422 detail)', async () => {
    const bodies: [string, string][] = [
      ['not JSON', '{"initial_message": '],
      [
        'a bad conversation_id, a string message, a string pr_number',
        '{"conversation_id": "not-a-uuid", "initial_message": "hi", "pr_number": "x"}',
      ],
      ['a list', '[]'],
      ['a message of unknown role', '{"initial_message": {"role": "wizard", "content": []}}'],
      ['a number for the repository', '{"selected_repository": 5}'],
      ['an unknown agent_type', '{"agent_type": "nope"}'],
    ];
    const differences: string[] = [];
    for (const [name, raw] of bodies) {
      const { real: r, fake: f } = await both((t) => call(t, 'POST', '/api/v1/app-conversations', undefined, { raw }));
      differences.push(...compareAnswers(`POST /api/v1/app-conversations with ${name}`, r, f));
    }
    expect(differences).toEqual([]);
  });
});

describe('GET /api/v1/app-conversations/search, /count and ?ids=', () => {
  it('lists, counts and batch-reads alike (null for an unknown id, 400 for a malformed one)', async () => {
    const differences: string[] = [];
    for (const path of [
      '/api/v1/app-conversations/search',
      '/api/v1/app-conversations/count',
      '/api/v1/app-conversations?ids=8a3a0c6f6d3c4c43a5a83f0d8a1b2c3d',
      '/api/v1/app-conversations?ids=zzz',
      '/api/v1/app-conversations/start-tasks/count',
      '/api/v1/app-conversations/search?limit=0',
    ]) {
      const { real: r, fake: f } = await both((t) => call(t, 'GET', path));
      differences.push(...compareAnswers(`GET ${path}`, r, f));
    }
    expect(differences).toEqual([]);
  });
});

describe('the sandbox lifecycle', () => {
  it('goes RUNNING → PAUSED → RUNNING → deleted alike, with the same answers on the way', async () => {
    const differences: string[] = [];
    const ids = { real: '', fake: '' };
    for (const side of ['real', 'fake'] as const) {
      const task = await startAppConversation(targets[side], 'Please say hello');
      ids[side] = String(task.sandbox_id);
    }
    const step = async (name: string, method: string, path: (id: string) => string) => {
      const r = await call(targets.real, method, path(ids.real));
      const f = await call(targets.fake, method, path(ids.fake));
      differences.push(...compareAnswers(name, r, f));
      return { real: r, fake: f };
    };
    const statusOf = async (side: 'real' | 'fake') =>
      ((await call(targets[side], 'GET', `/api/v1/sandboxes?id=${ids[side]}`)).body as ({ status: string } | null)[])[0]?.status ?? 'null';
    await step('GET /api/v1/sandboxes?id= (RUNNING)', 'GET', (id) => `/api/v1/sandboxes?id=${id}`);
    await step('POST /api/v1/sandboxes/{id}/pause', 'POST', (id) => `/api/v1/sandboxes/${id}/pause`);
    differences.push(
      ...compareValues(
        'sandbox status after pause',
        await poll(
          () => statusOf('real'),
          (s) => s === 'PAUSED',
        ),
        await statusOf('fake'),
      ),
    );
    await step('GET /api/v1/sandboxes?id= (PAUSED)', 'GET', (id) => `/api/v1/sandboxes?id=${id}`);
    await step('POST /api/v1/sandboxes/{id}/resume', 'POST', (id) => `/api/v1/sandboxes/${id}/resume`);
    const resumed = await poll(
      () => statusOf('real'),
      (s) => s === 'RUNNING',
    );
    const fakeResumed = await poll(
      () => statusOf('fake'),
      (s) => s === 'RUNNING',
    );
    differences.push(...compareValues('sandbox status after resume', resumed, fakeResumed));
    await step('DELETE /api/v1/sandboxes/{id} without ?sandbox_id', 'DELETE', (id) => `/api/v1/sandboxes/${id}`);
    await step('DELETE /api/v1/sandboxes/{id}?sandbox_id=', 'DELETE', (id) => `/api/v1/sandboxes/${id}?sandbox_id=${id}`);
    await step('DELETE /api/v1/sandboxes/{id}?sandbox_id= again', 'DELETE', (id) => `/api/v1/sandboxes/${id}?sandbox_id=${id}`);
    differences.push(...compareValues('sandbox after delete', await statusOf('real'), await statusOf('fake')));
    expect(differences).toEqual([]);
  });

  it('answers pause and resume of an unknown sandbox alike', async () => {
    const differences: string[] = [];
    for (const verb of ['pause', 'resume']) {
      const { real: r, fake: f } = await both((t) => call(t, 'POST', `/api/v1/sandboxes/NoSuchSandbox123/${verb}`));
      differences.push(...compareAnswers(`POST /api/v1/sandboxes/{unknown}/${verb}`, r, f));
    }
    expect(differences).toEqual([]);
  });
});

describe('GET /api/v1/sandboxes/search and /api/v1/sandbox-specs/search', () => {
  it('page alike', async () => {
    const differences: string[] = [];
    for (const path of ['/api/v1/sandboxes/search', '/api/v1/sandbox-specs/search', '/api/v1/sandboxes/search?limit=0']) {
      const { real: r, fake: f } = await both((t) => call(t, 'GET', path));
      differences.push(...compareAnswers(`GET ${path}`, r, f));
    }
    expect(differences).toEqual([]);
  });
});

describe('the V0 routes', () => {
  it('answer alike (the 1.x app server no longer serves them)', async () => {
    const differences: string[] = [];
    for (const path of ['/api/conversations', '/api/settings', '/api/options/models']) {
      const { real: r, fake: f } = await both((t) => call(t, 'GET', path));
      differences.push(...compareAnswers(`GET ${path}`, r, f));
    }
    expect(differences).toEqual([]);
  });
});
