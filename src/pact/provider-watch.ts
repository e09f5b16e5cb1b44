/**
 * Whether the provider is still there while Pact's verifier runs (`verify.ts`): a liveness question
 * every second (sooner after a refused connection), and Pact's own proxy crashing on a refused connection.
 */
import { answerText } from './answer-text.js';

/** How often the provider is asked whether it is still there while the verifier runs, and how many misses in a row mean it died. */
const WATCH_EVERY_MS = 1000;
const WATCH_MISSES = 3;
/**
 * How soon a refused connection is asked again: a refusal is a conclusive answer (nothing listens),
 * unlike a timeout, so three in a row take 0.4 s more instead of 2 s (issue 34).
 */
const REFUSED_EVERY_MS = 200;
/** How long one liveness question may take. */
const WATCH_TIMEOUT_MS = 2000;
/**
 * How long a provider may leave every question unanswered (timeouts, not refusals) before it counts
 * as dead: a real app server busy starting a process sandbox, or holding back a client past its rate
 * limit, answers late but answers (openhands-ai 1.11.0 here: seconds at a time).
 */
const SLOW_PROVIDER_MS = 60_000;
/**
 * Watches the provider while the verifier runs: resolves with a reason once it stops answering
 * (`WATCH_MISSES` questions in a row fail; asked every `WATCH_EVERY_MS`, or `REFUSED_EVERY_MS` after
 * a refused connection), or once Pact's own proxy crashes on a refused connection (an uncaught error
 * in this process). Pact would otherwise retry every 30 s, forever.
 * Pact's native verifier cannot be stopped from JavaScript and keeps its process alive: the
 * `fakehands verify` command runs it in a child process that it kills (`pact/command.ts`).
 */
export function watchProvider(baseUrl: string): { died: Promise<string>; stop(): void } {
  let stop = () => undefined as void;
  const died = new Promise<string>((resolve) => {
    let misses = 0;
    // When the questions began to time out, in a row (`null`: the last one was answered or refused).
    let silentSince: number | null = null;
    let timer: NodeJS.Timeout;
    // Set by `stop` and once the provider is declared dead: an answer still on its way then asks nothing more.
    let done = false;
    const ask = () => {
      if (done) return;
      // The next question at the usual pace, whatever this one's fate (a slow answer does not delay it).
      timer = setTimeout(ask, WATCH_EVERY_MS);
      fetch(`${baseUrl.replace(/\/+$/, '')}/api/v1/sandbox-specs/search?limit=1`, { signal: AbortSignal.timeout(WATCH_TIMEOUT_MS) })
        // Read as every answer of the provider is (at most 16 MiB): one that never ends is a miss, not a read until the timeout.
        .then((response) => answerText(response, 'GET /api/v1/sandbox-specs/search'))
        .then(
          () => {
            misses = 0;
            silentSince = null;
          },
          (error: unknown) => {
            if (done) return;
            const slow = (error as Error).name === 'TimeoutError';
            if (slow) silentSince ??= Date.now();
            else silentSince = null;
            if (slow ? Date.now() - silentSince! >= SLOW_PROVIDER_MS : ++misses >= WATCH_MISSES) {
              done = true;
              clearTimeout(timer);
              return resolve(describeReachError(error));
            }
            if (isRefused(error)) {
              clearTimeout(timer);
              timer = setTimeout(ask, REFUSED_EVERY_MS);
            }
          },
        );
    };
    timer = setTimeout(ask, WATCH_EVERY_MS);
    const crashed = (error: Error) => resolve(`the verifier's proxy failed: ${(error as NodeJS.ErrnoException).code ?? error.message}`);
    process.on('uncaughtException', crashed);
    stop = () => {
      done = true;
      clearTimeout(timer);
      process.off('uncaughtException', crashed);
    };
  });
  return { died, stop: () => stop() };
}

/** Whether a request failed because nothing listens at the provider's address. */
function isRefused(error: unknown): boolean {
  return (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
}

/** Why a request to the provider failed, in a few words. */
function describeReachError(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  if (isRefused(error)) return 'connection refused';
  if ((error as Error).name === 'TimeoutError') return `no answer for ${SLOW_PROVIDER_MS / 1000} s`;
  return cause?.code ?? (error as Error).message;
}
