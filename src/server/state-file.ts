/**
 * The `--state-file`: loaded at start, rewritten after every change with write-to-temp, fsync
 * and rename, so a crash leaves either the old file or the new one, never a torn one.
 * Provider tokens are written redacted: no secret reaches the disk.
 */
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { FakehandsError } from '../domain/errors.js';
import type { Fixture } from '../schemas/records.js';

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

/** Reads a state file: its data, or `null` when there is no file yet. A file that is not JSON is an error, never a silent reset. */
export async function readStateFile(path: string): Promise<unknown | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw stateFileError(path, `cannot be read (${(error as Error).message})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw stateFileError(path, `is corrupt: not valid JSON (${(error as Error).message})`);
  }
}

/** Writes state files one after the other, each atomically. */
export class StateFileWriter {
  readonly #path: string;
  readonly #io: StateFileIo;
  #tail: Promise<void> = Promise.resolve();
  #writes = 0;

  /** Writes to `path` (through `io`, Node's file system by default). */
  constructor(path: string, io: StateFileIo = NODE_IO) {
    this.#path = path;
    this.#io = io;
  }

  /** Queues a write of `state`; resolves once it is renamed into place. */
  write(state: Fixture): Promise<void> {
    const text = `${JSON.stringify(state)}\n`;
    const next = this.#tail.then(() => this.#writeNow(text));
    this.#tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves when every queued write is done. */
  flush(): Promise<void> {
    return this.#tail;
  }

  async #writeNow(text: string): Promise<void> {
    const temp = `${this.#path}.${process.pid}.${++this.#writes}.tmp`;
    const handle = await this.#io.open(temp, 'w');
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
