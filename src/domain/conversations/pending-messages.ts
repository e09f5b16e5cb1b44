/**
 * `POST /api/v1/conversations/{id}/pending-messages`: messages for an app conversation that is
 * still starting. Apart from `start-conversation.ts` (a first route's) because a ready conversation
 * gets its message at once, from the scripted agent, which only the later routes bring to a page.
 */
import { refuse, type Refusal } from '../store/refusal.js';
import { toHex, toHyphenatedUuid } from '../store/ids.js';
import { FINAL_TASK_STATUSES } from '../time/lifecycle.js';
import { deliverMessage } from '../agent/scripted-agent.js';
import type { DomainState } from '../store/state.js';

/** How many messages may wait for a conversation that is still starting. */
export const MAX_PENDING_MESSAGES = 10;

/**
 * `POST /api/v1/conversations/{id}/pending-messages`: a message for a conversation still starting
 * (named by its id, or its start task's), delivered once it is ready; a ready one gets it at once.
 */
export async function queuePendingMessage(
  state: DomainState,
  id: string,
  text: string,
): Promise<{ id: string; queued: boolean; position: number } | Refusal> {
  const key = toHyphenatedUuid(id);
  if (!key) return refuse('not_found', 'Not Found');
  const messageId = toHex(state.random.uuid());
  const conversation = state.store.conversations.get(key);
  if (conversation?.version === 'V1') {
    await deliverMessage(state, conversation, text, true);
    return { id: messageId, queued: false, position: 0 };
  }
  const task = state.store.startTasks.get(key) ?? state.store.startTasks.all().find((t) => t.app_conversation_id === key);
  if (!task || FINAL_TASK_STATUSES.has(task.status) || !task.app_conversation_id) return refuse('not_found', 'Not Found');
  if (state.store.queuedCount(task.app_conversation_id) >= MAX_PENDING_MESSAGES)
    return refuse('too_many', `Too many pending messages: at most ${MAX_PENDING_MESSAGES} wait for a conversation that is starting`);
  return { id: messageId, queued: true, position: state.store.queueMessage(task.app_conversation_id, { id: messageId, text }) };
}
