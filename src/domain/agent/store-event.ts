/**
 * Storing one event of a conversation at once: stamped, given an unused id, written in the agent
 * server's dialect and appended to the store. What `publish.ts` and the held timelines of
 * `streaming.ts` end with (its own module, so neither needs the other).
 */
import type { AgentEventRecord } from '../../schemas/records.js';
import { naiveTimestamp } from '../fixtures/load.js';
import { stringLength, weightOf } from '../store/budget.js';
import type { DomainState } from '../store/state.js';
import { inDialect, stampsParents } from './dialect.js';
import { isTreeNode, parentOfNext } from './event-tree.js';
import { combinedMetrics } from './conversation-stats.js';
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
  const spoken = inDialect(fields, state.options.agentServerVersion);
  const timestamp = naiveTimestamp(stamp);
  // Each event names HEAD as its parent (`event-tree.ts`), the first none.
  const conversation = state.store.conversations.get(conversationId);
  const parent =
    'parent_id' in spoken || !stampsParents(state.options.agentServerVersion) ? null : parentOfNext(state, conversation, conversationId);
  const event = (parent === null ? { id, timestamp, ...spoken } : { id, timestamp, parent_id: parent, ...spoken }) as AgentEvent;
  // Built here from a stamp and a drawn id: stored without a second parse (`Store.appendBuiltEvent`).
  const record = { id: event.id, conversation_id: conversationId, created_at: stamp, event } satisfies AgentEventRecord;
  state.store.appendBuiltEvent(
    record,
    parent === null && Object.isFrozen(spoken) && !('id' in spoken || 'timestamp' in spoken)
      ? constantEventSize(record, spoken)
      : undefined,
  );
  // The new node is HEAD: a HEAD a client moved follows the log again.
  const host = conversation?.agent_host;
  if (host && (host.leaf_event_id !== null || host.head_is_empty) && isTreeNode(event))
    await state.store.conversations.update(conversationId, { agent_host: { ...host, leaf_event_id: null, head_is_empty: false } });
  return event;
}

/** The weight of a constant event's fields (the system prompt): its JSON text's length and its containers' cost, by fields object. */
const constantWeights = new WeakMap<object, { text: number; containers: number }>();

/**
 * `sizeOf(record)` of an event record whose fields are a frozen constant, without writing the
 * constant's JSON again: the record's JSON text is its four short strings around the fields' text
 * (`{"id":…,"conversation_id":…,"created_at":…,"event":{"id":…,"timestamp":…,<fields>}}`), and its
 * containers are the fields' plus the record and the event (`budget.ts`, `sizeOf`).
 */
export function constantEventSize(record: AgentEventRecord, spoken: object): number {
  let weight = constantWeights.get(spoken);
  if (!weight) {
    const text = JSON.stringify(spoken).length;
    weight = { text, containers: weightOf(spoken) - text };
    constantWeights.set(spoken, weight);
  }
  // Each string's JSON length without writing it (ids and stamps need no escapes: their length and two quotes).
  const strings =
    2 * stringLength(record.id) +
    stringLength(record.conversation_id) +
    stringLength(record.created_at) +
    stringLength(record.event.timestamp as string);
  // `{"id":` `,"conversation_id":` `,"created_at":` `,"event":` `{"id":` `,"timestamp":`, the fields' text
  // inside the event's braces (a `,` in place of its `{`; nothing for `{}`), the event's and the record's `}`.
  const text = 6 + 19 + 14 + 9 + 6 + 13 + (weight.text === 2 ? 0 : weight.text - 1) + 2 + strings;
  // `sizeOf`: the text, one comma more, and the containers but the record itself (the event, in place of the fields' own object).
  return text + 1 + weight.containers;
}
