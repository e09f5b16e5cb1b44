/**
 * The request journal: the last requests the fake answered, in a bounded ring, for tests that
 * assert what a UI called.
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
  /** The last `limit` entries, oldest first. */
  entries(limit?: number): JournalEntry[];
  /** Forgets every entry. */
  clear(): void;
}

/**
 * A journal keeping the last `size` requests.
 * @example
 * const journal = createJournal(100)
 */
export function createJournal(size = DEFAULT_JOURNAL_SIZE): Journal {
  /** Entries with their time as epoch ms; the ISO string is written only when read. */
  let kept: (Omit<JournalEntry, 'at'> & { atMs: number })[] = [];
  let seq = 0;
  return {
    record(entry) {
      // A key in a query (`?session_api_key=`, `?key=`) never reaches the journal.
      kept.push({ seq: ++seq, atMs: Date.now(), ...entry, query: entry.query === '' ? '' : redactQuery(entry.query) });
      if (kept.length > size) kept.splice(0, kept.length - size);
    },
    entries(limit = size) {
      return kept.slice(-limit).map(({ atMs, ...e }) => ({
        seq: e.seq,
        at: new Date(atMs).toISOString(),
        method: e.method,
        path: e.path,
        query: e.query,
        status: e.status,
        duration_ms: e.duration_ms,
      }));
    },
    clear() {
      kept = [];
    },
  };
}
