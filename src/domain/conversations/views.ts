/**
 * How stored records read on the wire: live fields (status at this instant, URLs and keys shown
 * only while running, children) are derived from the records and the clock here, and nowhere else.
 */
import type { AppConversation, AppConversationStartTask, MetricsSnapshot } from '../../schemas/app-conversation.js';
import { redactSecrets } from '../store/redact.js';
import type { SandboxStatus } from '../../schemas/common.js';
import { parseDateTime } from '../../schemas/datetime.js';
import type { ConversationRecord, SandboxRecord, StartTaskRecord } from '../../schemas/records.js';
import type { ExposedUrl, SandboxInfo } from '../../schemas/sandbox.js';
import { toHex, toHyphenatedUuid } from '../store/ids.js';
import type { DomainState, StatsReader } from '../store/state.js';
import { agentStatus, editedTurns } from '../agent/status.js';
import { vscodeUrl } from '../agent/editor.js';
import { DEFAULT_WORKING_DIR } from '../../schemas/sandbox-spec.js';

/** Title prefix of a conversation created without a title. */
export const DEFAULT_TITLE_PREFIX = 'Conversation ';
/** Tokens one agent turn uses, before the seeded spread. */
const TOKENS_PER_TURN = { prompt: 12_000, completion: 900 };
/** What a million prompt / completion tokens cost, in dollars. */
const DOLLARS_PER_MILLION = { prompt: 3, completion: 15 };

/** The title of a V1 conversation until it is renamed: `Conversation <32-hex id>`. */
export function v1DefaultTitle(id: string): string {
  return `${DEFAULT_TITLE_PREFIX}${toHex(id)}`;
}

/** An id as the V1 routes write it: 32 lowercase hex digits (`OpenHandsUUID`). */
const hex = (id: string): string => toHex(id);

/** Where a sandbox's agent server listens: the fake's agent host when it serves one, else the sandbox's own port. */
export function agentServerUrl(state: DomainState, sandbox: SandboxRecord): string {
  return state.options.agentUrl ?? `http://localhost:${sandbox.agent_port}`;
}

function exposedUrls(state: DomainState, sandbox: SandboxRecord): ExposedUrl[] {
  const agent = agentServerUrl(state, sandbox);
  return [
    { name: 'AGENT_SERVER', url: agent, port: state.options.agentUrl ? Number(new URL(agent).port || 80) : sandbox.agent_port },
    // The real URL with its token and working dir (`docker_sandbox_service.py`); on the agent host, the fake's editor page (`editor.ts`).
    {
      name: 'VSCODE',
      url: vscodeUrl(state, sandbox, state.store.sandboxSpecs.get(sandbox.sandbox_spec_id)?.working_dir ?? DEFAULT_WORKING_DIR),
      port: sandbox.agent_port + 1,
    },
  ];
}

/** The legacy form of a conversation id: 32 hex digits for UUIDs, anything else as given. */
export function legacyId(id: string): string {
  return toHyphenatedUuid(id) ? toHex(id) : id;
}

/** A conversation's URL on its sandbox's agent server (the legacy routes' `url`, V1's `conversation_url`). */
export function conversationUrl(state: DomainState, sandbox: SandboxRecord, conversationId: string): string {
  return `${agentServerUrl(state, sandbox)}/api/conversations/${legacyId(conversationId)}`;
}

/** A sandbox as `SandboxInfo`: its status now (or as stored, for the answer to its creation); key and URLs only while RUNNING. */
export function sandboxView(state: DomainState, stored: SandboxRecord, { settle = true } = {}): SandboxInfo {
  const record = settle ? state.settledNow(stored) : stored;
  const running = record.status === 'RUNNING';
  return {
    id: record.id,
    created_by_user_id: record.created_by_user_id,
    sandbox_spec_id: record.sandbox_spec_id,
    status: record.status,
    session_api_key: running ? record.session_api_key : null,
    exposed_urls: running ? exposedUrls(state, record) : null,
    created_at: record.created_at,
    status_detail: record.status === 'ERROR' ? record.status_detail : null,
  };
}

/** A conversation's sandbox status now (`MISSING` when it is gone), with the sandbox. */
export function sandboxStatusOf(
  state: DomainState,
  conversation: ConversationRecord,
): { status: SandboxStatus; sandbox: SandboxRecord | null } {
  const sandbox = state.store.sandboxes.get(conversation.sandbox_id);
  if (!sandbox) return { status: 'MISSING', sandbox: null };
  const settled = state.settledNow(sandbox);
  return { status: settled.status, sandbox: settled };
}

function executionStatus(state: DomainState, record: ConversationRecord): AppConversation['execution_status'] {
  const fromEvents = agentStatus(record);
  if (fromEvents !== null) return record.agent_turns === 0 && fromEvents === 'finished' ? 'idle' : fromEvents;
  if (record.agent_turns === 0) return 'idle';
  const started = parseDateTime(record.agent_started_at ?? record.created_at);
  return state.now() < started + state.options.timings.agentRunMs ? 'running' : 'finished';
}

