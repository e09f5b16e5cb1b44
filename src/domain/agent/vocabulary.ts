/**
 * The agent's vocabulary: every event kind the fake publishes, as a discriminated union on `kind`,
 * and one named builder per kind (`events.*`), with the fields of the SDK's models
 * (openhands-sdk `openhands/sdk/event/`, Aug 2026: `base.py` `Event` with `parent_id`,
 * `llm_convertible/*.py`, `condenser.py`, `conversation_error.py` with `error_classification.py`,
 * `hook_execution.py`, `llm_completion_log.py`, `token.py`, `user_action.py`, `acp_tool_call.py`,
 * `streaming_delta.py`; the agent server's `ServerErrorEvent`). Tools' actions and observations are
 * those of openhands-tools and the SDK's built-in tools (`tool/builtins/*.py`, `mcp/definition.py`).
 * Fields are written without nulls, as the newest server writes them.
 */
import type * as z from 'zod/mini';
import { EventKind } from '../../schemas/event-kind.js';
import type { EVENT_KINDS_SCHEMAS, EventSchemaKind } from '../../schemas/sdk-events/event-union.js';

/** Who an event comes from (`event/types.py`, `SourceType`). */
export type EventSource = 'user' | 'agent' | 'environment' | 'hook';

/** A message's content as the agent server writes it. */
export type TextContent = { cache_prompt: boolean; type: 'text'; text: string }[];

/** A message's content as the agent server writes it (`TextContent`, `cache_prompt` off). */
export const text = (value: string): TextContent => [{ cache_prompt: false, type: 'text', text: value }];

/** Python's `json.dumps` of a JSON value (`", "` and `": "` between items, non-ASCII escaped), as the SDK writes an action's default summary. */
export function pythonJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const written = JSON.stringify(value ?? null);
    return written.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${pythonJson(key)}: ${pythonJson(item)}`)
    .join(', ')}}`;
}

/** An action or observation of a tool: its `kind` and its model's fields. */
export type ToolPayload = { kind: string } & Record<string, unknown>;

/** A tool call as the LLM made it (`MessageToolCall`). */
export type ToolCall = { id: string; name: string; arguments: string; origin: 'completion' };

/** The structured error semantics of a failure (`error_classification.py`, `ErrorClassification`). */
export type ErrorClassification = {
  kind: 'auth' | 'quota' | 'rate_limit' | 'config' | 'transient' | 'agent_action' | 'internal' | 'unknown';
  retryable: boolean;
  user_action: 'none' | 'retry' | 'settings';
};

type Fields<K extends string, S extends EventSource, F> = { kind: K; source: S; parent_id?: string } & F;

