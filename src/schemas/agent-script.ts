/**
 * The scripts of the fake's agent (the `agentScripts` option, `PUT /_fakehands/agent/scripts`): a
 * module of its own, since a fake's options need it and nothing else of the agent server's schemas.
 * The steps are a closed vocabulary: each is an object of exactly one key, the step's kind
 * (`StepKind`); a step of any other shape is refused (a 422 on the control API, a fixture or
 * options error). Adding a kind: its schema here, its events in `domain/agent/steps.ts` (the
 * compiler's exhaustive `switch` fails to type-check until it is there).
 */
import * as z from 'zod/mini';

const nonEmpty = () => z.string().check(z.minLength(1));

/** A task of the task tracker (openhands-tools `task_tracker/definition.py`, `TaskItem`). */
export const TaskItem = z.strictObject({
  title: nonEmpty(),
  notes: z._default(z.string(), ''),
  status: z._default(z.enum(['todo', 'in_progress', 'done']), 'todo'),
});

/** The kinds of hook (openhands-sdk `event/hook_execution.py`, `HookEventType`). */
export const HookEventType = z.enum(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop']);

/** Each step kind's body: the step `{ [kind]: body }`. */
export const STEP_BODIES = {
  /** A terminal command and its output (`TerminalAction`/`TerminalObservation`). */
  terminal: z.strictObject({ command: nonEmpty(), output: z._default(z.string(), ''), exit_code: z._default(z.int(), 0) }),
  /** The turn's file edit (`FileEditorAction`/`FileEditorObservation`, create or str_replace). */
  edit: z.literal(true),
  /** An answer of the agent (`MessageEvent`). */
  message: nonEmpty(),
  /** A tool error the agent can go on from (`AgentErrorEvent`). */
  error: nonEmpty(),
  /** A failure that ends the run (`ConversationErrorEvent` with its `classification`, then `error`). */
  fail: z.strictObject({ code: z._default(nonEmpty(), 'AgentError'), detail: nonEmpty() }),
  /** Being stuck: ends the run with `stuck`. */
  stuck: z.literal(true),
  /** A thought logged with the think tool (`ThinkAction`/`ThinkObservation`). */
  think: nonEmpty(),
  /** The finish tool (`FinishAction`/`FinishObservation`): the agent's last word of the run. */
  finish: nonEmpty(),
  /** A plan of the task tracker (`TaskTrackerAction`/`TaskTrackerObservation`, command `plan`). */
  task_tracker: z.strictObject({ tasks: z.array(TaskItem).check(z.minLength(1), z.maxLength(50)) }),
  /** A sub-agent's task (`TaskAction`/`TaskObservation`, openhands-tools `task/definition.py`). */
  task: z.strictObject({
    prompt: nonEmpty(),
    subagent_type: z._default(nonEmpty(), 'default'),
    description: z.optional(z.string()),
    result: z._default(z.string(), 'Done.'),
  }),
  /** The browser opens a URL (`BrowserNavigateAction`/`BrowserObservation` with a screenshot). */
  browser_navigate: z.strictObject({ url: z.url(), new_tab: z._default(z.boolean(), false) }),
  /** The browser clicks an element by its index (`BrowserClickAction`). */
  browser_click: z.strictObject({ index: z.int().check(z.gte(0)), new_tab: z._default(z.boolean(), false) }),
  /** The browser types into an element (`BrowserTypeAction`). */
  browser_type: z.strictObject({ index: z.int().check(z.gte(0)), text: z.string() }),
  /** Files by pattern (`GlobAction`/`GlobObservation`). */
  glob: z.strictObject({ pattern: nonEmpty(), files: z._default(z.array(z.string()), []) }),
  /** Files whose content matches (`GrepAction`/`GrepObservation`). */
  grep: z.strictObject({ pattern: nonEmpty(), include: z.optional(nonEmpty()), matches: z._default(z.array(z.string()), []) }),
  /** A call of an MCP server's tool (`MCPToolAction`/`MCPToolObservation`). */
  mcp: z.strictObject({
    tool: nonEmpty(),
    arguments: z._default(z.record(z.string(), z.unknown()), {}),
    result: z._default(z.string(), ''),
  }),
  /** A skill invoked by name (`InvokeSkillAction`/`InvokeSkillObservation`). */
  skill: nonEmpty(),
  /** The plan file written by the planning agent (`PlanningFileEditorAction`, `.agents_tmp/PLAN.md`). */
  plan: nonEmpty(),
  /** A str_replace edit of a named file (`FileEditorAction` command `str_replace`, the tool `str_replace_editor` in older prompts). */
  str_replace: z.strictObject({ path: nonEmpty(), old_str: nonEmpty(), new_str: z.string() }),
  /** A switch to another LLM profile (`SwitchLLMAction`/`SwitchLLMObservation`). */
  switch_llm: z.strictObject({
    profile: nonEmpty(),
    model: z._default(nonEmpty(), 'gpt-4o-mini'),
    reason: z._default(z.string(), 'A cheaper model is enough for this.'),
  }),
  /** A hook run (`HookExecutionEvent`, source `hook`). */
  hook: z.strictObject({
    event: z._default(HookEventType, 'PreToolUse'),
    command: nonEmpty(),
    blocked: z._default(z.boolean(), false),
    reason: z.optional(z.string()),
    stdout: z._default(z.string(), ''),
  }),
  /** A condensation of the history: `CondensationRequest`, `Condensation` forgetting the run's earlier events, `CondensationSummaryEvent`. */
  condense: z.strictObject({ summary: nonEmpty() }),
  /** A tool call of an ACP agent (`ACPToolCallEvent`). */
  acp_tool_call: z.strictObject({
    title: nonEmpty(),
    tool_kind: z._default(nonEmpty(), 'execute'),
    status: z._default(nonEmpty(), 'completed'),
    output: z._default(z.string(), ''),
  }),
  /** A completion log of the LLM (`LLMCompletionLogEvent`). */
  llm_log: z.strictObject({ model: z._default(nonEmpty(), 'gpt-4o'), usage_id: z._default(nonEmpty(), 'default') }),
  /** The exact token ids of a message (`TokenEvent`). */
  tokens: z.strictObject({ prompt: z.array(z.int()).check(z.maxLength(10_000)), response: z.array(z.int()).check(z.maxLength(10_000)) }),
  /** The event a client's interrupt publishes (`InterruptEvent`); the run goes on (the status change is the real route's). */
  interrupt: z.literal(true),
  /** The event a client's pause publishes (`PauseEvent`); the run goes on (the status change is the real route's). */
  pause: z.literal(true),
  /** A rejection of the run's last action (`UserRejectObservation`); the run goes on. */
  reject: nonEmpty(),
  /** The browser scrolls the page (`BrowserScrollAction`, openhands-tools `browser_use/definition.py`). */
  browser_scroll: z.strictObject({ direction: z._default(z.enum(['up', 'down']), 'down') }),
  /** The browser goes back in its history (`BrowserGoBackAction`). */
  browser_go_back: z.literal(true),
  /** The browser reads the page's interactive elements (`BrowserGetStateAction`). */
  browser_get_state: z.strictObject({ include_screenshot: z._default(z.boolean(), false) }),
  /** The browser reads the page as markdown (`BrowserGetContentAction`). */
  browser_get_content: z.strictObject({
    extract_links: z._default(z.boolean(), false),
    start_from_char: z._default(z.int().check(z.gte(0)), 0),
  }),
  /** The browser lists its tabs (`BrowserListTabsAction`). */
  browser_list_tabs: z.literal(true),
  /** The browser switches to a tab (`BrowserSwitchTabAction`). */
  browser_switch_tab: z.strictObject({ tab_id: nonEmpty() }),
  /** The browser closes a tab (`BrowserCloseTabAction`). */
  browser_close_tab: z.strictObject({ tab_id: nonEmpty() }),
  /** The browser reads its cookies and local storage (`BrowserGetStorageAction`). */
  browser_get_storage: z.literal(true),
  /** The browser sets its cookies and local storage (`BrowserSetStorageAction`). */
  browser_set_storage: z.strictObject({ storage_state: z._default(z.record(z.string(), z.unknown()), {}) }),
  /** The browser starts recording the session (`BrowserStartRecordingAction`). */
  browser_start_recording: z.literal(true),
  /** The browser stops recording and saves it (`BrowserStopRecordingAction`). */
  browser_stop_recording: z.literal(true),
  /** A command to Agent Canvas's UI: its client tool `canvas_ui_control` (`ClientAction_canvas_ui_control`, `ClientToolObservation`). */
  canvas_ui: z.strictObject({
    command: z._default(z.enum(['navigate_to_file', 'open_tab', 'show_preview']), 'open_tab'),
    path: z.optional(nonEmpty()),
    tab: z.optional(nonEmpty()),
  }),
  /** A client tool a frontend registered (`ClientAction_<name>`, `ClientToolObservation`: openhands-sdk `tool/client_tool.py`). */
  client_tool: z.strictObject({
    name: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)),
    arguments: z._default(z.record(z.string(), z.unknown()), {}),
  }),
  /** An attached image asked about with a vision model (`VisionInspectAction`/`VisionInspectObservation`, `tool/builtins/vision_inspect.py`). */
  vision_inspect: z.strictObject({
    question: nonEmpty(),
    image_index: z._default(z.int().check(z.gte(0)), 0),
    profile: z._default(nonEmpty(), 'vision'),
    model: z._default(nonEmpty(), 'gpt-4o'),
    answer: z._default(z.string(), 'A screenshot of a web page with a login form.'),
  }),
  /** The run's LLM statistics so far (`ConversationStateUpdateEvent` key `stats`, snapshots per usage id, `event_service.py` `_setup_stats_streaming`). */
  stats: z.literal(true),
} as const;

