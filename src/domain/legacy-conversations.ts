/**
 * Legacy (V0) conversations under `/api/conversations`: create, list, get, rename, delete.
 * The list and reads show conversations of both versions, as the real server's legacy routes do.
 */
import type { ConversationInfo, ConversationResponse, InitSessionRequest } from '../schemas/legacy.js';
import type { ConversationRecord } from '../schemas/records.js';
import { notFound } from './errors.js';
import { toHyphenatedUuid } from './ids.js';
import { CONVERSATION_STATUS_OF_SANDBOX } from './lifecycle.js';
import { pageIds, toPage, type PageRequest } from './paging.js';
import { createSandbox } from './sandboxes.js';
import type { DomainState } from './state.js';
import { conversationInfoView, defaultTitle, legacyId, sandboxStatusOf } from './views.js';

function findConversation(state: DomainState, id: string): ConversationRecord | undefined {
  return state.store.conversations.get(toHyphenatedUuid(id) ?? id);
}

function requireConversation(state: DomainState, id: string): ConversationRecord {
  const record = findConversation(state, id);
  if (!record) throw notFound(`Conversation ${id}`);
  return record;
}

/** `POST /api/conversations`: creates a V0 conversation with its own sandbox, or joins an existing one. */
export async function createConversation(state: DomainState, request: InitSessionRequest): Promise<ConversationResponse> {
  const existing = request.conversation_id === undefined ? undefined : findConversation(state, request.conversation_id);
  const record = existing ?? await createLegacyConversation(state, request);
  const status = CONVERSATION_STATUS_OF_SANDBOX[sandboxStatusOf(state, record).status];
  return { status: 'ok', conversation_id: legacyId(record.id), message: null, conversation_status: status };
}

async function createLegacyConversation(state: DomainState, request: InitSessionRequest): Promise<ConversationRecord> {
  const id = request.conversation_id === undefined
    ? state.random.uuid()
    : toHyphenatedUuid(request.conversation_id) ?? request.conversation_id;
  const sandbox = await createSandbox(state, null);
  const trigger = request.suggested_task ? 'suggested_task' : request.create_microagent ? 'microagent_management' : 'gui';
  const created = state.stamp();
  return state.store.conversations.insert({
    id,
    version: 'V0',
    sandbox_id: sandbox.id,
    created_by_user_id: state.options.userId,
    title: defaultTitle(id),
    selected_repository: request.repository ?? request.create_microagent?.repo ?? null,
    selected_branch: request.selected_branch,
    git_provider: request.git_provider ?? request.create_microagent?.git_provider ?? null,
    trigger,
    has_initial_message: Boolean(request.initial_user_msg),
    agent_started_at: created,
    created_at: created,
    updated_at: created,
  });
}

/** `GET /api/conversations`: conversations of both versions, newest first. */
export function listConversations(state: DomainState, page: PageRequest): { results: ConversationInfo[]; next_page_id: string | null } {
  const table = state.store.conversations;
  const { ids, more } = pageIds(table.orderings.all, page);
  const { items, next_page_id } = toPage(ids.map((id) => conversationInfoView(state, table.get(id)!)), page, more);
  return { results: items, next_page_id };
}

/** `GET /api/conversations/{id}`. */
export function getConversation(state: DomainState, id: string): ConversationInfo {
  return conversationInfoView(state, requireConversation(state, id));
}

/** `PATCH /api/conversations/{id}`: sets the title. */
export async function updateConversationTitle(state: DomainState, id: string, title: string): Promise<true> {
  const record = requireConversation(state, id);
  await state.store.conversations.update(record.id, { title, updated_at: state.stamp() });
  return true;
}

/** `DELETE /api/conversations/{id}`: removes the conversation, and its sandbox when nothing else uses it. */
export function deleteConversation(state: DomainState, id: string): true {
  const record = requireConversation(state, id);
  const { store } = state;
  store.conversations.remove(record.id);
  if (record.parent_conversation_id) store.unlinkChild(record.parent_conversation_id, record.id);
  const shared = store.conversations.all().some((c) => c.sandbox_id === record.sandbox_id);
  if (!shared) store.sandboxes.remove(record.sandbox_id);
  return true;
}
