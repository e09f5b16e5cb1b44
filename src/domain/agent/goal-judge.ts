/**
 * A conversation's goal status and its judge (software-agent-sdk `event_service.py`,
 * `_run_goal_loop`, and `conversation/goal/controller.py`, `GoalController`): each status is
 * published as a `goal` state update; when the agent's run under a goal ends, the goal is judged —
 * a run paused or failed leaves it `interrupted`, any other end is audited, and the fake's judge
 * passes every goal at its first audit (`complete`, the round counted, its verdict published).
 */
import type { AgentHostState, ConversationRecord } from '../../schemas/records.js';
import { hostState, setHostState } from './host-state.js';
import { publishEvent } from './publish.js';
import { agentStatus } from './status.js';
import { stateUpdate } from './vocabulary.js';
import type { DomainState } from '../store/state.js';

/** A goal as the agent host keeps it. */
export type Goal = NonNullable<AgentHostState['goal']>;

/** The judge's verdict (`GoalVerdict`): the fake's judge finds every goal done. */
const PASSED = { score: 1.0, complete: true, missing: '' };

/** Publishes a goal's status (`GoalStatus`: active while running, its verdict when judged) and keeps it. */
export async function publishGoal(
  state: DomainState,
  conversation: ConversationRecord,
  goal: Goal,
  verdict: typeof PASSED | null = null,
): Promise<ConversationRecord> {
  await publishEvent(
    state,
    conversation.id,
    stateUpdate('goal', {
      active: goal.status === 'running',
      status: goal.status,
      iteration: goal.iteration,
      max_iterations: goal.max_iterations,
      objective: goal.objective,
      verdict,
    }),
  );
  return setHostState(state, conversation, { goal });
}

/**
 * Judges a running goal whose run has ended: paused or failed, it is `interrupted` (no round
 * counted); otherwise it is audited and passes (`complete`, one more round). Nothing while the run
 * goes on or without a running goal.
 */
export async function judgeGoal(state: DomainState, conversation: ConversationRecord): Promise<ConversationRecord> {
  const goal = hostState(conversation).goal;
  const status = agentStatus(conversation);
  if (!goal || goal.status !== 'running' || status === 'running') return conversation;
  if (status === 'paused' || status === 'error') return publishGoal(state, conversation, { ...goal, status: 'interrupted' });
  return publishGoal(state, conversation, { ...goal, iteration: goal.iteration + 1, status: 'complete' }, PASSED);
}
