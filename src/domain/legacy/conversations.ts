import * as Replay from '../agent/replay.js';
/**
 * Legacy (V0) conversations under `/api/conversations`: create, list, get, rename, delete.
 * The list and reads show conversations of both versions, as the real server's legacy routes do.
 */
import type { ConversationInfo, ConversationResponse, InitSessionRequest } from '../../schemas/legacy.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { notFound } from '../store/refusal.js';
import { toHyphenatedUuid } from '../store/ids.js';
import { CONVERSATION_STATUS_OF_SANDBOX } from '../time/lifecycle.js';
import { breathe } from '../store/mutex.js';
import { pageIds } from '../store/paging.js';
import { createSandbox } from '../sandboxes/sandboxes.js';
import type { DomainState } from '../store/state.js';
import { conversationInfoView, defaultTitle, legacyId } from './views.js';
import { sandboxStatusOf } from '../conversations/views.js';

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
  const record = existing ?? (await createLegacyConversation(state, request));
  const status = CONVERSATION_STATUS_OF_SANDBOX[sandboxStatusOf(state, record).status];
  return { status: 'ok', conversation_id: legacyId(record.id), message: null, conversation_status: status };
}

async function createLegacyConversation(state: DomainState, request: InitSessionRequest): Promise<ConversationRecord> {
  state.store.budget.assertRoom(2, 2048);
  // `replay_json`: a V0 trajectory, checked before anything is made, replayed once the conversation is (issue 32, `replay.ts`).
  const replay = request.replay_json ? Replay : null;
  const trajectory = replay?.readReplayJson(request.replay_json!);
  const id =
    request.conversation_id === undefined
      ? state.newConversationId()
      : (toHyphenatedUuid(request.conversation_id) ?? request.conversation_id);
  const sandbox = await createSandbox(state, null);
  const trigger = request.suggested_task ? 'suggested_task' : request.create_microagent ? 'microagent_management' : 'gui';
  const created = state.stamp();
  const record = await state.store.conversations.insert({
    id,
    version: 'V0',
    sandbox_id: sandbox.id,
    created_by_user_id: state.options.userId,
    title: defaultTitle(id),
    selected_repository: request.repository ?? request.create_microagent?.repo ?? null,
    selected_branch: request.selected_branch,
    git_provider: request.git_provider ?? request.create_microagent?.git_provider ?? null,
    trigger,
    has_initial_message: Boolean(request.initial_user_msg) || trajectory !== undefined,
    agent_started_at: created,
    created_at: created,
    updated_at: created,
  });
  if (replay && trajectory) await replay.replayOnConversation(state, record, replay.fromTrajectory(trajectory, ['body', 'replay_json']));
  return record;
}

/** Filters and cursor of the legacy list. */
export interface LegacyListQuery {
  /** The cursor from a previous `next_page_id`: base64 of `{"v0": ..., "v1": ...}`, or a bare V0 cursor. */
  page_id?: string | undefined;
  limit: number;
  selected_repository?: string | undefined;
  conversation_trigger?: string | undefined;
  include_sub_conversations?: boolean;
}

/** The V0 and V1 cursors inside a legacy `page_id`. */
function decodeCursor(pageId: string | undefined): { v0: number; v1: number } {
  const offset = (value: unknown) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : 0);
  if (!pageId) return { v0: 0, v1: 0 };
  try {
    const data = JSON.parse(atob(pageId)) as { v0?: unknown; v1?: unknown };
    if (data && typeof data === 'object') return { v0: offset(data.v0), v1: offset(data.v1) };
  } catch {
    // Not base64 JSON: read as a V0 cursor, as the real server does for older clients.
  }
  return { v0: offset(pageId), v1: 0 };
}

/**
 * `GET /api/conversations`, as the real route builds it (`manage_conversations.py`,
 * `search_conversations`): a page of `limit` V0 conversations and a page of `limit` V1 ones
 * (top-level only unless `include_sub_conversations`), each filtered by repository and trigger,
 * merged newest first and cut to `limit`; `next_page_id` is base64 of both sources' cursors.
 */
export function listConversations(
  state: DomainState,
  query: LegacyListQuery,
): { results: ConversationInfo[]; next_page_id: string | null } {
  const page = listedRecords(state, query);
  return { results: page.records.map((record) => conversationInfoView(state, record)), next_page_id: page.next_page_id };
}

