/**
 * The agent's vocabulary: every script step kind and the events it publishes, with the fields of
 * the SDK's models (software-agent-sdk, Aug 2026: `openhands-sdk/openhands/sdk/event/`,
 * `openhands-sdk/openhands/sdk/tool/builtins/`, `openhands-sdk/openhands/sdk/mcp/definition.py`,
 * `openhands-tools/openhands/tools/*\/definition.py`); an unknown step is refused; the showcase
 * publishes every kind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createFake, type FakeOptionsInput } from '../../src/index.js';
import { STEP_KINDS } from '../../src/schemas/agent-script.js';
import { DEFAULT_SCRIPT } from '../../src/domain/agent/default-script.js';
import { EDIT_DONE_AFTER, RUN_STEPS } from '../../src/domain/agent/status.js';
import { EVENT_KINDS } from '../../src/domain/agent/vocabulary.js';
import { SHOWCASE_KINDS, SHOWCASE_SKIPS } from '../../src/domain/agent/showcase.js';
import { stepEventKinds } from '../../src/domain/agent/steps.js';
import { readFileSync } from 'node:fs';
import { describe as name } from './support.js';

const APP = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';
type Json = Record<string, unknown>;

/** One script per step kind, matched by `kind:<name>`. */
const SCRIPTS: FakeOptionsInput['agentScripts'] = [
  { match: 'kind:think', steps: [{ think: 'First the tests.' }] },
  { match: 'kind:finish', steps: [{ finish: 'All done.' }] },
  {
    match: 'kind:task_tracker',
    steps: [{ task_tracker: { tasks: [{ title: 'Write tests', status: 'in_progress' }, { title: 'Ship' }] } }],
  },
  { match: 'kind:task', steps: [{ task: { prompt: 'Write the docs', subagent_type: 'writer', result: 'Docs written.' } }] },
  { match: 'kind:browser_navigate', steps: [{ browser_navigate: { url: 'http://localhost:3000/' } }] },
  { match: 'kind:browser_click', steps: [{ browser_click: { index: 4 } }] },
  { match: 'kind:browser_type', steps: [{ browser_type: { index: 2, text: 'hi' } }] },
  { match: 'kind:glob', steps: [{ glob: { pattern: '**/*.ts', files: ['src/a.ts'] } }] },
  { match: 'kind:grep', steps: [{ grep: { pattern: 'TODO', include: '*.ts', matches: ['src/a.ts'] } }] },
  { match: 'kind:mcp', steps: [{ mcp: { tool: 'fetch_fetch', arguments: { url: 'https://example.com' }, result: 'Example' } }] },
  { match: 'kind:skill', steps: [{ skill: 'github' }] },
  { match: 'kind:plan', steps: [{ plan: '# Plan' }] },
  { match: 'kind:str_replace', steps: [{ str_replace: { path: 'README.md', old_str: 'a', new_str: 'b' } }] },
  { match: 'kind:switch_llm', steps: [{ switch_llm: { profile: 'cheap', model: 'gpt-4o-mini' } }] },
  {
    match: 'kind:hook',
    steps: [{ terminal: { command: 'rm -rf /' } }, { hook: { event: 'PreToolUse', command: './guard.sh', blocked: true, reason: 'no' } }],
  },
  { match: 'kind:condense', steps: [{ message: 'one' }, { condense: { summary: 'Said one.' } }] },
  { match: 'kind:acp_tool_call', steps: [{ acp_tool_call: { title: 'Read a.ts', tool_kind: 'read', output: 'x' } }] },
  { match: 'kind:llm_log', steps: [{ llm_log: { model: 'openai/gpt-4o' } }] },
  { match: 'kind:tokens', steps: [{ tokens: { prompt: [1, 2], response: [3] } }] },
  { match: 'kind:interrupt', steps: [{ interrupt: true }] },
  { match: 'kind:pause', steps: [{ pause: true }] },
  { match: 'kind:reject', steps: [{ terminal: { command: 'rm -rf build' } }, { reject: 'Not that.' }] },
  { match: 'kind:fail', steps: [{ fail: { code: 'LLMAuthenticationError', detail: 'Invalid API key' } }] },
  { match: 'kind:stuck', steps: [{ stuck: true }] },
  { match: 'kind:terminal', steps: [{ terminal: { command: 'ls', output: 'a' } }] },
  { match: 'kind:edit', steps: [{ edit: true }] },
  { match: 'kind:message', steps: [{ message: 'Hello.' }] },
  { match: 'kind:error', steps: [{ error: 'Boom' }] },
  { match: 'kind:browser_scroll', steps: [{ browser_scroll: { direction: 'up' } }] },
  { match: 'kind:browser_go_back', steps: [{ browser_go_back: true }] },
  { match: 'kind:browser_get_state', steps: [{ browser_get_state: { include_screenshot: true } }] },
  { match: 'kind:browser_get_content', steps: [{ browser_get_content: { extract_links: true } }] },
  { match: 'kind:browser_list_tabs', steps: [{ browser_list_tabs: true }] },
  { match: 'kind:browser_switch_tab', steps: [{ browser_switch_tab: { tab_id: 'A1' } }] },
  { match: 'kind:browser_close_tab', steps: [{ browser_close_tab: { tab_id: 'A1' } }] },
  { match: 'kind:browser_get_storage', steps: [{ browser_get_storage: true }] },
  { match: 'kind:browser_set_storage', steps: [{ browser_set_storage: { storage_state: { cookies: [] } } }] },
  { match: 'kind:browser_start_recording', steps: [{ browser_start_recording: true }] },
  { match: 'kind:browser_stop_recording', steps: [{ browser_stop_recording: true }] },
  { match: 'kind:canvas_ui', steps: [{ canvas_ui: { command: 'open_tab', tab: 'changes' } }] },
  { match: 'kind:client_tool', steps: [{ client_tool: { name: 'open_settings', arguments: { section: 'llm' } } }] },
  { match: 'kind:vision_inspect', steps: [{ vision_inspect: { question: 'What is it?', profile: 'eyes', answer: 'A cat.' } }] },
  { match: 'kind:stats', steps: [{ message: 'Hi.' }, { stats: true }] },
];

