/**
 * The `--state-file`: a snapshot plus an append-only change log beside it (`PATH.log`, one JSON
 * line per changed record, or per changed part that is one record of its own: the settings, the
 * secrets, the agent world; one line of steps per operation that changed the shell). Each change is appended before it is answered, in groups (changes
 * that arrive while a write is under way go out together), so acknowledged changes survive
 * `kill -9` and a burst of creates or a settings change costs an append each, not a rewrite of
 * everything. Every `COMPACT_EVERY` lines or `COMPACT_BYTES` of log, and on a reset, the snapshot is
 * rewritten atomically (a temp file created exclusively with an unpredictable name, written,
 * fsynced, renamed) and the log starts over.
 * Files are private to their owner (mode 0600); no secret reaches them.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { FakehandsError } from '../domain/store/errors.js';
import { Refusal } from '../domain/store/refusal.js';
import type { ChangedState, SnapshotPart, StateChange } from '../domain/store/events.js';
import type { Fixture } from '../schemas/fixture.js';
import type { ShellStep } from '../domain/store/shell-log.js';
import { COLLECTION_OF, PART_OF, applyLog, logLineOf, logPath, partLineOf, shellLineOf } from './state-log.js';

/** Log lines written before the snapshot is rewritten and the log starts over. */
export const COMPACT_EVERY = 50_000;
/** Log bytes written before the snapshot is rewritten (a part rewritten often, as a large agent world, would otherwise grow the log without bound). */
export const COMPACT_BYTES = 64 * 1024 * 1024;
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

/** Disk errors the client can act on: a full disk or quota is 507 (the change is undone); others stay errors (500). */
function diskError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') {
    return new Refusal(
      'storage_full',
      `Insufficient Storage: the state file could not be written (${code}); the change was not made. Free some disk space, or start without --state-file`,
    );
  }
  return error;
}

/**
 * The seed of a fake started again from a state file: `seed` mixed with fresh random bits. The
 * seeded source would hand out again the ids, keys and events it handed out before the restart;
 * these must be new (issue 29, finding 5). A fresh start (no state file yet) keeps `seed` as it is.
 */
