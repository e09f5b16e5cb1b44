/**
 * A conversation's statistics as its log and its agent host's record have them now
 * (`vocabulary-stats.ts` does the reading), kept per conversation until either moves on, and their
 * totals the app server shows; a served recording's conversation shows what the real server answered.
 */
import type { AgentHostState, ConversationRecord } from '../../schemas/records.js';
import type { DomainState } from '../store/state.js';
import { hostState } from './host-state.js';
import type { MetricsSnapshot } from './metrics.js';
import {
  agentUsageIdOf,
  combinedSnapshot,
  type ConversationStats,
  DEFAULT_AGENT_MODEL,
  statsOfEvents,
  statsStartOf,
} from './vocabulary-stats.js';

/** An event of a log. */
type AgentEvent = Parameters<typeof statsOfEvents>[0][number];

/** The last statistics read per conversation, by the store they were read from, with the log's length, last event and model then. */
const lastRead = new WeakMap<
  object,
  Map<string, { length: number; last: string | undefined; model: string; outside: number; stats: ConversationStats }>
>();
/** Most conversations whose statistics are kept per store (a store of 100,000 new conversations kept each one's). */
const KEPT_STATS = 4096;

/** What a recording answered of a conversation (`AgentHostState.recorded`), while its log is the one it had then; else `undefined`. */
export function recordedNow(state: DomainState, conversation: ConversationRecord): NonNullable<AgentHostState['recorded']> | undefined {
  const recorded = conversation.agent_host?.recorded;
  return recorded !== undefined && recorded.events === state.store.eventIdsOf(conversation.id).length ? recorded : undefined;
}

/**
 * The statistics of a conversation as its log has them now (read again only when its log or model
 * changed: a page of conversations reads each once). Callers do not change what it returns.
 */
export function conversationStats(state: DomainState, conversation: ConversationRecord): ConversationStats {
  const ids = state.store.eventIdsOf(conversation.id);
  // A served recording's conversation shows the statistics the real server answered until its log moves on.
  const recorded = recordedNow(state, conversation);
  if (recorded?.stats) return recorded.stats as unknown as ConversationStats;
  const model = conversation.llm_model ?? DEFAULT_AGENT_MODEL;
  const last = ids.at(-1);
  let byConversation = lastRead.get(state.store);
  if (!byConversation) lastRead.set(state.store, (byConversation = new Map()));
  const cached = byConversation.get(conversation.id);
  const host = hostState(conversation);
  // The same log (its length and last event), model, switches and outside calls: no text made to compare them.
  const outside = host.llm_switches.length + host.llm_calls.length;
  if (cached?.length === ids.length && cached.last === last && cached.model === model && cached.outside === outside) return cached.stats;
  const start = statsStartOf(conversation);
  const stats = statsOfEvents(
    ids.slice(start).map((id) => state.store.events.get(id)!.event as AgentEvent),
    model,
    agentUsageIdOf(conversation),
    { switches: host.llm_switches, calls: host.llm_calls, offset: start },
  );
  // Past the most kept, all are dropped at once (dropping the oldest one by one walks the map's freed slots each time).
  if (cached === undefined && byConversation.size >= KEPT_STATS) byConversation.clear();
  byConversation.set(conversation.id, { length: ids.length, last, model, outside, stats });
  return stats;
}

/**
 * Every usage's totals of a conversation as its log has them now, or null before the first call:
 * what the app server's `metrics` show (`views.ts` reads it through `DomainState.statsReader`).
 */
export function combinedMetrics(state: DomainState, conversation: ConversationRecord): MetricsSnapshot | null {
  return combinedSnapshot(conversationStats(state, conversation));
}
