/**
 * What a conversation's timeline holds (`streaming.ts` fills and settles it; the state keeps one
 * per conversation). Generic over the state a step runs on, so the state can name it without
 * importing the agent's streaming (no circle).
 */
import type { AgentEvent } from './status.js';

/** An event's fields before it has an id and a timestamp. */
export type EventFields = Omit<AgentEvent, 'id' | 'timestamp'>;

/** One entry of a timeline: an event to store (its id drawn when it was held), a transient frame, or a step to run on `State`. */
export type TimelineEntry<State> =
  | { kind: 'event'; dueMs: number; id: string; fields: EventFields; streamed?: boolean }
  | { kind: 'transient'; dueMs: number; fields: EventFields }
  | { kind: 'step'; dueMs: number; run(state: State): Promise<void> };
