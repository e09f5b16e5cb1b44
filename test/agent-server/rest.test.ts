/**
 * The agent server's REST on the agent host, over real sockets: copies openhands-agent-server
 * `server_details_router.py` (alive, health, ready, get_server_info), `event_router.py`
 * (search_conversation_events, count_conversation_events, get_conversation_event,
 * batch_get_conversation_events, send_message) and `conversation_router.py` (pause_conversation,
 * run_conversation: 409 "Conversation already running. Wait for completion or pause first.").
 */
import { describe, expect, it } from 'vitest';
import { ONE_RUN, describe as name, serve, startConversation } from './support.js';
import { startCli } from '../support/cli.js';

const call = async (url: string, key: string | null, method = 'GET', body?: unknown) => {
  const response = await fetch(url, {
    method,
    headers: { ...(key ? { 'x-session-api-key': key } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
};

describe('GET /alive, /health, /ready, /server_info', () => {
  it('answer without a key', async () => {
    const cli = await serve(['--timings', 'instant']);
    expect(await call(`${cli.agentUrl}/alive`, null)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await call(`${cli.agentUrl}/health`, null)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await call(`${cli.agentUrl}/ready`, null)).toEqual({ status: 200, body: { status: 'ready' } });
    expect(await call(`${cli.agentUrl}/server_info`, null)).toMatchObject({
      status: 200,
      body: { uptime: expect.any(Number), idle_time: 0, title: 'OpenHands Agent Server', version: '1.43.0' },
    });
  });
});

describe('GET /api/conversations/{id}/events/search', () => {
  it('pages the log oldest first by event id, filters by kind and source, and sorts newest first on demand', async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const base = `${cli.agentUrl}/api/conversations/${c.id}/events`;
    const first = (await call(`${base}/search?limit=4`, c.session_api_key)) as {
      status: number;
      body: { items: Record<string, unknown>[]; next_page_id: string };
    };
    expect(first.status).toBe(200);
    expect(first.body.items.map(name)).toEqual(['SystemPromptEvent', ...ONE_RUN.slice(0, 3)]);
    const second = (await call(`${base}/search?limit=100&page_id=${first.body.next_page_id}`, c.session_api_key)) as {
      body: { items: Record<string, unknown>[]; next_page_id: null };
    };
    expect(second.body.items.map(name)).toEqual(ONE_RUN.slice(3));
    expect(second.body.next_page_id).toBeNull();
    expect(((await call(`${base}/search?kind=ActionEvent`, c.session_api_key)).body as { items: unknown[] }).items).toHaveLength(2);
    expect(
      ((await call(`${base}/search?source=user`, c.session_api_key)).body as { items: Record<string, unknown>[] }).items.map(name),
    ).toEqual(['MessageEvent:user']);
    expect(
      (
        (await call(`${base}/search?sort_order=TIMESTAMP_DESC&limit=1`, c.session_api_key)).body as { items: Record<string, unknown>[] }
      ).items.map(name),
    ).toEqual(['MessageEvent:assistant']);
  });

  it("answers 401 without the sandbox's session key (any key under --auth none), 404 for a conversation the key does not open, 422 for a bad limit or id", async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const search = `${cli.agentUrl}/api/conversations/${c.id}/events/search`;
    // Under --auth none (what serve() runs) a request without a sandbox's key reaches the local agent server, which holds every running sandbox's conversations.
    expect((await call(search, null)).status).toBe(200);
    expect((await call(search, 'not-a-key')).status).toBe(200);
    const strict = await startCli(['--quiet', '--auth', 'legacy', '--fixture', 'empty', '--timings', 'instant']);
    const d = await startConversation(strict);
    const guarded = `${strict.agentUrl}/api/conversations/${d.id}/events/search`;
    expect(await call(guarded, null)).toEqual({ status: 401, body: { detail: 'Unauthorized' } });
    expect(await call(guarded, 'not-a-key')).toEqual({ status: 401, body: { detail: 'Unauthorized' } });
    expect(await call(`${cli.agentUrl}/api/conversations/00000000000040008000000000000000/events/search`, c.session_api_key)).toEqual({
      status: 404,
      body: { detail: 'Not Found' },
    });
    expect(await call(`${search}?limit=0`, c.session_api_key)).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'greater_than', loc: ['query', 'limit'], msg: 'Input should be greater than 0' }] },
    });
    expect(await call(`${cli.agentUrl}/api/conversations/not-a-uuid/events/search`, c.session_api_key)).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'uuid_parsing', loc: ['path', 'conversation_id'] }] },
    });
  });
});

