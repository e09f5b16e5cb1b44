/**
 * Start tasks stepped on by time (`settleStartTasks`, run before every operation); a READY task's
 * conversation is made by `ready-conversation.ts`, which the state loads with the scripted agent
 * only then (`DomainState.loadAgent`: in a page, the service facade's chunk; issue 30).
 */
import { formatDateTime } from '../../schemas/datetime.js';
import type { StartTaskRecord } from '../../schemas/records.js';
import { breathe } from '../store/mutex.js';
import { FINAL_TASK_STATUSES, nextTaskStep } from '../time/lifecycle.js';
import type { DomainState } from '../store/state.js';

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
  const now = state.now();
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
    if (next.status === 'READY') await (await state.loadAgent()).startConversation(state, task, next.atMs);
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
