/**
 * Reliability, round four (issue 29): the agent server's event socket `/sockets/events/{id}` and
 * its client. Each finding reproduced as a test first — a frame that ended the process, frames that
 * skipped the limits HTTP bodies have, a reader that never reads, a frame that is not a message, and
 * the client under msw in Node 20 — and what now holds instead.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import WebSocket from 'ws';
import { createFake } from '../../src/index.js';
import { createAgentClient, type WebSocketClass } from '../../src/client/index.js';
import { startFakeServers, type FakeServers } from '../../src/server.js';
import { MAX_SOCKET_BACKLOG_CHARS, SEND_WINDOW_CHARS, SocketOutbox } from '../../src/surfaces/agent-server/socket-outbox.js';
import { ONE_RUN, describe as name, openSocket, startConversation, type LiveConversation } from '../agent-server/support.js';

const running: FakeServers[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((servers) => servers.close()));
});

/** The app server and agent host in process, and a conversation whose sandbox runs. */
async function serveWithConversation(): Promise<{ servers: FakeServers; conversation: LiveConversation }> {
  const servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none' } });
  running.push(servers);
  const conversation = await startConversation({ url: servers.url, agentUrl: servers.agentUrl } as Parameters<typeof startConversation>[0]);
  return { servers, conversation };
}

