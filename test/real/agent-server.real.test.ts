/**
 * The real agent server (openhands-agent-server, pinned in real/requirements/) and the fake's
 * agent host, side by side: the same requests to each, compared status by status and body shape by
 * body shape; the same scripted runs (the real agent loop calls fakehands' scripted LLM, the fake's
 * agent plays the same script), compared event by event. Every difference is fixed in the fake or
 * declared in src/real/declared.ts with its reason.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startRealAgentServer } from '../../src/real/servers.js';
import { README, readmeBlocks } from '../support/readme.js';
import type { RealServer } from '../../src/real/processes.js';
import { REAL_PACKAGES } from '../../src/real/provision.js';
import { startLlmServer, type LlmServer } from '../../src/server/llm-server.js';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';
import {
  type Answered,
  call,
  compareAnswers,
  compareSequences,
  compareValues,
  eventName,
  type Target,
  until,
  writeFacts,
  compareServer,
} from './support.js';

/** The scripts both agents play: the real one through the scripted LLM, the fake's as its own. */
const SCRIPTS = [
  { match: 'say hello', steps: [{ terminal: { command: 'echo hello', output: 'hello' } }, { finish: 'Said hello.' }] },
  { match: 'just answer', steps: [{ message: 'Here is the answer.' }] },
  { match: 'think first', steps: [{ think: 'Let me think.' }, { finish: 'Thought it through.' }] },
  { match: 'hit the rate limit', steps: [{ fail: { code: 'RateLimitError', detail: 'Rate limit reached for requests' } }] },
];

compareServer('agent server');

let llm: LlmServer;
let real: RealServer;
let fakeServers: FakeServers;
const targets: Record<'real' | 'fake', Target> = {} as never;
const workDir = mkdtempSync(join(tmpdir(), 'fakehands-real-work-'));

beforeAll(async () => {
  llm = await startLlmServer({ scripts: SCRIPTS });
  [real, fakeServers] = await Promise.all([
    startRealAgentServer({ log: (line) => process.stderr.write(`${line}\n`) }),
    startFakeServers({ fake: { fixture: 'empty', timings: 'instant', agentScripts: SCRIPTS } }),
  ]);
  targets.real = { side: 'real', url: real.url, key: real.key! };
  // The fake's agent server is the one a RUNNING sandbox exposes, with that sandbox's key.
  const created = await call({ side: 'fake', url: fakeServers.url, key: 'unused' }, 'POST', '/api/v1/sandboxes', {});
  const id = (created.body as { id: string }).id;
  const running = await until(
    () => call({ side: 'fake', url: fakeServers.url, key: 'unused' }, 'GET', `/api/v1/sandboxes?id=${id}`),
    (a) => (a.body as { status?: string }[])[0]?.status === 'RUNNING',
  );
  targets.fake = { side: 'fake', url: fakeServers.agentUrl, key: (running.body as { session_api_key: string }[])[0]!.session_api_key };
}, 600_000);

afterAll(async () => {
  writeFacts(import.meta.filename, { 'agent server': REAL_PACKAGES['agent-server'].version });
  await Promise.all([real?.stop(), fakeServers?.close(), llm?.close()]);
});

/** Runs `step` on both sides; returns both answers. */
async function both(step: (t: Target) => Promise<Answered>): Promise<{ real: Answered; fake: Answered }> {
  const [r, f] = await Promise.all([step(targets.real), step(targets.fake)]);
  return { real: r, fake: f };
}

/** The body that starts a conversation on `t`, its agent's LLM the scripted one. */
const startBody = () => ({
  agent: {
    kind: 'Agent',
    llm: { model: 'openai/fakehands', base_url: `${llm.url}/v1`, api_key: 'sk-fakehands', num_retries: 0 },
    tools: [{ name: 'terminal' }, { name: 'file_editor' }, { name: 'task_tracker' }],
  },
  workspace: { working_dir: workDir },
});

/** Starts a conversation on `t`; its id. */
async function startConversation(t: Target): Promise<string> {
  const created = await call(t, 'POST', '/api/conversations', startBody());
  expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
  return (created.body as { id: string }).id;
}

/** The execution status of a conversation. */
const statusOf = async (t: Target, id: string) =>
  ((await call(t, 'GET', `/api/conversations/${id}`)).body as { execution_status: string }).execution_status;

