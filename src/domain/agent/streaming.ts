/**
 * Events held for later on a conversation's timeline, and token streaming (issue 32).
 *
 * A timeline is a conversation's queue of events due at instants of the fake's clock: a replay
 * (`replay.ts`) fills one with a recording, and while it goes on every other event of the
 * conversation waits behind it, so the log keeps one order. Token streaming copies the agent
 * server's `StreamingDeltaEvent` (software-agent-sdk `openhands/sdk/event/streaming_delta.py`):
 * with the LLM's `stream` on, the text of an agent message arrives first as deltas, one token each,
 * published to the socket's subscribers and never to the event log (a client that reconnects gets
 * only the final `MessageEvent`); the message itself is stored once its last token is out. The
 * fake paces them at `streamingTokensPerSecond` on its clock, so a manual clock steps through a
 * stream. Transient frames go to whoever listens on the state's clock (the socket hub): they are
 * no state change, so they bypass the runner's change feed. Hand-written: nothing off the shelf
 * schedules on an injected clock inside the fake's operation runner.
 */
import { formatDateTime } from '../../schemas/datetime.js';
import { naiveTimestamp } from '../fixtures/load.js';
import { breathe } from '../store/mutex.js';
import type { DomainState } from '../store/state.js';
import type { AgentEvent, EventFields, TimelineEntry } from './status.js';
import { storeEvent } from './store-event.js';

/** One entry of a timeline on the domain's state (`status.ts`'s `TimelineEntry`). */
export type TimelineItem = TimelineEntry<DomainState>;

/** A message's tokens that came due together: `tokens[from]` up to (not with) `tokens[to]`, token `i` due at `startMs + i * stepMs`. */
export interface TokenRun {
  readonly tokens: readonly string[];
  readonly from: number;
  readonly to: number;
  readonly startMs: number;
  readonly stepMs: number;
}

/** The `StreamingDeltaEvent` of token `i` of a run, with an id of its own. */
export const deltaEvent = (run: TokenRun, i: number): AgentEvent =>
  ({
    kind: 'StreamingDeltaEvent',
    source: 'agent',
    content: run.tokens[i]!,
    id: globalThis.crypto.randomUUID(),
    timestamp: naiveTimestamp(formatDateTime(run.startMs + i * run.stepMs)),
  }) as unknown as AgentEvent;

/**
 * Who hears a conversation's transient frames (the socket hub): the streamed tokens that came due
 * together (one run, however many: a clock moved past 110,000 of them is one call), with how many
 * events the conversation had stored when they came (they go after those).
 */
export type TransientListener = (conversationId: string, run: TokenRun, storedBefore: number) => void;

/** Listeners by the clock of the states they follow (an instance keeps its clock across resets). */
const listeners = new WeakMap<object, Set<TransientListener>>();

/** Hears the transient events (`StreamingDeltaEvent`) of every state on `clock`; returns a function that stops. */
export function onTransientEvent(clock: object, listener: TransientListener): () => void {
  let set = listeners.get(clock);
  if (!set) listeners.set(clock, (set = new Set()));
  set.add(listener);
  return () => void set.delete(listener);
}

