/**
 * Storing one event of a conversation at once: stamped, given an unused id, written in the agent
 * server's dialect and appended to the store. What `publish.ts` and the held timelines of
 * `streaming.ts` end with (its own module, so neither needs the other).
 */
import type { AgentEventRecord } from '../../schemas/records.js';
import { naiveTimestamp } from '../fixtures/load.js';
import type { DomainState } from '../store/state.js';
import { inDialect } from './dialect.js';
import { combinedMetrics } from './vocabulary-stats.js';
import type { AgentEvent } from './status.js';

/** Stores a new event of a conversation at `atMs` (default now) at once, held back by nothing; returns it. */
export async function storeEvent(
  state: DomainState,
  conversationId: string,
  fields: Omit<AgentEvent, 'id' | 'timestamp'>,
  atMs?: number,
  id?: string,
): Promise<AgentEvent> {
  // From the first event on, the views read the conversation's LLM calls off its log.
  state.statsReader ??= combinedMetrics;
  const stamp = state.stamp(atMs);
  // An id no stored event has: a state loaded again (a restart, a snapshot as fixture) replays the seeded ids (issue 29, finding 5).
  id ??= state.unusedId(
    () => state.random.uuid(),
    (taken) => state.store.events.get(taken) !== undefined,
  );
  const event = { id, timestamp: naiveTimestamp(stamp), ...inDialect(fields, state.options.agentServerVersion) } as AgentEvent;
  await state.store.appendEvent({ id: event.id, conversation_id: conversationId, created_at: stamp, event } satisfies AgentEventRecord);
  return event;
}