/** A subscribed socket on the conversation, its `full_state` received. */
async function subscribed(servers: FakeServers, conversation: LiveConversation) {
  const socket = openSocket(servers.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`);
  await socket.received(1);
  return socket;
}

/** The health of the agent host answers (the process is up, its loop free). */
async function healthy(servers: FakeServers): Promise<number> {
  return (await fetch(`${servers.agentUrl}/health`)).status;
}

describe('a socket frame with very many items (finding 1)', () => {
  it('a message whose content has 200,000 items gets a ServerErrorEvent; the server and the socket stay up', async () => {
    const { servers, conversation } = await serveWithConversation();
    const socket = await subscribed(servers, conversation);
    socket.ws.send(`{"role":"user","content":[${new Array(200_000).fill('1').join(',')}]}`);
    const [, error] = await socket.received(2, 20_000);
    expect(error).toMatchObject({ kind: 'ServerErrorEvent', source: 'environment', code: 'ValidationError' });
    expect(String(error!.detail)).toMatch(/at most 2000 values/);
    expect(await healthy(servers)).toBe(200);
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    socket.ws.close();
  });
});

describe('a socket frame goes through the limits of an HTTP body (finding 2)', () => {
  it('a 400,000-deep list, alone or inside content, gets a RecursionError ServerErrorEvent; health answers', async () => {
    const { servers, conversation } = await serveWithConversation();
    const socket = await subscribed(servers, conversation);
    socket.ws.send(`${'['.repeat(400_000)}${']'.repeat(400_000)}`);
    socket.ws.send(`{"role":"user","content":${'['.repeat(400_000)}${']'.repeat(400_000)}}`);
    const [, alone, inside] = await socket.received(3, 20_000);
    expect(alone).toMatchObject({
      kind: 'ServerErrorEvent',
      code: 'RecursionError',
      detail: 'The frame nests deeper than 512 levels (at char 512)',
    });
    expect(inside).toMatchObject({
      kind: 'ServerErrorEvent',
      code: 'RecursionError',
      detail: 'The frame nests deeper than 512 levels (at char 536)',
    });
    expect(await healthy(servers)).toBe(200);
    socket.ws.close();
  });

  it('20,000 bad items in a 40 KB frame get one short error frame, not 589 KB', async () => {
    const { servers, conversation } = await serveWithConversation();
    const socket = await subscribed(servers, conversation);
    socket.ws.send(`{"role":"user","content":[${new Array(20_000).fill('1').join(',')}]}`);
    const [, error] = await socket.received(2, 20_000);
    expect(error).toMatchObject({
      kind: 'ServerErrorEvent',
      code: 'ValidationError',
      detail: 'The frame should have at most 2000 values (lists, maps, their items and entries)',
    });
    expect(JSON.stringify(error).length).toBeLessThan(400);
    socket.ws.close();
  });

  it('a frame under the value limit with 1,990 bad items lists the first 10 problems and checks no further', async () => {
    const { servers, conversation } = await serveWithConversation();
    const socket = await subscribed(servers, conversation);
    socket.ws.send(`{"role":"user","content":[${new Array(1_990).fill('1').join(',')}]}`);
    const [, error] = await socket.received(2, 20_000);
    const detail = String(error!.detail);
    expect(error).toMatchObject({ kind: 'ServerErrorEvent', code: 'ValidationError' });
    expect(detail.split('\n').slice(0, 3)).toEqual([
      'More than 10 validation errors for Message',
      'content.0',
      '  Value error, Invalid input [type=value_error]',
    ]);
    expect(detail.split('\n').filter((line) => line.startsWith('content.'))).toEqual([
      'content.0',
      'content.1',
      'content.2',
      'content.3',
      'content.4',
      'content.5',
      'content.6',
      'content.7',
      'content.8',
      'content.9',
    ]);
    expect(detail.split('\n').at(-1)).toBe('(checking stopped after the first 10)');
    expect(detail.length).toBeLessThanOrEqual(4096);
    socket.ws.close();
  });

  it('a message with a bad role and 3 bad content items lists all 4 problems, the role first', async () => {
    const { servers, conversation } = await serveWithConversation();
    const socket = await subscribed(servers, conversation);
    socket.ws.send(JSON.stringify({ role: 'robot', content: [{ type: 'text', text: 'ok' }, 1, {}, 'x'] }));
    const [, error] = await socket.received(2);
    expect(
      String(error!.detail)
        .split('\n')
        .filter((line) => !line.startsWith('  ')),
    ).toEqual(['4 validation errors for Message', 'role', 'content.1', 'content.2', 'content.3']);
    expect(String(error!.detail)).toContain("role\n  Input should be 'user', 'system', 'assistant' or 'tool' [type=enum]");
    socket.ws.close();
  });

  it("a frame that is not JSON gets Python's JSONDecodeError text, with line, column and offset", async () => {
    const { servers, conversation } = await serveWithConversation();
    const socket = await subscribed(servers, conversation);
    socket.ws.send('{"role": "user",\n "content": [}');
    const [, error] = await socket.received(2);
    expect(error).toMatchObject({
      kind: 'ServerErrorEvent',
      code: 'JSONDecodeError',
      detail: 'Expecting value: line 2 column 14 (char 30)',
    });
    socket.ws.close();
  });

  it('a frame over 1 MiB closes the socket with 1009, as a body over 1 MiB is refused', async () => {
    const { servers, conversation } = await serveWithConversation();
    const socket = await subscribed(servers, conversation);
    socket.ws.send(`{"role":"user","content":[{"type":"text","text":"${'x'.repeat(1024 * 1024)}"}]}`);
    expect((await socket.closed).code).toBe(1009);
    expect(await healthy(servers)).toBe(200);
  });
});

describe('a frame that is not a message (finding 14)', () => {
  it('a JSON object without a role gets a ValidationError ServerErrorEvent and starts nothing', async () => {
    const { servers, conversation } = await serveWithConversation();
    const count = async () =>
      (await (
        await fetch(`${servers.agentUrl}/api/conversations/${conversation.id}/events/count`, {
          headers: { 'x-session-api-key': conversation.session_api_key },
        })
      ).json()) as number;
    const before = await count();
    const socket = await subscribed(servers, conversation);
    socket.ws.send('{}');
    socket.ws.send(JSON.stringify({ hello: 'there', content: [{ type: 'text', text: 'run?' }] }));
    const [, empty, other] = await socket.received(3);
    // openhands-sdk llm/message.py: `Message.role` has no default, so `Message.model_validate({})` fails.
    expect(empty).toMatchObject({
      kind: 'ServerErrorEvent',
      source: 'environment',
      code: 'ValidationError',
      detail: '1 validation error for Message\nrole\n  Field required [type=missing]',
    });
    expect(other).toMatchObject({
      kind: 'ServerErrorEvent',
      code: 'ValidationError',
      detail: '1 validation error for Message\nrole\n  Field required [type=missing]',
    });
    // A message after them is the next thing the socket carries: nothing ran in between.
    socket.ws.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'now run' }], run: false }));
    const [, , , message, kept] = await socket.received(5);
    expect([name(message!), name(kept!)]).toEqual(['MessageEvent:user', 'last_user_message_id']);
    expect(await count()).toBe(before + 2);
    socket.ws.close();
  });
});

/** A socket whose client stops reading once it is open (its connection paused), until `resume()`. */
function neverReading(servers: FakeServers, conversation: LiveConversation) {
  let raw: Socket | null = null;
  const ws = new WebSocket(
    `${servers.agentUrl.replace(/^http/, 'ws')}/sockets/events/${conversation.id}?session_api_key=${conversation.session_api_key}`,
    {
      createConnection: (options: object) => (raw = connect(options as { port: number; host: string })),
    },
  );
  const frames: string[] = [];
  ws.on('message', (data) => frames.push(String(data).slice(0, 40)));
  ws.on('error', () => undefined);
  const opened = new Promise<void>((resolve) =>
    ws.once('open', () => {
      raw!.pause();
      resolve();
    }),
  );
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return { opened, closed, frames, resume: () => raw!.resume() };
}

describe('a reader that never reads (finding 12)', () => {
  it('the outbox hands a transport that never writes out at most the 1 MiB window; past 4 MiB of answers and events it calls slow once; the state and history on connect do not count', () => {
    const handed: string[] = [];
    let slow = 0;
    const outbox = new SocketOutbox(
      (text) => handed.push(text),
      () => slow++,
    );
    const frame = 'e'.repeat(100 * 1024);
    for (let i = 0; i < 100; i++) outbox.push(frame, false); // 10 MiB of history asked for on connect
    expect(slow).toBe(0);
    expect(handed.length).toBe(Math.ceil(SEND_WINDOW_CHARS / frame.length));
    for (let i = 0; i * frame.length <= MAX_SOCKET_BACKLOG_CHARS; i++) outbox.push(frame); // error frames and events: live by default
    expect(slow).toBe(1);
    outbox.push(frame);
    expect([slow, handed.length]).toEqual([1, Math.ceil(SEND_WINDOW_CHARS / frame.length)]);
  });

  it('a transport that writes at once gets 100,000 frames in order without recursion', () => {
    const handed: string[] = [];
    const outbox = new SocketOutbox(
      (text, written) => {
        handed.push(text);
        written();
      },
      () => undefined,
    );
    for (let i = 0; i < 100_000; i++) outbox.push(String(i), false);
    expect(handed.length).toBe(100_000);
    expect(handed.at(-1)).toBe('99999');
  });

  it('is closed with 1008 once 4 MiB of events wait for it; a reader beside it gets all 30 messages of 900 KB (each with its last_user_message_id) and stays open', async () => {
    const { servers, conversation } = await serveWithConversation();
    const slow = [neverReading(servers, conversation), neverReading(servers, conversation), neverReading(servers, conversation)];
    await Promise.all(slow.map((socket) => socket.opened));
    const fast = await subscribed(servers, conversation);
    const text = 'x'.repeat(900 * 1024);
    for (let i = 0; i < 30; i++) {
      const response = await fetch(`${servers.agentUrl}/api/conversations/${conversation.id}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-api-key': conversation.session_api_key },
        body: JSON.stringify({ role: 'user', content: [{ type: 'text', text }], run: false }),
      });
      expect(response.status).toBe(200);
    }
    const received = await fast.received(61, 60_000);
    expect(received.slice(1).map(name)).toEqual(new Array(30).fill(['MessageEvent:user', 'last_user_message_id']).flat());
    expect(fast.ws.readyState).toBe(WebSocket.OPEN);
    for (const socket of slow) socket.resume();
    for (const socket of slow) {
      expect(await socket.closed).toEqual({ code: 1008, reason: 'Slow reader: more than 4 MiB of events waiting to be sent' });
      // It got what was sent before it fell behind, never all 30.
      expect(socket.frames.length).toBeLessThan(61);
    }
    expect(await healthy(servers)).toBe(200);
    fast.ws.close();
  }, 120_000);
});