/** Sends a user message that runs the agent, and waits until the run ends. */
async function runToEnd(t: Target, id: string, text: string): Promise<string> {
  const sent = await call(t, 'POST', `/api/conversations/${id}/events`, { role: 'user', content: [{ type: 'text', text }], run: true });
  expect(sent.status).toBe(200);
  return until(
    () => statusOf(t, id),
    (s) => s !== 'running' && s !== 'idle',
  );
}

/** Every event of a conversation, oldest first, by name. */
async function eventNames(t: Target, id: string): Promise<string[]> {
  const page = await call(t, 'GET', `/api/conversations/${id}/events/search?limit=100`);
  return ((page.body as { items: Record<string, unknown>[] }).items ?? []).map(eventName);
}

describe('GET /server_info, /alive, /health, /ready', () => {
  it('answer alike on both', async () => {
    const differences: string[] = [];
    for (const path of ['/server_info', '/alive', '/health', '/ready']) {
      const { real: r, fake: f } = await both((t) => call(t, 'GET', path));
      differences.push(...compareAnswers(`GET ${path}`, r, f));
    }
    expect(differences).toEqual([]);
  });
});

describe('the session key', () => {
  it('answers a request without it, or with a wrong one, alike', async () => {
    const differences: string[] = [];
    for (const [name, key] of [
      ['no key', null],
      ['a wrong key', 'not-the-key'],
    ] as const) {
      const { real: r, fake: f } = await both((t) => call(t, 'GET', '/api/conversations/search', undefined, { key }));
      differences.push(...compareAnswers(`GET /api/conversations/search with ${name}`, r, f));
    }
    expect(differences).toEqual([]);
  });
});

describe('POST /api/conversations', () => {
  it('starts a conversation: 201 and the same shape', async () => {
    const { real: r, fake: f } = await both((t) => call(t, 'POST', '/api/conversations', startBody()));
    expect(compareAnswers('POST /api/conversations', r, f)).toEqual([]);
  });

  it('refuses malformed bodies alike (status and 422 detail)', async () => {
    const bodies: [string, string][] = [
      ['not JSON', '{"agent": '],
      ['an empty object', '{}'],
      ['a list', '[]'],
      ['a string', '"x"'],
      ['null', 'null'],
      ['an agent that is a string', '{"agent": "x", "workspace": {"working_dir": "/tmp"}}'],
      ['an agent without llm', '{"agent": {"kind": "Agent"}, "workspace": {"working_dir": "/tmp"}}'],
      ['an llm without model', '{"agent": {"kind": "Agent", "llm": {}}, "workspace": {"working_dir": "/tmp"}}'],
      ['a workspace without working_dir', '{"agent": {"kind": "Agent", "llm": {"model": "x"}}, "workspace": {}}'],
      ['an unknown agent kind', '{"agent": {"kind": "Nope", "llm": {"model": "x"}}, "workspace": {"working_dir": "/tmp"}}'],
      [
        'max_iterations a string',
        '{"agent": {"kind": "Agent", "llm": {"model": "x"}}, "workspace": {"working_dir": "/tmp"}, "max_iterations": "many"}',
      ],
      [
        'max_iterations zero',
        '{"agent": {"kind": "Agent", "llm": {"model": "x"}}, "workspace": {"working_dir": "/tmp"}, "max_iterations": 0}',
      ],
      ['a tool without name', '{"agent": {"kind": "Agent", "llm": {"model": "x"}, "tools": [{}]}, "workspace": {"working_dir": "/tmp"}}'],
      ['tools an object', '{"agent": {"kind": "Agent", "llm": {"model": "x"}, "tools": {}}, "workspace": {"working_dir": "/tmp"}}'],
      [
        'a confirmation policy of unknown kind',
        '{"agent": {"kind": "Agent", "llm": {"model": "x"}}, "workspace": {"working_dir": "/tmp"}, "confirmation_policy": {"kind": "Nope"}}',
      ],
      [
        'stuck_detection a list',
        '{"agent": {"kind": "Agent", "llm": {"model": "x"}}, "workspace": {"working_dir": "/tmp"}, "stuck_detection": []}',
      ],
      [
        'a conversation_id not a uuid',
        '{"agent": {"kind": "Agent", "llm": {"model": "x"}}, "workspace": {"working_dir": "/tmp"}, "conversation_id": "nope"}',
      ],
      [
        'initial_message a number',
        '{"agent": {"kind": "Agent", "llm": {"model": "x"}}, "workspace": {"working_dir": "/tmp"}, "initial_message": 5}',
      ],
      [
        'llm temperature a string',
        '{"agent": {"kind": "Agent", "llm": {"model": "x", "temperature": "hot"}}, "workspace": {"working_dir": "/tmp"}}',
      ],
      ['secrets a list', '{"agent": {"kind": "Agent", "llm": {"model": "x"}}, "workspace": {"working_dir": "/tmp"}, "secrets": []}'],
      ['deeply nested', `${'['.repeat(100)}${']'.repeat(100)}`],
    ];
    const differences: string[] = [];
    for (const [name, raw] of bodies) {
      const { real: r, fake: f } = await both((t) => call(t, 'POST', '/api/conversations', undefined, { raw }));
      differences.push(...compareAnswers(`POST /api/conversations with ${name}`, r, f));
    }
    expect(differences).toEqual([]);
  });
});

