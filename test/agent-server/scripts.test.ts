/**
 * The agent's scripts are data: for each user message, the first script whose `match` the text
 * contains runs (else the built-in one), its steps paced by the fake's clock over `agentRunMs`.
 */
import { describe, expect, it } from 'vitest';
import { createFake, type FakeOptionsInput } from '../../src/index.js';
import { describe as name } from './support.js';

const APP = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';

/** A fake with `agentScripts` on a manual clock, and a running conversation in it (no first message). */
async function withScripts(agentScripts: FakeOptionsInput['agentScripts'], timings: FakeOptionsInput['timings'] = 'instant') {
  const fake = await createFake({ baseUrl: APP, agentUrl: AGENT, auth: 'none', fixture: 'empty', clock: 'manual', timings, agentScripts });
  const json = async (url: string, init: RequestInit = {}) =>
    (await fake.fetch(new Request(url, init))).json() as Promise<Record<string, unknown> & { items?: Record<string, unknown>[] }>;
  const task = await json(`${APP}/api/v1/app-conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  fake.clock.advance(60_000);
  const [ready] = (await json(`${APP}/api/v1/app-conversations/start-tasks?ids=${task.id}`)) as unknown as {
    app_conversation_id: string;
  }[];
  const [conversation] = (await json(`${APP}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`)) as unknown as {
    id: string;
    session_api_key: string;
  }[];
  const headers = { 'x-session-api-key': conversation!.session_api_key, 'content-type': 'application/json' };
  const send = (text: string) =>
    json(`${AGENT}/api/conversations/${conversation!.id}/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ role: 'user', content: [{ type: 'text', text }], run: true }),
    });
  const events = async () => (await json(`${AGENT}/api/conversations/${conversation!.id}/events/search`, { headers })).items ?? [];
  const status = async () =>
    ((await json(`${APP}/api/v1/app-conversations?ids=${conversation!.id}`)) as unknown as { execution_status: string }[])[0]!
      .execution_status;
  return { fake, send, events, status };
}

