/**
 * The state machines of the fake, as data. Time-driven steps are never run by timers:
 * they are derived from the record's `status_changed_at` and the clock when state is read.
 */
import type { ConversationStatus, SandboxStatus } from '../schemas/common.js';
import type { AppConversationStartTaskStatus } from '../schemas/app-conversation.js';
import type { StoredSandboxStatus } from '../schemas/records.js';

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
export const REALISTIC_TIMINGS: Timings = { sandboxStartMs: 2000, startTaskStepMs: 500, agentRunMs: 10_000 };
/** Everything happens at once: sandboxes run and start tasks are READY on the next read. */
export const INSTANT_TIMINGS: Timings = { sandboxStartMs: 0, startTaskStepMs: 0, agentRunMs: 0 };

/** Actions on a sandbox that the API or fault injection can take. */
export type SandboxAction = 'pause' | 'resume' | 'fail';

/**
 * Sandbox transitions: `SANDBOX_TRANSITIONS[action][from]` is the state after the action.
 * A missing entry means the action is refused in that state (409). Delete takes any
 * state to MISSING by removing the record.
 */
export const SANDBOX_TRANSITIONS: Record<SandboxAction, Partial<Record<StoredSandboxStatus, StoredSandboxStatus>>> = {
  pause: { STARTING: 'PAUSED', RUNNING: 'PAUSED', PAUSED: 'PAUSED' },
  resume: { PAUSED: 'STARTING', STARTING: 'STARTING', RUNNING: 'RUNNING', ERROR: 'STARTING' },
  fail: { STARTING: 'ERROR', RUNNING: 'ERROR', PAUSED: 'ERROR', ERROR: 'ERROR' },
};

/** Time-driven sandbox steps: after `after(timings)` ms in `from`, the sandbox is in `to`. */
export const SANDBOX_TIMED_STEPS: Partial<Record<StoredSandboxStatus, { to: StoredSandboxStatus; after: (t: Timings) => number }>> = {
  STARTING: { to: 'RUNNING', after: (t) => t.sandboxStartMs },
};

/** A conversation's status is its sandbox's, seen through this table. */
export const CONVERSATION_STATUS_OF_SANDBOX: Record<SandboxStatus, ConversationStatus> = {
  STARTING: 'STARTING',
  RUNNING: 'RUNNING',
  PAUSED: 'STOPPED',
  ERROR: 'STOPPED',
  MISSING: 'STOPPED',
};

/** Where a stored status leads after `elapsedMs` in it, and when it got there. */
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
  /** Whether the request named a repository (PREPARING_REPOSITORY is skipped without one). */
  hasRepository: boolean;
  /** The task's sandbox, settled to the time asked about; `null` when it is gone. */
  sandbox: { status: StoredSandboxStatus; sinceMs: number } | null;
}

/** The next status of a start task, when it happens, and its detail; `null` while waiting or when final. */
export function nextTaskStep(
  status: AppConversationStartTaskStatus,
  sinceMs: number,
  ctx: TaskStepContext,
  timings: Timings,
): { status: AppConversationStartTaskStatus; atMs: number; detail?: string } | null {
  const afterStep = sinceMs + timings.startTaskStepMs;
  switch (status) {
    case 'WORKING':
      return { status: 'WAITING_FOR_SANDBOX', atMs: afterStep };
    case 'WAITING_FOR_SANDBOX': {
      const sandbox = ctx.sandbox;
      if (sandbox === null) return { status: 'ERROR', atMs: sinceMs, detail: 'Sandbox not found: it was deleted before the conversation could start' };
      if (sandbox.status === 'ERROR') return { status: 'ERROR', atMs: Math.max(sinceMs, sandbox.sinceMs), detail: 'Sandbox entered error state' };
      if (sandbox.status !== 'RUNNING') return null;
      return { status: ctx.hasRepository ? 'PREPARING_REPOSITORY' : 'RUNNING_SETUP_SCRIPT', atMs: Math.max(afterStep, sandbox.sinceMs) };
    }
    case 'PREPARING_REPOSITORY':
      return { status: 'RUNNING_SETUP_SCRIPT', atMs: afterStep };
    case 'RUNNING_SETUP_SCRIPT':
      return { status: 'SETTING_UP_GIT_HOOKS', atMs: afterStep };
    case 'SETTING_UP_GIT_HOOKS':
      return { status: 'STARTING_CONVERSATION', atMs: afterStep };
    case 'STARTING_CONVERSATION':
      return { status: 'READY', atMs: afterStep };
    default:
      return null;
  }
}
