/**
 * The request journal: the last requests the fake answered, in a bounded ring, for tests that
 * assert what a UI called, and why any of them missed (`miss`: no route, a method, a field).
 */
import type { JournalEntry } from '../schemas/control.js';
import { redactQuery } from '../domain/store/redact.js';

export type { JournalEntry } from '../schemas/control.js';

/** Requests remembered by default in the journal. */
export const DEFAULT_JOURNAL_SIZE = 500;

/** The last requests the fake answered (`fake.journal`). */
export interface Journal {
  /** Records an answered request. */
  record(entry: Omit<JournalEntry, 'seq' | 'at'>): void;
  /** The last `limit` entries, oldest first; with `misses`, the last `limit` of those that missed (a 404 no route has, a 405, a 422), each with its `miss`. */
  entries(limit?: number, filter?: { misses?: boolean }): JournalEntry[];
  /** Forgets every entry. */
  clear(): void;
}

/**
 * A journal keeping the last `size` requests.
 * @example
 * const journal = createJournal(100)
 */
export function createJournal(size = DEFAULT_JOURNAL_SIZE): Journal {
  /** Entries with their time as epoch ms; the ISO string is written only when read. A ring: `start` is the oldest once full. */
  let kept: (Omit<JournalEntry, 'at'> & { atMs: number })[] = [];
  let start = 0;
  let seq = 0;
  /** The last query redacted, and what it read as: a client polling with the same query is not redacted again each time. */
  let lastQuery = '';
  let lastRedacted = '';
  return {
    record(entry) {
      // A key in a query (`?session_api_key=`, `?key=`) never reaches the journal.
      if (entry.query !== lastQuery) {
        lastRedacted = redactQuery(entry.query);
        lastQuery = entry.query;
      }
      const line = {
        seq: ++seq,
        atMs: Date.now(),
        method: entry.method,
        path: entry.path,
        query: lastRedacted,
        status: entry.status,
        duration_ms: entry.duration_ms,
        miss: entry.miss,
      };
      if (kept.length < size) kept.push(line);
      else if (size > 0) {
        kept[start] = line;
        start = (start + 1) % size;
      }
    },
    entries(limit = size, filter = {}) {
      const ordered = start === 0 ? kept : [...kept.slice(start), ...kept.slice(0, start)];
      const chosen = filter.misses ? ordered.filter((e) => e.miss !== undefined) : ordered;
      return chosen.slice(-limit).map(({ atMs, ...e }) => {
        const shown: JournalEntry = {
          seq: e.seq,
          at: new Date(atMs).toISOString(),
          method: e.method,
          path: e.path,
          query: e.query,
          status: e.status,
          duration_ms: e.duration_ms,
        };
        if (e.miss !== undefined) shown.miss = e.miss;
        return shown;
      });
    },
    clear() {
      kept = [];
      start = 0;
    },
  };
}
