/**
 * Request bodies, read only when the pipeline asks for one (after routing and the key check, so a
 * keyless client never makes the server buffer a megabyte), under a size limit, a time limit, and
 * a limit on how many are read at once (so small requests like `health` stay fast while big
 * bodies arrive).
 */
import type { IncomingMessage } from 'node:http';

/** Why a body could not be read: too large (413), too slow (408), or the client went away. */
export class BodyReadError extends Error {
  /** The status the server answers with, or 0 when the client is gone. */
  readonly status: 413 | 408 | 0;

  /** A body failure answered with `status`. */
  constructor(status: 413 | 408 | 0, message: string) {
    super(message);
    this.name = 'BodyReadError';
    this.status = status;
  }
}

/** Limits on reading bodies. */
export interface BodyLimits {
  /** Largest body, in bytes. */
  maxBytes: number;
  /** Longest a body may take to arrive, in milliseconds. */
  timeoutMs: number;
  /** How many bodies are read at once; the others wait their turn. */
  concurrency: number;
}

/** A counting semaphore: at most `size` holders at once. */
export class Semaphore {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  /** Allows `size` holders at once. */
  constructor(size: number) {
    this.#free = size;
  }

  /** Runs `task` once a place is free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

/**
 * The body of `message` when node:http has it whole already (the usual small body, parsed with its
 * headers): read out of the stream's buffer at once, with no wait, timer or listener; `null` when
 * it is still arriving, or is over `maxBytes` (then `readBody` reads or refuses it as ever).
 */
export function bufferedBody(message: IncomingMessage, maxBytes: number): Buffer | null {
  if (!message.complete || message.destroyed || message.readableFlowing || message.readableLength > maxBytes) return null;
  const chunk = message.read() as Buffer | null;
  return chunk ?? Buffer.alloc(0);
}

/** Reads the whole body of `message` under `limits`; rejects with a `BodyReadError`. */
export function readBody(message: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: BodyReadError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      message.off('data', onData);
      if (error) {
        message.pause();
        reject(error);
      } else {
        resolve(Buffer.concat(chunks));
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) finish(new BodyReadError(413, 'Request body too large'));
      else chunks.push(chunk);
    };
    const timer = setTimeout(() => finish(new BodyReadError(408, 'Request body timeout')), limits.timeoutMs);
    message.on('data', onData);
    message.once('end', () => finish(null));
    message.once('error', () => finish(new BodyReadError(0, 'client went away')));
    message.once('aborted', () => finish(new BodyReadError(0, 'client went away')));
    if (message.readableEnded) finish(null);
    // A client that went away before its request was started (it waited its turn): no event will come.
    else if (message.destroyed) finish(new BodyReadError(0, 'client went away'));
  });
}