/** Every event's fields but `id` and `timestamp`, discriminated by `kind`. */
export type EventFields =
  | Fields<'SystemPromptEvent', 'agent', { system_prompt: { cache_prompt: boolean; type: 'text'; text: string }; tools: unknown[] }>
  | Fields<
      'MessageEvent',
      'user' | 'agent',
      {
        activated_skills: string[];
        extended_content: unknown[];
        llm_message: { role: 'user' | 'assistant'; content: TextContent; thinking_blocks: unknown[] };
      }
    >
  | Fields<
      'ActionEvent',
      'agent',
      {
        thought: TextContent;
        thinking_blocks: unknown[];
        action: ToolPayload;
        tool_name: string;
        tool_call_id: string;
        tool_call: ToolCall;
        llm_response_id: string;
        security_risk: 'LOW' | 'MEDIUM' | 'HIGH' | 'UNKNOWN';
        summary: string;
      }
    >
  | Fields<
      'ObservationEvent',
      'environment',
      { tool_name: string; tool_call_id: string; action_id: string | undefined; observation: ToolPayload; extended_content: unknown[] }
    >
  | Fields<
      'UserRejectObservation',
      'user',
      { tool_name: string; tool_call_id: string; action_id: string; rejection_reason: string; rejection_source: 'user' }
    >
  | Fields<'AgentErrorEvent', 'agent', { tool_name: string; tool_call_id: string; error: string }>
  | Fields<'ConversationStateUpdateEvent', 'environment', { key: string; value: unknown }>
  | Fields<'ConversationErrorEvent', 'environment', { code: string; detail: string; classification: ErrorClassification }>
  | Fields<'PauseEvent', 'user', object>
  | Fields<'InterruptEvent', 'user', object>
  | Fields<'CondensationRequest', 'environment', object>
  | Fields<
      'Condensation',
      'environment',
      { forgotten_event_ids: string[]; summary: string; summary_offset: number; llm_response_id: string }
    >
  | Fields<'CondensationSummaryEvent', 'environment', { summary: string }>
  | Fields<
      'HookExecutionEvent',
      'hook',
      {
        hook_event_type: string;
        hook_command: string;
        tool_name?: string;
        success: boolean;
        blocked: boolean;
        exit_code: number;
        stdout: string;
        stderr: string;
        reason?: string;
      }
    >
  | Fields<'LLMCompletionLogEvent', 'environment', { filename: string; log_data: string; model_name: string; usage_id: string }>
  | Fields<'TokenEvent', 'agent', { prompt_token_ids: number[]; response_token_ids: number[] }>
  | Fields<
      'ACPToolCallEvent',
      'agent',
      { tool_call_id: string; title: string; status: string; tool_kind: string; raw_input: unknown; raw_output: unknown; is_error: boolean }
    >
  | Fields<'StreamingDeltaEvent', 'agent', { content: string }>
  | Fields<'ServerErrorEvent', 'environment', { code: string; detail: string }>;

/** The name of an event kind. */
export type EventKindName = EventFields['kind'];

/** The fields of one kind. */
export type FieldsOf<K extends EventKindName> = Extract<EventFields, { kind: K }>;

/**
 * A failure's classification as `error_classification.py` `classify_error` gives it for the codes
 * and texts a script is likely to use (authoritative codes first, then the detail's words).
 */
export function classifyError(code: string, detail: string): ErrorClassification {
  const is = (
    kind: ErrorClassification['kind'],
    retryable: boolean,
    user_action: ErrorClassification['user_action'],
  ): ErrorClassification => ({ kind, retryable, user_action });
  if (code === 'LLMAuthenticationError' || code === 'ACPAuthRequired') return is('auth', false, 'settings');
  if (code === 'LLMRateLimitError') return is('rate_limit', true, 'retry');
  if (code === 'MaxBudgetReached') return is('quota', false, 'settings');
  if (['LLMBadRequestError', 'ACPInitError', 'ACPSpawnError', 'ACPPromptError', 'NotFoundError', 'LibTmuxException'].includes(code))
    return is('config', false, 'settings');
  if (code === 'LLMContextWindowExceedError' || code === 'LLMMalformedConversationHistoryError') return is('agent_action', true, 'retry');
  if (code === 'MaxIterationsReached' || code === 'ConversationOwnershipLostError') return is('agent_action', false, 'none');
  if (['KeyError', 'AssertionError', 'PydanticSerializationError', 'AttributeError', 'TypeError'].includes(code))
    return is('internal', false, 'none');
  const lower = detail.toLowerCase();
  if (['invalid api key', 'incorrect api key', 'unauthorized', 'error code: 401'].some((t) => lower.includes(t)))
    return is('auth', false, 'settings');
  if (['daily quota', 'insufficient balance', 'budget has been exceeded'].some((t) => lower.includes(t)))
    return is('quota', false, 'settings');
  if (lower.includes('rate limit') || lower.includes('error code: 429')) return is('rate_limit', true, 'retry');
  return is('unknown', false, 'none');
}

