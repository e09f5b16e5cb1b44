/**
 * App conversations (V1): search, count and batch get. They are created by start tasks
 * (`start-tasks.ts`); their status is their sandbox's.
 */
import type { AppConversation } from '../schemas/app-conversation.js';
import type { AppConversationSortOrder } from '../schemas/common.js';
import { canonicalDateTime } from '../schemas/datetime.js';
import type { ConversationRecord } from '../schemas/records.js';
import { toHyphenatedUuid } from './ids.js';
import { countIds, matchingIds, pageIds, sortedPage, toPage, type IdPage, type IdQuery, type Page, type PageRequest } from './paging.js';
import type { DomainState } from './state.js';
import type { Ordering } from './table.js';
import { appConversationView } from './views.js';

/** Filters of the app conversation search and count. */
export interface AppConversationFilters {
  title__contains?: string | null;
  created_at__gte?: string | null;
  created_at__lt?: string | null;
  updated_at__gte?: string | null;
  updated_at__lt?: string | null;
  include_sub_conversations?: boolean;
}

function appConversationQuery(state: DomainState, filters: AppConversationFilters): IdQuery & { ordering: Ordering } {
  const table = state.store.conversations;
  const ordering = filters.include_sub_conversations ? table.orderings.v1 : table.orderings.v1TopLevel;
  const lo = filters.created_at__gte ? ordering.positionOf(canonicalDateTime(filters.created_at__gte)) : 0;
  const hi = filters.created_at__lt ? ordering.positionOf(canonicalDateTime(filters.created_at__lt)) : ordering.size;
  const checks: ((record: ConversationRecord) => boolean)[] = [];
  if (filters.title__contains) {
    const needle = filters.title__contains.toLowerCase();
    checks.push((c) => (c.title ?? '').toLowerCase().includes(needle));
  }
  if (filters.updated_at__gte) {
    const gte = canonicalDateTime(filters.updated_at__gte);
    checks.push((c) => c.updated_at >= gte);
  }
  if (filters.updated_at__lt) {
    const lt = canonicalDateTime(filters.updated_at__lt);
    checks.push((c) => c.updated_at < lt);
  }
  const predicate = checks.length === 0 ? null : (id: string) => {
    const record = table.get(id)!;
    return checks.every((check) => check(record));
  };
  return { ordering, range: [lo, Math.max(lo, hi)], predicate };
}

/** `GET /api/v1/app-conversations/search`. */
export function searchAppConversations(
  state: DomainState, filters: AppConversationFilters & { sort_order?: AppConversationSortOrder }, page: PageRequest,
): Page<AppConversation> {
  const table = state.store.conversations;
  const query = appConversationQuery(state, filters);
  const sortOrder = filters.sort_order ?? 'CREATED_AT_DESC';
  let result: IdPage;
  if (sortOrder === 'CREATED_AT' || sortOrder === 'CREATED_AT_DESC') {
    result = pageIds(query.ordering, page, query, sortOrder === 'CREATED_AT_DESC');
  } else {
    const all = matchingIds(query.ordering, query).map((id) => table.get(id)!);
    const key = sortOrder.startsWith('TITLE') ? (c: ConversationRecord) => c.title ?? '' : (c: ConversationRecord) => c.updated_at;
    result = sortedPage(all, key, sortOrder.endsWith('_DESC'), page);
  }
  return toPage(result.ids.map((id) => appConversationView(state, table.get(id)!)), page, result.more);
}

/** `GET /api/v1/app-conversations/count`: how many V1 conversations match the filters. */
export function countAppConversations(state: DomainState, filters: AppConversationFilters): number {
  const query = appConversationQuery(state, filters);
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