describe('GET /api/conversations/{id}', () => {
  it('reads a conversation, and answers an unknown or malformed id alike', async () => {
    const ids = await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
    const got = await Promise.all([
      call(targets.real, 'GET', `/api/conversations/${ids[0]}`),
      call(targets.fake, 'GET', `/api/conversations/${ids[1]}`),
    ]);
    const differences = compareAnswers('GET /api/conversations/{id}', got[0], got[1]);
    const unknown = await both((t) => call(t, 'GET', '/api/conversations/8a3a0c6f-6d3c-4c43-a5a8-3f0d8a1b2c3d'));
    differences.push(...compareAnswers('GET /api/conversations/{unknown id}', unknown.real, unknown.fake));
    const malformed = await both((t) => call(t, 'GET', '/api/conversations/not-a-uuid'));
    differences.push(...compareAnswers('GET /api/conversations/{malformed id}', malformed.real, malformed.fake));
    expect(differences).toEqual([]);
  });
});

describe('GET /api/conversations/search and /count', () => {
  it('pages and counts alike', async () => {
    await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
    const differences: string[] = [];
    for (const path of [
      '/api/conversations/search?limit=2',
      '/api/conversations/count',
      '/api/conversations/search?limit=0',
      '/api/conversations/search?limit=101',
    ]) {
      const { real: r, fake: f } = await both((t) => call(t, 'GET', path));
      differences.push(...compareAnswers(`GET ${path}`, r, f));
    }
    expect(differences).toEqual([]);
  });
});

describe('PATCH /api/conversations/{id}', () => {
  it('renames a conversation, and the title reads back alike', async () => {
    const ids = await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
    const patched = await Promise.all(
      [targets.real, targets.fake].map((t, i) => call(t, 'PATCH', `/api/conversations/${ids[i]}`, { title: 'Renamed by the suite' })),
    );
    const differences = compareAnswers('PATCH /api/conversations/{id}', patched[0]!, patched[1]!);
    const titles = await Promise.all(
      [targets.real, targets.fake].map(
        async (t, i) => ((await call(t, 'GET', `/api/conversations/${ids[i]}`)).body as { title: unknown }).title,
      ),
    );
    differences.push(...compareValues('PATCH /api/conversations/{id} › title read back', titles[0], titles[1]));
    expect(differences).toEqual([]);
  });
});

describe('DELETE /api/conversations/{id}', () => {
  it('deletes a conversation; a second delete and a read answer alike', async () => {
    const ids = await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
    const differences: string[] = [];
    for (const [step, method] of [
      ['DELETE', 'DELETE'],
      ['DELETE again', 'DELETE'],
      ['GET after DELETE', 'GET'],
    ] as const) {
      const answers = await Promise.all([targets.real, targets.fake].map((t, i) => call(t, method, `/api/conversations/${ids[i]}`)));
      differences.push(...compareAnswers(`${step} /api/conversations/{id}`, answers[0]!, answers[1]!));
    }
    expect(differences).toEqual([]);
  });
});

describe('POST /api/conversations/{id}/events (a message that runs the agent)', () => {
  for (const [name, text] of [
    ['a terminal command and finish', 'Please say hello'],
    ['a plain answer', 'Please just answer'],
    ['a thought and finish', 'Please think first'],
    ['a rate-limited LLM', 'Now hit the rate limit'],
  ] as const) {
    it(`runs ${name} to the same end, with the same events`, async () => {
      const ids = await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
      const ends = await Promise.all([runToEnd(targets.real, ids[0], text), runToEnd(targets.fake, ids[1], text)]);
      const differences = compareValues(`run ${name} › execution_status`, ends[0], ends[1]);
      const events = await Promise.all([eventNames(targets.real, ids[0]), eventNames(targets.fake, ids[1])]);
      differences.push(...compareSequences(`run ${name} › events`, events[0], events[1]));
      expect(differences).toEqual([]);
    });
  }
});

