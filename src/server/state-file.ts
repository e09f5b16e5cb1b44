/**
 * The `--state-file`: a snapshot plus an append-only change log beside it (`PATH.log`, one JSON
 * line per changed record). Each change is appended before it is answered, in groups (changes
 * that arrive while a write is under way go out together), so acknowledged changes survive
 * `kill -9` and a burst of creates costs an append each, not a rewrite of everything. Every
 * `COMPACT_EVERY` lines, and on a reset, the snapshot is rewritten atomically (a temp file created
 * exclusively with an unpredictable name, written, fsynced, renamed) and the log starts over.
 * Files are private to their owner (mode 0600); no secret reaches them.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ChangedEntity, ChangedState, StateChange } from '../domain/events.js';
import { FakehandsError } from '../domain/errors.js';
import type { Fixture } from '../schemas/records.js';

/** Log lines written before the snapshot is rewritten and the log starts over. */
export const COMPACT_EVERY = 50_000;
/** Permissions of every file the state writer creates: its owner only. */
const FILE_MODE = 0o600;

/** A state file that exists but cannot be used: start-up stops with this message. */
const stateFileError = (path: string, problem: string) =>
  new FakehandsError('invalid_state_file', `the state file ${path} ${problem}; fix it, move it away, or pass another --state-file`);

/** The file operations the writer uses (replaceable in tests, to prove a failed write leaves the old file whole). */
export interface StateFileIo {
  open: typeof open;
  rename: typeof rename;
  unlink: typeof unlink;
}

const NODE_IO: StateFileIo = { open, rename, unlink };

/** Where each kind of record lives in a fixture. */
const COLLECTION_OF: Partial<Record<ChangedEntity, 'sandbox_specs' | 'sandboxes' | 'conversations' | 'start_tasks'>> = {
  sandbox_spec: 'sandbox_specs', sandbox: 'sandboxes', conversation: 'conversations', start_task: 'start_tasks',
};

/** One line of the change log. */
type LogLine = { op: 'put'; entity: ChangedEntity; record: { id: string } } | { op: 'delete'; entity: ChangedEntity; id: string };

/** The log beside a state file. */
const logPath = (path: string) => `${path}.log`;

/** Applies the log's lines to a snapshot; a torn last line (a crash mid-append) is left out. */
function applyLog(state: Record<string, unknown>, text: string): void {
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let entry: LogLine;
    try {
      entry = JSON.parse(line) as LogLine;
    } catch {
      if (i >= lines.length - 2) break;
      throw new Error(`line ${i + 1} of the change log is not JSON`);
    }
    const collection = COLLECTION_OF[entry.entity];
    if (!collection) continue;
    const records = (state[collection] ??= []) as { id: string }[];
    const id = entry.op === 'put' ? entry.record.id : entry.id;
    const at = records.findIndex((r) => r.id === id);
    if (entry.op === 'delete') {
      if (at >= 0) records.splice(at, 1);
    } else if (at >= 0) {
      records[at] = entry.record;
    } else {
      records.push(entry.record);
    }
  }
}

/** Reads a state file and replays its change log: the data, or `null` when there is no file yet. A corrupt file is an error, never a silent reset. */
export async function readStateFile(path: string): Promise<unknown | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw stateFileError(path, `cannot be read (${(error as Error).message})`);
  }
  let state: Record<string, unknown>;
  try {
    state = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw stateFileError(path, `is corrupt: not valid JSON (${(error as Error).message})`);
  }
  const log = await readFile(logPath(path), 'utf8').catch(() => '');
  try {
    // Records replayed by id: kept in a map while replaying would be faster, but logs are compacted.
    applyLog(state, log);
  } catch (error) {
    throw stateFileError(logPath(path), `is corrupt: ${(error as Error).message}`);
  }
  return state;
}

/** Writes a state file: the snapshot atomically, changes appended to its log. */
export class StateFileWriter {
  readonly #path: string;
  readonly #io: StateFileIo;
  #tail: Promise<void> = Promise.resolve();
  #pending: string[] = [];
  #compactPending: (() => Fixture) | null = null;
  #group: Promise<void> | null = null;
  #logLines = 0;
  /** The change log, kept open for appends. */
  #log: Awaited<ReturnType<typeof open>> | null = null;

