/**
 * The agent server of a conversation, as its REST and its socket see it: which conversation a
 * session key opens, the event log read back (search, count, get, batch), and what a client asks
 * the agent (a message, pause, run). Copies `openhands-agent-server`'s `event_router.py`
 * (search_conversation_events, count_conversation_events, get_conversation_event,
 * batch_get_conversation_events, send_message) and `conversation_router.py` (pause_conversation,
 * run_conversation).
 */
import type { AgentConversationInfo } from '../../schemas/agent-server.js';
import type { ConversationExecutionStatus } from '../../schemas/common.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { agentServerContext, readyProjectDir, type ReadyContext } from '../conversations/conversation-ops.js';
import { refuse, type Refusal } from '../store/refusal.js';
import { agentStatus, type AgentEvent } from './status.js';
import type { DomainState } from '../store/state.js';
import { hostHolds, type AgentHost } from './host.js';
import { deliverMessage } from './scripted-agent.js';
import { DEFAULT_AGENT_MODEL } from './vocabulary-stats.js';
import { conversationStats } from './conversation-stats.js';
import { LLM_CREDENTIALS } from './host-record.js';
import { ACP_DEFAULTS } from './acp-agent.js';

/** Filters of an event search and count. */
export interface EventFilters {
  kind?: string | undefined;
  source?: string | undefined;
  body?: string | undefined;
  timestamp__gte?: string | undefined;
  timestamp__lt?: string | undefined;
}

export { keyHolder } from '../sandboxes/session-keys.js';

/** The wire events of a conversation, oldest first. */
export function eventsOf(state: DomainState, conversationId: string): AgentEvent[] {
  return state.store.eventIdsOf(conversationId).map((id) => state.store.events.get(id)!.event as AgentEvent);
}

function matches(event: AgentEvent, filters: EventFilters): boolean {
  if (filters.kind && event.kind !== filters.kind) return false;
  if (filters.source && event.source !== filters.source) return false;
  if (filters.timestamp__gte && event.timestamp < filters.timestamp__gte) return false;
  if (filters.timestamp__lt && event.timestamp >= filters.timestamp__lt) return false;
  if (filters.body) {
    const message = event.kind === 'MessageEvent' ? JSON.stringify((event as { llm_message?: unknown }).llm_message ?? '') : '';
    if (!message.toLowerCase().includes(filters.body.toLowerCase())) return false;
  }
  return true;
}

/** Whether a search has filters besides paging (then each event is looked at). */
const filtered = (filters: EventFilters) =>
  Boolean(filters.kind || filters.source || filters.body || filters.timestamp__gte || filters.timestamp__lt);

/** Where a page of an event search without filters lies in its conversation's log. */
export interface PageSpan {
  /** The log: its event ids, oldest first (the store's live list). */
  ids: readonly string[];
  /** Position of the page's first event (oldest first; newest first when `descending`). */
  first: number;
  /** How many events the page holds, from `first` on (down from it when `descending`). */
  count: number;
  /** Whether the page goes newest first. */
  descending: boolean;
  /** Position of the next page's first event, or -1 when there is none. */
  next: number;
}

/** Paging of an event search (`limit`, `sort_order`, `page_id`), with its filters. */
export type EventSearch = EventFilters & { sort_order: 'TIMESTAMP' | 'TIMESTAMP_DESC'; page_id?: string | undefined; limit: number };

/**
 * Where the page of a search without filters lies (`null` for a filtered search): `page_id` is the
 * id of its first event; an unknown one starts at the log's first (newest first: last) event. A
 * page costs its own size, whatever the log holds.
 */
export function pageSpan(state: DomainState, conversation: ConversationRecord, search: EventSearch): PageSpan | null {
  if (filtered(search)) return null;
  const ids = state.store.eventIdsOf(conversation.id);
  const position = search.page_id === undefined ? undefined : state.store.eventPosition(search.page_id);
  const at = position !== undefined && ids[position] === search.page_id ? position : undefined;
  if (search.sort_order === 'TIMESTAMP_DESC') {
    const first = at ?? ids.length - 1;
    return {
      ids,
      first,
      count: Math.max(0, Math.min(search.limit, first + 1)),
      descending: true,
      next: Math.max(-1, first - search.limit),
    };
  }
  const first = at ?? 0;
  const next = first + search.limit;
  return {
    ids,
    first,
    count: Math.max(0, Math.min(search.limit, ids.length - first)),
    descending: false,
    next: next < ids.length ? next : -1,
  };
}