describe('POST /api/conversations/{id}/pause, /run and /interrupt', () => {
  it('pauses a conversation whose run has finished, lets it run again and interrupts it alike', async () => {
    const ids = await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
    await Promise.all([runToEnd(targets.real, ids[0], 'Please say hello'), runToEnd(targets.fake, ids[1], 'Please say hello')]);
    const differences: string[] = [];
    const step = async (name: string, method: string, suffix: string) => {
      const answers = await Promise.all(
        [targets.real, targets.fake].map((t, i) => call(t, method, `/api/conversations/${ids[i]}${suffix}`)),
      );
      differences.push(...compareAnswers(name, answers[0]!, answers[1]!));
    };
    const statuses = async (name: string) => {
      const seen = await Promise.all([statusOf(targets.real, ids[0]), statusOf(targets.fake, ids[1])]);
      differences.push(...compareValues(name, seen[0], seen[1]));
    };
    await step('POST /api/conversations/{id}/pause (after a finished run)', 'POST', '/pause');
    await statuses('execution_status after pause');
    await step('POST /api/conversations/{id}/run (paused)', 'POST', '/run');
    await Promise.all([
      until(
        () => statusOf(targets.real, ids[0]),
        (s) => s !== 'running',
      ),
      until(
        () => statusOf(targets.fake, ids[1]),
        (s) => s !== 'running',
      ),
    ]);
    await statuses('execution_status after run');
    await step('POST /api/conversations/{id}/interrupt', 'POST', '/interrupt');
    await statuses('execution_status after interrupt');
    await step('POST /api/conversations/{unknown}/pause', 'POST', '/../8a3a0c6f-6d3c-4c43-a5a8-3f0d8a1b2c3d/pause');
    expect(differences).toEqual([]);
  });
});

describe('GET /api/conversations/{id}/events/search and /count', () => {
  it('pages, sorts, filters and counts a finished run alike', async () => {
    const ids = await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
    await Promise.all([runToEnd(targets.real, ids[0], 'Please say hello'), runToEnd(targets.fake, ids[1], 'Please say hello')]);
    const differences: string[] = [];
    for (const query of [
      '/events/search?limit=2',
      '/events/search?sort_order=TIMESTAMP_DESC&limit=3',
      '/events/search?kind=MessageEvent',
      '/events/search?source=user',
      '/events/search?limit=0',
      '/events/search?sort_order=SIDEWAYS',
      '/events/count?kind=ActionEvent',
    ]) {
      const answers = await Promise.all([targets.real, targets.fake].map((t, i) => call(t, 'GET', `/api/conversations/${ids[i]}${query}`)));
      differences.push(...compareAnswers(`GET /api/conversations/{id}${query}`, answers[0]!, answers[1]!));
    }
    const second = await Promise.all(
      [targets.real, targets.fake].map(async (t, i) => {
        const first = await call(t, 'GET', `/api/conversations/${ids[i]}/events/search?limit=2`);
        const next = (first.body as { next_page_id: string | null }).next_page_id;
        return call(t, 'GET', `/api/conversations/${ids[i]}/events/search?limit=2&page_id=${next}`);
      }),
    );
    differences.push(...compareAnswers('GET /api/conversations/{id}/events/search (the second page)', second[0]!, second[1]!));
    expect(differences).toEqual([]);
  });
});