/** An in-process fake with an agent host under msw's `setupServer`, and a READY conversation on it. */
async function inProcess() {
  const fake = await createFake({ agentUrl: 'http://localhost:3001', auth: 'none', fixture: 'empty', timings: 'instant' });
  const server = setupServer(...fake.handlers);
  server.listen({ onUnhandledRequest: 'bypass' });
  const base = fake.options.baseUrl;
  const task = (await (
    await fetch(`${base}/api/v1/app-conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix the flaky test' }] } }),
    })
  ).json()) as { id: string };
  const [ready] = (await (await fetch(`${base}/api/v1/app-conversations/start-tasks?ids=${task.id}`)).json()) as {
    status: string;
    app_conversation_id: string;
  }[];
  expect(ready!.status).toBe('READY');
  const [conversation] = (await (
    await fetch(`${base}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`)
  ).json()) as LiveConversation[];
  return {
    server,
    agent: createAgentClient({ conversationUrl: conversation!.conversation_url, sessionApiKey: conversation!.session_api_key }),
  };
}

describe('createAgentClient(...).events under msw in Node (finding 16)', () => {
  it('with ws installed as the global WebSocket before listen(), events(WebSocket from ws) goes through the global msw patched: state and history arrive', async () => {
    const global = globalThis as { WebSocket?: unknown };
    const before = Object.getOwnPropertyDescriptor(globalThis, 'WebSocket');
    global.WebSocket ??= WebSocket;
    const { server, agent } = await inProcess();
    try {
      const events = agent.events(WebSocket as unknown as WebSocketClass);
      const seen: string[] = [];
      for await (const event of events) {
        seen.push(name(event as Record<string, unknown>));
        if (seen.length === 2 + ONE_RUN.length) events.stop();
      }
      expect(seen).toEqual(['full_state=finished', 'SystemPromptEvent', ...ONE_RUN]);
    } finally {
      server.close();
      if (before) Object.defineProperty(globalThis, 'WebSocket', before);
      else delete global.WebSocket;
    }
  });

  it.skipIf(typeof (globalThis as { WebSocket?: unknown }).WebSocket !== 'undefined')(
    'without a global WebSocket (Node 20), events(WebSocket from ws) fails with an error that says what to do, instead of ending silently',
    async () => {
      const { server, agent } = await inProcess();
      try {
        const events = agent.events(WebSocket as unknown as WebSocketClass);
        const failure = await (async () => {
          for await (const event of events) void event;
        })().then(
          () => null,
          (error: unknown) => error as Error,
        );
        expect(failure).toBeInstanceOf(Error);
        expect(failure!.message).toMatch(
          /^Failed to open the events socket ws:\/\/localhost:3001\/sockets\/events\/[0-9a-f]{32}\?session_api_key=…&resend_mode=all \(closed 1006: Unexpected server response: 404\)\. msw intercepts HTTP in this process but not WebSocket/,
        );
        expect(failure!.message).toContain("Set `globalThis.WebSocket = WebSocket` (from 'ws') before `server.listen()`");
      } finally {
        server.close();
      }
    },
  );
});
