/** Headers a browser may send to the API. */
export const ALLOWED_REQUEST_HEADERS = 'X-Session-API-Key, Content-Type, X-Fakehands-Inspector';
/** Methods the API uses. */
export const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
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
export function preflightHeaders(origin: string, requested?: string | string[], policy: CorsPolicy = 'localhost'): Record<string, string> {
  const asked = Array.isArray(requested) ? requested.join(', ') : requested;
  return {
    ...originHeaders(origin, policy),
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': asked && /^[\w-]+(\s*,\s*[\w-]+)*$/.test(asked) ? asked : ALLOWED_REQUEST_HEADERS,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
}

/**
 * Who is allowed, and whether with credentials: a named origin (a list, or localhost) gets its
 * own name and credentials; `*` gets `*` without credentials, as browsers require, so no page
 * reads an answer with the developer's cookies.
 */
function originHeaders(origin: string, policy: CorsPolicy): Record<string, string> {
  return policy === '*'
    ? { 'access-control-allow-origin': '*', vary: 'Origin' }
    : { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
}

/** Methods that change state; a browser sends some of them cross-origin without asking first (no-cors). */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether a request from a browser page on `origin` must be refused before anything runs: an
 * origin the policy does not allow (and that is not the server's own, `host`) may not change state
 * by any method or content type (a no-cors POST included), and may not reach the control API at all.
 */
export function originRefused(
  policy: CorsPolicy,
  origin: string | undefined,
  host: string | undefined,
  method: string,
  control: boolean,
): boolean {
  if (origin === undefined || originAllowed(policy, origin)) return false;
  if (host !== undefined && URL.canParse(origin) && new URL(origin).host === host) return false;
  return control || UNSAFE_METHODS.has(method);
}

/** Headers a browser app may read from an answer. */
export const EXPOSED_HEADERS = 'Allow, Content-Disposition, X-Request-Id';

/** Headers added to an answer to an allowed cross-origin request (credentials only for a named origin, never with `*`). */
export function corsHeaders(origin: string, policy: CorsPolicy = 'localhost'): Record<string, string> {
  return { ...originHeaders(origin, policy), 'access-control-expose-headers': EXPOSED_HEADERS };
}
