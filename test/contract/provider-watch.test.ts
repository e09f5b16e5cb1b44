/**
 * `fakehands verify`'s watch on the provider (src/pact/provider-watch.ts, `watchProvider`): it asks
 * the provider every second whether it is still there, re-asks a refused connection sooner, and
 * declares it dead after three misses in a row. Driven here with fake timers and a `fetch` whose
 * answers the test settles, so each question is counted exactly.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchProvider } from '../../src/pact/provider-watch.js';

/** A refused connection as undici reports it. */
const refused = () => Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });

let questions: { reject(error: Error): void; resolve(response: Response): void }[] = [];

beforeEach(() => {
  questions = [];
  vi.useFakeTimers();
  vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((resolve, reject) => questions.push({ resolve, reject })));
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('watchProvider', () => {
  it('declares a provider dead after three refused questions in a row, re-asked 200 ms apart', async () => {
    const watch = watchProvider('http://127.0.0.1:9');
    let reason: string | undefined;
    void watch.died.then((r) => {
      reason = r;
    });
    await vi.advanceTimersByTimeAsync(1000);
    for (let i = 0; i < 3; i++) {
      expect(questions).toHaveLength(i + 1);
      questions[i]!.reject(refused());
      await vi.advanceTimersByTimeAsync(200);
    }
    expect(reason).toBe('connection refused');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(questions).toHaveLength(3); // dead: nothing more is asked, even before stop()
    watch.stop();
  });

  it('asks nothing more once stopped, even when a question still on its way is refused after', async () => {
    const watch = watchProvider('http://127.0.0.1:9');
    await vi.advanceTimersByTimeAsync(1000);
    expect(questions).toHaveLength(1);
    watch.stop();
    questions[0]!.reject(refused());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(questions).toHaveLength(1);
  });

  it('keeps a provider that answers alive, asking once a second', async () => {
    const watch = watchProvider('http://127.0.0.1:9');
    let reason: string | undefined;
    void watch.died.then((r) => {
      reason = r;
    });
    for (let second = 1; second <= 5; second++) {
      await vi.advanceTimersByTimeAsync(1000);
      expect(questions).toHaveLength(second);
      questions[second - 1]!.resolve(new Response('{}'));
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(reason).toBeUndefined();
    watch.stop();
  });
});
