/**
 * Start tasks of app conversations: created at once (WORKING, `start-conversation.ts`), then
 * stepped on by time (`settleStartTasks`, run before every operation); a READY task creates its
 * conversation.
 */
import type { AppConversationStartTask } from '../../schemas/app-conversation.js';
import type { StartTaskSortOrder } from '../../schemas/common.js';
import { canonicalDateTime, formatDateTime } from '../../schemas/datetime.js';
import type { StartTaskRecord } from '../../schemas/records.js';
import { breathe } from '../store/mutex.js';
import { RUN_STEPS, SYSTEM_PROMPT } from '../agent/status.js';
import { publishEvent } from '../agent/publish.js';
import { toHyphenatedUuid } from '../store/ids.js';
import { FINAL_TASK_STATUSES, nextTaskStep } from '../time/lifecycle.js';
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
import { startTaskView, v1DefaultTitle } from './views.js';

/** Filters of the start task search and count. */
export interface StartTaskFilters {
  conversation_id__eq?: string | null;
  created_at__gte?: string | null;
}

/**
 * Materialises the start tasks' steps up to now, oldest task first. Looks only at the tasks that
 * need it: those due by now, and those whose sandbox changed since the last look; every operation
 * calls this, so it does no work proportional to the number of pending tasks unless one is due.
 */
export async function settleStartTasks(state: DomainState): Promise<void> {
  const changed = state.store.changedSandboxes;
  if (state.pendingTasks.size === 0) {
    changed.clear();
    return;
  }
  const now = state.clock.now();
  const due = now >= state.nextTaskDueMs;
  if (!due && changed.size === 0) return;
  const ids = new Set<string>();
  for (const sandboxId of changed) for (const id of state.tasksOfSandbox.get(sandboxId) ?? []) ids.add(id);
  changed.clear();
  if (due) {
    state.nextTaskDueMs = Number.POSITIVE_INFINITY;
    for (const [id, at] of state.pendingTasks) {
      if (at !== null && at <= now) ids.add(id);
      else if (at !== null && at < state.nextTaskDueMs) state.nextTaskDueMs = at;
    }
  }
  const tasks = [...ids].map((id) => state.store.startTasks.get(id)).filter((task) => task !== undefined);
  tasks.sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
  for (const task of tasks) {
    await settleTask(state, task, now);
    await breathe();
  }
  // Steps taken above may have changed sandboxes only of tasks just settled.
  changed.clear();
}

async function settleTask(state: DomainState, initial: StartTaskRecord, now: number): Promise<void> {
  let task = initial;
  let next: ReturnType<typeof nextTaskStep> = null;
  for (;;) {
    const sandbox = task.sandbox_id ? state.store.sandboxes.get(task.sandbox_id) : undefined;
    next = nextTaskStep(
      task.status,
      state.sinceMs(task),
      {
        sandboxId: task.sandbox_id,
        sandbox: sandbox ? state.sandboxState(sandbox) : null,
      },
      state.options.timings,
    );
    if (!next || next.atMs > now) break;
    const at = formatDateTime(next.atMs);
    task = await state.store.startTasks.update(task.id, {
      status: next.status,
      status_changed_at: at,
      updated_at: at,
      detail: next.detail ?? null,
      steps: [...task.steps, { status: next.status, at, detail: next.detail ?? null }],
    });
    if (next.status === 'READY') await createAppConversation(state, task, next.atMs);
  }
  if (FINAL_TASK_STATUSES.has(task.status)) {
    state.untrackTask(task.id, task.sandbox_id);
    return;
  }
  state.trackTask(task.id, task.sandbox_id, next ? next.atMs : sandboxRunsAt(state, task));
}

/** When a task waiting for its sandbox can go on without anything else changing: when a STARTING sandbox runs; `null` otherwise. */
function sandboxRunsAt(state: DomainState, task: StartTaskRecord): number | null {
  const sandbox = task.sandbox_id ? state.store.sandboxes.get(task.sandbox_id) : undefined;
  if (!sandbox) return null;
  const settled = state.sandboxState(sandbox);
  return settled.status === 'STARTING' ? settled.sinceMs + state.options.timings.sandboxStartMs : null;
}

/**
 * Stores the conversation a READY task started, as the real SQL service stores it
 * (`live_status_app_conversation_service.py`, `_start_app_conversation`): titled
 * `Conversation <32-hex id>` whatever the request said, with the request's trigger (null by default).
 */
async function createAppConversation(state: DomainState, task: StartTaskRecord, atMs: number): Promise<void> {
  const request = task.request;
  const at = state.stamp(atMs);
  const parent = request.parent_conversation_id ? toHyphenatedUuid(request.parent_conversation_id) : null;
  const hasMessage = Boolean(request.initial_message?.content.length);
  const record = await state.store.conversations.insert({
    id: task.app_conversation_id,
    version: 'V1',
    sandbox_id: task.sandbox_id!,
    created_by_user_id: task.created_by_user_id,
    title: v1DefaultTitle(task.app_conversation_id),
    selected_repository: request.selected_repository,
    selected_branch: request.selected_branch,
    git_provider: request.git_provider,
    trigger: request.trigger,
    pr_number: request.pr_number,
    llm_model: request.llm_model,
    parent_conversation_id: parent,
    agent_type: request.agent_type,
    public: request.public,
    launched_agent_profile: request.agent_profile_id ? { agent_profile_id: request.agent_profile_id, revision: 1 } : null,
    has_initial_message: hasMessage,
    agent_turns: 0,
    messages: [],
    agent_started_at: at,
    agent_steps_done: RUN_STEPS,
    agent_steps_total: RUN_STEPS,
    created_at: at,
    updated_at: at,
  });
  if (record.parent_conversation_id) state.store.linkChild(record.parent_conversation_id, record.id);
  // A new conversation's log starts as the real one does: the system prompt, then the first message and its run.
  await publishEvent(state, record.id, SYSTEM_PROMPT, atMs);
  const { deliverMessage } = await import('../agent/scripted-agent.js');
  let current = hasMessage ? await deliverMessage(state, record, messageText(request.initial_message!.content), true, atMs) : record;
  // Messages queued while it started (POST /api/v1/conversations/{id}/pending-messages) reach it now, in order.
  for (const queued of state.store.takeQueued(record.id)) current = await deliverMessage(state, current, queued.text, true, atMs);
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