export function restartSeed(seed: number): number {
  return (seed ^ randomBytes(4).readInt32LE(0)) | 0;
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
  if (state === null || typeof state !== 'object' || Array.isArray(state)) throw stateFileError(path, 'is corrupt: not a fixture object');
  applyLog(state, log);
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
  /** Bytes of the log known to be whole: a failed append is cut back to this. */
  #logBytes = 0;
  /** A failed append could not be cut back: the next change rewrites the snapshot instead. */
  #torn = false;
  /**
   * No snapshot of this writer's state is in place yet (its first `write` has not happened, or
   * failed on a full disk): the next change writes one, so a state first written while the disk
   * was full is written whole once there is room again (issue 29, finding 8).
   */
  #unwritten = true;
  /** The state last told about, for the compaction on close. */
  #lastState: ChangedState | null = null;
  /** The change log, kept open for appends. */
  #log: Awaited<ReturnType<typeof open>> | null = null;

  readonly #compactEvery: number;
  readonly #compactBytes: number;
  /** Bytes of the lines waiting for the next append. */
  #pendingBytes = 0;

  /** Writes to `path` (through `io`, Node's file system by default); the log is folded into a new snapshot past `compactEvery` lines or `compactBytes` bytes. */
  constructor(
    path: string,
    io: StateFileIo = NODE_IO,
    { compactEvery = COMPACT_EVERY, compactBytes = COMPACT_BYTES }: { compactEvery?: number; compactBytes?: number } = {},
  ) {
    this.#path = path;
    this.#io = io;
    this.#compactEvery = compactEvery;
    this.#compactBytes = compactBytes;
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

  /** Whether no snapshot is in place yet (the next change writes one; the folder must exist by then). */
  get unwritten(): boolean {
    return this.#unwritten;
  }

  /** Writes `state` as the snapshot (atomically) and starts the log over; resolves once it is in place. */
  write(state: Fixture): Promise<void> {
    return this.#enqueue(async () => {
      await this.#writeSnapshot(`${JSON.stringify(state)}\n`);
      await this.#truncateLog();
      this.#unwritten = false;
    });
  }

  /**
   * Goes on with the files an earlier run wrote (the state loaded from them): the log is cut back
   * to its last whole line and appended to, and no snapshot is written, so a start needs no free
   * disk space (issue 29, finding 8). Without a log, the next change starts one.
   */
  adopt(): Promise<void> {
    return this.#enqueue(async () => {
      const handle = await this.#logHandle();
      const { size } = await handle.stat();
      let whole = 0;
      let lines = 0;
      if (size > 0) {
        const bytes = await readFile(logPath(this.#path));
        whole = bytes.lastIndexOf(0x0a) + 1;
        for (let at = bytes.indexOf(0x0a); at >= 0 && at < whole; at = bytes.indexOf(0x0a, at + 1)) lines++;
        // A torn last line (a crash mid-append) is cut off: the next line must not be glued to it.
        if (whole < bytes.length) await handle.truncate(whole);
      }
      this.#logBytes = whole;
      this.#logLines = lines;
      this.#unwritten = false;
    });
  }

  /**
   * Records the changes of one operation (what `fake.onChange` hands over): one log line per
   * changed record, or a new snapshot for a change of everything. Resolves once they are written.
   */
  record(changes: readonly StateChange[], state: ChangedState): Promise<void> {
    this.#lastState = state;
    const parts = new Set<SnapshotPart>();
    const shellSteps: ShellStep[] = [];
    for (const change of changes) {
      if (change.shell) {
        shellSteps.push(change.shell);
        continue;
      }
      const part = PART_OF[change.entity];
      if (part) {
        parts.add(part);
        continue;
      }
      if (!COLLECTION_OF[change.entity] || change.id === undefined) {
        this.#compactPending = () => state.snapshot();
        continue;
      }
      this.#queue(JSON.stringify(logLineOf(change, state.record(change.entity, change.id))));
    }
    // A part changed twice by one operation is written once, as it now is.
    for (const part of parts) this.#queue(JSON.stringify(partLineOf(part, state.part(part))));
    // The shell's steps of the operation, in one line: what it published, dropped or queued, never the whole shell.
    if (shellSteps.length > 0) this.#queue(JSON.stringify(shellLineOf(shellSteps)));
    if (
      this.#torn ||
      this.#unwritten ||
      this.#logLines + this.#pending.length > this.#compactEvery ||
      this.#logBytes + this.#pendingBytes > this.#compactBytes
    )
      this.#compactPending ??= () => state.snapshot();
    // Group commit: one write carries every change that arrived while the previous one ran.
    this.#group ??= this.#enqueue(async () => {
      this.#group = null;
      const compact = this.#compactPending;
      const lines = this.#pending;
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#compactPending = null;
      if (compact) {
        await this.#writeSnapshot(`${JSON.stringify(compact())}\n`);
        await this.#truncateLog();
        this.#torn = false;
        this.#unwritten = false;
      } else if (lines.length > 0) {
        await this.#append(`${lines.join('\n')}\n`);
      }
    });
    return this.#group;
  }

  /** Queues one log line for the next append. */
  #queue(line: string): void {
    this.#pending.push(line);
    this.#pendingBytes += line.length + 1;
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
    this.#log ??= await this.#io.open(
      logPath(this.#path),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      FILE_MODE,
    );
    return this.#log;
  }

  /**
   * Appends whole lines, or nothing: a short write is carried on until every byte is written; a
   * failed one (a full disk) is cut back to the last whole line and reported as 507, so the
   * operation is undone and the log never holds a torn line that the next append would be glued to.
   */
  async #append(text: string): Promise<void> {
    const handle = await this.#logHandle();
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    try {
      while (written < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
        if (bytesWritten <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        written += bytesWritten;
      }
    } catch (error) {
      await handle.truncate(this.#logBytes).catch(() => {
        this.#torn = true;
      });
      throw diskError(error);
    }
    this.#logBytes += bytes.length;
    this.#logLines += text.split('\n').length - 1;
  }

  async #truncateLog(): Promise<void> {
    await (await this.#logHandle()).truncate(0);
    this.#logLines = 0;
    this.#logBytes = 0;
  }

  /** Waits for every queued write, folds the log into a new snapshot (so the next start reads one file), then closes the log. */
  async close(): Promise<void> {
    await this.#tail;
    const state = this.#lastState;
    if (state && (this.#logLines > 0 || this.#torn)) {
      await this.#enqueue(async () => {
        await this.#writeSnapshot(`${JSON.stringify(state.snapshot())}\n`);
        await this.#truncateLog();
      }).catch(() => undefined);
    }
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
      throw diskError(error);
    }
  }
}