/**
 * `GET .../events/search`: a page of events, oldest first (or newest first); `page_id` is the id
 * of the first event of the page. Without filters a page costs its own size, whatever the log holds.
 */
export function searchEvents(
  state: DomainState,
  conversation: ConversationRecord,
  filters: EventSearch,
): { items: AgentEvent[]; next_page_id: string | null } {
  const event = (id: string) => state.store.events.get(id)!.event as AgentEvent;
  const span = pageSpan(state, conversation, filters);
  if (span) {
    const items: AgentEvent[] = [];
    const step = span.descending ? -1 : 1;
    for (let i = 0; i < span.count; i++) items.push(event(span.ids[span.first + i * step]!));
    return { items, next_page_id: span.next < 0 ? null : span.ids[span.next]! };
  }
  const ids = state.store.eventIdsOf(conversation.id);
  const descending = filters.sort_order === 'TIMESTAMP_DESC';
  let events = ids.map(event).filter((e) => matches(e, filters));
  if (descending) events = events.reverse();
  const start = filters.page_id
    ? Math.max(
        0,
        events.findIndex((e) => e.id === filters.page_id),
      )
    : 0;
  const items = events.slice(start, start + filters.limit);
  return { items, next_page_id: events[start + filters.limit]?.id ?? null };
}

/** `GET .../events/count`. */
export function countEvents(state: DomainState, conversation: ConversationRecord, filters: EventFilters): number {
  if (!filtered(filters)) return state.store.eventIdsOf(conversation.id).length;
  return eventsOf(state, conversation.id).filter((e) => matches(e, filters)).length;
}

/** `GET .../events/{event_id}`: the event, or 404. */
export function getEvent(state: DomainState, conversation: ConversationRecord, eventId: string): AgentEvent | Refusal {
  const record = state.store.events.get(eventId);
  return record && record.conversation_id === conversation.id ? (record.event as AgentEvent) : refuse('not_found', 'Not Found');
}

/** `GET .../events?event_ids=`: events aligned with the ids, null for missing ones. */
export function batchGetEvents(state: DomainState, conversation: ConversationRecord, ids: string[]): (AgentEvent | null)[] {
  return ids.map((id) => {
    const record = state.store.events.get(id);
    return record && record.conversation_id === conversation.id ? (record.event as AgentEvent) : null;
  });
}

/** `POST .../events` and a socket's frame: the message reaches the agent (and runs it when asked). */
export async function sendToAgent(state: DomainState, conversation: ConversationRecord, text: string, run: boolean): Promise<void> {
  await deliverMessage(state, conversation, text, run);
}

/** The agent's execution status as the socket's `full_state` gives it. */
export function executionStatusOf(conversation: ConversationRecord): string {
  return agentStatus(conversation) ?? (conversation.agent_turns > 0 ? 'finished' : 'idle');
}

/** The state's `last_user_message_id` as the socket's `full_state` gives it: the last one the log published (none before a server had it). */
export function lastUserMessageIdOf(state: DomainState, conversationId: string): string | undefined {
  const ids = state.store.eventIdsOf(conversationId);
  for (let i = ids.length - 1; i >= 0; i--) {
    const event = state.store.events.get(ids[i]!)!.event as AgentEvent;
    if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'last_user_message_id') return String(event.value);
  }
  return undefined;
}

/**
 * The workspace a path names on the agent server a request reaches (`git_router.py`: the path is the
 * repository's): the conversation it holds whose project holds the path, else its newest; the local
 * agent server holds those of every RUNNING sandbox (`hostHolds`).
 */
export function workspaceFor(state: DomainState, host: AgentHost, path: string): ReadyContext | Refusal {
  const contexts = state.store.conversations
    .all()
    .filter((c) => hostHolds(state, host, c))
    .map((c) => agentServerContext(state, c.id))
    .filter((c): c is ReadyContext => c.kind === 'ready');
  const holding = contexts.filter((c) => path === c.workspace.projectDir || path.startsWith(`${c.workspace.projectDir}/`));
  return holding.at(-1) ?? contexts.at(-1) ?? refuse('not_found', 'Not Found');
}

/** How the agent server orders a conversation search (`ConversationSortOrder`). */
export type ConversationSortOrder = 'CREATED_AT' | 'CREATED_AT_DESC' | 'UPDATED_AT' | 'UPDATED_AT_DESC';