describe('confirmation mode: POST .../confirmation_policy and .../events/respond_to_confirmation', () => {
  for (const [name, accept] of [
    ['accepts', true],
    ['rejects', false],
  ] as const) {
    it(`${name} the action the agent waits on, to the same end and events`, async () => {
      const ids = await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
      const differences: string[] = [];
      const policy = await Promise.all(
        [targets.real, targets.fake].map((t, i) =>
          call(t, 'POST', `/api/conversations/${ids[i]}/confirmation_policy`, { policy: { kind: 'AlwaysConfirm' } }),
        ),
      );
      differences.push(...compareAnswers('POST .../confirmation_policy', policy[0]!, policy[1]!));
      await Promise.all(
        [targets.real, targets.fake].map((t, i) =>
          call(t, 'POST', `/api/conversations/${ids[i]}/events`, {
            role: 'user',
            content: [{ type: 'text', text: 'Please say hello' }],
            run: true,
          }),
        ),
      );
      const waiting = await Promise.all(
        [targets.real, targets.fake].map((t, i) =>
          until(
            () => statusOf(t, ids[i]!),
            (s) => s !== 'running' && s !== 'idle',
          ),
        ),
      );
      differences.push(...compareValues(`confirmation ${name} › status before the answer`, waiting[0], waiting[1]));
      const answered = await Promise.all(
        [targets.real, targets.fake].map((t, i) =>
          call(t, 'POST', `/api/conversations/${ids[i]}/events/respond_to_confirmation`, { accept, reason: 'Checked by the suite' }),
        ),
      );
      differences.push(...compareAnswers(`POST .../respond_to_confirmation (accept ${accept})`, answered[0]!, answered[1]!));
      const ends = await Promise.all(
        [targets.real, targets.fake].map((t, i) =>
          until(
            () => statusOf(t, ids[i]!),
            (s) => s !== 'running' && s !== 'waiting_for_confirmation',
          ),
        ),
      );
      differences.push(...compareValues(`confirmation ${name} › status after the answer`, ends[0], ends[1]));
      const events = await Promise.all([eventNames(targets.real, ids[0]), eventNames(targets.fake, ids[1])]);
      differences.push(...compareSequences(`confirmation ${name} › events`, events[0], events[1]));
      expect(differences).toEqual([]);
    });
  }
});

describe('POST /api/conversations/{id}/fork', () => {
  it('forks a finished conversation alike: the answer, and the fork read back', async () => {
    const ids = await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
    await Promise.all([runToEnd(targets.real, ids[0], 'Please say hello'), runToEnd(targets.fake, ids[1], 'Please say hello')]);
    const forks = await Promise.all(
      [targets.real, targets.fake].map((t, i) =>
        call(t, 'POST', `/api/conversations/${ids[i]}/fork`, { title: 'A fork', tags: { from: 'suite' } }),
      ),
    );
    const differences = compareAnswers('POST /api/conversations/{id}/fork', forks[0]!, forks[1]!);
    const read = await Promise.all(
      [targets.real, targets.fake].map((t, i) => call(t, 'GET', `/api/conversations/${(forks[i]!.body as { id: string }).id}`)),
    );
    differences.push(...compareAnswers('GET /api/conversations/{fork id}', read[0]!, read[1]!));
    const events = await Promise.all([targets.real, targets.fake].map((t, i) => eventNames(t, (forks[i]!.body as { id: string }).id)));
    differences.push(...compareSequences('fork › events', events[0]!, events[1]!));
    expect(differences).toEqual([]);
  });
});

describe('POST /api/bash/execute_bash_command and GET /api/bash/bash_events/search', () => {
  it('runs a command and lists its events alike', async () => {
    const differences: string[] = [];
    const ran = await both((t) => call(t, 'POST', '/api/bash/execute_bash_command', { command: 'echo hello', cwd: workDir }));
    differences.push(...compareAnswers('POST /api/bash/execute_bash_command', ran.real, ran.fake));
    const bad = await both((t) => call(t, 'POST', '/api/bash/execute_bash_command', {}));
    differences.push(...compareAnswers('POST /api/bash/execute_bash_command without a command', bad.real, bad.fake));
    const listed = await both((t) => call(t, 'GET', '/api/bash/bash_events/search?limit=5'));
    differences.push(...compareAnswers('GET /api/bash/bash_events/search', listed.real, listed.fake));
    expect(differences).toEqual([]);
  });
});

describe('GET /api/settings, PATCH /api/settings and /api/settings/secrets', () => {
  it('reads, changes and reads back settings and secrets alike (never a secret value)', async () => {
    const differences: string[] = [];
    for (const [name, method, path, body] of [
      ['GET /api/settings', 'GET', '/api/settings', undefined],
      [
        'PUT /api/settings/secrets',
        'PUT',
        '/api/settings/secrets',
        { name: 'SUITE_TOKEN', value: 'tok-never-returned', description: 'suite' },
      ],
      ['GET /api/settings/secrets', 'GET', '/api/settings/secrets', undefined],
      ['GET /api/settings/secrets/{name}', 'GET', '/api/settings/secrets/SUITE_TOKEN', undefined],
      ['DELETE /api/settings/secrets/{name}', 'DELETE', '/api/settings/secrets/SUITE_TOKEN', undefined],
      ['DELETE /api/settings/secrets/{name} again', 'DELETE', '/api/settings/secrets/SUITE_TOKEN', undefined],
      ['GET /api/profiles', 'GET', '/api/profiles', undefined],
    ] as const) {
      const { real: r, fake: f } = await both((t) => call(t, method, path, body));
      expect(JSON.stringify(f.body)).not.toContain('tok-never-returned');
      differences.push(...compareAnswers(name, r, f));
    }
    expect(differences).toEqual([]);
  });
});

