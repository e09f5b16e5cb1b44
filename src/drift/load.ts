/**
 * Reads OpenAPI documents for `fakehands drift`: from a file or an http(s) URL, fast (a URL that
 * does not answer within a few seconds is an error), JSON only.
 */
import { FakehandsError } from '../domain/store/errors.js';

/** How long a URL may take to answer. */
export const FETCH_TIMEOUT_MS = 5000;

/** Why a fetch failed, in words (`connection refused`), from Node's error causes. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (cause?.code === 'ENOTFOUND') return 'no such host';
  if ((error as Error).name === 'TimeoutError') return `no answer within ${FETCH_TIMEOUT_MS / 1000} s`;
  return cause?.message ?? (error as Error).message;
}

/**
 * Reads the document at `source` (a path or an http(s) URL) and parses it as JSON; throws an
 * `invalid_spec` error with a one-line reason.
 * @example
 * const document = await loadDocument('http://127.0.0.1:3000/openapi.json')
 */
export async function loadDocument(source: string): Promise<unknown> {
  let text: string;
  if (/^https?:\/\//i.test(source)) {
    let response: Response;
    try {
      response = await fetch(source, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
    } catch (error) {
      throw new FakehandsError('invalid_spec', `cannot fetch ${source}: ${reasonOf(error)}`);
    }
    if (!response.ok) throw new FakehandsError('invalid_spec', `cannot fetch ${source}: it answered ${response.status}`);
    text = await response.text();
  } else {
    const { readFile } = await import('node:fs/promises');
    try {
      text = await readFile(source, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new FakehandsError('invalid_spec', `cannot read ${source}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new FakehandsError(
      'invalid_spec',
      `${source} is not JSON (${(error as Error).message}); fakehands drift reads OpenAPI documents written as JSON`,
    );
  }
}