/** What the agent host keeps of a conversation that its `ConversationInfo` shows instead of the defaults (`hostConversationInfo`). */
export interface HostFields {
  agent_kind: string;
  /** The client's settings of the agent's LLM, besides its model (never its credentials). */
  llm: Readonly<Record<string, unknown>>;
  /** The workspace's directory; absent: the project directory of its agent server. */
  working_dir: string | undefined;
  max_iterations: number;
  stuck_detection: boolean;
  security_analyzer: Record<string, unknown> | null;
  secret_sources: Record<string, unknown>;
}

/**
 * The defaults of an agent's LLM as the newest agent server writes them in a `ConversationInfo`
 * (openhands-sdk 1.58.2 `llm/llm.py`, `LLM`, every field written, `null` ones included), read off
 * the running server: a client's settings go over them, its credentials always `null`.
 */
const LLM_DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({
  api_key: null,
  provider_connection_id: null,
  auth_type: 'api_key',
  subscription_vendor: null,
  base_url: null,
  api_version: null,
  aws_access_key_id: null,
  aws_secret_access_key: null,
  aws_session_token: null,
  aws_region_name: null,
  aws_profile_name: null,
  aws_role_name: null,
  aws_session_name: null,
  aws_bedrock_runtime_endpoint: null,
  openrouter_site_url: 'https://docs.all-hands.dev/',
  openrouter_app_name: 'OpenHands',
  num_retries: 5,
  retry_multiplier: 8,
  retry_min_wait: 8,
  retry_max_wait: 64,
  timeout: 300,
  stream_idle_timeout: 300,
  max_message_chars: 30000,
  temperature: null,
  top_p: null,
  top_k: null,
  max_input_tokens: null,
  max_output_tokens: null,
  model_canonical_name: null,
  api_mode: 'auto',
  capability_overrides: {},
  extra_headers: null,
  input_cost_per_token: null,
  output_cost_per_token: null,
  ollama_base_url: null,
  stream: false,
  drop_params: true,
  disable_vision: null,
  disable_stop_word: false,
  caching_prompt: true,
  log_completions: false,
  log_completions_folder: 'logs/completions',
  custom_tokenizer: null,
  native_tool_calling: true,
  force_string_serializer: null,
  inline_image_urls: null,
  reasoning_effort: 'high',
  reasoning_summary: null,
  enable_encrypted_reasoning: true,
  prompt_cache_retention: '24h',
  extended_thinking_budget: 200000,
  seed: null,
  usage_id: 'default',
  litellm_extra_body: {},
  is_subscription: false,
});

/** An LLM's settings as 1.58.2 writes a whole `LLM` (a profile's `config`): the model first, then every field, the given over the defaults. */
export function wholeLlm(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { model: config.model, ...LLM_DEFAULTS, ...config };
}

/** The tools of the fake's agent, as a `ConversationInfo` lists them. */
const AGENT_TOOLS = ['terminal', 'file_editor', 'task_tracker'] as const;

/** Where each tool of the agent is defined (`ConversationInfo.tool_module_qualnames`, openhands-tools' modules). */
export const TOOL_MODULE_QUALNAMES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(AGENT_TOOLS.map((name) => [name, `openhands.tools.${name}.definition`])),
);

/**
 * The `agent` of a conversation's `ConversationInfo`, as the newest agent server writes it: its kind,
 * its LLM (the model and the client's settings over `LLM_DEFAULTS`; never a credential), the fake's
 * tools and the agent's other fields with their defaults.
 */
export function agentInfo(kind: string, model: string, llm: Readonly<Record<string, unknown>> = {}): AgentConversationInfo['agent'] {
  const settings: Record<string, unknown> = { model, ...LLM_DEFAULTS, ...llm };
  // Each credential written null whatever was given (the host never keeps one: `host-record.ts`).
  for (const field of LLM_CREDENTIALS) settings[field] = null;
  settings.model = model;
  return {
    tools: AGENT_TOOLS.map((name) => ({ name, params: {} })),
    mcp_config: {},
    filter_tools_regex: null,
    include_default_tools: ['FinishTool', 'ThinkTool'],
    agent_context: null,
    system_prompt: null,
    system_prompt_filename: 'system_prompt.j2',
    security_policy_filename: 'security_policy.j2',
    system_prompt_kwargs: { llm_security_analyzer: true },
    condenser: null,
    critic: null,
    tool_concurrency_limit: 1,
    persona: null,
    kind,
    llm: settings as AgentConversationInfo['agent']['llm'],
  };
}