/** The agent turns that have finished by now (the last one runs for `agentRunMs` after it started). */
export function finishedTurns(state: DomainState, record: ConversationRecord): number {
  const edited = editedTurns(record);
  if (edited !== null) return edited;
  if (record.agent_turns === 0) return 0;
  const started = parseDateTime(record.agent_started_at ?? record.created_at);
  return state.now() < started + state.options.timings.agentRunMs ? record.agent_turns - 1 : record.agent_turns;
}

/** A small, repeatable spread per conversation (0–99), from its id. */
function spreadOf(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) >>> 0;
  return h % 100;
}

/**
 * What a conversation's LLM calls cost as its log has them (`DomainState.statsReader`), null before
 * the first call. A log without a reader cannot be: the store holds no event before one is set.
 */
function statsOf(state: DomainState, record: ConversationRecord): ReturnType<StatsReader> {
  if (state.statsReader) return state.statsReader(state, record);
  if (state.store.eventIdsOf(record.id).length > 0)
    throw new Error('fakehands: a conversation has events and the stats reader is not loaded');
  return null;
}

/** What a conversation has used so far: grows with each finished agent turn (`MetricsSnapshot`, always an object). */
export function metricsOf(state: DomainState, record: ConversationRecord): MetricsSnapshot {
  const model = record.llm_model ?? 'default';
  // A conversation whose agent made calls: their totals, as its agent server's stats have them (`get_combined_metrics`).
  const combined = statsOf(state, record);
  if (combined) return { ...combined, model_name: model, accumulated_token_usage: { ...combined.accumulated_token_usage, model } };
  // One of the fixture's, with turns and no log of them: an estimate by its turns.
  const turns = finishedTurns(state, record);
  const spread = 1 + spreadOf(record.id) / 100;
  const prompt = Math.round(turns * TOKENS_PER_TURN.prompt * spread);
  const completion = Math.round(turns * TOKENS_PER_TURN.completion * spread);
  const cost = (prompt * DOLLARS_PER_MILLION.prompt + completion * DOLLARS_PER_MILLION.completion) / 1e6;
  return {
    model_name: model,
    accumulated_cost: Math.round(cost * 1e6) / 1e6,
    max_budget_per_task: null,
    accumulated_token_usage: {
      model,
      prompt_tokens: prompt,
      completion_tokens: completion,
      cache_read_tokens: Math.round(prompt * 0.6),
      cache_write_tokens: Math.round(prompt * 0.1),
      reasoning_tokens: 0,
      context_window: 200_000,
      per_turn_token: turns > 0 ? Math.round((prompt + completion) / turns) : 0,
      response_id: '',
    },
  };
}

/** A V1 conversation as `AppConversation`; `withChildren: false` answers `sub_conversation_ids: []`, as the real search does. */
export function appConversationView(state: DomainState, record: ConversationRecord, { withChildren = true } = {}): AppConversation {
  const { status, sandbox } = sandboxStatusOf(state, record);
  const running = status === 'RUNNING' && sandbox !== null;
  return {
    id: hex(record.id),
    created_by_user_id: record.created_by_user_id,
    sandbox_id: record.sandbox_id,
    selected_repository: record.selected_repository,
    selected_branch: record.selected_branch,
    git_provider: record.git_provider,
    title: record.title,
    trigger: record.trigger,
    pr_number: [...record.pr_number],
    llm_model: record.llm_model,
    agent_kind: record.agent_kind,
    metrics: metricsOf(state, record),
    parent_conversation_id: record.parent_conversation_id && hex(record.parent_conversation_id),
    sub_conversation_ids: withChildren ? (state.store.childrenOf.get(record.id) ?? []).map(hex) : [],
    public: record.public,
    tags: { ...record.tags },
    created_at: record.created_at,
    updated_at: record.updated_at,
    sandbox_status: status,
    execution_status: running ? executionStatus(state, record) : null,
    conversation_url: running ? conversationUrl(state, sandbox, record.id) : null,
    session_api_key: running ? sandbox.session_api_key : null,
    acp_server: record.acp_server,
    launched_agent_profile: record.launched_agent_profile && { ...record.launched_agent_profile },
  };
}

/** A start task as `AppConversationStartTask`: the conversation id and agent URL only once READY. */
export function startTaskView(state: DomainState, record: StartTaskRecord): AppConversationStartTask {
  const ready = record.status === 'READY';
  const sandbox = ready && record.sandbox_id ? state.store.sandboxes.get(record.sandbox_id) : undefined;
  const request = record.request;
  return {
    id: hex(record.id),
    created_by_user_id: record.created_by_user_id,
    status: record.status,
    detail: record.detail,
    app_conversation_id: ready ? hex(record.app_conversation_id) : null,
    sandbox_id: record.status === 'WORKING' ? null : record.sandbox_id,
    agent_server_url: sandbox ? agentServerUrl(state, sandbox) : null,
    // Secrets are write-only, like pydantic's SecretStr: the names are echoed, never the values
    // (the request's `secrets`, a processor's API key), whatever their JSON type.
    request: {
      ...(redactSecrets(request) as StartTaskRecord['request']),
      conversation_id: request.conversation_id && hex(request.conversation_id),
      parent_conversation_id: request.parent_conversation_id && hex(request.parent_conversation_id),
    },
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
