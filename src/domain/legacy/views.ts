/**
 * How conversations read on the legacy (V0) routes: `ConversationInfo`, legacy ids and titles.
 * Apart from `views.ts`, since only the legacy routes (a chunk of their own in a page) read them.
 */
import type { SandboxStatus } from '../../schemas/common.js';
import type { ConversationInfo } from '../../schemas/legacy.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { CONVERSATION_STATUS_OF_SANDBOX, LEGACY_STATUS_OF_V1_SANDBOX } from '../time/lifecycle.js';
import type { DomainState } from '../store/state.js';
import { DEFAULT_TITLE_PREFIX, conversationUrl, legacyId, sandboxStatusOf } from '../conversations/views.js';

export { legacyId } from '../conversations/views.js';

/** Legacy runtime status of a conversation, from its sandbox's status. */
const RUNTIME_STATUS_OF_SANDBOX: Record<SandboxStatus, ConversationInfo['runtime_status']> = {
  STARTING: 'STATUS$STARTING_RUNTIME',
  RUNNING: 'STATUS$READY',
  PAUSED: null,
  ERROR: 'STATUS$ERROR',
  MISSING: null,
};

/** The title of a legacy conversation created without one: `Conversation ` and 5 characters of its id. */
export function defaultTitle(id: string): string {
  return `${DEFAULT_TITLE_PREFIX}${legacyId(id).slice(0, 5)}`;
}

/**
 * A conversation of either version as the legacy `ConversationInfo`. A V1 conversation reads as
 * the real server converts it (`manage_conversations.py`, `_to_conversation_info`): ERROR and
 * ARCHIVED statuses, and a runtime status only while RUNNING.
 */
export function conversationInfoView(state: DomainState, record: ConversationRecord): ConversationInfo {
  const { status, sandbox } = sandboxStatusOf(state, record);
  const running = status === 'RUNNING' && sandbox !== null;
  const v1 = record.version === 'V1';
  return {
    conversation_id: legacyId(record.id),
    title: record.title ?? defaultTitle(record.id),
    last_updated_at: record.updated_at,
    status: (v1 ? LEGACY_STATUS_OF_V1_SANDBOX : CONVERSATION_STATUS_OF_SANDBOX)[status],
    runtime_status: v1 ? (running ? 'STATUS$READY' : null) : RUNTIME_STATUS_OF_SANDBOX[status],
    selected_repository: record.selected_repository,
    selected_branch: record.selected_branch,
    git_provider: record.git_provider,
    trigger: record.trigger,
    num_connections: 0,
    url: running ? conversationUrl(state, sandbox, record.id) : null,
    session_api_key: running ? sandbox.session_api_key : null,
    created_at: record.created_at,
    pr_number: [...record.pr_number],
    conversation_version: record.version,
    sub_conversation_ids: (state.store.childrenOf.get(record.id) ?? []).map(legacyId),
  };
}
