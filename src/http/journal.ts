/** Requests remembered by default in the journal. */
export const DEFAULT_JOURNAL_SIZE = 500;

/** One answered request. No header is kept, so no key or token can be in it. */
export interface JournalEntry {
  /** Position in the run, from 1. */
  seq: number;
  /** When it was answered (wall clock, ISO 8601). */
  at: string;
  method: string;
  /** Path relative to the base URL, without the query string. */
  path: string;
  /** The query string, if any (`?limit=2`). */
  query: string;
  status: number;
  /** Time spent answering, in milliseconds. */
  duration_ms: number;
}

/** The last requests the fake answered, in a bounded ring, for tests that assert what a UI called. */
export class Journal {
  readonly #size: number;
  /** Entries with their time as epoch ms; the ISO string is written only when read. */
  #entries: (Omit<JournalEntry, 'at'> & { atMs: number })[] = [];
  #seq = 0;

  /** Keeps the last `size` requests. */
  constructor(size = DEFAULT_JOURNAL_SIZE) {
    this.#size = size;
  }

  /** Records an answered request. */
  record(entry: Omit<JournalEntry, 'seq' | 'at'>): void {
    this.#entries.push({ seq: ++this.#seq, atMs: Date.now(), ...entry });
    if (this.#entries.length > this.#size) this.#entries.splice(0, this.#entries.length - this.#size);
  }

  /** The last `limit` entries, oldest first. */
  entries(limit = this.#size): JournalEntry[] {
    return this.#entries.slice(-limit).map(({ atMs, ...e }) => ({ seq: e.seq, at: new Date(atMs).toISOString(), method: e.method, path: e.path, query: e.query, status: e.status, duration_ms: e.duration_ms }));
  }

  /** Forgets every entry. */
  clear(): void {
    this.#entries = [];
  }
}
