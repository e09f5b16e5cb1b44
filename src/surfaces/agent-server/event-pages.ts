/**
 * The agent host's event search answer as JSON text, each page written once (issue 31: a page of 20
 * events was written anew for every search, each a few KB of text put together piece by piece).
 * A page without filters is a span of its conversation's log (`pageSpan`): positions in it. A log
 * is only appended to, and a stored event never changes (the store makes a new record rather than
 * change one), so the text of a span stays true for as long as no event is taken out of a log (an
 * append undone, a log removed: the store's `eventLogRewrites`). The newest `KEPT_PAGES` pages are
 * kept; a filtered search is written each time from each event's kept text (`pageText`).
 */
import { pageSpan, searchEvents, type EventSearch, type PageSpan } from '../../domain/agent/agent-server.js';
import type { DomainState } from '../../domain/store/state.js';
import { jsonOnce, JsonText, pageText } from '../../http/json-text.js';
import type { ConversationRecord } from '../../schemas/records.js';

/** Most pages whose text is kept (across every conversation and instance); past it the oldest is dropped. */
export const KEPT_PAGES = 256;
/** Most pages kept of one log (a client paging through it, another polling its newest page). */
export const KEPT_PAGES_PER_LOG = 8;
/** Most characters of page text kept in all; a page longer than an eighth of it is written each time. */
export const KEPT_CHARS = 8 * 1024 * 1024;

/** A page's text and the span it was written from. */
interface KeptPage {
  first: number;
  count: number;
  descending: boolean;
  next: number;
  /** The store's `eventLogRewrites` when the page was written. */
  rewrites: number;
  text: JsonText;
}

/** The pages kept of each log (its live list of ids), the logs oldest first, each log's pages oldest first. */
const kept = new Map<readonly string[], KeptPage[]>();
/** How many pages are kept, and their characters. */
let keptPages = 0;
let keptChars = 0;

/**
 * Whether `page` is the text of `span` now: the same positions of the same log (its events and the
 * next page's first), which all held events when it was written; no event was taken out of a log
 * since (`eventLogRewrites`), and a log is otherwise only appended to, so they hold the same events.
 */
const keptText = (page: KeptPage, span: PageSpan, rewrites: number): boolean =>
  page.rewrites === rewrites &&
  page.first === span.first &&
  page.count === span.count &&
  page.descending === span.descending &&
  page.next === span.next;

/** Keeps `page` of the log `ids` (its pages written before an event was taken out dropped), then drops the oldest pages past the bounds. */
function keep(ids: readonly string[], page: KeptPage): void {
  const before = kept.get(ids) ?? [];
  const pages = before.filter((p) => p.rewrites === page.rewrites).slice(-(KEPT_PAGES_PER_LOG - 1));
  pages.push(page);
  kept.delete(ids);
  kept.set(ids, pages);
  for (const p of before) keptChars -= p.text.text.length;
  for (const p of pages) keptChars += p.text.text.length;
  keptPages += pages.length - before.length;
  while (keptPages > KEPT_PAGES || keptChars > KEPT_CHARS) {
    const [oldestLog, oldest] = kept.entries().next().value!;
    const dropped = oldest.shift()!;
    keptPages--;
    keptChars -= dropped.text.text.length;
    if (oldest.length === 0) kept.delete(oldestLog);
  }
}

/** The JSON text of a span: its events' kept texts, joined into one flat string. */
function spanText(state: DomainState, span: PageSpan): JsonText {
  const parts: string[] = [];
  const step = span.descending ? -1 : 1;
  for (let i = 0; i < span.count; i++) parts.push(jsonOnce(state.store.events.get(span.ids[span.first + i * step]!)!.event));
  const next = span.next < 0 ? 'null' : JSON.stringify(span.ids[span.next]);
  return new JsonText(['{"items":[', parts.join(','), '],"next_page_id":', next, '}'].join(''));
}

/**
 * `GET .../events/search`'s answer: `searchEvents`' page as JSON text (`{"items": [...], "next_page_id": ...}`).
 * @example
 * return eventPageText(state, conversation, { limit: 20, sort_order: 'TIMESTAMP' })
 */
export function eventPageText(state: DomainState, conversation: ConversationRecord, search: EventSearch): JsonText {
  const span = pageSpan(state, conversation, search);
  if (!span) return pageText(searchEvents(state, conversation, search));
  const rewrites = state.store.eventLogRewrites;
  const pages = kept.get(span.ids);
  if (pages) for (const page of pages) if (keptText(page, span, rewrites)) return page.text;
  const text = spanText(state, span);
  // An empty log is a new list each time it is asked for: nothing to keep it by.
  if (span.ids.length > 0 && text.text.length <= KEPT_CHARS / 8)
    keep(span.ids, {
      first: span.first,
      count: span.count,
      descending: span.descending,
      next: span.next,
      rewrites,
      text,
    });
  return text;
}
