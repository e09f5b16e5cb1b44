/**
 * Runs async operations one at a time, so that each domain operation sees and leaves a
 * consistent state even when requests interleave on the event loop.
 */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `operation` after every operation queued before it has finished. */
  run<T>(operation: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(operation, operation);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
