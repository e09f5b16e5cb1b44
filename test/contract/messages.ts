/**
 * The consumer side of the events socket: Pact V4 asynchronous message interactions for the events
 * and tools the web apps render, one each, under the provider state that makes it
 * (`MESSAGE_STATES`), with matchers on the fields the apps read: the Nov 2025 web app (OpenHands
 * `frontend/src/types/v1/type-guards.ts`, `core/openhands-event.ts`,
 * `components/v1/chat/event-content-helpers/`) for the 1.1.0 contract, Agent Canvas 1.20
 * (`dist/types/agent-server/type-guards.js`, `dist/components/conversation-events/chat/
 * event-content-helpers/get-action-content.js`) for the newest; and the frames the client sends (a
 * message, an auth frame). Each message is handed to the project's agent client over a real socket
 * (`createAgentClient(...).events`), which must yield it.
 */
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { expect } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createAgentClient, type WebSocketClass } from '../../src/client/index.js';
import { kindInDialect } from '../../src/domain/agent/dialect.js';
import { MESSAGE_STATES } from '../../src/pact/messages.js';
import { CONSUMER_NAME } from '../../src/pact/verify.js';

const { like, regex, string, boolean, eachLike } = MatchersV3;

/** The provider name of the socket's contract in a dialect. */
export const messageProvider = (dialect?: string) => `openhands-agent-server-events${dialect ? `-${dialect}` : ''}`;

const UUID = '^[0-9a-f-]{32,36}$';
/**
 * `isBaseEvent`: a non-empty id and timestamp, a source of three (Nov 2025,
 * `frontend/src/types/v1/type-guards.ts`) or four with `hook` (Agent Canvas 1.20,
 * `dist/types/agent-server/type-guards.js`).
 */
const base = (kind: string, source: string, app: App) => ({
  kind,
  id: regex(UUID, '9b2e4c1a-0d3f-4e5a-8b7c-6d5e4f3a2b1c'),
  timestamp: string('2025-11-03T09:00:00.123456'),
  source: regex(app === 'canvas' ? '^(agent|user|environment|hook)$' : '^(agent|user|environment)$', source),
});
const text = (example = 'ls') => eachLike({ type: 'text', text: string(example) });

/** The web app a dialect's contract is written for: the Nov 2025 web app (agent server 1.1.0) or Agent Canvas 1.20 (the newest). */
type App = 'nov2025' | 'canvas';
const appOf = (dialect?: string): App => (dialect === '1.1.0' ? 'nov2025' : 'canvas');

/** One event an app renders: the provider state that makes it, the apps that read it, its message with matchers. */
interface ServerMessage {
  state: string;
  apps: readonly App[];
  description: string;
  content: (app: App) => Record<string, unknown>;
}
const BOTH: readonly App[] = ['nov2025', 'canvas'];
const CANVAS: readonly App[] = ['canvas'];

/**
 * `isActionEvent` (both apps): source agent, `tool_name` and `tool_call_id` strings, an `action`
 * whose `kind` the renderers switch on (Nov 2025 `get-action-content.ts` `getActionContent`,
 * Agent Canvas `event-content-helpers/get-action-content.js`), with the fields they read.
 */
const action = (kind: string, tool: string, fields: Record<string, unknown>) => (app: App) => ({
  ...base('ActionEvent', 'agent', app),
  tool_name: string(tool),
  tool_call_id: string('call_1'),
  action: { kind, ...fields },
});
/** `isObservationEvent` (both apps): source environment, `action_id`, an `observation` with `kind`, its `content` (`get-observation-content`). */
const observation =
  (kind: string, tool: string, fields: Record<string, unknown> = {}) =>
  (app: App) => ({
    ...base('ObservationEvent', 'environment', app),
    action_id: string('a1'),
    tool_name: string(tool),
    observation: { kind, content: text('done'), ...fields },
  });
/** `isAgentStatusConversationStateUpdateEvent` (both apps): the status the apps show. */
const status = (value: string) => (app: App) => ({
  ...base('ConversationStateUpdateEvent', 'environment', app),
  key: 'execution_status',
  value,
});
/** A tool's action and its observation, for `apps`. */
const tool = (
  apps: readonly App[],
  actionKind: string,
  name: string,
  actionFields: Record<string, unknown>,
  observationKind: string,
  observationFields: Record<string, unknown> = {},
): ServerMessage[] => [
  {
    state: MESSAGE_STATES.everyTool,
    apps,
    description: `a ${name} call (${actionKind}: isActionEvent)`,
    content: action(actionKind, name, actionFields),
  },
  {
    state: MESSAGE_STATES.everyTool,
    apps,
    description: `its ${name} result (${observationKind}: isObservationEvent)`,
    content: observation(observationKind, name, observationFields),
  },
];

