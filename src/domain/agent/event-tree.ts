/**
 * A conversation's history as a tree (openhands-sdk `conversation/state.py`, `_stamp_parent_id`,
 * `append_event`, `_resolve_active_leaf`; `conversation/event_store.py`, `path_to_root`,
 * `_effective_parent_id`): each new event names HEAD as its `parent_id`, and every event but a
 * state update becomes HEAD. The fake keeps HEAD only when a client moved it (`navigate`) or a fork
 * set it; otherwise HEAD is the log's last event that is no state update.
 */
import type { ConversationRecord } from '../../schemas/records.js';
import type { DomainState } from '../store/state.js';

/** The `parent_id` of a new root after HEAD moved to the empty tree (`ROOT_PARENT_ID`). */
export const ROOT_PARENT_ID = '__root__';

/** An event as stored: its kind and the parent it names. */
type Stored = { kind?: unknown; parent_id?: unknown };

const eventOf = (state: DomainState, id: string) => state.store.events.get(id)?.event as Stored | undefined;

/** Whether an event becomes HEAD when it is appended: every event but a `ConversationStateUpdateEvent`. */
export const isTreeNode = (event: Stored): boolean => event.kind !== 'ConversationStateUpdateEvent';

/** The id of the log's last event that is a tree node, or `null` (looked for from the end). */
export function lastTreeNodeId(state: DomainState, conversationId: string): string | null {
  const ids = state.store.eventIdsOf(conversationId);
  for (let i = ids.length - 1; i >= 0; i--) {
    const event = eventOf(state, ids[i]!);
    if (event && isTreeNode(event)) return ids[i]!;
  }
  return null;
}

/** A conversation's HEAD (`leaf_event_id`): where a client or a fork put it, else the log's last tree node; `null` for the empty tree. */
export function leafOf(state: DomainState, conversation: ConversationRecord): string | null {
  const host = conversation.agent_host;
  if (host?.head_is_empty) return null;
  return host?.leaf_event_id ?? lastTreeNodeId(state, conversation.id);
}

/**
 * The `parent_id` a new event of the conversation takes (`_stamp_parent_id`): HEAD; without one,
 * none for the log's first event and the root marker after others (state updates alone, an empty HEAD).
 */
export function parentOfNext(state: DomainState, conversation: ConversationRecord | undefined, conversationId: string): string | null {
  const host = conversation?.agent_host;
  const leaf = host?.head_is_empty ? null : (host?.leaf_event_id ?? lastTreeNodeId(state, conversationId));
  return leaf === null && state.store.eventIdsOf(conversationId).length > 0 ? ROOT_PARENT_ID : leaf;
}

/**
 * The ids of the branch that ends at `leafId`, root first (`path_to_root`): each event's parent, or
 * for an event without one (older logs) the event before it in the log.
 */
export function pathToRoot(state: DomainState, conversationId: string, leafId: string): string[] {
  const ids = state.store.eventIdsOf(conversationId);
  const chain: string[] = [];
  const seen = new Set<string>();
  let current: string | null = leafId;
  while (current !== null && !seen.has(current)) {
    seen.add(current);
    const event = eventOf(state, current);
    if (!event) break;
    chain.push(current);
    const parent = event.parent_id;
    if (parent === ROOT_PARENT_ID) current = null;
    else if (typeof parent === 'string') current = parent;
    else {
      const at = ids.indexOf(current);
      current = at > 0 ? ids[at - 1]! : null;
    }
  }
  return chain.reverse();
}