  readonly #compactEvery: number;

  /** Writes to `path` (through `io`, Node's file system by default); the log is folded into a new snapshot past `compactEvery` lines. */
  constructor(path: string, io: StateFileIo = NODE_IO, { compactEvery = COMPACT_EVERY }: { compactEvery?: number } = {}) {
    this.#path = path;
    this.#io = io;
    this.#compactEvery = compactEvery;
  }

  /** Removes the temp files a crash left beside the state file (`NAME.*.tmp`). */
  async removeLeftovers(): Promise<number> {
    const dir = dirname(this.#path);
    const prefix = `${basename(this.#path)}.`;
    const names = await readdir(dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      if (name.startsWith(prefix) && name.endsWith('.tmp')) {
        await this.#io.unlink(join(dir, name)).catch(() => undefined);
        removed++;
      }
    }
    return removed;
  }

  /** Writes `state` as the snapshot (atomically) and starts the log over; resolves once it is in place. */
  write(state: Fixture): Promise<void> {
    return this.#enqueue(async () => {
      await this.#writeSnapshot(`${JSON.stringify(state)}\n`);
      await this.#truncateLog();
    });
  }

  /**
   * Records the changes of one operation (what `fake.onChange` hands over): one log line per
   * changed record, or a new snapshot for a change of everything. Resolves once they are written.
   */
  record(changes: readonly StateChange[], state: ChangedState): Promise<void> {
    for (const change of changes) {
      if (!COLLECTION_OF[change.entity] || change.id === undefined) {
        this.#compactPending = () => state.snapshot();
        continue;
      }
      const record = state.record(change.entity, change.id);
      this.#pending.push(JSON.stringify(record === undefined
        ? { op: 'delete', entity: change.entity, id: change.id }
        : { op: 'put', entity: change.entity, record }));
    }
    if (this.#logLines + this.#pending.length > this.#compactEvery) this.#compactPending ??= () => state.snapshot();
    // Group commit: one write carries every change that arrived while the previous one ran.
    this.#group ??= this.#enqueue(async () => {
      this.#group = null;
      const compact = this.#compactPending;
      const lines = this.#pending;
      this.#pending = [];
      this.#compactPending = null;
      if (compact) {
        await this.#writeSnapshot(`${JSON.stringify(compact())}\n`);
        await this.#truncateLog();
      } else if (lines.length > 0) {
        await this.#append(`${lines.join('\n')}\n`);
      }
    });
    return this.#group;
  }

  /** Resolves when every queued write is done. */
  flush(): Promise<void> {
    return this.#tail;
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.#tail.then(task);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  /** The change log, opened once (never through a link) and kept open. */
  async #logHandle(): Promise<Awaited<ReturnType<typeof open>>> {
    this.#log ??= await this.#io.open(logPath(this.#path), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, FILE_MODE);
    return this.#log;
  }

  async #append(text: string): Promise<void> {
    // A write to the page cache: it survives the process being killed (kill -9) the moment it returns.
    await (await this.#logHandle()).write(text);
    this.#logLines += text.split('\n').length - 1;
  }

  async #truncateLog(): Promise<void> {
    await (await this.#logHandle()).truncate(0);
    this.#logLines = 0;
  }

  /** Waits for every queued write, then closes the change log. */
  async close(): Promise<void> {
    await this.#tail;
    await this.#log?.close();
    this.#log = null;
  }

  /** Writes the snapshot to an exclusively created temp file with an unpredictable name, fsyncs it, renames it into place. */
  async #writeSnapshot(text: string): Promise<void> {
    const temp = `${this.#path}.${randomBytes(12).toString('hex')}.tmp`;
    // O_EXCL: never follows a link planted under that name, never overwrites anything.
    const handle = await this.#io.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, FILE_MODE);
    try {
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.#io.rename(temp, this.#path);
    } catch (error) {
      await this.#io.unlink(temp).catch(() => undefined);
      throw error;
    }
  }
}
