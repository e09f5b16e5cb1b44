/**
 * The key check every surface's auth rule uses: the `X-Session-API-Key` header compared in
 * constant time. Which requests need which key is the surface's rule (`surfaces/*`).
 */

/** The header that carries the session API key. */
export const SESSION_API_KEY_HEADER = 'x-session-api-key';

/** Which API routes need the key: every route, only the legacy (non-`/api/v1`) ones as the real server does, or none. */
export type AuthPolicy = 'all' | 'legacy' | 'none';

/**
 * Compares a given key with the expected one in time that depends only on the expected key's
 * length, so that a wrong key never reveals how close it was.
 */
export function keyMatches(expected: string, given: string | null): boolean {
  const candidate = given ?? '';
  let diff = expected.length ^ candidate.length;
  for (let i = 0; i < expected.length; i++) {
    diff |= expected.charCodeAt(i) ^ (i < candidate.length ? candidate.charCodeAt(i) : 0);
  }
  return diff === 0;
}