/** The frames a socket on a conversation receives until `quietMs` pass without one, by event name. */
async function socketFrames(t: Target, id: string, query: string, quietMs = 1500): Promise<string[]> {
  const url = `${t.url.replace(/^http/, 'ws')}/sockets/events/${id}?session_api_key=${t.key}${query}`;
  const socket = new WebSocket(url);
  const names: string[] = [];
  await new Promise<void>((resolve) => {
    let timer = setTimeout(() => resolve(), quietMs * 2);
    socket.on('message', (data) => {
      names.push(eventName(JSON.parse(String(data)) as Record<string, unknown>));
      clearTimeout(timer);
      timer = setTimeout(() => resolve(), quietMs);
    });
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
  socket.close();
  return names;
}

describe('WebSocket /sockets/events/{id}', () => {
  it('sends the same frames on connect to a finished conversation: the state only, the whole history with resend_mode=all', async () => {
    const ids = await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
    await Promise.all([runToEnd(targets.real, ids[0], 'Please say hello'), runToEnd(targets.fake, ids[1], 'Please say hello')]);
    const differences: string[] = [];
    for (const [name, query] of [
      ['no resend mode', ''],
      ['resend_mode=all', '&resend_mode=all'],
    ] as const) {
      const frames = await Promise.all([socketFrames(targets.real, ids[0], query), socketFrames(targets.fake, ids[1], query)]);
      differences.push(...compareSequences(`socket with ${name} › frames`, frames[0], frames[1]));
    }
    expect(differences).toEqual([]);
  });

  it('sends the frames of a run it sees live, in the order of the REST search', async () => {
    const ids = await Promise.all([startConversation(targets.real), startConversation(targets.fake)]);
    const listening = Promise.all([socketFrames(targets.real, ids[0], ''), socketFrames(targets.fake, ids[1], '')]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await Promise.all([runToEnd(targets.real, ids[0], 'Please say hello'), runToEnd(targets.fake, ids[1], 'Please say hello')]);
    const frames = await listening;
    const differences = compareSequences('socket during a run › frames', frames[0], frames[1]);
    // Each side's socket order is its own REST search order (after the state it sends first).
    const searched = await Promise.all([eventNames(targets.real, ids[0]), eventNames(targets.fake, ids[1])]);
    for (const [i, side] of (['real', 'fake'] as const).entries()) {
      const live = frames[i]!.filter((n) => !n.startsWith('state:full_state') && !n.startsWith('StreamingDelta'));
      differences.push(...compareValues(`socket during a run › ${side} frames in search order`, true, searchedTail(searched[i]!, live)));
    }
    expect(differences).toEqual([]);
  });
});

/** Whether `live` is the end of `searched`, in order (the frames of a socket opened before the message). */
const searchedTail = (searched: readonly string[], live: readonly string[]) =>
  JSON.stringify(searched.slice(-live.length)) === JSON.stringify(live);

describe("the README's recipe: the real agent server offline", () => {
  it('runs the real agent to finished on the conversation body the README prints, its LLM the scripted one', async () => {
    const recipe = README.slice(README.indexOf('## Run the real agent server offline'));
    const printed = readmeBlocks('json').find((block) => recipe.includes(block) && block.includes('"base_url"'))!;
    const body = JSON.parse(printed.replace('http://127.0.0.1:4010', llm.url).replace('/tmp/work', workDir)) as Record<string, unknown>;
    const created = await call(targets.real, 'POST', '/api/conversations', body);
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(await runToEnd(targets.real, id, 'Please say hello')).toBe('finished');
    const names = await eventNames(targets.real, id);
    expect(names.filter((n) => n.startsWith('ActionEvent'))).toEqual(['ActionEvent:agent:terminal', 'ActionEvent:agent:finish']);
    // The scripted LLM kept what the real agent sent it: the system prompt, the tools, the history.
    const mentions = (text: string) => text.includes(id) || text.includes(id.replace(/-/g, ''));
    const asked = llm.llm.requests().filter((r) => r.api === 'chat' && mentions(JSON.stringify(r)));
    expect(asked.length).toBeGreaterThan(0);
  });
});
