/**
 * App conversations (V1): search, count and batch get. They are created by start tasks
 * (`start-tasks.ts`); their status is their sandbox's.
 */
import type { AppConversation } from '../../schemas/app-conversation.js';
import { canonicalDateTime } from '../../schemas/datetime.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { toHyphenatedUuid } from '../store/ids.js';
import { countIds, pageIds, toPage, type IdQuery, type Page, type PageRequest } from '../store/paging.js';
import type { DomainState } from '../store/state.js';
import type { Ordering } from '../store/table.js';
import { appConversationView } from './views.js';

/** Filters of the app conversation search and count. */
export interface AppConversationFilters {
  title__contains?: string | null;
  sandbox_id__eq?: string | null;
  created_at__gte?: string | null;
  created_at__lt?: string | null;
  updated_at__gte?: string | null;
  updated_at__lt?: string | null;
  include_sub_conversations?: boolean;
}

function appConversationQuery(
  state: DomainState,
  filters: AppConversationFilters,
  withSubConversations: boolean,
): IdQuery & { ordering: Ordering } {
  const table = state.store.conversations;
  const ordering = withSubConversations ? table.orderings.v1 : table.orderings.v1TopLevel;
  const lo = filters.created_at__gte ? ordering.positionOf(canonicalDateTime(filters.created_at__gte)) : 0;
  const hi = filters.created_at__lt ? ordering.positionOf(canonicalDateTime(filters.created_at__lt)) : ordering.size;
  const checks: ((record: ConversationRecord) => boolean)[] = [];
  if (filters.title__contains) {
    const needle = filters.title__contains.toLowerCase();
    checks.push((c) => (c.title ?? '').toLowerCase().includes(needle));
  }
  if (filters.sandbox_id__eq) {
    const sandboxId = filters.sandbox_id__eq;
    checks.push((c) => c.sandbox_id === sandboxId);
  }
  if (filters.updated_at__gte) {
    const gte = canonicalDateTime(filters.updated_at__gte);
    checks.push((c) => c.updated_at >= gte);
  }
  if (filters.updated_at__lt) {
    const lt = canonicalDateTime(filters.updated_at__lt);
    checks.push((c) => c.updated_at < lt);
  }
  const predicate =
    checks.length === 0
      ? null
      : (id: string) => {
          const record = table.get(id)!;
          return checks.every((check) => check(record));
        };
  return { ordering, range: [lo, Math.max(lo, hi)], predicate };
}

/**
 * `GET /api/v1/app-conversations/search`: newest first, always (no sort order), sub-conversations
 * only with `include_sub_conversations`; every item answers `sub_conversation_ids: []`, as the
 * real SQL service converts rows without them (`sql_app_conversation_info_service.py`).
 */
export function searchAppConversations(state: DomainState, filters: AppConversationFilters, page: PageRequest): Page<AppConversation> {
  const table = state.store.conversations;
  const query = appConversationQuery(state, filters, filters.include_sub_conversations ?? false);
  const result = pageIds(query.ordering, page, query);
  return toPage(
    result.ids.map((id) => appConversationView(state, table.get(id)!, { withChildren: false })),
    page,
    result.more,
  );
}

/** `GET /api/v1/app-conversations/count`: how many V1 conversations match; it has no parent filter, so sub-conversations count too. */
export function countAppConversations(state: DomainState, filters: AppConversationFilters): number {
  const query = appConversationQuery(state, filters, true);
  return countIds(query.ordering, query);
}

/** `GET /api/v1/app-conversations?ids=`: V1 conversations aligned with `ids`, null for missing ones. */
export function getAppConversations(state: DomainState, ids: string[]): (AppConversation | null)[] {
  return ids.map((id) => {
    const key = toHyphenatedUuid(id);
    const record = key ? state.store.conversations.get(key) : undefined;
    return record && record.version === 'V1' ? appConversationView(state, record) : null;
  });
}
