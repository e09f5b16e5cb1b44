/**
 * What the agent server reads from, or makes of, a conversation's history: its final response
 * (`agent_final_response`), an answer about it (`ask_agent`), a condensation (`condense`), a fork
 * at an event (`fork`), a step back (`navigate`) and a title (`generate_title`). Copies
 * openhands-agent-server `conversation_router.py` and `event_service.py`; the rest of a
 * conversation's life on the agent host is `conversations.ts`'s.
 */
import type { AgentConversationInfo } from '../../schemas/agent-server.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { runStepsTotal, type AgentEvent } from './status.js';
import { publishEvent } from './publish.js';
import { toHex, toHyphenatedUuid } from '../store/ids.js';
import { type Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { breathe } from '../store/mutex.js';

import { hostState, hostConversationInfo, setHostState } from './conversations.js';
import { leafOf, pathToRoot } from './event-tree.js';
import { recordAskCall } from './llm-usage.js';

/** The condensers that condense when asked (`handles_condensation_requests`): the summarizing one, and a pipeline (taken to hold one). */
const CONDENSING_ON_REQUEST = new Set(['LLMSummarizingCondenser', 'PipelineCondenser']);

/** The text of an event's message content. */
const contentText = (content: unknown) => (Array.isArray(content) ? content.map((c) => (c as { text?: string }).text ?? '').join('') : '');

/** `GET .../agent_final_response` (`get_agent_final_response`): the last finish message or agent message, `""` before any. */
export function agentFinalResponse(state: DomainState, conversation: ConversationRecord): string {
  const ids = state.store.eventIdsOf(conversation.id);
  for (let i = ids.length - 1; i >= 0; i--) {
    const event = state.store.events.get(ids[i]!)!.event as AgentEvent;
    const action = event.action as { kind?: string; message?: string } | undefined;
    if (event.kind === 'ActionEvent' && action?.kind === 'FinishAction') return action.message ?? '';
    if (event.kind === 'MessageEvent' && event.source === 'agent')
      return contentText((event.llm_message as { content?: unknown } | undefined)?.content);
  }
  return '';
}

/**
 * `POST .../ask_agent` (`ask_agent`): an answer from what the conversation holds, publishing no
 * event; the call counts in its statistics under `ask-agent-llm` (`local_conversation.py`, `ask_agent`).
 */
export async function askAgent(state: DomainState, conversation: ConversationRecord, question: string): Promise<string> {
  const last = agentFinalResponse(state, conversation);
  const answer = `You asked: "${question}". ${conversation.agent_turns === 0 ? 'I have not worked on this conversation yet.' : `So far, after ${conversation.agent_turns} turn(s): ${last || 'no answer yet.'}`}`;
  await recordAskCall(state, conversation, question, answer);
  return answer;
}

/** `POST .../condense` (`condense`): the history before the last user message is forgotten behind a summary (a `Condensation` event). */
export async function condense(state: DomainState, conversation: ConversationRecord): Promise<Refusal | null> {
  // An agent without a condenser, or with one that condenses only on its own, cannot be asked to (event_service.py, condense: 409).
  const condenser = hostState(conversation).condenser;
  if (condenser === null) return refuse('conflict', 'Cannot condense conversation: No condenser configured');
  if (!CONDENSING_ON_REQUEST.has(condenser))
    return refuse('conflict', `Cannot condense conversation: Condenser ${condenser} does not handle condensation requests`);
  const ids = state.store.eventIdsOf(conversation.id);
  const events = ids.map((id) => state.store.events.get(id)!.event as AgentEvent);
  const lastUser = events.map((e) => e.kind === 'MessageEvent' && e.source === 'user').lastIndexOf(true);
  const forgotten = events
    .slice(1, Math.max(1, lastUser))
    .filter((e) => e.kind !== 'ConversationStateUpdateEvent')
    .map((e) => e.id);
  await publishEvent(state, conversation.id, {
    kind: 'Condensation',
    source: 'environment',
    forgotten_event_ids: forgotten,
    summary: `The user asked for ${conversation.messages.length} thing(s); the agent worked on ${conversation.agent_turns} turn(s).`,
    summary_offset: 1,
    llm_response_id: `condense_${toHex(state.random.uuid())}`,
  });
  return null;
}

/**
 * `POST .../fork` (`fork_conversation`, openhands-sdk `LocalConversation.fork`): a new conversation
 * in the same sandbox with a copy of the history — the whole log with the source's HEAD, or the
 * branch that ends at `from_event_id` with HEAD there — each copy naming the copy of its parent;
 * it starts `idle`, with no last user message and, unless `reset_metrics` is false, empty
 * statistics. 409 for an id in use, 404 for an unknown `from_event_id`.
 */
export async function forkConversation(
  state: DomainState,
  source: ConversationRecord,
  request: {
    id?: string | null | undefined;
    title?: string | null | undefined;
    tags?: Record<string, string> | null | undefined;
    reset_metrics: boolean;
    from_event_id?: string | null | undefined;
  },
): Promise<AgentConversationInfo | Refusal> {
  const id = request.id ? toHyphenatedUuid(request.id)! : state.newConversationId();
  if (state.store.conversations.get(id)) return refuse('conflict', `Conversation with id ${toHex(id)} already exists`);
  const from = request.from_event_id;
  if (from && state.store.events.get(from)?.conversation_id !== source.id) return refuse('not_found', `Unknown from_event_id: ${from}`);
  const ids = from ? pathToRoot(state, source.id, from) : state.store.eventIdsOf(source.id);
  state.store.budget.assertRoom(1 + ids.length, 4096);
  const now = state.stamp();
  const host = hostState(source);
  const fork = await state.store.conversations.insert({
    ...source,
    id,
    title: request.title ?? null,
    tags: request.tags ?? source.tags,
    parent_conversation_id: null,
    agent_steps_done: source.agent_steps_done === undefined ? undefined : runStepsTotal(source),
    agent_status: source.agent_turns > 0 ? 'idle' : undefined,
    agent_paused_at: undefined,
    agent_host: {
      ...host,
      created_here: true,
      goal: null,
      forked_from_conversation_id: source.id,
      forked_from_event_id: from ?? null,
      leaf_event_id: null,
      head_is_empty: false,
      copied_events: ids.length,
      copied_metrics: !request.reset_metrics,
      ...(request.reset_metrics ? { llm_switches: [], llm_calls: [] } : {}),
    },
    created_at: now,
    updated_at: now,
  });
  const renamed = new Map<string, string>();
  for (const oldId of ids) renamed.set(oldId, state.random.uuid());
  for (let at = 0; at < ids.length; at++) {
    // A long history is copied with the event loop given a turn every 10 ms (`breathe`): 10,000 events take ~120 ms.
    if (at % 64 === 63) await breathe();
    const oldId = ids[at]!;
    const record = state.store.events.get(oldId)!;
    const newId = renamed.get(oldId)!;
    // A stored event is never changed in place: the copy shares its nested values and is stored without a second parse,
    // stamped now (after every stored record: appended, where its source's time put it in the middle of every event kept).
    const event = { ...(record.event as AgentEvent), id: newId } as AgentEvent;
    if (typeof event.parent_id === 'string') event.parent_id = renamed.get(event.parent_id) ?? event.parent_id;
    if (typeof event.action_id === 'string' && renamed.has(event.action_id)) event.action_id = renamed.get(event.action_id)!;
    state.store.appendBuiltEvent({ id: newId, conversation_id: id, created_at: state.stamp(), event });
  }
  // HEAD: the branch point, or the source's (`fork_leaf`), as the copy names it.
  const leaf = from ?? (host.head_is_empty ? null : leafOf(state, source));
  const headed = await setHostState(state, fork, {
    leaf_event_id: leaf === null ? null : (renamed.get(leaf) ?? null),
    head_is_empty: from ? false : host.head_is_empty,
  });
  return hostConversationInfo(state, headed);
}

/** `POST .../navigate` (`navigate_conversation`): HEAD moves to an event of the conversation (`null`: the empty tree); 404 for an unknown event. */
export async function navigateConversation(
  state: DomainState,
  conversation: ConversationRecord,
  eventId: string | null,
): Promise<AgentConversationInfo | Refusal> {
  if (eventId !== null && state.store.events.get(eventId)?.conversation_id !== conversation.id)
    return refuse('not_found', `Unknown event_id: ${eventId}`);
  return hostConversationInfo(state, await setHostState(state, conversation, { leaf_event_id: eventId, head_is_empty: eventId === null }));
}

/** `POST .../generate_title` (v1.11.4 `generate_conversation_title`): the first user message, cut to `max_length` (with "..."), kept as the title. */
export async function generateTitle(state: DomainState, conversation: ConversationRecord, maxLength: number): Promise<string> {
  const first = (conversation.messages[0] ?? 'New conversation').replace(/\s+/g, ' ').trim();
  const title = first.length <= maxLength ? first : `${first.slice(0, Math.max(0, maxLength - 3))}...`;
  await state.store.conversations.update(conversation.id, { title, updated_at: state.stamp() });
  return title;
}