/**
 * The events the apps render, each under the provider state that makes it. Nov 2025: the type
 * guards and `OpenHandsEvent` (`frontend/src/types/v1/core/openhands-event.ts`, with
 * `UserRejectObservation` and `PauseEvent`), the action and observation kinds of
 * `frontend/src/components/v1/chat/event-content-helpers/`. Agent Canvas 1.20: its type guards
 * (`isDisplayableErrorEvent`, `isHookExecutionEvent`, `isACPToolCallEvent`, `isCondensationEvent`,
 * `isBrowserObservationEvent`, `isSwitchLLMObservationEvent`, `isPlanningFileEditorObservationEvent`)
 * and `get-action-content.js`; its Stop calls `POST .../interrupt`. Pause, interrupt and
 * rejection events are the SDK's (`openhands-sdk/openhands/sdk/event/user_action.py`,
 * `llm_convertible/observation.py`): Agent Canvas reads the status they come with.
 */
function serverMessages(dialect?: string): ServerMessage[] {
  const terminalAction = kindInDialect('TerminalAction', dialect);
  const terminalObservation = kindInDialect('TerminalObservation', dialect);
  const first = MESSAGE_STATES.firstRun;
  const messages: ServerMessage[] = [
    {
      state: first,
      apps: BOTH,
      description: 'the full state first (isConversationStateUpdateEvent, key full_state)',
      content: (app) => ({
        ...base('ConversationStateUpdateEvent', 'environment', app),
        key: 'full_state',
        value: like({ execution_status: string('finished') }),
      }),
    },
    {
      state: first,
      apps: BOTH,
      description: "the agent's system prompt (isSystemPromptEvent)",
      content: (app) => ({
        ...base('SystemPromptEvent', 'agent', app),
        system_prompt: like({ type: 'text', text: 'You are OpenHands' }),
        tools: eachLike(like({})),
      }),
    },
    {
      state: first,
      apps: BOTH,
      description: 'a user message (isUserMessageEvent)',
      content: (app) => ({ ...base('MessageEvent', 'user', app), llm_message: { role: 'user', content: text() } }),
    },
    { state: first, apps: BOTH, description: 'the run starts (execution_status running)', content: status('running') },
    {
      state: first,
      apps: BOTH,
      description: `a terminal command (${terminalAction}: isActionEvent)`,
      content: (app) => ({ ...action(terminalAction, 'terminal', { command: string('ls') })(app), thought: text() }),
    },
    {
      state: first,
      apps: BOTH,
      description: `its output (${terminalObservation}: isObservationEvent)`,
      content: observation(terminalObservation, 'terminal', { exit_code: like(0), command: string('ls') }),
    },
    {
      state: first,
      apps: BOTH,
      description: 'a file edit (FileEditorAction: isActionEvent)',
      content: action('FileEditorAction', 'file_editor', { command: string('create'), path: string('/w/a.txt') }),
    },
    {
      state: first,
      apps: BOTH,
      description: 'its result (FileEditorObservation: isObservationEvent)',
      content: observation('FileEditorObservation', 'file_editor', { is_error: boolean(false) }),
    },
    {
      state: first,
      apps: BOTH,
      description: "the agent's answer (isMessageEvent, role assistant)",
      content: (app) => ({ ...base('MessageEvent', 'agent', app), llm_message: { role: 'assistant', content: text() } }),
    },
    { state: first, apps: BOTH, description: 'the run ends (execution_status finished)', content: status('finished') },
    {
      state: MESSAGE_STATES.badFrame,
      apps: CANVAS,
      description: 'an error for a frame that is not JSON (ServerErrorEvent: isDisplayableErrorEvent)',
      content: (app) => ({
        ...base('ServerErrorEvent', 'environment', app),
        code: string('JSONDecodeError'),
        detail: string('Expecting value'),
      }),
    },
    ...tool(BOTH, 'ThinkAction', 'think', { thought: string('Let me think') }, 'ThinkObservation'),
    ...tool(
      BOTH,
      'TaskTrackerAction',
      'task_tracker',
      { command: string('plan'), task_list: eachLike({ title: string('Look around'), status: string('todo') }) },
      'TaskTrackerObservation',
    ),
    ...tool(BOTH, 'BrowserNavigateAction', 'browser_navigate', { url: string('http://localhost:3000/') }, 'BrowserObservation', {
      is_error: boolean(false),
    }),
    {
      state: MESSAGE_STATES.everyTool,
      apps: BOTH,
      description: 'a browser click (BrowserClickAction: isActionEvent)',
      content: action('BrowserClickAction', 'browser_click', { index: like(3) }),
    },
    {
      state: MESSAGE_STATES.everyTool,
      apps: BOTH,
      description: 'typing in the browser (BrowserTypeAction: isActionEvent)',
      content: action('BrowserTypeAction', 'browser_type', { index: like(5), text: string('hello') }),
    },
    ...tool(BOTH, 'MCPToolAction', 'fetch_fetch', { data: like({}) }, 'MCPToolObservation', { is_error: boolean(false) }),
    ...tool(
      BOTH,
      'StrReplaceEditorAction',
      'str_replace_editor',
      { command: string('str_replace'), path: string('/w/README.md') },
      'StrReplaceEditorObservation',
    ),
    ...tool(BOTH, 'FinishAction', 'finish', { message: string('Done.') }, 'FinishObservation'),
    ...tool(CANVAS, 'GlobAction', 'glob', { pattern: string('**/*.md') }, 'GlobObservation'),
    ...tool(CANVAS, 'GrepAction', 'grep', { pattern: string('TODO') }, 'GrepObservation'),
    ...tool(
      CANVAS,
      'PlanningFileEditorAction',
      'planning_file_editor',
      { command: string('create'), path: string('/w/.agents_tmp/PLAN.md') },
      'PlanningFileEditorObservation',
    ),
    ...tool(CANVAS, 'TaskAction', 'task', { prompt: string('Write the tests') }, 'TaskObservation'),
    ...tool(CANVAS, 'InvokeSkillAction', 'invoke_skill', { name: string('github') }, 'InvokeSkillObservation'),
    ...tool(CANVAS, 'SwitchLLMAction', 'switch_llm', { profile_name: string('cheap') }, 'SwitchLLMObservation', {
      profile_name: string('cheap'),
    }),
    {
      state: MESSAGE_STATES.everyTool,
      apps: CANVAS,
      description: 'a hook run (HookExecutionEvent: isHookExecutionEvent)',
      content: (app) => ({
        ...base('HookExecutionEvent', 'hook', app),
        hook_event_type: string('PreToolUse'),
        hook_command: string('./check.sh'),
        blocked: boolean(false),
      }),
    },
    {
      state: MESSAGE_STATES.everyTool,
      apps: CANVAS,
      description: "an ACP agent's tool call (ACPToolCallEvent: isACPToolCallEvent)",
      content: (app) => ({
        ...base('ACPToolCallEvent', 'agent', app),
        tool_call_id: string('call_1'),
        title: string('Read README.md'),
        status: string('completed'),
        tool_kind: string('read'),
      }),
    },
    {
      state: MESSAGE_STATES.everyTool,
      apps: BOTH,
      description: 'a condensation of the history (Condensation: isCondensationEvent)',
      content: (app) => ({ ...base('Condensation', 'environment', app), forgotten_event_ids: eachLike(string('a1')) }),
    },
    {
      state: MESSAGE_STATES.failingStep,
      apps: BOTH,
      description: "a tool's error (AgentErrorEvent: isAgentErrorEvent)",
      content: (app) => ({
        ...base('AgentErrorEvent', 'agent', app),
        tool_name: string('terminal'),
        tool_call_id: string('call_1'),
        error: string('The command failed'),
      }),
    },
    {
      state: MESSAGE_STATES.failingStep,
      apps: CANVAS,
      description: "the run's failure (ConversationErrorEvent: isDisplayableErrorEvent)",
      content: (app) => ({ ...base('ConversationErrorEvent', 'environment', app), code: string('AgentError'), detail: string('failed') }),
    },
    {
      state: MESSAGE_STATES.failingStep,
      apps: BOTH,
      description: 'the run ends in an error (execution_status error)',
      content: status('error'),
    },
    {
      state: MESSAGE_STATES.rejection,
      apps: BOTH,
      description: 'the action waits for confirmation (execution_status waiting_for_confirmation)',
      content: status('waiting_for_confirmation'),
    },
    {
      state: MESSAGE_STATES.rejection,
      apps: BOTH,
      description: 'the rejection (UserRejectObservation)',
      content: (app) => ({
        ...base('UserRejectObservation', 'user', app),
        action_id: string('a1'),
        tool_name: string('terminal'),
        rejection_reason: string('Not that command, please.'),
      }),
    },
    { state: MESSAGE_STATES.rejection, apps: BOTH, description: 'the agent waits again (execution_status idle)', content: status('idle') },
    {
      state: MESSAGE_STATES.pause,
      apps: BOTH,
      description: 'the pause (PauseEvent)',
      content: (app) => base('PauseEvent', 'user', app),
    },
    {
      state: MESSAGE_STATES.pause,
      apps: BOTH,
      description: 'the conversation is paused (execution_status paused)',
      content: status('paused'),
    },
    {
      state: MESSAGE_STATES.interrupt,
      apps: CANVAS,
      description: 'the interrupt of the run (InterruptEvent)',
      content: (app) => base('InterruptEvent', 'user', app),
    },
    {
      state: MESSAGE_STATES.interrupt,
      apps: CANVAS,
      description: 'the interrupted conversation is paused (execution_status paused)',
      content: status('paused'),
    },
    // The rest of the browser tool set (Nov 2025 `get-action-content.ts`, `getActionContent`; Agent Canvas `core/base/base.d.ts`, `ActionOnlyType`).
    ...(
      [
        ['BrowserGetStateAction', 'browser_get_state', { include_screenshot: boolean(true) }],
        ['BrowserGetContentAction', 'browser_get_content', { extract_links: boolean(true) }],
        ['BrowserScrollAction', 'browser_scroll', { direction: string('down') }],
        ['BrowserGoBackAction', 'browser_go_back', {}],
        ['BrowserListTabsAction', 'browser_list_tabs', {}],
        ['BrowserSwitchTabAction', 'browser_switch_tab', { tab_id: string('4F2A') }],
        ['BrowserCloseTabAction', 'browser_close_tab', { tab_id: string('4F2A') }],
      ] as const
    ).map(
      ([kind, name, fields]): ServerMessage => ({
        state: MESSAGE_STATES.everyTool,
        apps: BOTH,
        description: `a browser call (${kind}: isActionEvent)`,
        content: action(kind, name, fields),
      }),
    ),
    // Agent Canvas's UI tool: `isCanvasUIActionEvent` tells it by `tool_name` (`canvas_ui_control`, constants/canvas-ui.js), get-event-content.js reads `command`.
    ...tool(
      CANVAS,
      'ClientAction_canvas_ui_control',
      'canvas_ui_control',
      { command: string('navigate_to_file') },
      'ClientToolObservation',
      { is_error: boolean(false) },
    ),
    {
      state: MESSAGE_STATES.everyTool,
      apps: CANVAS,
      description: "another client tool's call (ClientAction_open_settings: isActionEvent)",
      content: action('ClientAction_open_settings', 'open_settings', {}),
    },
    // get-event-content.js: the vision card reads the tool name, the action's `profile_name` and the observation's `model`.
    ...tool(
      CANVAS,
      'VisionInspectAction',
      'inspect_image_with_vision',
      { question: string('What does the screenshot show?'), profile_name: string('vision') },
      'VisionInspectObservation',
      { profile_name: string('vision'), model: string('gpt-4o') },
    ),
    {
      state: MESSAGE_STATES.everyTool,
      apps: CANVAS,
      description: 'the LLM statistics (isStatsConversationStateUpdateEvent, key stats: conversation-metrics.js, combineUsageMetrics)',
      content: (app) => ({
        ...base('ConversationStateUpdateEvent', 'environment', app),
        key: 'stats',
        value: {
          usage_to_metrics: like({
            agent: like({
              accumulated_cost: like(0.0123),
              accumulated_token_usage: like({
                prompt_tokens: like(2160),
                completion_tokens: like(3),
                cache_read_tokens: like(0),
                cache_write_tokens: like(2160),
                context_window: like(200000),
                per_turn_token: like(2163),
              }),
            }),
          }),
        },
      }),
    },
    {
      state: MESSAGE_STATES.streaming,
      apps: CANVAS,
      description: "a piece of the agent's answer (StreamingDeltaEvent: isStreamingDeltaEvent)",
      content: (app) => ({ ...base('StreamingDeltaEvent', 'agent', app), content: string('Done') }),
    },
    {
      state: MESSAGE_STATES.goal,
      apps: CANVAS,
      description: "the goal loop's status (isGoalConversationStateUpdateEvent, key goal: GoalStatus)",
      content: (app) => ({
        ...base('ConversationStateUpdateEvent', 'environment', app),
        key: 'goal',
        value: like({
          active: boolean(true),
          status: regex('^(running|complete|capped|interrupted)$', 'running'),
          iteration: like(1),
          max_iterations: like(10),
          objective: string('Make the tests pass'),
        }),
      }),
    },
  ];
  return messages.filter((message) => message.apps.includes(appOf(dialect)));
}

/** How many server events each dialect's contract holds. */
export const serverMessageCount = (dialect?: string) => serverMessages(dialect).length;

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
  for (const { state, description, content } of serverMessages(dialect)) {
    await pact
      .addAsynchronousInteraction()
      .given(state)
      .expectsToReceive(description, (builder) => {
        builder.withJSONContent(content(appOf(dialect)));
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
