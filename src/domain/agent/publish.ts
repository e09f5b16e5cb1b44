/**
 * Publishing one event of a conversation: held back while a replay or a streamed message goes on
 * (`streaming.ts`), else stored at once (`store-event.ts`). Apart from `status.ts` because it needs
 * the state, and the state needs `status.ts` (`runStepsTotal`).
 */
import type { DomainState } from '../store/state.js';
import type { AgentEvent } from './status.js';
import { storeEvent } from './store-event.js';
import { holdEvent, isStreamed } from './streaming.js';

/** Stores a new event of a conversation at `atMs` (default now); returns it. */
export async function publishEvent(
  state: DomainState,
  conversationId: string,
  fields: Omit<AgentEvent, 'id' | 'timestamp'>,
  atMs?: number,
): Promise<AgentEvent> {
  // Held while a replay or a streamed message goes on, or streamed first (issue 32): `streaming.ts`.
  if (state.timelines.has(conversationId) || isStreamed(state, conversationId, fields))
    return holdEvent(state, conversationId, fields, atMs ?? state.clock.now());
  return storeEvent(state, conversationId, fields, atMs);
}
