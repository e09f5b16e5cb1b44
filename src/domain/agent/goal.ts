/**
 * The goal loop of a conversation on the agent host (`POST .../goal`, `goal/stop`, `goal/resume`;
 * software-agent-sdk `event_service.py`, `start_goal_loop`): an objective the agent runs on, its
 * status published as a `goal` state update, judged when its run ends (`goal-judge.ts`).
 */
import type { ConversationRecord } from '../../schemas/records.js';
import { executionStatusOf } from './agent-server.js';
import { judgeGoal, publishGoal } from './goal-judge.js';
import { hostState } from './host-state.js';
import { deliverMessage } from './scripted-agent.js';
import { type Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';

/** `event_service.py`'s 409 detail of `goal` and `goal/resume`. */
export const GOAL_CONFLICT = 'Conversation run or goal loop already running.';
/** What the goal loop tells the agent when it resumes (the real one's `RESUME_PROMPT`, in our words). */
const RESUME_MESSAGE = 'Continue working towards the goal where you left off.';

/** `POST .../goal` (`start_goal_loop`): the objective is sent and the agent runs on it; 409 while it runs, 400 for an empty objective. */
export async function startGoal(
  state: DomainState,
  conversation: ConversationRecord,
  objective: string,
  maxIterations: number,
): Promise<Refusal | null> {
  if (objective.trim() === '') return refuse('bad_request', 'objective must not be empty');
  const current = await judgeGoal(state, conversation);
  if (executionStatusOf(current) === 'running' || hostState(current).goal?.status === 'running') return refuse('conflict', GOAL_CONFLICT);
  // No round audited yet (`GoalController.iteration` starts at 0).
  const started = await publishGoal(state, current, { objective, max_iterations: maxIterations, iteration: 0, status: 'running' });
  await deliverMessage(state, started, objective, true);
  return null;
}

/** `POST .../goal/stop` (`stop_goal_loop`): a goal that is running is recorded `interrupted` (the run itself goes on); succeeds without one too. */
export async function stopGoal(state: DomainState, conversation: ConversationRecord): Promise<void> {
  const current = await judgeGoal(state, conversation);
  const goal = hostState(current).goal;
  if (goal?.status === 'running') await publishGoal(state, current, { ...goal, status: 'interrupted' });
}

/** `POST .../goal/resume` (`resume_goal_loop`): an interrupted goal goes on; 400 `no_resumable_goal` without one (none, complete or capped), 409 while the agent runs. */
export async function resumeGoal(state: DomainState, conversation: ConversationRecord): Promise<Refusal | null> {
  const current = await judgeGoal(state, conversation);
  const goal = hostState(current).goal;
  if (executionStatusOf(current) === 'running' || goal?.status === 'running') return refuse('conflict', GOAL_CONFLICT);
  if (!goal || goal.status === 'complete' || goal.status === 'capped') return refuse('bad_request', 'no_resumable_goal');
  // The loop goes on from the round it had reached, one round kept in hand (`resume_goal_loop`).
  const resumed = await publishGoal(state, current, {
    ...goal,
    iteration: Math.min(goal.iteration, goal.max_iterations - 1),
    status: 'running',
  });
  await deliverMessage(state, resumed, RESUME_MESSAGE, true);
  return null;
}
