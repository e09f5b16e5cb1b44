/**
 * The agent-server version the agent speaks: the names of its events' actions and observations
 * changed over time, and a client pinned to an older server knows only the old ones. The terminal
 * tool's `ExecuteBashAction`/`ExecuteBashObservation` became `TerminalAction`/`TerminalObservation`
 * in software-agent-sdk v1.3.0 (commit e485bba, "Rename ExecuteBashAction/ExecuteBashObservation to
 * TerminalAction/TerminalObservation", Nov 2025); the Nov 2025 web app pinned 1.1.0.
 */

/** The first version that names the terminal's events `TerminalAction`/`TerminalObservation`. */
export const TERMINAL_RENAME_VERSION = '1.3.0';

/**
 * The first version that keeps the id of the last user `MessageEvent` in the conversation state
 * (`last_user_message_id`), published as a `ConversationStateUpdateEvent` after each user message and
 * in `full_state` (software-agent-sdk commit ee4c919, "SDK: bound latest-user-message scan in
 * Agent.step (#1844)", Feb 2026, in v1.11.5); before, the state had no such field.
 */
export const LAST_USER_MESSAGE_ID_VERSION = '1.11.5';

/**
 * The first version whose events form a tree: each names its parent (`parent_id`) and the
 * conversation its HEAD (`leaf_event_id`) (software-agent-sdk commit 6575534, "feat(sdk):
 * conversation history tree (parent_id, leaf HEAD, fork-from-event, navigate) (#3922)", Jul 2026,
 * in v1.31.0).
 */
export const EVENT_TREE_VERSION = '1.31.0';

/** The first version whose `ActionEvent` carries a `summary` (software-agent-sdk commit 1220936, "Add action summary feature for tool calls (#1339)", Jan 2026, in v1.8.0). */
export const ACTION_SUMMARY_VERSION = '1.8.0';

/** The first version whose `ObservationEvent` carries `extended_content` (software-agent-sdk commit 7ce74f7, "feat(skills): add path-triggered rules (#3994)", Jul 2026, in v1.34.0). */
export const OBSERVATION_EXTENDED_CONTENT_VERSION = '1.34.0';

/** What each newest name was called before the rename. */
const BEFORE_TERMINAL_RENAME: Readonly<Record<string, string>> = Object.freeze({
  TerminalAction: 'ExecuteBashAction',
  TerminalObservation: 'ExecuteBashObservation',
});

/**
 * The first version whose `SystemPromptEvent.tools` are ToolDefinitions (software-agent-sdk commit
 * 7b782a0, "Public APIs return OpenHands types not LiteLLM types - Part 2: SystemPromptEvent", in
 * v1.7.0); before, they were OpenAI function definitions (`ChatCompletionToolParam`).
 */
export const TOOL_DEFINITIONS_VERSION = '1.7.0';

/** The parameters of the fake's tools as the older servers' function definitions wrote them, by tool kind. */
const FUNCTION_PARAMETERS: Readonly<Record<string, unknown>> = Object.freeze({
  TerminalTool: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  FileEditorTool: { type: 'object', properties: { command: { type: 'string' }, path: { type: 'string' } }, required: ['command', 'path'] },
  FinishTool: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
});

/** A ToolDefinition as a server before 1.7.0 wrote it: an OpenAI function definition. */
function asFunction(tool: unknown): unknown {
  const { title, description, kind } = tool as { title?: string; description?: string; kind?: string };
  return {
    type: 'function',
    function: { name: title, description, parameters: FUNCTION_PARAMETERS[kind ?? ''] ?? { type: 'object', properties: {} } },
  };
}

/** Versions read into their numbers, each once (every stored event asks about the same one or two). */
const versionParts = new Map<string, number[]>();
const partsOf = (version: string): number[] => {
  let parts = versionParts.get(version);
  if (!parts) {
    parts = version.split('.').map(Number);
    if (versionParts.size < 256) versionParts.set(version, parts);
  }
  return parts;
};

/** Compares two `MAJOR.MINOR.PATCH` versions: negative when `a` is older. */
export function compareVersions(a: string, b: string): number {
  const left = partsOf(a);
  const right = partsOf(b);
  for (let i = 0; i < 3; i++) if ((left[i] ?? 0) !== (right[i] ?? 0)) return (left[i] ?? 0) - (right[i] ?? 0);
  return 0;
}

/** Whether `version` (absent: the newest) names the terminal's events the old way. */
export function speaksExecuteBash(version: string | undefined): boolean {
  return version !== undefined && compareVersions(version, TERMINAL_RENAME_VERSION) < 0;
}

/** Whether agent server `version` (absent: the newest) keeps and publishes `last_user_message_id`. */
export function tracksLastUserMessage(version: string | undefined): boolean {
  return version === undefined || compareVersions(version, LAST_USER_MESSAGE_ID_VERSION) >= 0;
}

/** Whether agent server `version` (absent: the newest) stamps each event with its `parent_id`. */
export function stampsParents(version: string | undefined): boolean {
  return version === undefined || compareVersions(version, EVENT_TREE_VERSION) >= 0;
}

/**
 * An event's fields as agent server `version` writes them: the inner `action`/`observation` kind
 * renamed when that version predates the rename; the same object otherwise.
 * @example
 * inDialect({ kind: 'ActionEvent', action: { kind: 'TerminalAction' } }, '1.1.0') // action.kind: 'ExecuteBashAction'
 */
export function inDialect<T extends Record<string, unknown>>(fields: T, version: string | undefined): T {
  if (
    version !== undefined &&
    fields.kind === 'ActionEvent' &&
    'summary' in fields &&
    compareVersions(version, ACTION_SUMMARY_VERSION) < 0
  ) {
    const { summary: _summary, ...older } = fields;
    return inDialect(older as T, version);
  }
  if (
    version !== undefined &&
    fields.kind === 'ObservationEvent' &&
    'extended_content' in fields &&
    compareVersions(version, OBSERVATION_EXTENDED_CONTENT_VERSION) < 0
  ) {
    const { extended_content: _content, ...older } = fields;
    return inDialect(older as T, version);
  }
  if (version !== undefined && compareVersions(version, TOOL_DEFINITIONS_VERSION) < 0 && Array.isArray(fields.tools))
    return { ...fields, tools: fields.tools.map(asFunction) };
  if (!speaksExecuteBash(version)) return fields;
  const renamed = (inner: unknown) => {
    const kind = (inner as { kind?: unknown } | null)?.kind;
    return typeof kind === 'string' && BEFORE_TERMINAL_RENAME[kind] ? { ...(inner as object), kind: BEFORE_TERMINAL_RENAME[kind] } : inner;
  };
  if (!('action' in fields) && !('observation' in fields)) return fields;
  return {
    ...fields,
    ...('action' in fields ? { action: renamed(fields.action) } : {}),
    ...('observation' in fields ? { observation: renamed(fields.observation) } : {}),
  };
}

/**
 * The name agent server `version` gives an action or observation kind (its newest name otherwise).
 * @example
 * kindInDialect('TerminalAction', '1.1.0') // 'ExecuteBashAction'
 */
export function kindInDialect(kind: string, version: string | undefined): string {
  return speaksExecuteBash(version) ? (BEFORE_TERMINAL_RENAME[kind] ?? kind) : kind;
}