/** Conversations one legacy list turns into JSON between two turns of the event loop. */
export const LIST_SLICE = 500;

/**
 * `GET /api/conversations` as JSON text, in pieces of `LIST_SLICE` conversations with a turn of
 * the event loop between them: the list has no upper bound on `limit` (as the real route), and
 * 50,000 conversations made at once held every other request for seconds (#29 finding 11). The
 * page is chosen when it is asked for; each conversation is shown as it is when its piece is made.
 */
export function listConversationsText(state: DomainState, query: LegacyListQuery): { pieces: AsyncIterable<string> } {
  const page = listedRecords(state, query);
  async function* pieces(): AsyncGenerator<string> {
    yield '{"results":[';
    for (let at = 0; at < page.records.length; at += LIST_SLICE) {
      if (at > 0) await breathe();
      const slice = page.records
        .slice(at, at + LIST_SLICE)
        .map((record) => JSON.stringify(conversationInfoView(state, record)))
        .join(',');
      yield at > 0 ? `,${slice}` : slice;
    }
    yield `],"next_page_id":${JSON.stringify(page.next_page_id)}}`;
  }
  return { pieces: pieces() };
}

/** Newer first (`created_at` descending), as the list merges its two sources. */
const newerFirst = (a: ConversationRecord, b: ConversationRecord) =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0;

/** The records of one legacy list page and its cursor: each source's page, already newest first, merged in one pass. */
function listedRecords(state: DomainState, query: LegacyListQuery): { records: ConversationRecord[]; next_page_id: string | null } {
  const table = state.store.conversations;
  const cursor = decodeCursor(query.page_id);
  const v0 = table.orderings.v0;
  const v1 = query.include_sub_conversations ? table.orderings.v1 : table.orderings.v1TopLevel;
  const v0Page = pageIds(v0, { offset: cursor.v0, limit: query.limit });
  const v1Page = pageIds(v1, { offset: cursor.v1, limit: query.limit });
  const keep = (record: ConversationRecord) =>
    (query.selected_repository === undefined || record.selected_repository === query.selected_repository) &&
    (query.conversation_trigger === undefined || record.trigger === query.conversation_trigger);
  const a = v0Page.ids.map((id) => table.get(id)!).filter(keep);
  const b = v1Page.ids.map((id) => table.get(id)!).filter(keep);
  // A merge of two sorted lists (a stable sort of their concatenation would give the same order, in n log n).
  const records: ConversationRecord[] = [];
  let i = 0;
  let j = 0;
  while (records.length < query.limit && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && newerFirst(a[i]!, b[j]!) <= 0)) records.push(a[i++]!);
    else records.push(b[j++]!);
  }
  const next =
    v0Page.more || v1Page.more
      ? btoa(
          JSON.stringify({
            v0: v0Page.more ? String(cursor.v0 + query.limit) : null,
            v1: v1Page.more ? String(cursor.v1 + query.limit) : null,
          }),
        )
      : null;
  return { records, next_page_id: next };
}

/** `GET /api/conversations/{id}`: the conversation, or `null` for an unknown id. */
export function getConversation(state: DomainState, id: string): ConversationInfo | null {
  const record = findConversation(state, id);
  return record ? conversationInfoView(state, record) : null;
}

/** `PATCH /api/conversations/{id}`: sets the title, trimmed as the real route trims it. */
export async function updateConversationTitle(state: DomainState, id: string, title: string): Promise<true> {
  const record = requireConversation(state, id);
  await state.store.conversations.update(record.id, { title: title.trim(), updated_at: state.stamp() });
  return true;
}

/** `DELETE /api/conversations/{id}`: removes the conversation (and its sandbox when nothing else uses it); `false` for an unknown id. */
export function deleteConversation(state: DomainState, id: string): boolean {
  const record = findConversation(state, id);
  if (!record) return false;
  const { store } = state;
  store.conversations.remove(record.id);
  store.removeEventsOf(record.id);
  if (record.parent_conversation_id) store.unlinkChild(record.parent_conversation_id, record.id);
  // Its sub-conversations stay, still naming it as their parent (as in the real service's store).
  store.childrenOf.delete(record.id);
  const shared = store.conversations.all().some((c) => c.sandbox_id === record.sandbox_id);
  if (!shared) store.sandboxes.remove(record.sandbox_id);
  return true;
}
