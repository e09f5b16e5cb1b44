/**
 * Start tasks stepped on by time (`settleStartTasks`, run before every operation); a READY task
 * creates its conversation and hands its first message to the scripted agent, which the state
 * loads only then (`DomainState.loadAgent`: in a page, the service facade's chunk; issue 30).
 */
import { formatDateTime } from '../../schemas/datetime.js';
import type { StartTaskRecord } from '../../schemas/records.js';
import { breathe } from '../store/mutex.js';
import { RUN_STEPS, SYSTEM_PROMPT } from '../agent/status.js';
import { publishEvent } from '../agent/publish.js';
import { toHyphenatedUuid } from '../store/ids.js';
import { FINAL_TASK_STATUSES, nextTaskStep } from '../time/lifecycle.js';
import type { DomainState } from '../store/state.js';
import { messageText } from './start-tasks.js';
import { v1DefaultTitle } from './views.js';

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
 * Its agent confirms each action when the saved settings say `confirmation_mode`, as the real
 * `_build_start_conversation_request_for_user` starts it with `AlwaysConfirm` then (`NeverConfirm` otherwise).
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
    ...(state.store.settings?.confirmation_mode ? { agent_confirm: true } : {}),
    created_at: at,
    updated_at: at,
  });
  if (record.parent_conversation_id) state.store.linkChild(record.parent_conversation_id, record.id);
  // A new conversation's log starts as the real one does: the system prompt, then the first message and its run.
  await publishEvent(state, record.id, SYSTEM_PROMPT, atMs);
  // The scripted agent loads only now, with the first message it is given (in a page, the service facade's chunk).
  if (!hasMessage && state.store.queuedCount(record.id) === 0) return;
  const { deliverMessage } = await state.loadAgent();
  let current = hasMessage ? await deliverMessage(state, record, messageText(request.initial_message!.content), true, atMs) : record;
  // Messages queued while it started (POST /api/v1/conversations/{id}/pending-messages) reach it now, in order.
  for (const queued of state.store.takeQueued(record.id)) current = await deliverMessage(state, current, queued.text, true, atMs);
}
