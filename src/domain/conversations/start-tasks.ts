/**
 * Start tasks of app conversations: created at once (WORKING, `start-conversation.ts`), then
 * stepped on by time (`settle-start-tasks.ts`); what is read of them here.
 */
import type { AppConversationStartTask } from '../../schemas/app-conversation.js';
import type { StartTaskSortOrder } from '../../schemas/common.js';
import { canonicalDateTime } from '../../schemas/datetime.js';
import { toHyphenatedUuid } from '../store/ids.js';
import {
  countIds,
  matchingIds,
  pageIds,
  sortedPage,
  toPage,
  type IdPage,
  type IdQuery,
  type Page,
  type PageRequest,
} from '../store/paging.js';
import type { DomainState } from '../store/state.js';
import { startTaskView } from './views.js';

/** Filters of the start task search and count. */
export interface StartTaskFilters {
  conversation_id__eq?: string | null;
  created_at__gte?: string | null;
}

/** The text of a message's content (its images as their URLs). */
export function messageText(content: readonly ({ type: 'text'; text: string } | { type: 'image'; image_urls: string[] })[]): string {
  return content.map((item) => (item.type === 'text' ? item.text : item.image_urls.join(' '))).join('\n');
}

/**
 * The task as it was at each of its steps so far, oldest first, from step `from` on (what
 * stream-start streams: only the steps it has not sent yet); `null` when unknown.
 */
export function startTaskSteps(state: DomainState, id: string, from = 0): AppConversationStartTask[] | null {
  const key = toHyphenatedUuid(id);
  const record = key ? state.store.startTasks.get(key) : undefined;
  if (!record) return null;
  const steps = record.steps.length > 0 ? record.steps : [{ status: record.status, at: record.updated_at, detail: record.detail }];
  return steps
    .slice(from)
    .map((step) => startTaskView(state, { ...record, status: step.status, updated_at: step.at, detail: step.detail }));
}

/** `GET /api/v1/app-conversations/start-tasks?ids=`: tasks aligned with `ids`, null for missing ones. */
export function getStartTasks(state: DomainState, ids: string[]): (AppConversationStartTask | null)[] {
  return ids.map((id) => {
    const key = toHyphenatedUuid(id);
    const record = key ? state.store.startTasks.get(key) : undefined;
    return record ? startTaskView(state, record) : null;
  });
}

function startTaskQuery(state: DomainState, filters: StartTaskFilters): IdQuery {
  const ordering = state.store.startTasks.orderings.all;
  const lo = filters.created_at__gte ? ordering.positionOf(canonicalDateTime(filters.created_at__gte)) : 0;
  const conversationId = filters.conversation_id__eq ? toHyphenatedUuid(filters.conversation_id__eq) : null;
  const predicate =
    conversationId === null
      ? null
      : (id: string) => {
          const task = state.store.startTasks.get(id)!;
          return task.status === 'READY' && task.app_conversation_id === conversationId;
        };
  return { range: [lo, ordering.size], predicate };
}

/** `GET /api/v1/app-conversations/start-tasks/search`. */
export function searchStartTasks(
  state: DomainState,
  filters: StartTaskFilters & { sort_order?: StartTaskSortOrder },
  page: PageRequest,
): Page<AppConversationStartTask> {
  const table = state.store.startTasks;
  const query = startTaskQuery(state, filters);
  const sortOrder = filters.sort_order ?? 'CREATED_AT_DESC';
  let result: IdPage;
  if (sortOrder.startsWith('CREATED_AT')) {
    result = pageIds(table.orderings.all, page, query, sortOrder === 'CREATED_AT_DESC');
  } else {
    const all = matchingIds(table.orderings.all, query).map((id) => table.get(id)!);
    result = sortedPage(all, (t) => t.updated_at, sortOrder === 'UPDATED_AT_DESC', page);
  }
  return toPage(
    result.ids.map((id) => startTaskView(state, table.get(id)!)),
    page,
    result.more,
  );
}

/** `GET /api/v1/app-conversations/start-tasks/count`. */
export function countStartTasks(state: DomainState, filters: StartTaskFilters): number {
  return countIds(state.store.startTasks.orderings.all, startTaskQuery(state, filters));
}