/** The text of a message event's content. */
const messageText = (fields: EventFields): string => {
  const content = (fields.llm_message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content)
    ? content.map((part) => (typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('')
    : '';
};

/** A message's tokens as a model streams them: each word with the blank before it (joined, the text again). */
export const tokensOf = (value: string): string[] => value.match(/\s*\S+|\s+$/g) ?? [];

/** Whether an event is an agent message that streams: the fake's `streaming` option or the conversation's LLM `stream`. */
export function isStreamed(state: DomainState, conversationId: string, fields: EventFields): boolean {
  if (fields.kind !== 'MessageEvent' || fields.source !== 'agent') return false;
  if (!state.options.streaming && !state.store.conversations.get(conversationId)?.agent_stream) return false;
  return messageText(fields).length > 0;
}

/** How long one token takes on the fake's clock, in ms. */
const tokenMs = (state: DomainState) => 1000 / (state.options.streamingTokensPerSecond ?? 50);

/** Adds items at the end of a conversation's timeline (each no earlier than the one before), then publishes what is due. */
export async function scheduleEvents(state: DomainState, conversationId: string, items: TimelineItem[]): Promise<void> {
  const timeline = state.timelines.get(conversationId) ?? [];
  let floor = timeline.at(-1)?.dueMs ?? Number.NEGATIVE_INFINITY;
  for (const item of items) {
    item.dueMs = Math.max(item.dueMs, floor);
    floor = item.dueMs;
    timeline.push(item);
  }
  if (timeline.length > 0) state.timelines.set(conversationId, timeline);
  await settleTimeline(state, conversationId);
}

/** A new event id no stored event has. */
export const newEventId = (state: DomainState): string =>
  state.unusedId(
    () => state.random.uuid(),
    (taken) => state.store.events.get(taken) !== undefined,
  );

/**
 * `publishEvent` for an event that must wait (a timeline goes on) or stream: held on the timeline
 * at `atMs` (no earlier than what waits before it); answers the event as it will be stored.
 */
export async function holdEvent(state: DomainState, conversationId: string, fields: EventFields, atMs: number): Promise<AgentEvent> {
  const id = newEventId(state);
  const item: TimelineItem = { kind: 'event', dueMs: atMs, id, fields };
  await scheduleEvents(state, conversationId, [item]);
  return { ...fields, id, timestamp: naiveTimestamp(formatDateTime(item.dueMs)) } as AgentEvent;
}

/** Publishes the due items of every timeline (run before every operation, as the runner settles time). */
export async function settleTimelines(state: DomainState): Promise<void> {
  for (const id of [...state.timelines.keys()]) await settleTimeline(state, id);
}

/** Publishes a conversation's timeline items due by now, in order; a streamed message first becomes its deltas. */
async function settleTimeline(state: DomainState, conversationId: string): Promise<void> {
  const timeline = state.timelines.get(conversationId);
  if (!timeline) return;
  if (!state.store.conversations.get(conversationId)) {
    state.timelines.delete(conversationId);
    return;
  }
  const now = state.now();
  while (timeline.length > 0 && timeline[0]!.dueMs <= now) {
    // Thousands due at once (a replay at `instant` speed): the event loop gets a turn every 10 ms.
    await breathe();
    const item = timeline[0]!;
    if (item.kind === 'event' && !item.streamed && isStreamed(state, conversationId, item.fields)) {
      expandStream(state, timeline, item);
      continue;
    }
    if (item.kind === 'stream') {
      emitDueTokens(state, conversationId, item, now);
      if (item.next < item.tokens.length) break;
      timeline.shift();
      continue;
    }
    timeline.shift();
    if (item.kind === 'event') await storeEvent(state, conversationId, item.fields, item.dueMs, item.id);
    else await item.run(state);
  }
  if (timeline.length === 0) state.timelines.delete(conversationId);
}

/**
 * Puts a message's tokens before it as one stream entry (each token due at the streaming pace),
 * and moves it and what follows back by the stream's length. The entry hands out its tokens as they
 * come due: a message of 110,000 tokens was 110,000 entries, each taken off the front of the list
 * (a copy of the rest each time: 5 s for one clock advance).
 */
function expandStream(state: DomainState, timeline: TimelineItem[], item: Extract<TimelineItem, { kind: 'event' }>): void {
  const tokens = tokensOf(messageText(item.fields));
  const stepMs = tokenMs(state);
  const startMs = item.dueMs;
  const shift = tokens.length * stepMs;
  for (const later of timeline) later.dueMs += shift;
  item.streamed = true;
  if (tokens.length > 0) timeline.unshift({ kind: 'stream', dueMs: startMs, startMs, stepMs, tokens, next: 0 });
}

/** Hands a stream's tokens due by `now` to the listeners as one run (the frames are theirs to make). */
function emitDueTokens(state: DomainState, conversationId: string, stream: Extract<TimelineItem, { kind: 'stream' }>, now: number): void {
  const from = stream.next;
  const at = (i: number) => stream.startMs + i * stream.stepMs;
  // The tokens due: each one whose time is not after now (the division's rounding put right).
  let to = Math.min(stream.tokens.length, Math.max(from, Math.floor((now - stream.startMs) / stream.stepMs) + 1));
  while (to < stream.tokens.length && at(to) <= now) to++;
  while (to > from && at(to - 1) > now) to--;
  stream.next = to;
  stream.dueMs = at(to);
  const set = listeners.get(state.clock);
  if (to === from || !set || set.size === 0) return;
  const run: TokenRun = { tokens: stream.tokens, from, to, startMs: stream.startMs, stepMs: stream.stepMs };
  const storedBefore = state.store.eventIdsOf(conversationId).length;
  for (const listener of set) listener(conversationId, run, storedBefore);
}