let fake: Awaited<ReturnType<typeof createFake>>;
let run: (text: string) => Promise<Json[]>;

beforeAll(async () => {
  fake = await createFake({
    baseUrl: APP,
    agentUrl: AGENT,
    auth: 'none',
    fixture: 'empty',
    clock: 'manual',
    timings: 'instant',
    agentScripts: SCRIPTS,
  });
  const json = async (url: string, init: RequestInit = {}) =>
    (await fake.fetch(new Request(url, init))).json() as Promise<Json & { items?: Json[]; next_page_id?: string | null }>;
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
  /** Sends `text`; returns the events of the run it started (after the user's message and its state update; a run is under 100 events). */
  run = async (text: string) => {
    await json(`${AGENT}/api/conversations/${conversation!.id}/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ role: 'user', content: [{ type: 'text', text }], run: true }),
    });
    fake.clock.advance(1000);
    const newest = (
      (await json(`${AGENT}/api/conversations/${conversation!.id}/events/search?limit=100&sort_order=TIMESTAMP_DESC`, { headers })).items ??
      []
    ).reverse();
    const asked = newest.findLastIndex((e) => e.kind === 'MessageEvent' && e.source === 'user');
    expect(newest[asked]).toMatchObject({ llm_message: { content: [{ text }] } });
    // The message's id kept as the state's last_user_message_id (local_conversation.py, _track_last_user_message), then the run.
    expect(newest[asked + 1]).toMatchObject({
      kind: 'ConversationStateUpdateEvent',
      key: 'last_user_message_id',
      value: newest[asked]!.id,
    });
    return newest.slice(asked + 2);
  };
}, 60_000);

const tail = (log: Json[]) => log.map(name);

describe('step terminal (openhands-tools terminal/definition.py)', () => {
  it('publishes a TerminalAction and its TerminalObservation naming it', async () => {
    const log = await run('kind:terminal');
    expect(tail(log)).toEqual([
      'execution_status=running',
      'ActionEvent:TerminalAction',
      'ObservationEvent:TerminalObservation',
      'execution_status=finished',
    ]);
    expect(log[2]).toMatchObject({
      action_id: log[1]!.id,
      tool_name: 'terminal',
      observation: { command: 'ls', exit_code: 0, content: [{ type: 'text', text: 'a' }] },
    });
  });
});

describe('step edit (openhands-tools file_editor/definition.py)', () => {
  it("publishes the turn's FileEditorAction and FileEditorObservation", async () => {
    expect(tail(await run('kind:edit'))).toEqual([
      'execution_status=running',
      'ActionEvent:FileEditorAction',
      'ObservationEvent:FileEditorObservation',
      'execution_status=finished',
    ]);
  });
});

describe('step message (openhands-sdk event/llm_convertible/message.py)', () => {
  it("publishes the agent's MessageEvent", async () => {
    const log = await run('kind:message');
    expect(log[1]).toMatchObject({
      kind: 'MessageEvent',
      source: 'agent',
      llm_message: { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
    });
  });
});

describe('step error (openhands-sdk event/llm_convertible/observation.py AgentErrorEvent)', () => {
  it('publishes an AgentErrorEvent and the run goes on to finished', async () => {
    const log = await run('kind:error');
    expect(tail(log)).toEqual(['execution_status=running', 'AgentErrorEvent', 'execution_status=finished']);
    expect(log[1]).toMatchObject({ source: 'agent', tool_name: 'terminal', error: 'Boom' });
  });
});

describe('step fail (openhands-sdk event/conversation_error.py, error_classification.py)', () => {
  it('publishes a ConversationErrorEvent with its classification, then error', async () => {
    const log = await run('kind:fail');
    expect(tail(log)).toEqual(['execution_status=running', 'ConversationErrorEvent', 'execution_status=error']);
    expect(log[1]).toMatchObject({
      code: 'LLMAuthenticationError',
      detail: 'Invalid API key',
      classification: { kind: 'auth', retryable: false, user_action: 'settings' },
    });
  });
});

describe('step stuck (openhands-sdk event/conversation_state.py)', () => {
  it('ends the run with stuck', async () => {
    expect(tail(await run('kind:stuck'))).toEqual(['execution_status=running', 'execution_status=stuck']);
  });
});

describe('step think (openhands-sdk tool/builtins/think.py)', () => {
  it('publishes a ThinkAction with the thought and a ThinkObservation', async () => {
    const log = await run('kind:think');
    expect(tail(log).slice(1, 3)).toEqual(['ActionEvent:ThinkAction', 'ObservationEvent:ThinkObservation']);
    expect(log[1]).toMatchObject({
      tool_name: 'think',
      action: { thought: 'First the tests.' },
      tool_call: { name: 'think', arguments: '{"thought":"First the tests."}' },
    });
  });
});

describe('step finish (openhands-sdk tool/builtins/finish.py)', () => {
  it('publishes a FinishAction with the message and a FinishObservation', async () => {
    const log = await run('kind:finish');
    expect(tail(log).slice(1, 3)).toEqual(['ActionEvent:FinishAction', 'ObservationEvent:FinishObservation']);
    expect(log[1]).toMatchObject({ tool_name: 'finish', action: { message: 'All done.' } });
  });
});

describe('step task_tracker (openhands-tools task_tracker/definition.py)', () => {
  it('publishes a plan with its task list, defaults filled in (TaskItem)', async () => {
    const log = await run('kind:task_tracker');
    const tasks = [
      { title: 'Write tests', notes: '', status: 'in_progress' },
      { title: 'Ship', notes: '', status: 'todo' },
    ];
    expect(log[1]).toMatchObject({ tool_name: 'task_tracker', action: { kind: 'TaskTrackerAction', command: 'plan', task_list: tasks } });
    expect(log[2]).toMatchObject({ observation: { kind: 'TaskTrackerObservation', command: 'plan', task_list: tasks } });
  });
});

describe('step task (openhands-tools task/definition.py)', () => {
  it('publishes a sub-agent TaskAction and its TaskObservation', async () => {
    const log = await run('kind:task');
    expect(log[1]).toMatchObject({ tool_name: 'task', action: { kind: 'TaskAction', prompt: 'Write the docs', subagent_type: 'writer' } });
    expect(log[2]).toMatchObject({
      observation: { kind: 'TaskObservation', subagent: 'writer', status: 'completed', content: [{ text: 'Docs written.' }] },
    });
  });
});

describe.each([
  ['browser_navigate', 'BrowserNavigateAction', { url: 'http://localhost:3000/', new_tab: false }],
  ['browser_click', 'BrowserClickAction', { index: 4, new_tab: false }],
  ['browser_type', 'BrowserTypeAction', { index: 2, text: 'hi' }],
  ['browser_scroll', 'BrowserScrollAction', { direction: 'up' }],
  ['browser_go_back', 'BrowserGoBackAction', {}],
  ['browser_get_state', 'BrowserGetStateAction', { include_screenshot: true }],
  ['browser_get_content', 'BrowserGetContentAction', { extract_links: true, start_from_char: 0 }],
  ['browser_list_tabs', 'BrowserListTabsAction', {}],
  ['browser_switch_tab', 'BrowserSwitchTabAction', { tab_id: 'A1' }],
  ['browser_close_tab', 'BrowserCloseTabAction', { tab_id: 'A1' }],
  ['browser_get_storage', 'BrowserGetStorageAction', {}],
  ['browser_set_storage', 'BrowserSetStorageAction', { storage_state: { cookies: [] } }],
  ['browser_start_recording', 'BrowserStartRecordingAction', {}],
  ['browser_stop_recording', 'BrowserStopRecordingAction', {}],
])('step %s (openhands-tools browser_use/definition.py)', (kind, action, fields) => {
  it('publishes its action and a BrowserObservation carrying a small PNG screenshot', async () => {
    const log = await run(`kind:${kind}`);
    expect(log[1]).toMatchObject({ tool_name: kind, action: { kind: action, ...fields } });
    const observation = log[2]!.observation as { kind: string; screenshot_data: string };
    expect(observation.kind).toBe('BrowserObservation');
    expect(Buffer.from(observation.screenshot_data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('step canvas_ui (Agent Canvas 1.20 dist/constants/canvas-ui.js: its client tool canvas_ui_control)', () => {
  it('publishes the ClientAction_canvas_ui_control Canvas dispatches to its UI, answered at once by a ClientToolObservation', async () => {
    const log = await run('kind:canvas_ui');
    expect(log[1]).toMatchObject({
      tool_name: 'canvas_ui_control',
      action: { kind: 'ClientAction_canvas_ui_control', command: 'open_tab', tab: 'changes' },
    });
    expect(log[2]).toMatchObject({
      action_id: log[1]!.id,
      tool_name: 'canvas_ui_control',
      observation: { kind: 'ClientToolObservation', content: [{ type: 'text', text: 'Tool call dispatched to client.' }], is_error: false },
    });
  });
});

describe('step client_tool (openhands-sdk tool/client_tool.py: ClientAction_<name>, ClientToolExecutor)', () => {
  it('publishes the action kind named after the tool, with its arguments as fields, and the acknowledgement', async () => {
    const log = await run('kind:client_tool');
    expect(log[1]).toMatchObject({ tool_name: 'open_settings', action: { kind: 'ClientAction_open_settings', section: 'llm' } });
    expect(log[2]).toMatchObject({
      observation: { kind: 'ClientToolObservation', content: [{ text: 'Tool call dispatched to client.' }] },
    });
  });
});

describe('step vision_inspect (openhands-sdk tool/builtins/vision_inspect.py)', () => {
  it('asks inspect_image_with_vision about an image and answers with the profile and model it used', async () => {
    const log = await run('kind:vision_inspect');
    expect(log[1]).toMatchObject({
      tool_name: 'inspect_image_with_vision',
      action: { kind: 'VisionInspectAction', image_index: 0, question: 'What is it?', profile_name: 'eyes' },
    });
    expect(log[2]!.observation).toEqual({
      kind: 'VisionInspectObservation',
      content: [{ cache_prompt: false, type: 'text', text: 'A cat.' }],
      is_error: false,
      image_index: 0,
      question: 'What is it?',
      profile_name: 'eyes',
      model: 'gpt-4o',
      answer: 'A cat.',
    });
  });
});

describe('step stats (openhands-agent-server event_service.py, _setup_stats_streaming)', () => {
  it("publishes the run's LLM statistics so far as the state update of key stats", async () => {
    const log = await run('kind:stats');
    expect(log[2]).toMatchObject({
      kind: 'ConversationStateUpdateEvent',
      key: 'stats',
      value: { usage_to_metrics: { agent: { max_budget_per_task: null } } },
    });
    expect(
      (log[2]!.value as { usage_to_metrics: { agent: { accumulated_cost: number } } }).usage_to_metrics.agent.accumulated_cost,
    ).toBeGreaterThan(0);
  });
});

describe('step glob (openhands-tools glob/definition.py)', () => {
  it('publishes a GlobAction and a GlobObservation with its files', async () => {
    const log = await run('kind:glob');
    expect(log[1]).toMatchObject({ tool_name: 'glob', action: { kind: 'GlobAction', pattern: '**/*.ts' } });
    expect(log[2]).toMatchObject({ observation: { kind: 'GlobObservation', files: ['src/a.ts'], pattern: '**/*.ts', truncated: false } });
  });
});

describe('step grep (openhands-tools grep/definition.py)', () => {
  it('publishes a GrepAction and a GrepObservation with its matches', async () => {
    const log = await run('kind:grep');
    expect(log[1]).toMatchObject({ tool_name: 'grep', action: { kind: 'GrepAction', pattern: 'TODO', include: '*.ts' } });
    expect(log[2]).toMatchObject({ observation: { kind: 'GrepObservation', matches: ['src/a.ts'], include_pattern: '*.ts' } });
  });
});

describe('step mcp (openhands-sdk mcp/definition.py)', () => {
  it("publishes an MCPToolAction under the MCP tool's name and its MCPToolObservation", async () => {
    const log = await run('kind:mcp');
    expect(log[1]).toMatchObject({ tool_name: 'fetch_fetch', action: { kind: 'MCPToolAction', data: { url: 'https://example.com' } } });
    expect(log[2]).toMatchObject({ observation: { kind: 'MCPToolObservation', tool_name: 'fetch_fetch', content: [{ text: 'Example' }] } });
  });
});

describe('step skill (openhands-sdk tool/builtins/invoke_skill.py)', () => {
  it('publishes an InvokeSkillAction and its InvokeSkillObservation', async () => {
    const log = await run('kind:skill');
    expect(log[1]).toMatchObject({ tool_name: 'invoke_skill', action: { kind: 'InvokeSkillAction', name: 'github' } });
    expect(log[2]).toMatchObject({ observation: { kind: 'InvokeSkillObservation', skill_name: 'github' } });
  });
});

describe('step plan (openhands-tools planning_file_editor/definition.py)', () => {
  it('writes .agents_tmp/PLAN.md with a PlanningFileEditorAction', async () => {
    const log = await run('kind:plan');
    expect(tail(log).slice(1, 3)).toEqual(['ActionEvent:PlanningFileEditorAction', 'ObservationEvent:PlanningFileEditorObservation']);
    expect(String((log[1]!.action as Json).path)).toMatch(/\/\.agents_tmp\/PLAN\.md$/);
  });
});

describe('step str_replace (the StrReplaceEditor tool the web apps still render)', () => {
  it('publishes a StrReplaceEditorAction and its observation with old and new content', async () => {
    const log = await run('kind:str_replace');
    expect(log[1]).toMatchObject({
      tool_name: 'str_replace_editor',
      action: { kind: 'StrReplaceEditorAction', command: 'str_replace', old_str: 'a', new_str: 'b' },
    });
    expect(log[2]).toMatchObject({ observation: { kind: 'StrReplaceEditorObservation', old_content: 'a', new_content: 'b' } });
  });
});

describe('step switch_llm (openhands-sdk tool/builtins/switch_llm.py)', () => {
  it('publishes a SwitchLLMAction and an observation naming the active model', async () => {
    const log = await run('kind:switch_llm');
    expect(log[1]).toMatchObject({ tool_name: 'switch_llm', action: { kind: 'SwitchLLMAction', profile_name: 'cheap' } });
    expect(log[2]).toMatchObject({ observation: { kind: 'SwitchLLMObservation', profile_name: 'cheap', active_model: 'gpt-4o-mini' } });
  });
});

describe('step hook (openhands-sdk event/hook_execution.py)', () => {
  it("publishes a HookExecutionEvent of source hook, blocked with exit code 2, naming the last action's tool", async () => {
    const log = await run('kind:hook');
    expect(log[3]).toEqual(
      expect.objectContaining({
        kind: 'HookExecutionEvent',
        source: 'hook',
        hook_event_type: 'PreToolUse',
        hook_command: './guard.sh',
        tool_name: 'terminal',
        success: false,
        blocked: true,
        exit_code: 2,
        reason: 'no',
      }),
    );
  });
});

describe('step condense (openhands-sdk event/condenser.py)', () => {
  it("publishes CondensationRequest, a Condensation forgetting the run's earlier events, and CondensationSummaryEvent", async () => {
    const log = await run('kind:condense');
    expect(tail(log)).toEqual([
      'execution_status=running',
      'MessageEvent:assistant',
      'CondensationRequest',
      'Condensation',
      'CondensationSummaryEvent',
      'execution_status=finished',
    ]);
    expect(log[3]).toMatchObject({ forgotten_event_ids: [log[1]!.id], summary: 'Said one.', summary_offset: 0 });
    expect(log[4]).toMatchObject({ summary: 'Said one.', source: 'environment' });
  });
});

describe('step acp_tool_call (openhands-sdk event/acp_tool_call.py)', () => {
  it('publishes an ACPToolCallEvent', async () => {
    const log = await run('kind:acp_tool_call');
    expect(log[1]).toMatchObject({
      kind: 'ACPToolCallEvent',
      source: 'agent',
      title: 'Read a.ts',
      tool_kind: 'read',
      status: 'completed',
      raw_output: 'x',
      is_error: false,
    });
  });
});

describe('step llm_log (openhands-sdk event/llm_completion_log.py)', () => {
  it('publishes an LLMCompletionLogEvent with its JSON log data', async () => {
    const log = await run('kind:llm_log');
    expect(log[1]).toMatchObject({ kind: 'LLMCompletionLogEvent', model_name: 'openai/gpt-4o', usage_id: 'default' });
    expect(JSON.parse(String(log[1]!.log_data))).toMatchObject({ model: 'openai/gpt-4o' });
  });
});

describe('step tokens (openhands-sdk event/token.py)', () => {
  it('publishes a TokenEvent with the token ids', async () => {
    expect((await run('kind:tokens'))[1]).toMatchObject({ kind: 'TokenEvent', prompt_token_ids: [1, 2], response_token_ids: [3] });
  });
});

describe.each([
  ['interrupt', 'InterruptEvent'],
  ['pause', 'PauseEvent'],
])('step %s (openhands-sdk event/user_action.py)', (kind, event) => {
  it(`publishes a ${event} of source user`, async () => {
    expect((await run(`kind:${kind}`))[1]).toMatchObject({ kind: event, source: 'user' });
  });
});

describe('step reject (openhands-sdk event/llm_convertible/observation.py UserRejectObservation)', () => {
  it("rejects the run's last action by its id", async () => {
    const log = await run('kind:reject');
    expect(log[3]).toMatchObject({
      kind: 'UserRejectObservation',
      action_id: log[1]!.id,
      tool_name: 'terminal',
      rejection_reason: 'Not that.',
    });
  });
});

describe('the vocabulary', () => {
  it('has a script above for every step kind', () => {
    expect(SCRIPTS.map((s) => s.match!.slice(5)).sort()).toEqual([...STEP_KINDS].sort());
  });

  it('is the generated reference page of script steps, row for row (step → events)', () => {
    const rows = readFileSync(new URL('../../docs/reference/steps.md', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => /^\| `([a-z_]+)` \| .+? \| (`[^|]+`) \| [^|]* \|$/.exec(line))
      .filter((m) => m !== null && (STEP_KINDS as readonly string[]).includes(m[1]!));
    expect(rows.map((m) => m![1])).toEqual([...STEP_KINDS]);
    for (const m of rows) {
      const step = SCRIPTS!.flatMap((script) => script.steps).find((candidate) => m![1]! in candidate)!;
      expect(
        m![2]!.split(', ').map((cell) => cell.slice(1, -1)),
        m![1],
      ).toEqual(stepEventKinds(step as never));
    }
  });

  it("derives the built-in run's length from its script", () => {
    expect(RUN_STEPS).toBe(DEFAULT_SCRIPT.length);
    expect([RUN_STEPS, EDIT_DONE_AFTER]).toEqual([7, 4]);
  });

  it('refuses an unknown step on PUT /_fakehands/agent-scripts with a 422, changing nothing', async () => {
    const put = await fake.fetch(
      new Request(`${APP}/_fakehands/agent-scripts`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scripts: [{ steps: [{ dance: true }] }] }),
      }),
    );
    expect(put.status).toBe(422);
    expect(((await put.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc.slice(0, 4)).toEqual(['body', 'scripts', 0, 'steps']);
    expect(
      ((await (await fake.fetch(new Request(`${APP}/_fakehands/agent-scripts`))).json()) as { scripts: unknown[] }).scripts,
    ).toHaveLength(SCRIPTS!.length);
  });

  it('refuses a step of two kinds as a fixture / options error', async () => {
    await expect(createFake({ agentScripts: [{ steps: [{ message: 'a', think: 'b' }] }] as never })).rejects.toThrow(
      /invalid options \(agentScripts\[0\]\.steps\[0\]/,
    );
  });
});

describe('the showcase (a message containing "showcase")', () => {
  it('covers every step kind but the skipped ones', () => {
    expect([...SHOWCASE_KINDS].sort()).toEqual(STEP_KINDS.filter((k) => !SHOWCASE_SKIPS.includes(k)).sort());
  });

  it('publishes every stored SDK event kind and every tool, and ends in a classified error', async () => {
    const log = await run('Please run the SHOWCASE');
    const kinds = new Set(log.map((e) => String(e.kind)));
    // StreamingDeltaEvent (never stored, streaming_delta.py) and ServerErrorEvent (a bad socket frame) are the socket's own.
    expect([...kinds].sort()).toEqual(
      EVENT_KINDS.filter((k) => k !== 'StreamingDeltaEvent' && k !== 'ServerErrorEvent' && k !== 'SystemPromptEvent').sort(),
    );
    const actions = new Set(log.filter((e) => e.kind === 'ActionEvent').map((e) => (e.action as Json).kind));
    expect([...actions].sort()).toEqual([
      'BrowserClickAction',
      'BrowserCloseTabAction',
      'BrowserGetContentAction',
      'BrowserGetStateAction',
      'BrowserGetStorageAction',
      'BrowserGoBackAction',
      'BrowserListTabsAction',
      'BrowserNavigateAction',
      'BrowserScrollAction',
      'BrowserSetStorageAction',
      'BrowserStartRecordingAction',
      'BrowserStopRecordingAction',
      'BrowserSwitchTabAction',
      'BrowserTypeAction',
      'ClientAction_canvas_ui_control',
      'ClientAction_open_settings',
      'FileEditorAction',
      'FinishAction',
      'GlobAction',
      'GrepAction',
      'InvokeSkillAction',
      'MCPToolAction',
      'PlanningFileEditorAction',
      'StrReplaceEditorAction',
      'SwitchLLMAction',
      'TaskAction',
      'TaskTrackerAction',
      'TerminalAction',
      'ThinkAction',
      'VisionInspectAction',
    ]);
    // The state keys Agent Canvas branches on (type-guards.js: isStatsConversationStateUpdateEvent), the stats one per usage id.
    const keys = new Set(log.filter((e) => e.kind === 'ConversationStateUpdateEvent').map((e) => String(e.key)));
    expect([...keys].sort()).toEqual(['execution_status', 'stats']);
    expect(log.at(-2)).toMatchObject({
      kind: 'ConversationErrorEvent',
      classification: { kind: 'rate_limit', retryable: true, user_action: 'retry' },
    });
    expect(name(log.at(-1)!)).toBe('execution_status=error');
  });
});
