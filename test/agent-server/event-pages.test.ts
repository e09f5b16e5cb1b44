/**
 * The agent host's event pages, each written once (`surfaces/agent-server/event-pages.ts`, issue
 * 31): whatever the search and whatever the log went through (appends, an append undone, the log
 * removed and written anew, the removal undone), the answer is byte for byte `JSON.stringify` of
 * the page `searchEvents` gives at that moment; a page asked for again while its log holds it is
 * the text kept, not written anew.
 */
import { describe, expect, it } from 'vitest';
import { searchEvents, type EventSearch } from '../../src/domain/agent/agent-server.js';
import type { DomainState } from '../../src/domain/store/state.js';
import { Store } from '../../src/domain/store/store.js';
import type { ConversationRecord } from '../../src/schemas/records.js';
import { eventPageText, KEPT_PAGES, KEPT_PAGES_PER_LOG } from '../../src/surfaces/agent-server/event-pages.js';

/** A state of a bare store: all a search reads. */
function bareState(): DomainState {
  return { store: new Store() } as unknown as DomainState;
}

let made = 0;
/** Appends an event of one of several shapes to `conversation`'s log; returns its id. */
function append(state: DomainState, conversation: string, note = ''): string {
  const n = ++made;
  const id = `ev-${n}`;
  const shapes: Record<string, unknown>[] = [
    {
      kind: 'MessageEvent',
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: `hi ${note} ✓ "quoted" \u2028` }] },
    },
    { kind: 'ActionEvent', source: 'agent', action: { kind: 'TerminalAction', command: 'ls -la' }, thought: [], tool_call_id: `t${n}` },
    {
      kind: 'ObservationEvent',
      source: 'environment',
      observation: { content: [{ type: 'text', text: 'x'.repeat(n % 7) }], exit_code: 0 },
    },
    { kind: 'ConversationStateUpdateEvent', source: 'environment', key: 'execution_status', value: null },
  ];
  const event = { id, timestamp: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000000`, ...shapes[note ? 0 : n % shapes.length]! };
  state.store.appendBuiltEvent({ id, conversation_id: conversation, created_at: '2026-01-01T00:00:00Z', event });
  return id;
}

const conversation = (id: string) => ({ id }) as ConversationRecord;

/** Every page of the log of `id`: both orders, from no page id, each event's id and an unknown one, limits from 1 past the log's end. */
function searches(state: DomainState, id: string): EventSearch[] {
  const ids = state.store.eventIdsOf(id);
  const out: EventSearch[] = [];
  for (const sort_order of ['TIMESTAMP', 'TIMESTAMP_DESC'] as const)
    for (const page_id of [undefined, 'unknown', ...ids])
      for (const limit of [1, 2, 3, 5, ids.length, ids.length + 1, 100].filter((l) => l > 0)) out.push({ sort_order, page_id, limit });
  return out;
}

/** Each page is `JSON.stringify` of `searchEvents`' page, asked for twice; returns how many came from a kept text the second time. */
function expectEveryPage(state: DomainState, id: string): number {
  let kept = 0;
  for (const search of searches(state, id)) {
    const want = JSON.stringify(searchEvents(state, conversation(id), search));
    const first = eventPageText(state, conversation(id), search);
    const again = eventPageText(state, conversation(id), search);
    expect(first.text, JSON.stringify(search)).toBe(want);
    expect(again.text, JSON.stringify(search)).toBe(want);
    if (again === first) kept++;
  }
  return kept;
}

describe('GET /api/conversations/{id}/events/search: each page written once', () => {
  it('writes every page as JSON.stringify of the page, and answers it again from the text kept', () => {
    const state = bareState();
    for (let i = 0; i < 9; i++) append(state, 'a');
    const kept = expectEveryPage(state, 'a');
    expect(kept).toBe(searches(state, 'a').length);
    // An empty log (and an unknown conversation) is written each time: nothing to keep it by.
    expect(eventPageText(state, conversation('none'), { sort_order: 'TIMESTAMP', limit: 20 }).text).toBe(
      '{"items":[],"next_page_id":null}',
    );
    expect(eventPageText(state, conversation('none'), { sort_order: 'TIMESTAMP_DESC', limit: 20 }).text).toBe(
      '{"items":[],"next_page_id":null}',
    );
  });

  it('follows the log as it grows: a page that ran to its end is written anew, one that did not is kept', () => {
    const state = bareState();
    for (let i = 0; i < 5; i++) append(state, 'b');
    const head = { sort_order: 'TIMESTAMP', limit: 2 } as const;
    const whole = { sort_order: 'TIMESTAMP', limit: 20 } as const;
    const newest = { sort_order: 'TIMESTAMP_DESC', limit: 20 } as const;
    const before = [head, whole, newest].map((s) => eventPageText(state, conversation('b'), s));
    append(state, 'b');
    const after = [head, whole, newest].map((s) => eventPageText(state, conversation('b'), s));
    expect(after[0]).toBe(before[0]);
    for (const [i, s] of [head, whole, newest].entries()) {
      expect(after[i]!.text).toBe(JSON.stringify(searchEvents(state, conversation('b'), s)));
      if (i > 0) expect(after[i]!.text).not.toBe(before[i]!.text);
    }
    for (let i = 0; i < 3; i++) {
      append(state, 'b');
      expectEveryPage(state, 'b');
    }
  });

  it('follows an append undone and another made in its place', async () => {
    const state = bareState();
    for (let i = 0; i < 4; i++) append(state, 'd');
    const whole = { sort_order: 'TIMESTAMP', limit: 20 } as const;
    state.store.begin();
    append(state, 'd', 'undone');
    expect(eventPageText(state, conversation('d'), whole).text).toContain('undone');
    await state.store.rollback();
    append(state, 'd', 'made instead');
    // The same span of the log (five events from the first): written anew.
    const after = eventPageText(state, conversation('d'), whole).text;
    expect(after).toBe(JSON.stringify(searchEvents(state, conversation('d'), whole)));
    expect(after).toContain('made instead');
    expect(after).not.toContain('undone');
    expectEveryPage(state, 'd');
  });

  it('follows a log removed and written anew, and a removal undone', async () => {
    const state = bareState();
    for (let i = 0; i < 6; i++) append(state, 'e', 'first life');
    expectEveryPage(state, 'e');
    state.store.begin();
    state.store.removeEventsOf('e');
    expect(eventPageText(state, conversation('e'), { sort_order: 'TIMESTAMP', limit: 20 }).text).toBe('{"items":[],"next_page_id":null}');
    await state.store.rollback();
    expectEveryPage(state, 'e');
    state.store.removeEventsOf('e');
    for (let i = 0; i < 6; i++) append(state, 'e', 'second life');
    expectEveryPage(state, 'e');
    expect(eventPageText(state, conversation('e'), { sort_order: 'TIMESTAMP', limit: 20 }).text).not.toContain('first life');
  });

  it('keeps at most KEPT_PAGES pages, and KEPT_PAGES_PER_LOG of one log: the oldest are written anew', () => {
    const state = bareState();
    const first = { sort_order: 'TIMESTAMP', limit: 1 } as const;
    for (let log = 0; log <= KEPT_PAGES; log++) append(state, `log-${log}`);
    const texts = Array.from({ length: KEPT_PAGES + 1 }, (_, log) => eventPageText(state, conversation(`log-${log}`), first));
    expect(eventPageText(state, conversation(`log-${KEPT_PAGES}`), first)).toBe(texts[KEPT_PAGES]);
    const again = eventPageText(state, conversation('log-0'), first);
    expect(again).not.toBe(texts[0]);
    expect(again.text).toBe(texts[0]!.text);
    for (let i = 0; i < KEPT_PAGES_PER_LOG + 1; i++) append(state, 'g');
    const pages = Array.from({ length: KEPT_PAGES_PER_LOG + 1 }, (_, limit) => ({ sort_order: 'TIMESTAMP', limit: limit + 1 }) as const);
    const written = pages.map((page) => eventPageText(state, conversation('g'), page));
    expect(eventPageText(state, conversation('g'), pages.at(-1)!)).toBe(written.at(-1));
    expect(eventPageText(state, conversation('g'), pages[0]!)).not.toBe(written[0]);
  });

  it('writes a filtered search from the page searchEvents gives', () => {
    const state = bareState();
    for (let i = 0; i < 12; i++) append(state, 'f');
    for (const filters of [{ kind: 'MessageEvent' }, { source: 'agent' }, { body: 'HI' }, { timestamp__gte: '2026-01-01T00:00:05' }])
      for (const sort_order of ['TIMESTAMP', 'TIMESTAMP_DESC'] as const) {
        const search = { ...filters, sort_order, limit: 3 };
        expect(eventPageText(state, conversation('f'), search).text).toBe(JSON.stringify(searchEvents(state, conversation('f'), search)));
      }
  });
});
