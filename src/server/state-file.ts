/**
 * The `--state-file`: loaded at start, rewritten after every change with write-to-temp, fsync
 * and rename, so a crash leaves either the old file or the new one, never a torn one.
 * Provider tokens are written redacted: no secret reaches the disk.
 */
import { open, readFile, rename, unlink } from 'node:fs/promises';
import type { Fixture } from '../schemas/records.js';

/** A state file that exists but cannot be used: start-up stops with this message. */
export class StateFileError extends Error {
  constructor(path: string, problem: string) {
    super(`the state file ${path} ${problem}; fix it, move it away, or pass another --state-file`);
    this.name = 'StateFileError';
  }
}

/** Reads a state file: its data, or `null` when there is no file yet. A file that is not JSON is an error, never a silent reset. */
export async function readStateFile(path: string): Promise<unknown | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StateFileError(path, `cannot be read (${(error as Error).message})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new StateFileError(path, `is corrupt: not valid JSON (${(error as Error).message})`);
  }
}

/** Writes state files one after the other, each atomically. */
export class StateFileWriter {
  readonly #path: string;
  #tail: Promise<void> = Promise.resolve();
  #writes = 0;

  /** Writes to `path`. */
  constructor(path: string) {
    this.#path = path;
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
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, this.#path);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }
}
