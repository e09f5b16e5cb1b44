/**
 * The consumer side of the events socket: Pact V4 asynchronous message interactions for the events
 * the web apps render, with matchers on the fields their type guards read (OpenHands
 * `frontend/src/types/v1/type-guards.ts`, Nov 2025: `isBaseEvent`, `isActionEvent`,
 * `isObservationEvent`, `isMessageEvent`, `isExecuteBashActionEvent`,
 * `isConversationStateUpdateEvent`; Agent Canvas's guards per tool, /work/shared/reference/agent-canvas-facts.md),
 * and the frames the client sends (a message, an auth frame). Each message is handed to the
 * project's agent client over a real socket (`createAgentClient(...).events`), which must yield it.
 * One contract per dialect: the newest names and the Nov 2025 web app's (1.1.0).
 */
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { expect } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createAgentClient, type WebSocketClass } from '../../src/client/index.js';
import { kindInDialect } from '../../src/domain/agent/dialect.js';
import { CONSUMER_NAME } from '../../src/pact/verify.js';

const { like, regex, string, boolean, eachLike } = MatchersV3;

/** The provider name of the socket's contract in a dialect. */
export const messageProvider = (dialect?: string) => `openhands-agent-server-events${dialect ? `-${dialect}` : ''}`;

const UUID = '^[0-9a-f-]{32,36}$';
/** `isBaseEvent`: a non-empty id and timestamp, a source of three. */
const base = (kind: string, source: string) => ({
  kind,
  id: regex(UUID, '9b2e4c1a-0d3f-4e5a-8b7c-6d5e4f3a2b1c'),
  timestamp: string('2025-11-03T09:00:00.123456'),
  source,
});
const text = eachLike({ type: 'text', text: string('ls') });

/** The events the apps render: description → the message with its matchers. */
function serverMessages(dialect?: string): Record<string, unknown> {
  const terminalAction = kindInDialect('TerminalAction', dialect);
  const terminalObservation = kindInDialect('TerminalObservation', dialect);
  return {
    'the full state first (isConversationStateUpdateEvent, key full_state)': {
      ...base('ConversationStateUpdateEvent', 'environment'),
      key: 'full_state',
      value: like({ execution_status: string('finished') }),
    },
    'a user message (isUserMessageEvent)': { ...base('MessageEvent', 'user'), llm_message: { role: 'user', content: text } },
    "the agent's answer (isMessageEvent, role assistant)": {
      ...base('MessageEvent', 'agent'),
      llm_message: { role: 'assistant', content: text },
    },
    [`a terminal command (${terminalAction}: isActionEvent)`]: {
      ...base('ActionEvent', 'agent'),
      tool_name: string('terminal'),
      tool_call_id: string('call_1'),
      thought: text,
      action: { kind: terminalAction, command: string('ls') },
    },
    [`its output (${terminalObservation}: isObservationEvent)`]: {
      ...base('ObservationEvent', 'environment'),
      action_id: string('a1'),
      tool_name: string('terminal'),
      observation: { kind: terminalObservation, content: text, exit_code: like(0), command: string('ls') },
    },
    'a file edit (FileEditorAction: isActionEvent)': {
      ...base('ActionEvent', 'agent'),
      tool_name: string('file_editor'),
      tool_call_id: string('call_3'),
      action: { kind: 'FileEditorAction', command: string('create'), path: string('/w/a.txt') },
    },
    'its result (FileEditorObservation: isObservationEvent)': {
      ...base('ObservationEvent', 'environment'),
      action_id: string('a3'),
      tool_name: string('file_editor'),
      observation: { kind: 'FileEditorObservation', content: text, is_error: boolean(false) },
    },
    "the agent's system prompt (isSystemPromptEvent)": {
      ...base('SystemPromptEvent', 'agent'),
      system_prompt: like({ type: 'text', text: 'You are OpenHands' }),
      tools: eachLike(like({})),
    },
    'an error for a frame that is not JSON (ServerErrorEvent)': {
      ...base('ServerErrorEvent', 'environment'),
      code: string('JSONDecodeError'),
      detail: string('Expecting value'),
    },
  };
}

/** The frames the client sends: a message, the auth frame. */
const CLIENT_FRAMES: Record<string, unknown> = {
  'the client sends a message frame that runs the agent': {
    role: 'user',
    content: eachLike({ type: 'text', text: string('Fix the flaky test') }),
  },
  'the client sends an auth frame': { type: 'auth', session_api_key: string('the sandbox key') },
};

/** Serves `frame` once on a socket and reads it back with the project's agent client. */
async function deliver(frame: unknown): Promise<unknown> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket) => socket.send(JSON.stringify(frame)));
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as { port: number };
  try {
    const agent = createAgentClient({
      conversationUrl: `http://127.0.0.1:${port}/api/conversations/4f8b3a52-9c1d-4e7a-8b6f-2d3c4e5f6a7b`,
      sessionApiKey: 'consumer-test-key',
    });
    const events = agent.events(WebSocket as unknown as WebSocketClass);
    for await (const event of events) {
      events.stop();
      return event;
    }
    return undefined;
  } finally {
    for (const client of server.clients) client.terminate();
    await new Promise((r) => server.close(r));
  }
}

/** What the project's agent client sends when told to send `text` on the socket. */
async function sentByClient(text: string): Promise<unknown> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  // The server greets with a frame: once the client has read it, its socket is open and it sends.
  const received = new Promise<unknown>((resolve) =>
    server.on('connection', (socket) => {
      socket.once('message', (data) => resolve(JSON.parse(String(data))));
      socket.send('{"kind": "ConversationStateUpdateEvent"}');
    }),
  );
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as { port: number };
  const agent = createAgentClient({
    conversationUrl: `http://127.0.0.1:${port}/api/conversations/4f8b3a52-9c1d-4e7a-8b6f-2d3c4e5f6a7b`,
    sessionApiKey: 'consumer-test-key',
  });
  const events = agent.events(WebSocket as unknown as WebSocketClass);
  await events[Symbol.asyncIterator]().next();
  events.send(text);
  try {
    return await received;
  } finally {
    events.stop();
    for (const client of server.clients) client.terminate();
    await new Promise((r) => server.close(r));
  }
}

/** Writes the socket's message contract of `dialect` (absent: the newest) into `dir`; returns how many interactions. */
export async function writeMessageContracts(dir: string, dialect?: string): Promise<number> {
  const pact = new PactV4({
    consumer: CONSUMER_NAME,
    provider: messageProvider(dialect),
    dir,
    spec: SpecificationVersion.SPECIFICATION_VERSION_V4,
    logLevel: 'warn',
  });
  let written = 0;
  for (const [description, content] of Object.entries(serverMessages(dialect))) {
    await pact
      .addAsynchronousInteraction()
      .given('a conversation whose first message ran the agent')
      .expectsToReceive(description, (builder) => {
        builder.withJSONContent(content);
      })
      .executeTest(async (message) => {
        const received = await deliver(message.contents.content);
        expect(received).toEqual(message.contents.content);
      });
    written++;
  }
  for (const [description, content] of Object.entries(CLIENT_FRAMES)) {
    await pact
      .addAsynchronousInteraction()
      .expectsToReceive(description, (builder) => {
        builder.withJSONContent(content);
      })
      .executeTest(async (message) => {
        if (description.includes('auth'))
          return void expect(message.contents.content).toEqual({ type: 'auth', session_api_key: 'the sandbox key' });
        expect(await sentByClient('Fix the flaky test')).toEqual(message.contents.content);
      });
    written++;
  }
  return written;
}