describe('GET /api/conversations/{id}/events/count, /events/{event_id}, /events?event_ids=', () => {
  it("counts, gets one event (404 for another's), and gets a batch with null for missing ids", async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const base = `${cli.agentUrl}/api/conversations/${c.id}/events`;
    expect(await call(`${base}/count`, c.session_api_key)).toEqual({ status: 200, body: 1 + ONE_RUN.length });
    expect(await call(`${base}/count?kind=ObservationEvent`, c.session_api_key)).toEqual({ status: 200, body: 2 });
    const { body } = (await call(`${base}/search?limit=2`, c.session_api_key)) as { body: { items: { id: string }[] } };
    const [one, two] = body.items;
    expect(await call(`${base}/${one!.id}`, c.session_api_key)).toEqual({ status: 200, body: body.items[0] });
    expect(await call(`${base}/nope`, c.session_api_key)).toEqual({ status: 404, body: { detail: 'Not Found' } });
    expect(await call(`${base}?event_ids=${two!.id}&event_ids=nope`, c.session_api_key)).toEqual({
      status: 200,
      body: [body.items[1], null],
    });
  });
});

describe('POST /api/conversations/{id}/events, /pause, /run', () => {
  it('a message with run: true runs the agent; pause stops it mid-run (paused, then a PauseEvent: local_conversation.py, pause), run goes on, run while running is 409', async () => {
    // Realistic timings: a run takes 10 s of the server's clock, so it can be caught running. The
    // sandbox's start is walked through on the fake's clock, half a step at a time (no run yet).
    const cli = await serve(['--timings', 'realistic']);
    const c = await startConversation(cli, null, { advanceMs: 250 });
    const base = `${cli.agentUrl}/api/conversations/${c.id}`;
    expect(
      await call(`${base}/events`, c.session_api_key, 'POST', { role: 'user', content: [{ type: 'text', text: 'Go' }], run: true }),
    ).toEqual({ status: 200, body: { success: true } });
    expect(await call(`${base}/run`, c.session_api_key, 'POST')).toEqual({
      status: 409,
      body: { detail: 'Conversation already running. Wait for completion or pause first.' },
    });
    expect(await call(`${base}/pause`, c.session_api_key, 'POST')).toEqual({ status: 200, body: { success: true } });
    const kinds = async () =>
      ((await call(`${base}/events/search`, c.session_api_key)).body as { items: Record<string, unknown>[] }).items.map(name);
    expect((await kinds()).slice(-2)).toEqual(['execution_status=paused', 'PauseEvent']);
    const [paused] = (await (await fetch(`${cli.url}/api/v1/app-conversations?ids=${c.id}`)).json()) as { execution_status: string }[];
    expect(paused!.execution_status).toBe('paused');
    expect(await call(`${base}/run`, c.session_api_key, 'POST')).toEqual({ status: 200, body: { success: true } });
    expect((await kinds()).at(-1)).toBe('execution_status=running');
    expect(await call(`${base}/events`, c.session_api_key, 'POST', { role: 'robot' })).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'enum', loc: ['body', 'role'] }] },
    });
  });

  it("keeps every user message's id as the state's last_user_message_id, published right after it, with run false and run true (local_conversation.py, _track_last_user_message)", async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const base = `${cli.agentUrl}/api/conversations/${c.id}`;
    const log = async () =>
      ((await call(`${base}/events/search?limit=100`, c.session_api_key)).body as { items: Record<string, unknown>[] }).items;
    const send = (text: string, run: boolean) =>
      call(`${base}/events`, c.session_api_key, 'POST', { role: 'user', content: [{ type: 'text', text }], run });
    const before = (await log()).length;
    expect(await send('Just so you know', false)).toEqual({ status: 200, body: { success: true } });
    const [quiet, quietKept, ...rest] = (await log()).slice(before);
    expect(rest).toEqual([]);
    expect(quiet).toMatchObject({ kind: 'MessageEvent', source: 'user', llm_message: { content: [{ text: 'Just so you know' }] } });
    // state.py, __setattr__: the changed field as a ConversationStateUpdateEvent of the environment.
    // Its parent is HEAD, the message (conversation/state.py, _stamp_parent_id).
    expect(quietKept).toEqual({
      id: expect.any(String),
      timestamp: expect.any(String),
      parent_id: quiet!.id,
      kind: 'ConversationStateUpdateEvent',
      source: 'environment',
      key: 'last_user_message_id',
      value: quiet!.id,
    });
    expect(String(quietKept!.timestamp) >= String(quiet!.timestamp)).toBe(true);
    expect(await send('Now go', true)).toEqual({ status: 200, body: { success: true } });
    const run = (await log()).slice(before + 2);
    expect(run.map(name)).toEqual(ONE_RUN);
    expect(run[1]).toMatchObject({ key: 'last_user_message_id', value: run[0]!.id });
  });

  it('drops the connection while the sandbox is paused (a stopped container), and answers again once it runs', async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const count = `${cli.agentUrl}/api/conversations/${c.id}/events/count`;
    await fetch(`${cli.url}/api/v1/sandboxes/${c.sandbox_id}/pause`, { method: 'POST' });
    await expect(fetch(count, { headers: { 'x-session-api-key': c.session_api_key } })).rejects.toThrow(TypeError);
    await fetch(`${cli.url}/api/v1/sandboxes/${c.sandbox_id}/resume`, { method: 'POST' });
    expect(await call(count, c.session_api_key)).toEqual({ status: 200, body: 1 + ONE_RUN.length });
  });
});

