/**
 * The state machines of the fake, as data. Time-driven steps are never run by timers:
 * they are derived from the record's `status_changed_at` and the clock when state is read.
 */
import type { ConversationStatus, SandboxStatus } from '../../schemas/common.js';
import type { AppConversationStartTaskStatus } from '../../schemas/app-conversation.js';
import type { StoredSandboxStatus } from '../../schemas/records.js';

/** How long the time-driven steps take, in milliseconds. */
export interface Timings {
  /** STARTING → RUNNING of a sandbox (created or resumed). */
  sandboxStartMs: number;
  /** Each step of a start task (WORKING, PREPARING_REPOSITORY, ...). */
  startTaskStepMs: number;
  /** How long the agent works on an initial message before it is `finished`. */
  agentRunMs: number;
}

/** Timings close to a real local install. */
export const REALISTIC_TIMINGS: Readonly<Timings> = frozen({ sandboxStartMs: 2000, startTaskStepMs: 500, agentRunMs: 10_000 });
/** Everything happens at once: sandboxes run and start tasks are READY on the next read. */
export const INSTANT_TIMINGS: Readonly<Timings> = frozen({ sandboxStartMs: 0, startTaskStepMs: 0, agentRunMs: 0 });

/** Actions on a sandbox that the API or fault injection can take. */
export type SandboxAction = 'pause' | 'resume' | 'fail';

/** Deep-freezes a table, so that no caller can change the behaviour of every fake by writing to it. */
function frozen<T extends object>(table: T): Readonly<T> {
  for (const value of Object.values(table)) if (value && typeof value === 'object') frozen(value as object);
  return Object.freeze(table);
}

/**
 * Sandbox transitions: `SANDBOX_TRANSITIONS[action][from]` is the state after the action. Every
 * action is defined in every stored state (the real router refuses none with 409: pause and resume
 * answer 200 or 404). Delete takes any state to MISSING by removing the record. Frozen.
 */
export const SANDBOX_TRANSITIONS: Readonly<Record<SandboxAction, Readonly<Record<StoredSandboxStatus, StoredSandboxStatus>>>> = frozen({
  // The real router answers pause with 200 or 404 only: an ERROR sandbox stays in ERROR (sandbox_router.py, pause_sandbox).
  pause: { STARTING: 'PAUSED', RUNNING: 'PAUSED', PAUSED: 'PAUSED', ERROR: 'ERROR' },
  resume: { PAUSED: 'STARTING', STARTING: 'STARTING', RUNNING: 'RUNNING', ERROR: 'STARTING' },
  fail: { STARTING: 'ERROR', RUNNING: 'ERROR', PAUSED: 'ERROR', ERROR: 'ERROR' },
});

/** Time-driven sandbox steps: after `after(timings)` ms in `from`, the sandbox is in `to`. */
export const SANDBOX_TIMED_STEPS: Partial<Record<StoredSandboxStatus, { to: StoredSandboxStatus; after: (t: Timings) => number }>> = {
  STARTING: { to: 'RUNNING', after: (t) => t.sandboxStartMs },
};

/** A conversation's status is its sandbox's, seen through this table (the seed's three statuses, for V0 conversations). */
export const CONVERSATION_STATUS_OF_SANDBOX: Readonly<Record<SandboxStatus, ConversationStatus>> = frozen({
  STARTING: 'STARTING',
  RUNNING: 'RUNNING',
  PAUSED: 'STOPPED',
  ERROR: 'STOPPED',
  MISSING: 'STOPPED',
});

/**
 * The legacy status of a V1 conversation, from its sandbox's, as the real server maps it
 * (`manage_conversations.py`, `_to_conversation_info`): ERROR stays ERROR, a gone sandbox is ARCHIVED.
 */
export const LEGACY_STATUS_OF_V1_SANDBOX: Readonly<Record<SandboxStatus, ConversationStatus>> = frozen({
  STARTING: 'STARTING',
  RUNNING: 'RUNNING',
  PAUSED: 'STOPPED',
  ERROR: 'ERROR',
  MISSING: 'ARCHIVED',
});

/** Where a stored status, held since `sinceMs`, has led by `nowMs` (each time-driven step taken in turn), and since when. */
export function settleSandboxStatus(
  status: StoredSandboxStatus,
  sinceMs: number,
  nowMs: number,
  timings: Timings,
): { status: StoredSandboxStatus; sinceMs: number } {
  let current = { status, sinceMs };
  for (let step = SANDBOX_TIMED_STEPS[current.status]; step; step = SANDBOX_TIMED_STEPS[current.status]) {
    const at = current.sinceMs + step.after(timings);
    if (at > nowMs) break;
    current = { status: step.to, sinceMs: at };
  }
  return current;
}

/** Start task statuses that end its life. */
export const FINAL_TASK_STATUSES: ReadonlySet<AppConversationStartTaskStatus> = new Set(['READY', 'ERROR']);

/** What a start task's next step depends on. */
export interface TaskStepContext {
  /** The task's sandbox id, for the detail of an ERROR. */
  sandboxId: string | null;
  /** The task's sandbox, settled to the time asked about; `null` when it is gone. */
  sandbox: { status: StoredSandboxStatus; sinceMs: number } | null;
}

/** The steps after the sandbox runs, in order: each takes `startTaskStepMs` (PREPARING_REPOSITORY runs with or without a repository). */
export const START_TASK_STEPS: readonly AppConversationStartTaskStatus[] = [
  'PREPARING_REPOSITORY',
  'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS',
  'SETTING_UP_SKILLS',
  'STARTING_CONVERSATION',
  'READY',
];

/** The next status of a start task, when it happens, and its detail; `null` while waiting or when final. */
export function nextTaskStep(
  status: AppConversationStartTaskStatus,
  sinceMs: number,
  ctx: TaskStepContext,
  timings: Timings,
): { status: AppConversationStartTaskStatus; atMs: number; detail?: string } | null {
  const afterStep = sinceMs + timings.startTaskStepMs;
  if (status === 'WORKING') return { status: 'WAITING_FOR_SANDBOX', atMs: afterStep };
  if (status === 'WAITING_FOR_SANDBOX') {
    const sandbox = ctx.sandbox;
    // The real service's messages (live_status_app_conversation_service.py, _wait_for_sandbox_start).
    if (sandbox === null) return { status: 'ERROR', atMs: sinceMs, detail: `Sandbox not found: ${ctx.sandboxId}` };
    if (sandbox.status === 'ERROR')
      return { status: 'ERROR', atMs: Math.max(sinceMs, sandbox.sinceMs), detail: 'Sandbox status: SandboxStatus.ERROR' };
    if (sandbox.status !== 'RUNNING') return null;
    return { status: START_TASK_STEPS[0]!, atMs: Math.max(afterStep, sandbox.sinceMs) };
  }
  const at = START_TASK_STEPS.indexOf(status);
  if (at < 0 || at === START_TASK_STEPS.length - 1) return null;
  return { status: START_TASK_STEPS[at + 1]!, atMs: afterStep };
}
