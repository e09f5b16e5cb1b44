/**
 * What every request needs of the scripted agent (`scripted-agent.ts`) without loading it: a
 * conversation's agent status and edited turns (views), the length of the built-in run (the system
 * prompt every log starts with is `system-prompt.ts`'s: only the agent needs it). Publishing one event is `publish.ts`'s (and storing it
 * `store-event.ts`'s): it needs the state, and the state needs this module (`runStepsTotal`).
 */
import type { ConversationRecord } from '../../schemas/records.js';
import { EDIT_DONE_AFTER, RUN_STEPS } from './run-plan.js';
import type { EventSource } from './vocabulary.js';

/** A wire event: `kind`, `id`, `timestamp`, `source` and its kind's fields. */
export type AgentEvent = Record<string, unknown> & { kind: string; id: string; timestamp: string; source: EventSource };

// The run's length and its edit step come written out (`run-plan.ts`, checked against the script by a
// test), so the first chunks of a page carry neither the script nor the event builders (issue 30).
export { EDIT_DONE_AFTER, RUN_STEPS } from './run-plan.js';

/** How many steps a conversation's current run has. */
export function runStepsTotal(conversation: ConversationRecord): number {
  return conversation.agent_steps_total ?? RUN_STEPS;
}

/**
 * The turns of a conversation the workspace shows: every run whose edit is done, that is whose
 * edit action is published and not waiting for the client's confirmation (then it has not run yet).
 */
export function editedTurns(conversation: ConversationRecord): number | null {
  if (conversation.agent_steps_done === undefined) return null;
  const after = conversation.agent_edit_after ?? EDIT_DONE_AFTER;
  const waiting = conversation.agent_status === 'waiting_for_confirmation' && conversation.agent_steps_done === after;
  return conversation.agent_turns - (conversation.agent_steps_done >= after && !waiting ? 0 : 1);
}

/** The agent's status as its events say: `null` for a conversation whose history has no events. */
export function agentStatus(
  conversation: ConversationRecord,
): 'running' | 'finished' | 'paused' | 'error' | 'stuck' | 'waiting_for_confirmation' | 'idle' | null {
  if (conversation.agent_status) return conversation.agent_status;
  if (conversation.agent_steps_done === undefined) return null;
  return conversation.agent_steps_done < runStepsTotal(conversation) ? 'running' : 'finished';
}

// What a conversation's timeline holds (`streaming.ts` fills and settles it; the state keeps one per conversation): generic over
// the state a step runs on, so the state names it without importing the agent's streaming (no circle).

/** An event's fields before it has an id and a timestamp. */
export type EventFields = Omit<AgentEvent, 'id' | 'timestamp'>;

/**
 * One entry of a timeline: an event to store (its id drawn when it was held), a message's tokens
 * streamed one at a time (`dueMs` the next token's; `next` advances as they go out: one entry
 * however long the message), or a step to run on `State`.
 */
export type TimelineEntry<State> =
  | { kind: 'event'; dueMs: number; id: string; fields: EventFields; streamed?: boolean }
  | { kind: 'stream'; dueMs: number; startMs: number; stepMs: number; tokens: readonly string[]; next: number }
  | { kind: 'step'; dueMs: number; run(state: State): Promise<void> };
