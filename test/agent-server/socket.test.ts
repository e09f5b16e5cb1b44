/**
 * The agent server's socket `/sockets/events/{conversation_id}` over a real connection, frame by
 * frame. Copies openhands-agent-server `sockets.py` (`events_socket`,
 * `_accept_authenticated_websocket`) and `event_service.py` (`subscribe_to_events`: the state first).
 */
import { describe as group, expect, it } from 'vitest';
import { ONE_RUN, describe, openSocket, serve, startConversation } from './support.js';

group('the events socket: who may listen', () => {
  it('takes the session key as the session_api_key query parameter: full_state first, then the whole history with resend_all=true', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const socket = openSocket(cli.agentUrl, conversation.id, `resend_all=true&session_api_key=${conversation.session_api_key}`);
    const frames = await socket.received(2 + ONE_RUN.length);
    expect(frames.map(describe)).toEqual(['full_state=finished', 'SystemPromptEvent', ...ONE_RUN]);
    expect(frames[0]).toMatchObject({
      kind: 'ConversationStateUpdateEvent',
      source: 'environment',
      key: 'full_state',
      value: { id: expect.any(String), execution_status: 'finished', confirmation_policy: { kind: 'NeverConfirm' } },
    });
    // The state dumped without None fields carries the last user message's id (conversation_state.py, from_conversation_state).
    expect((frames[0]!.value as { last_user_message_id?: string }).last_user_message_id).toBe(frames[2]!.id);
    // The whole ConversationState of 1.58.2, in its fields' order: the agent, workspace, persistence folder, tags and agent state; no title.
    expect(Object.keys(frames[0]!.value as object)).toEqual([
      'id',
      'agent',
      'workspace',
      'persistence_dir',
      'max_iterations',
      'stuck_detection',
      'execution_status',
      'confirmation_policy',
      'activated_knowledge_skills',
      'activated_path_rules',
      'invoked_skills',
      'blocked_actions',
      'blocked_messages',
      'last_user_message_id',
      'head_is_empty',
      'stats',
      'secret_registry',
      'tags',
      'agent_state',
    ]);
    // Dumped without None fields at every depth (exclude_none): the agent and its LLM hold no null.
    expect(JSON.stringify((frames[0]!.value as { agent: unknown }).agent)).not.toContain('null');
    for (const frame of frames)
      expect(frame).toEqual(
        expect.objectContaining({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/),
        }),
      );
    socket.ws.close();
  });

  it("hears only its own conversation: another conversation's run sends it nothing (event_service.py, one EventService per conversation)", async () => {
    const cli = await serve(['--timings', 'instant']);
    const first = await startConversation(cli);
    const listening = openSocket(cli.agentUrl, first.id, `session_api_key=${first.session_api_key}`);
    await listening.received(1);
    const second = await startConversation(cli);
    const other = openSocket(cli.agentUrl, second.id, `resend_all=true&session_api_key=${second.session_api_key}`);
    expect((await other.received(2 + ONE_RUN.length)).map(describe)).toEqual(['full_state=finished', 'SystemPromptEvent', ...ONE_RUN]);
    await new Promise((r) => setTimeout(r, 150));
    expect(listening.frames.map(describe)).toEqual(['full_state=finished']);
    listening.ws.close();
    other.ws.close();
  });

  it('takes the key in an X-Session-API-Key header, and without a resend mode sends only the state', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const socket = openSocket(cli.agentUrl, conversation.id, '', { 'x-session-api-key': conversation.session_api_key });
    await socket.received(1);
    await new Promise((r) => setTimeout(r, 150));
    expect(socket.frames.map(describe)).toEqual(['full_state=finished']);
    socket.ws.close();
  });

  it('takes the key in a first {"type": "auth"} frame', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const socket = openSocket(cli.agentUrl, conversation.id, 'resend_mode=all');
    await new Promise((r) => socket.ws.on('open', r));
    socket.ws.send(JSON.stringify({ type: 'auth', session_api_key: conversation.session_api_key }));
    expect((await socket.received(2 + ONE_RUN.length)).map(describe)).toEqual(['full_state=finished', 'SystemPromptEvent', ...ONE_RUN]);
    socket.ws.close();
  });

  it('under --auth none takes any or no key, as the REST routes do (the local agent server Agent Canvas talks to: host.ts, agentHostFor)', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const keyless = openSocket(cli.agentUrl, conversation.id, 'resend_mode=all');
    expect((await keyless.received(2 + ONE_RUN.length)).map(describe)).toEqual(['full_state=finished', 'SystemPromptEvent', ...ONE_RUN]);
    keyless.ws.close();
    const unknownKey = openSocket(cli.agentUrl, conversation.id, 'session_api_key=wrong');
    expect((await unknownKey.received(1)).map(describe)).toEqual(['full_state=finished']);
    unknownKey.ws.close();
  });

  it("closes with 1001 and the sandbox's status for the key of a sandbox that is not RUNNING (its agent server is down: web-app-findings.test.ts)", async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    expect((await fetch(`${cli.url}/api/v1/sandboxes/${conversation.sandbox_id}/pause`, { method: 'POST' })).status).toBe(200);
    expect(await openSocket(cli.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`).closed).toEqual({
      code: 1001,
      reason: 'Sandbox PAUSED',
    });
  });

  it('refuses the handshake of a page on an origin the CORS policy does not allow (403), whatever its key', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const hostile = openSocket(cli.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`, {
      origin: 'http://evil.example',
    });
    const refused = await new Promise<number>((resolve) =>
      hostile.ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)),
    );
    expect(refused).toBe(403);
    const local = openSocket(cli.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`, {
      origin: 'http://localhost:3001',
    });
    expect((await local.received(1)).map(describe)).toEqual(['full_state=finished']);
    local.ws.close();
  });

  it('closes with 4004 "Conversation not found" for a conversation the key does not open', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const other = '00000000-0000-4000-8000-000000000000';
    expect(await openSocket(cli.agentUrl, other, `session_api_key=${conversation.session_api_key}`).closed).toEqual({
      code: 4004,
      reason: 'Conversation not found',
    });
  });
});

group('the events socket: what it carries', () => {
  it('a message frame becomes a user MessageEvent and runs the agent; every subscriber gets every event, in order', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const query = `session_api_key=${conversation.session_api_key}`;
    const first = openSocket(cli.agentUrl, conversation.id, query);
    const second = openSocket(cli.agentUrl, conversation.id, query);
    await first.received(1);
    await second.received(1);
    first.ws.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Now add a test' }] }));
    const a = await first.received(1 + ONE_RUN.length);
    const b = await second.received(1 + ONE_RUN.length);
    expect(a.slice(1).map(describe)).toEqual(ONE_RUN);
    expect(b.map((f) => f.id)).toEqual([b[0]!.id, ...a.slice(1).map((f) => f.id)]);
    expect(a[1]).toMatchObject({ source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text: 'Now add a test' }] } });
    first.ws.close();
    second.ws.close();
  });

  it('answers a malformed frame with a ServerErrorEvent and stays open', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const socket = openSocket(cli.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`);
    await socket.received(1);
    socket.ws.send('not json');
    socket.ws.send(JSON.stringify({ role: 'robot', content: 'x' }));
    const [, notJson, invalid] = await socket.received(3);
    expect(notJson).toMatchObject({ kind: 'ServerErrorEvent', source: 'environment', code: 'JSONDecodeError' });
    expect(invalid).toMatchObject({
      kind: 'ServerErrorEvent',
      source: 'environment',
      code: 'ValidationError',
      detail: expect.stringContaining('role'),
    });
    socket.ws.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'still here?' }] }));
    expect((await socket.received(3 + ONE_RUN.length)).slice(3).map(describe)).toEqual(ONE_RUN);
    socket.ws.close();
  });

  it('resend_mode=since replays the events at or after after_timestamp', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const all = openSocket(cli.agentUrl, conversation.id, `resend_mode=all&session_api_key=${conversation.session_api_key}`);
    const history = (await all.received(2 + ONE_RUN.length)).slice(1);
    all.ws.close();
    const from = history[4]!.timestamp as string;
    const since = openSocket(
      cli.agentUrl,
      conversation.id,
      `resend_mode=since&after_timestamp=${encodeURIComponent(from)}&session_api_key=${conversation.session_api_key}`,
    );
    const replayed = await since.received(1 + history.filter((e) => (e.timestamp as string) >= from).length);
    expect(replayed.slice(1).map((f) => f.id)).toEqual(history.filter((e) => (e.timestamp as string) >= from).map((e) => e.id));
    since.ws.close();
  });

  it('refuses a frame over 1 MiB by closing with 1009, and a subscriber past 100 with 1013', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const query = `session_api_key=${conversation.session_api_key}`;
    const big = openSocket(cli.agentUrl, conversation.id, query);
    await big.received(1);
    big.ws.send('x'.repeat(1024 * 1024 + 1));
    expect((await big.closed).code).toBe(1009);
    const sockets = Array.from({ length: 100 }, () => openSocket(cli.agentUrl, conversation.id, query));
    await Promise.all(sockets.map((s) => s.received(1)));
    expect(await openSocket(cli.agentUrl, conversation.id, query).closed).toEqual({
      code: 1013,
      reason: 'Too many connections for this conversation',
    });
    for (const socket of sockets) socket.ws.close();
  });
});

