/**
 * The domain's mutex (src/domain/store/mutex.ts): operations one at a time, each seeing the state the
 * one before it left, including one an operation starts itself without waiting for it.
 */
import { describe, expect, it } from 'vitest';
import { Mutex } from '../../src/domain/store/mutex.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Mutex.run', () => {
  it('runs operations one at a time, in the order they were asked for', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    const op = (name: string, ms: number) => () =>
      (async () => {
        log.push(`${name} starts`);
        await tick(ms);
        log.push(`${name} ends`);
        return name;
      })();
    const results = await Promise.all([mutex.run(op('a', 15)), mutex.run(op('b', 1)), mutex.run(op('c', 5))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
  });

  it('holds an operation that another one starts without waiting for it until that one has ended', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    let inner: Promise<unknown> | undefined;
    await mutex.run(async () => {
      log.push('outer starts');
      inner = mutex.run(() => log.push('inner runs'));
      await tick(10);
      log.push('outer ends');
    });
    await inner;
    expect(log).toEqual(['outer starts', 'outer ends', 'inner runs']);
  });

  it('passes an operation’s error to its caller and goes on with the next', async () => {
    const mutex = new Mutex();
    const failed = mutex.run(() => {
      throw new Error('boom');
    });
    const next = mutex.run(() => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});
