/**
 * The auth stage: the `X-Session-API-Key` check, by the route's access and the fake's policy.
 */
import type { RouteAccess } from './route.js';

/** The header that carries the session API key. */
export const SESSION_API_KEY_HEADER = 'x-session-api-key';

/** Which API routes need the key: every route, only the legacy (non-`/api/v1`) ones as the real server does, or none. */
export type AuthPolicy = 'all' | 'legacy' | 'none';

/** Whether a request to a route at `path` with `access` must carry the key under `policy`. */
export function requiresKey(policy: AuthPolicy, access: RouteAccess, path: string): boolean {
  if (access === 'public' || policy === 'none') return false;
  if (access === 'control' || policy === 'all') return true;
  return !(path === '/api/v1' || path.startsWith('/api/v1/'));
}

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