/** A PNG of 1×1 pixel, base64: the small screenshot a `BrowserObservation` carries. */
export const SCREENSHOT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** One named builder per event kind. */
export const events = {
  /** `SystemPromptEvent` (`llm_convertible/system.py`). */
  systemPrompt: (prompt: string, tools: unknown[]): FieldsOf<'SystemPromptEvent'> => ({
    kind: 'SystemPromptEvent',
    source: 'agent',
    system_prompt: { cache_prompt: false, type: 'text', text: prompt },
    tools,
  }),
  /** `MessageEvent` (`llm_convertible/message.py`): a user's or the agent's message. */
  message: (role: 'user' | 'assistant', value: string): FieldsOf<'MessageEvent'> => ({
    kind: 'MessageEvent',
    source: role === 'user' ? 'user' : 'agent',
    activated_skills: [],
    extended_content: [],
    llm_message: { role, content: text(value), thinking_blocks: [] },
  }),
  /**
   * `ActionEvent` (`llm_convertible/action.py`): the agent calls `tool` with `action`; what the model
   * said before the call is the thought (none: `[]`), the summary the SDK's default
   * (`agent.py`, `_extract_summary`: the tool's name and its arguments as `json.dumps` writes them).
   */
  action: (
    tool: string,
    callId: string,
    action: ToolPayload,
    thought: string,
    args: unknown = Object.fromEntries(Object.entries(action).filter(([k]) => k !== 'kind')),
  ): FieldsOf<'ActionEvent'> => ({
    kind: 'ActionEvent',
    source: 'agent',
    thought: thought === '' ? [] : text(thought),
    thinking_blocks: [],
    action,
    tool_name: tool,
    tool_call_id: callId,
    tool_call: { id: callId, name: tool, arguments: JSON.stringify(args), origin: 'completion' },
    llm_response_id: `resp_${callId}`,
    security_risk: 'LOW',
    summary: `${tool}: ${pythonJson(args)}`,
  }),
  /** `ObservationEvent` (`llm_convertible/observation.py`): what `tool` returned for the action `actionId`. */
  observation: (tool: string, callId: string, actionId: string | undefined, observation: ToolPayload): FieldsOf<'ObservationEvent'> => ({
    kind: 'ObservationEvent',
    source: 'environment',
    tool_name: tool,
    tool_call_id: callId,
    observation,
    action_id: actionId,
    extended_content: [],
  }),
  /** `UserRejectObservation` (`llm_convertible/observation.py`): the user rejected the action `actionId`. */
  reject: (tool: string, callId: string, actionId: string, reason: string): FieldsOf<'UserRejectObservation'> => ({
    kind: 'UserRejectObservation',
    source: 'user',
    tool_name: tool,
    tool_call_id: callId,
    action_id: actionId,
    rejection_reason: reason,
    rejection_source: 'user',
  }),
  /** `AgentErrorEvent` (`llm_convertible/observation.py`): a tool error the agent sees. */
  agentError: (tool: string, callId: string, error: string): FieldsOf<'AgentErrorEvent'> => ({
    kind: 'AgentErrorEvent',
    source: 'agent',
    tool_name: tool,
    tool_call_id: callId,
    error,
  }),
  /** `ConversationStateUpdateEvent` (`conversation_state.py`) of `key`. */
  stateUpdate: (key: string, value: unknown): FieldsOf<'ConversationStateUpdateEvent'> => ({
    kind: 'ConversationStateUpdateEvent',
    source: 'environment',
    key,
    value,
  }),
  /** `ConversationErrorEvent` (`conversation_error.py`), classified as `classify_error` does. */
  conversationError: (code: string, detail: string): FieldsOf<'ConversationErrorEvent'> => ({
    kind: 'ConversationErrorEvent',
    source: 'environment',
    code,
    detail,
    classification: classifyError(code, detail),
  }),
  /** `PauseEvent` (`user_action.py`). */
  pause: (): FieldsOf<'PauseEvent'> => ({ kind: 'PauseEvent', source: 'user' }),
  /** `InterruptEvent` (`user_action.py`). */
  interrupt: (): FieldsOf<'InterruptEvent'> => ({ kind: 'InterruptEvent', source: 'user' }),
  /** `CondensationRequest` (`condenser.py`). */
  condensationRequest: (): FieldsOf<'CondensationRequest'> => ({ kind: 'CondensationRequest', source: 'environment' }),
  /** `Condensation` (`condenser.py`): the events forgotten, and the summary put in their place. */
  condensation: (forgotten: string[], summary: string, responseId: string): FieldsOf<'Condensation'> => ({
    kind: 'Condensation',
    source: 'environment',
    forgotten_event_ids: forgotten,
    summary,
    summary_offset: 0,
    llm_response_id: responseId,
  }),
  /** `CondensationSummaryEvent` (`condenser.py`). */
  condensationSummary: (summary: string): FieldsOf<'CondensationSummaryEvent'> => ({
    kind: 'CondensationSummaryEvent',
    source: 'environment',
    summary,
  }),
  /** `HookExecutionEvent` (`hook_execution.py`): a hook's command ran (exit code 2 when it blocked). */
  hook: (
    hookEventType: string,
    command: string,
    blocked: boolean,
    stdout: string,
    toolName?: string,
    reason?: string,
  ): FieldsOf<'HookExecutionEvent'> => ({
    kind: 'HookExecutionEvent',
    source: 'hook',
    hook_event_type: hookEventType,
    hook_command: command,
    ...(toolName ? { tool_name: toolName } : {}),
    success: !blocked,
    blocked,
    exit_code: blocked ? 2 : 0,
    stdout,
    stderr: '',
    ...(reason ? { reason } : {}),
  }),
  /** `LLMCompletionLogEvent` (`llm_completion_log.py`). */
  llmCompletionLog: (model: string, usageId: string, filename: string, logData: string): FieldsOf<'LLMCompletionLogEvent'> => ({
    kind: 'LLMCompletionLogEvent',
    source: 'environment',
    filename,
    log_data: logData,
    model_name: model,
    usage_id: usageId,
  }),
  /** `TokenEvent` (`token.py`). */
  tokens: (prompt: number[], response: number[]): FieldsOf<'TokenEvent'> => ({
    kind: 'TokenEvent',
    source: 'agent',
    prompt_token_ids: prompt,
    response_token_ids: response,
  }),
  /** `ACPToolCallEvent` (`acp_tool_call.py`). */
  acpToolCall: (
    callId: string,
    title: string,
    toolKind: string,
    status: string,
    input: unknown,
    output: unknown,
  ): FieldsOf<'ACPToolCallEvent'> => ({
    kind: 'ACPToolCallEvent',
    source: 'agent',
    tool_call_id: callId,
    title,
    status,
    tool_kind: toolKind,
    raw_input: input,
    raw_output: output,
    is_error: status === 'failed',
  }),
  /** `StreamingDeltaEvent` (`streaming_delta.py`): a piece of an answer, on the socket only. */
  streamingDelta: (content: string): FieldsOf<'StreamingDeltaEvent'> => ({ kind: 'StreamingDeltaEvent', source: 'agent', content }),
  /** `ServerErrorEvent` (the agent server's socket: a frame it could not read). */
  serverError: (code: string, detail: string): FieldsOf<'ServerErrorEvent'> => ({
    kind: 'ServerErrorEvent',
    source: 'environment',
    code,
    detail,
  }),
} as const;

/** A `ConversationStateUpdateEvent` of `key` (the builder, by its old name). */
export const stateUpdate = events.stateUpdate;

/** Every event kind a builder makes, in the SDK's list order: the kinds of the `EventKind` schema (the compiler holds the builders and the schema to the same kinds, both ways). */
export const EVENT_KINDS: readonly EventKindName[] = Object.freeze([...EventKind.options]);
// The builders' kinds are the event schemas' kinds, both ways, and each kind's fields (with an id and a
// time) are an event its schema takes: fails to compile otherwise (type-only: no schema in a page).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type FieldsMatchSchema = {
  [K in EventKindName]: FieldsOf<K> & { id: string; timestamp: string } extends z.input<(typeof EVENT_KINDS_SCHEMAS)[K]> ? true : K;
};
void (true satisfies Same<EventKindName, EventSchemaKind>);
void (true satisfies FieldsMatchSchema[EventKindName]);