group('the sandbox decides', () => {
  it('pausing the sandbox drops its sockets; once resumed, a new socket finds the whole history', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const socket = openSocket(cli.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`);
    await socket.received(1);
    await fetch(`${cli.url}/api/v1/sandboxes/${conversation.sandbox_id}/pause`, { method: 'POST' });
    expect((await socket.closed).code).toBe(1006);
    await fetch(`${cli.url}/api/v1/sandboxes/${conversation.sandbox_id}/resume`, { method: 'POST' });
    const [again] = (await (await fetch(`${cli.url}/api/v1/app-conversations?ids=${conversation.id}`)).json()) as {
      session_api_key: string;
    }[];
    const reopened = openSocket(cli.agentUrl, conversation.id, `resend_all=true&session_api_key=${again!.session_api_key}`);
    expect((await reopened.received(2 + ONE_RUN.length)).map(describe)).toEqual(['full_state=finished', 'SystemPromptEvent', ...ONE_RUN]);
    reopened.ws.close();
  });
});

// openhands-agent-server event_service.py: `_publish_state_update` once a run's task ends, and in `pause`.
group('the events socket: the state after a run and a pause', () => {
  it('sends the whole state (full_state) after the run it saw end, and after a pause, never stored', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const socket = openSocket(cli.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`);
    await socket.received(1);
    socket.ws.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'And a test' }] }));
    const run = await socket.received(2 + ONE_RUN.length);
    expect(run.map(describe)).toEqual(['full_state=finished', ...ONE_RUN, 'full_state=finished']);
    socket.ws.close();
    // A new conversation on the agent host, paused while idle: paused, the PauseEvent, then the state.
    const key = { 'x-session-api-key': conversation.session_api_key, 'content-type': 'application/json' };
    const created = await fetch(`${cli.agentUrl}/api/conversations`, {
      method: 'POST',
      headers: key,
      body: JSON.stringify({ agent: { kind: 'Agent', llm: { model: 'm' } }, workspace: { working_dir: '/workspace/project' } }),
    });
    const idle = ((await created.json()) as { id: string }).id;
    const listening = openSocket(cli.agentUrl, idle, `session_api_key=${conversation.session_api_key}`);
    await listening.received(1);
    await fetch(`${cli.agentUrl}/api/conversations/${idle}/pause`, { method: 'POST', headers: key });
    expect((await listening.received(4)).map(describe)).toEqual([
      'full_state=idle',
      'execution_status=paused',
      'PauseEvent',
      'full_state=paused',
    ]);
    const count = await (await fetch(`${cli.agentUrl}/api/conversations/${idle}/events/count`, { headers: key })).json();
    expect(count).toBe(2);
    listening.ws.close();
  });
});
