/**
 * Runs async operations one at a time, so that each domain operation sees and leaves a
 * consistent state even when requests interleave on the event loop.
 */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();
  /** Operations run or queued and not yet settled. */
  #pending = 0;
  readonly #settled = () => {
    this.#pending--;
  };

  /**
   * Runs `operation` after every operation queued before it has finished. Queued operations follow
   * each other as microtasks, which the event loop runs before any I/O: after `YIELD_EVERY_MS` of
   * them, the next waits for a macrotask, so a burst of queued operations never starves other
   * requests (a health check waited 2.6 s behind 1,000 queued creates). With none pending and the
   * event loop's turn recent, it starts at once (no queue to wait behind: a create made four
   * promises less).
   */
  run<T>(operation: () => Promise<T> | T): Promise<T> {
    this.#pending++;
    if (this.#pending === 1 && now() - lastYield <= YIELD_EVERY_MS) {
      // The tail is taken before the operation starts: one it starts itself (not awaited) waits for it.
      let release!: () => void;
      this.#tail = new Promise<void>((resolve) => {
        release = resolve;
      });
      let result: Promise<T>;
      try {
        result = Promise.resolve(operation());
      } catch (error) {
        result = Promise.reject(error);
      }
      const done = () => {
        this.#pending--;
        release();
      };
      result.then(done, done);
      return result;
    }
    const step = async () => {
      await breathe();
      return operation();
    };
    const result = this.#tail.then(step, step);
    this.#tail = result.then(this.#settled, this.#settled);
    return result;
  }
}

/** How long queued operations may run back to back before the event loop gets a turn, in ms. */
const YIELD_EVERY_MS = 10;

// The real timer functions, taken when the module loads: a test's fake timers (vitest, Jest) must
// not hold the fake's own operations back.
const realSetImmediate = typeof setImmediate === 'function' ? setImmediate : null;
const realSetTimeout = setTimeout;
const realNow = performance.now.bind(performance);
const now = () => realNow();

/** Resolves on a later turn of the event loop (after pending I/O), in Node and in a browser. */
const yieldToEventLoop = () => new Promise<void>((resolve) => (realSetImmediate ? realSetImmediate(resolve) : realSetTimeout(resolve, 0)));

/** When the event loop last had a turn (as far as operations know). */
let lastYield = now();

/** Gives the event loop a turn now, whenever it last had one (after work as long as a large body's parse). */
export async function yieldTurn(): Promise<void> {
  await yieldToEventLoop();
  lastYield = now();
}

/**
 * Gives the event loop a turn when operations have run for `YIELD_EVERY_MS` without one: called
 * between queued operations, and inside long ones (settling hundreds of start tasks).
 */
export async function breathe(): Promise<void> {
  if (now() - lastYield <= YIELD_EVERY_MS) return;
  await yieldToEventLoop();
  lastYield = now();
}
