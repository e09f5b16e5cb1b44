/** Headers a browser may send to the API. */
export const ALLOWED_REQUEST_HEADERS = 'X-Session-API-Key, Content-Type';
/** Methods the API uses. */
export const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE, OPTIONS';
/** How long a browser may cache a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;
/** Any origin on this machine: http(s)://localhost, 127.x.x.x or [::1], any port. */
const LOCALHOST_ORIGIN = /^https?:\/\/(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i;

/** Which origins may call the fake from a browser: any localhost origin (default), `*`, or a list. */
export type CorsPolicy = 'localhost' | '*' | readonly string[];

/** Whether `origin` may call the fake under `policy`. */
export function originAllowed(policy: CorsPolicy, origin: string): boolean {
  if (policy === '*') return true;
  if (policy === 'localhost') return LOCALHOST_ORIGIN.test(origin);
  return policy.includes(origin);
}

/** Headers of a successful preflight answer: the headers the browser asks to send are allowed (an app's `Authorization`, `sentry-trace`, ...). */
export function preflightHeaders(origin: string, requested?: string | string[]): Record<string, string> {
  const asked = Array.isArray(requested) ? requested.join(', ') : requested;
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': asked && /^[\w-]+(\s*,\s*[\w-]+)*$/.test(asked) ? asked : ALLOWED_REQUEST_HEADERS,
    'access-control-allow-credentials': 'true',
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    vary: 'Origin',
  };
}

/** Headers a browser app may read from an answer. */
export const EXPOSED_HEADERS = 'Allow, Content-Disposition, X-Request-Id';

/** Headers added to an answer to an allowed cross-origin request (credentials allowed: the origin is always named, never `*`). */
export function corsHeaders(origin: string): Record<string, string> {
  return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'Origin' };
}