/** The name of a step's kind. */
export type StepKind = keyof typeof STEP_BODIES;

/** Every step kind, in the vocabulary's order. */
export const STEP_KINDS = Object.freeze(Object.keys(STEP_BODIES) as StepKind[]);

type StepOf<K extends StepKind> = { [P in K]: z.output<(typeof STEP_BODIES)[P]> };

/** One step of an agent script: an object of one key, its kind (see `STEP_BODIES`). */
export const AgentScriptStep = z.union(STEP_KINDS.map((kind) => z.strictObject({ [kind]: STEP_BODIES[kind] }))) as unknown as z.ZodMiniType<
  { [K in StepKind]: StepOf<K> }[StepKind],
  { [K in StepKind]: { [P in K]: z.input<(typeof STEP_BODIES)[P]> } }[StepKind]
>;
export type AgentScriptStep = z.output<typeof AgentScriptStep>;

/** The kind of a step (its one key). */
export function stepKind(step: AgentScriptStep): StepKind {
  return Object.keys(step)[0] as StepKind;
}

/**
 * A script of the fake's agent: the steps of a run, for a user message whose text contains `match`
 * (case-insensitive; a script without `match` answers any message).
 */
export const AgentScript = z.strictObject({
  match: z.optional(z.string().check(z.minLength(1))),
  steps: z.array(AgentScriptStep).check(z.minLength(1), z.maxLength(200)),
});
export type AgentScript = z.output<typeof AgentScript>;