describe('the app server and the agent agree', () => {
  it("send-message on the app server reaches the agent: its events, the workspace's git changes after the run", async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const sent = await fetch(`${cli.url}/api/v1/app-conversations/${c.id}/send-message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: [{ type: 'text', text: 'One more' }], run: true }),
    });
    expect(sent.status).toBe(200);
    expect(await call(`${cli.agentUrl}/api/conversations/${c.id}/events/count?source=user`, c.session_api_key)).toEqual({
      status: 200,
      body: 2,
    });
    const edits = (
      (await call(`${cli.agentUrl}/api/conversations/${c.id}/events/search?kind=ObservationEvent`, c.session_api_key)).body as {
        items: { observation: { kind: string; path?: string } }[];
      }
    ).items
      .filter((e) => e.observation.kind === 'FileEditorObservation')
      .map((e) => e.observation.path!.split('/').at(-1));
    const [conversation] = (await (await fetch(`${cli.url}/api/v1/app-conversations?ids=${c.id}`)).json()) as {
      execution_status: string;
    }[];
    expect(conversation!.execution_status).toBe('finished');
    expect(edits).toHaveLength(2);
    expect(edits[0]).toBe('PLAN.md');
  });
});

describe('GET /api/git/changes/{path}, /api/git/diff/{path} on the agent host', () => {
  it("list the changes of the repository at path and diff one file, as the app server's own routes do (git_router.py)", async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const project = encodeURIComponent('/workspace/project');
    const changes = await call(`${cli.agentUrl}/api/git/changes/${project}`, c.session_api_key);
    expect(changes).toEqual({ status: 200, body: [{ status: 'ADDED', path: 'PLAN.md' }] });
    const viaApp = await (await fetch(`${cli.url}/api/v1/app-conversations/${c.id}/git/changes?path=/workspace/project`)).json();
    expect(viaApp).toEqual(changes.body);
    const diff = (await call(`${cli.agentUrl}/api/git/diff/${encodeURIComponent('/workspace/project/PLAN.md')}`, c.session_api_key)) as {
      status: number;
      body: { original: string; modified: string };
    };
    expect(diff.status).toBe(200);
    expect(diff.body.original).toBe('');
    expect(diff.body.modified).toMatch(/^# Plan\n\nTask: Fix the flaky test/);
    // Under --auth none a request without a key reaches the local agent server, which holds the conversations of every
    // RUNNING sandbox (host.ts, hostHolds): the same repository, the same changes.
    expect(await call(`${cli.agentUrl}/api/git/changes/${project}`, null)).toEqual(changes);
  });
});

describe("the app server's event routes read the same log", () => {
  it('GET /api/v1/conversation/{id}/events/search|count and the Nov 2025 /api/v1/events/count?conversation_id__eq=', async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const hex = c.id.replaceAll('-', '');
    const agent = (await call(`${cli.agentUrl}/api/conversations/${c.id}/events/search`, c.session_api_key)).body as {
      items: { id: string }[];
    };
    const app = (await call(`${cli.url}/api/v1/conversation/${hex}/events/search`, null)).body as { items: { id: string }[] };
    expect(app.items.map((e) => e.id)).toEqual(agent.items.map((e) => e.id));
    expect(await call(`${cli.url}/api/v1/conversation/${hex}/events/count?kind__eq=ActionEvent`, null)).toEqual({ status: 200, body: 2 });
    expect(await call(`${cli.url}/api/v1/events/count?conversation_id__eq=${hex}`, null)).toEqual({
      status: 200,
      body: 1 + ONE_RUN.length,
    });
    expect(await call(`${cli.url}/api/v1/events/count?conversation_id__eq=00000000000040008000000000000000`, null)).toEqual({
      status: 200,
      body: 0,
    });
    expect(await call(`${cli.url}/api/v1/events/count`, null)).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['query', 'conversation_id__eq'] }] },
    });
  });
});
