/**
 * How stored records read on the wire: live fields (status at this instant, URLs and keys shown
 * only while running, children) are derived from the records and the clock here, and nowhere else.
 */
import type { AppConversation, AppConversationStartTask } from '../schemas/app-conversation.js';
import type { SandboxStatus } from '../schemas/common.js';
import { parseDateTime } from '../schemas/datetime.js';
import type { ConversationInfo } from '../schemas/legacy.js';
import type { ConversationRecord, SandboxRecord, StartTaskRecord } from '../schemas/records.js';
import type { ExposedUrl, SandboxInfo } from '../schemas/sandbox.js';
import { toHex, toHyphenatedUuid } from './ids.js';
import { CONVERSATION_STATUS_OF_SANDBOX } from './lifecycle.js';
import type { DomainState } from './state.js';

/** Title prefix of a conversation created without a title, followed by 5 characters of its id. */
const DEFAULT_TITLE_PREFIX = 'Conversation ';

/** Legacy runtime status of a conversation, from its sandbox's status. */
const RUNTIME_STATUS_OF_SANDBOX: Record<SandboxStatus, ConversationInfo['runtime_status']> = {
  STARTING: 'STATUS$STARTING_RUNTIME',
  RUNNING: 'STATUS$READY',
  PAUSED: null,
  ERROR: 'STATUS$ERROR',
  MISSING: null,
};

/** The legacy form of a conversation id: 32 hex digits for UUIDs, anything else as given. */
export function legacyId(id: string): string {
  return toHyphenatedUuid(id) ? toHex(id) : id;
}

/** The title of a conversation created without one. */
export function defaultTitle(id: string): string {
  return `${DEFAULT_TITLE_PREFIX}${legacyId(id).slice(0, 5)}`;
}

/** Where a sandbox's agent server listens. */
export function agentServerUrl(sandbox: SandboxRecord): string {
  return `http://localhost:${sandbox.agent_port}`;
}

function exposedUrls(sandbox: SandboxRecord): ExposedUrl[] {
  return [
    { name: 'AGENT_SERVER', url: agentServerUrl(sandbox) },
    { name: 'VSCODE', url: `http://localhost:${sandbox.agent_port + 1}` },
  ];
}

function conversationUrl(sandbox: SandboxRecord, conversationId: string): string {
  return `${agentServerUrl(sandbox)}/api/conversations/${legacyId(conversationId)}`;
}

/** A sandbox as `SandboxInfo`: its status now; key and URLs only while RUNNING. */
export function sandboxView(state: DomainState, stored: SandboxRecord): SandboxInfo {
  const record = state.settledNow(stored);
  const running = record.status === 'RUNNING';
  return {
    id: record.id,
    created_by_user_id: record.created_by_user_id,
    sandbox_spec_id: record.sandbox_spec_id,
    status: record.status,
    session_api_key: running ? record.session_api_key : null,
    exposed_urls: running ? exposedUrls(record) : null,
    created_at: record.created_at,
  };
}

/** A conversation's sandbox status now (`MISSING` when it is gone), with the sandbox. */
export function sandboxStatusOf(state: DomainState, conversation: ConversationRecord): { status: SandboxStatus; sandbox: SandboxRecord | null } {
  const sandbox = state.store.sandboxes.get(conversation.sandbox_id);
  if (!sandbox) return { status: 'MISSING', sandbox: null };
  const settled = state.settledNow(sandbox);
  return { status: settled.status, sandbox: settled };
}

function executionStatus(state: DomainState, record: ConversationRecord): AppConversation['execution_status'] {
  if (!record.has_initial_message) return 'idle';
  const started = parseDateTime(record.agent_started_at ?? record.created_at);
  return state.clock.now() < started + state.options.timings.agentRunMs ? 'running' : 'finished';
}

/** A V1 conversation as `AppConversation`. */
export function appConversationView(state: DomainState, record: ConversationRecord): AppConversation {
  const { status, sandbox } = sandboxStatusOf(state, record);
  const running = status === 'RUNNING' && sandbox !== null;
  return {
    id: record.id,
    created_by_user_id: record.created_by_user_id,
    sandbox_id: record.sandbox_id,
    selected_repository: record.selected_repository,
    selected_branch: record.selected_branch,
    git_provider: record.git_provider,
    title: record.title,
    trigger: record.trigger,
    pr_number: [...record.pr_number],
    llm_model: record.llm_model,
    metrics: null,
    parent_conversation_id: record.parent_conversation_id,
    sub_conversation_ids: [...(state.store.childrenOf.get(record.id) ?? [])],
    created_at: record.created_at,
    updated_at: record.updated_at,
    sandbox_status: status,
    execution_status: running ? executionStatus(state, record) : null,
    conversation_url: running ? conversationUrl(sandbox, record.id) : null,
    session_api_key: running ? sandbox.session_api_key : null,
  };
}

/** A conversation of either version as the legacy `ConversationInfo`. */
export function conversationInfoView(state: DomainState, record: ConversationRecord): ConversationInfo {
  const { status, sandbox } = sandboxStatusOf(state, record);
  const running = status === 'RUNNING' && sandbox !== null;
  return {
    conversation_id: legacyId(record.id),
    title: record.title ?? defaultTitle(record.id),
    last_updated_at: record.updated_at,
    status: CONVERSATION_STATUS_OF_SANDBOX[status],
    runtime_status: RUNTIME_STATUS_OF_SANDBOX[status],
    selected_repository: record.selected_repository,
    selected_branch: record.selected_branch,
    git_provider: record.git_provider,
    trigger: record.trigger,
    num_connections: 0,
    url: running ? conversationUrl(sandbox, record.id) : null,
    session_api_key: running ? sandbox.session_api_key : null,
    created_at: record.created_at,
    pr_number: [...record.pr_number],
    conversation_version: record.version,
    sub_conversation_ids: (state.store.childrenOf.get(record.id) ?? []).map(legacyId),
  };
}

/** A start task as `AppConversationStartTask`: the conversation id and agent URL only once READY. */
export function startTaskView(state: DomainState, record: StartTaskRecord): AppConversationStartTask {
  const ready = record.status === 'READY';
  const sandbox = ready && record.sandbox_id ? state.store.sandboxes.get(record.sandbox_id) : undefined;
  return {
    id: record.id,
    created_by_user_id: record.created_by_user_id,
    status: record.status,
    detail: record.detail,
    app_conversation_id: ready ? record.app_conversation_id : null,
    sandbox_id: record.status === 'WORKING' ? null : record.sandbox_id,
    agent_server_url: sandbox ? agentServerUrl(sandbox) : null,
    request: structuredClone(record.request),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