describe('agentScripts', () => {
  it('runs the script whose match the message contains: its commands with their output, its messages, then finished', async () => {
    const { send, events, status } = await withScripts([
      {
        match: 'tests',
        steps: [
          { terminal: { command: 'npm test', output: '1 failed, 41 passed', exit_code: 1 } },
          { message: 'One test fails: I will look at it.' },
        ],
      },
    ]);
    await send('Please run the TESTS');
    const log = await events();
    expect(log.slice(2).map(name)).toEqual([
      'last_user_message_id',
      'execution_status=running',
      'ActionEvent:TerminalAction',
      'ObservationEvent:TerminalObservation',
      'MessageEvent:assistant',
      'execution_status=finished',
    ]);
    expect(log[4]).toMatchObject({ action: { command: 'npm test' } });
    expect(log[5]).toMatchObject({
      action_id: log[4]!.id,
      observation: { content: [{ type: 'text', text: '1 failed, 41 passed' }], exit_code: 1, is_error: true },
    });
    expect(log[6]).toMatchObject({ llm_message: { content: [{ text: 'One test fails: I will look at it.' }] } });
    expect(await status()).toBe('finished');
  });

  it('runs the built-in script for a message no script matches', async () => {
    const { send, events } = await withScripts([{ match: 'deploy', steps: [{ message: 'Deployed.' }] }]);
    await send('Fix the flaky test');
    expect((await events()).slice(2).map(name)).toEqual([
      'last_user_message_id',
      'execution_status=running',
      'ActionEvent:TerminalAction',
      'ObservationEvent:TerminalObservation',
      'ActionEvent:FileEditorAction',
      'ObservationEvent:FileEditorObservation',
      'execution_status=finished',
      'MessageEvent:assistant',
    ]);
  });

  it('ends a run in error (AgentErrorEvent, then ConversationErrorEvent and error) or stuck, as a script says', async () => {
    const { send, events, status } = await withScripts([
      { match: 'break', steps: [{ error: 'Command timed out' }, { fail: { code: 'LLMRateLimitError', detail: 'Rate limit exceeded' } }] },
      { match: 'loop', steps: [{ terminal: { command: 'ls' } }, { stuck: true }] },
    ]);
    await send('break it');
    expect((await events()).slice(2).map(name)).toEqual([
      'last_user_message_id',
      'execution_status=running',
      'AgentErrorEvent',
      'ConversationErrorEvent',
      'execution_status=error',
    ]);
    expect((await events()).at(-2)).toMatchObject({
      kind: 'ConversationErrorEvent',
      code: 'LLMRateLimitError',
      detail: 'Rate limit exceeded',
    });
    expect(await status()).toBe('error');
    await send('now loop');
    expect((await events()).slice(-4).map(name)).toEqual([
      'execution_status=running',
      'ActionEvent:TerminalAction',
      'ObservationEvent:TerminalObservation',
      'execution_status=stuck',
    ]);
    expect(await status()).toBe('stuck');
  });

  it("paces the steps over agentRunMs with the fake's clock", async () => {
    const { fake, send, events } = await withScripts([{ steps: [{ message: 'one' }, { message: 'two' }, { message: 'three' }] }], {
      agentRunMs: 4000,
    });
    await send('go');
    // The run's steps: after the system prompt, the message and its last_user_message_id.
    const kinds = async () => (await events()).slice(3).map(name);
    expect(await kinds()).toEqual(['execution_status=running']);
    fake.clock.advance(1000);
    expect(await kinds()).toEqual(['execution_status=running', 'MessageEvent:assistant']);
    fake.clock.advance(3000);
    expect(await kinds()).toEqual([
      'execution_status=running',
      'MessageEvent:assistant',
      'MessageEvent:assistant',
      'MessageEvent:assistant',
      'execution_status=finished',
    ]);
  });

  it('refuses a script that is not one, naming the bad field', async () => {
    await expect(createFake({ agentScripts: [{ steps: [{ dance: true }] }] as never })).rejects.toThrow(
      /Failed to create the fake: invalid options \(agentScripts\[0\]\.steps\[0\]/,
    );
  });
});

describe('POST /api/v1/conversations/{id}/pending-messages', () => {
  it('queues messages for a conversation still starting (named by its start task), 201 with positions, 429 past 10; delivered in order once it is ready', async () => {
    const fake = await createFake({
      baseUrl: APP,
      agentUrl: AGENT,
      auth: 'none',
      fixture: 'empty',
      clock: 'manual',
      timings: 'realistic',
      agentScripts: [{ steps: [{ message: 'ok' }] }],
    });
    const post = (url: string, body: unknown) =>
      fake.fetch(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    const task = (await (await post(`${APP}/api/v1/app-conversations`, {})).json()) as { id: string };
    const queue = async (text: string) => {
      const answer = await post(`${APP}/api/v1/conversations/${task.id}/pending-messages`, {
        role: 'user',
        content: [{ type: 'text', text }],
      });
      return { status: answer.status, body: (await answer.json()) as { id: string; queued: boolean; position: number } };
    };
    const first = await queue('first');
    expect(first).toEqual({ status: 201, body: { id: expect.stringMatching(/^[0-9a-f]{32}$/), queued: true, position: 1 } });
    for (let i = 2; i <= 10; i++) expect((await queue(`message ${i}`)).body.position).toBe(i);
    expect(await queue('one too many')).toEqual({
      status: 429,
      body: { detail: 'Too many pending messages: at most 10 wait for a conversation that is starting' },
    });
    fake.clock.advance(600_000);
    const [ready] = (await (await fake.fetch(new Request(`${APP}/api/v1/app-conversations/start-tasks?ids=${task.id}`))).json()) as {
      app_conversation_id: string;
    }[];
    const page = (await (
      await fake.fetch(
        new Request(`${APP}/api/v1/conversation/${ready!.app_conversation_id}/events/search?kind__eq=MessageEvent&limit=100`),
      )
    ).json()) as { items: { source: string; llm_message: { content: { text: string }[] } }[] };
    expect(page.items.filter((e) => e.source === 'user').map((e) => e.llm_message.content[0]!.text)).toEqual([
      'first',
      ...Array.from({ length: 9 }, (_, i) => `message ${i + 2}`),
    ]);
    expect((await post(`${APP}/api/v1/conversations/00000000000040008000000000000000/pending-messages`, { content: [] })).status).toBe(404);
  });
});

describe('confirmation mode (POST .../confirmation_policy, .../events/respond_to_confirmation)', () => {
  it('with AlwaysConfirm each action waits (waiting_for_confirmation); accept runs it and goes on, reject publishes a UserRejectObservation and the agent is idle', async () => {
    const fake = await createFake({ baseUrl: APP, agentUrl: AGENT, auth: 'none', fixture: 'empty', clock: 'manual', timings: 'instant' });
    const json = async (url: string, body?: unknown) =>
      (
        await fake.fetch(
          new Request(url, {
            method: body === undefined ? 'GET' : 'POST',
            headers: { 'content-type': 'application/json', 'x-session-api-key': key },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        )
      ).json() as Promise<Record<string, unknown>>;
    let key = '';
    const task = await json(`${APP}/api/v1/app-conversations`, {});
    fake.clock.advance(60_000);
    const [ready] = (await json(`${APP}/api/v1/app-conversations/start-tasks?ids=${task.id}`)) as unknown as {
      app_conversation_id: string;
    }[];
    const [conversation] = (await json(`${APP}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`)) as unknown as {
      id: string;
      session_api_key: string;
    }[];
    key = conversation!.session_api_key;
    const base = `${AGENT}/api/conversations/${conversation!.id}`;
    const tail = async (n: number) => ((await json(`${base}/events/search`)).items as Record<string, unknown>[]).slice(-n).map(name);
    const status = async () =>
      ((await json(`${APP}/api/v1/app-conversations?ids=${conversation!.id}`)) as unknown as { execution_status: string }[])[0]!
        .execution_status;

    expect(await json(`${base}/confirmation_policy`, { policy: { kind: 'AlwaysConfirm' } })).toEqual({ success: true });
    await json(`${base}/events`, { role: 'user', content: [{ type: 'text', text: 'Fix it' }], run: true });
    expect(await tail(3)).toEqual(['execution_status=running', 'ActionEvent:TerminalAction', 'execution_status=waiting_for_confirmation']);
    expect(await status()).toBe('waiting_for_confirmation');
    fake.clock.advance(60_000);
    expect(await tail(1)).toEqual(['execution_status=waiting_for_confirmation']);

    expect(await json(`${base}/events/respond_to_confirmation`, { accept: true })).toEqual({ success: true });
    expect(await tail(4)).toEqual([
      'execution_status=running',
      'ObservationEvent:TerminalObservation',
      'ActionEvent:FileEditorAction',
      'execution_status=waiting_for_confirmation',
    ]);

    expect(await json(`${base}/events/respond_to_confirmation`, { accept: false, reason: 'Not that file' })).toEqual({ success: true });
    const [rejection] = (await json(`${base}/events/search?kind=UserRejectObservation`)).items as Record<string, unknown>[];
    const edits = (await json(`${base}/events/search?kind=ActionEvent`)).items as Record<string, unknown>[];
    // An observation's source, after the idle status, as the real agent server 1.58.2 publishes them (local_conversation.py, reject_pending_actions).
    expect(rejection).toMatchObject({
      source: 'environment',
      tool_name: 'file_editor',
      action_id: edits.at(-1)!.id,
      rejection_reason: 'Not that file',
      rejection_source: 'user',
    });
    expect(await tail(2)).toEqual(['execution_status=idle', 'UserRejectObservation']);
    expect(await status()).toBe('idle');
    expect(await json(`${base}/events/respond_to_confirmation`, { accept: 'yes' })).toMatchObject({
      detail: [{ type: 'bool_parsing', loc: ['body', 'accept'] }],
    });
  });
});

describe('confirmation mode and the finish and think tools', () => {
  it('never waits on a lone finish or think (openhands-sdk agent.py, _analyze_for_confirmation): one accept runs a command, then the run finishes', async () => {
    const { fake, send, events, status } = await withScripts([
      { steps: [{ think: 'Look first.' }, { terminal: { command: 'ls', output: 'a' } }, { finish: 'Done.' }] },
    ]);
    const [conversation] = (await (await fake.fetch(new Request(`${APP}/api/v1/app-conversations/search`))).json()).items as {
      id: string;
      session_api_key: string;
    }[];
    const headers = { 'x-session-api-key': conversation!.session_api_key, 'content-type': 'application/json' };
    const base = `${AGENT}/api/conversations/${conversation!.id}`;
    await fake.fetch(
      new Request(`${base}/confirmation_policy`, { method: 'POST', headers, body: JSON.stringify({ policy: { kind: 'AlwaysConfirm' } }) }),
    );
    await send('Go');
    // The think ran at once; the terminal command waits.
    expect(await status()).toBe('waiting_for_confirmation');
    expect((await events()).filter((e) => e.kind === 'ActionEvent').map((e) => e.tool_name)).toEqual(['think', 'terminal']);
    await fake.fetch(
      new Request(`${base}/events/respond_to_confirmation`, { method: 'POST', headers, body: JSON.stringify({ accept: true }) }),
    );
    fake.clock.advance(60_000);
    expect(await status()).toBe('finished');
    expect((await events()).filter((e) => e.kind === 'ActionEvent').map((e) => e.tool_name)).toEqual(['think', 'terminal', 'finish']);
  });
});

describe('GET / PUT /_fakehands/agent-scripts', () => {
  it("replaces the agent's scripts from the control API: the next run follows them; a bad script is a 422 and changes nothing", async () => {
    const { fake, send, events } = await withScripts([]);
    const put = (body: string) =>
      fake.fetch(new Request(`${APP}/_fakehands/agent-scripts`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body }));
    const bad = await put(JSON.stringify({ scripts: [{ steps: [] }] }));
    expect([bad.status, ((await bad.json()) as { detail: { type: string; loc: unknown[] }[] }).detail.map((d) => [d.type, d.loc])]).toEqual(
      [422, [['too_short', ['body', 'scripts', 0, 'steps']]]],
    );
    const good = await put(JSON.stringify({ scripts: [{ match: 'hello', steps: [{ message: 'Hi there!' }] }] }));
    expect([good.status, await good.json()]).toEqual([200, { scripts: 1 }]);
    expect(await (await fake.fetch(new Request(`${APP}/_fakehands/agent-scripts`))).json()).toEqual({
      scripts: [{ match: 'hello', steps: [{ message: 'Hi there!' }] }],
    });
    await send('hello agent');
    expect((await events()).slice(-3).map(name)).toEqual([
      'execution_status=running',
      'MessageEvent:assistant',
      'execution_status=finished',
    ]);
  });
});