/** The usage id of an ACP agent's placeholder LLM (`acp_agent.py`, `ACP_SENTINEL_USAGE_ID`). */
const ACP_USAGE_ID = 'acp-managed';

/**
 * The `agent` of an ACP conversation, as 1.58.2 writes an `ACPAgent`: no tools, no default tools, no
 * prompt options, a placeholder LLM (`_make_dummy_llm`: model `acp-managed`, or the `acp_model` when
 * set, `model_post_init`) and its `acp_*` fields, each the request's (`acp`) or its default;
 * `acpModel` (a `switch_acp_model`'s) over the request's model.
 */
export function acpAgentInfo(acp: Readonly<Record<string, unknown>> | null, acpModel: string | null): Record<string, unknown> {
  const fields = { ...ACP_DEFAULTS, ...acp, ...(acpModel === null ? {} : { acp_model: acpModel }) };
  // The model first, as the LLM writes it.
  const model = typeof fields.acp_model === 'string' ? fields.acp_model : ACP_USAGE_ID;
  return {
    llm: { model, ...LLM_DEFAULTS, usage_id: ACP_USAGE_ID },
    tools: [],
    mcp_config: {},
    filter_tools_regex: null,
    include_default_tools: [],
    agent_context: null,
    system_prompt: null,
    system_prompt_filename: 'system_prompt.j2',
    security_policy_filename: 'security_policy.j2',
    system_prompt_kwargs: {},
    condenser: null,
    critic: null,
    tool_concurrency_limit: 1,
    ...fields,
    kind: 'ACPAgent',
  };
}

/** The fields of a `ConversationInfo` the newest agent server adds after the fork's and tags' (1.58.2), with the fake's values: none of them change. */
export const INFO_TAIL = Object.freeze({
  invoked_skills: [],
  hook_config: null,
  available_models: [],
  supports_runtime_model_switch: false,
  launched_agent_profile: null,
  client_tools: [],
  tool_module_qualnames: TOOL_MODULE_QUALNAMES,
  runtime_info: null,
});

/**
 * `runtime_info` as a read of a conversation the host holds writes it (`conversation_router.py`,
 * `_with_runtime_info`; `ConversationRegistry.runtime_info`: a host-local conversation's runtime is
 * available and can resume); the answer to a create leaves it `null`.
 */
export const RUNTIME_AVAILABLE = Object.freeze({ runtime_status: 'available', can_resume: true, runtime_error: null });

/** `INFO_TAIL` as JSON text, its braces left off (what the JSON writer appends), with `runtime_info` null or `RUNTIME_AVAILABLE`. */
export const INFO_TAIL_TEXT = JSON.stringify(INFO_TAIL).slice(1, -1);
/** The same, with `runtime_info` `RUNTIME_AVAILABLE`. */
export const INFO_TAIL_RUNTIME_TEXT = JSON.stringify({ ...INFO_TAIL, runtime_info: RUNTIME_AVAILABLE }).slice(1, -1);

/**
 * A conversation as the agent server describes it (`ConversationInfo`): its agent (the model, the
 * tools; never the LLM key), its workspace, status, policy and statistics.
 */
export function conversationInfo(state: DomainState, conversation: ConversationRecord, host?: HostFields): AgentConversationInfo {
  const workingDir = host?.working_dir ?? readyProjectDir(state, conversation.id) ?? '/workspace/project';
  const model = conversation.llm_model ?? DEFAULT_AGENT_MODEL;
  return {
    id: conversation.id,
    agent: agentInfo(host?.agent_kind ?? 'Agent', model, host?.llm),
    workspace: { kind: 'LocalWorkspace', working_dir: workingDir },
    persistence_dir: 'workspace/conversations',
    max_iterations: host?.max_iterations ?? 500,
    stuck_detection: host?.stuck_detection ?? true,
    execution_status: executionStatusOf(conversation) as ConversationExecutionStatus,
    confirmation_policy: { kind: conversation.agent_confirm ? 'AlwaysConfirm' : 'NeverConfirm' },
    security_analyzer: host ? host.security_analyzer : null,
    activated_knowledge_skills: [],
    blocked_actions: {},
    blocked_messages: {},
    // Whole `Metrics` per usage id, as FastAPI writes the `ConversationStats` of `ConversationInfo` (models.py).
    stats: conversationStats(state, conversation),
    secret_registry: { secret_sources: host?.secret_sources ?? {} },
    agent_state: {},
    title: conversation.title,
    metrics: null,
    created_at: conversation.created_at,
    updated_at: conversation.updated_at,
  };
}
