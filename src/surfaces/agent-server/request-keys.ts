/**
 * The session key a request to the agent host carries. Most routes read `X-Session-API-Key` only
 * (`dependencies.py`, `check_session_api_key`); two groups take it in another shape too:
 * - the OpenAI-compatible routes also read `Authorization: Bearer <key>` (`openai/router.py`,
 *   `check_openai_api_key`);
 * - a conversation's workspace files also read the `oh_workspace_session_key` cookie
 *   (`dependencies.py`, `check_workspace_session`), which `POST /api/auth/workspace-session` sets.
 * The fake's cookie carries an opaque token, never the key: the token is remembered here, per
 * instance (a tenant has its own), mapped to the key that minted it; the newest
 * `MAX_WORKSPACE_SESSIONS` are kept, so a client cannot grow the map without limit. The `Cookie`
 * header is read by hand: one cookie by its name, less than a cookie library's parser would bring.
 */
import { keyHolder } from '../../domain/sandboxes/session-keys.js';
import { SESSION_API_KEY_HEADER } from '../../http/auth.js';
import type { Route, RouteContext } from '../../http/route.js';

/** The cookie a workspace session sets (`WORKSPACE_SESSION_COOKIE_NAME`). */
export const WORKSPACE_SESSION_COOKIE = 'oh_workspace_session_key';
/** Most workspace-session tokens one instance remembers; past it the oldest is forgotten. */
export const MAX_WORKSPACE_SESSIONS = 1_000;

/** Where a route also reads the key: a bearer token, or the workspace session cookie. */
export type KeyShape = 'bearer' | 'workspace-cookie';

const shapes = new WeakMap<Route, KeyShape>();
/** Each instance's workspace-session tokens, token → the key that minted it (`''` for none). */
const sessions = new WeakMap<RouteContext, Map<string, string>>();

/** Marks `routes` as also reading the key in `shape`, and returns them. */
export function takingKeyAs(shape: KeyShape, routes: readonly Route[]): readonly Route[] {
  for (const route of routes) shapes.set(route, shape);
  return Object.freeze([...routes]);
}

/** The other shape a route reads the key in, if any. */
export const keyShapeOf = (route: Route): KeyShape | undefined => shapes.get(route);

/** Remembers a workspace-session `token` minted with `key` on `instance`. */
export function rememberWorkspaceSession(instance: RouteContext, token: string, key: string | null): void {
  let tokens = sessions.get(instance);
  if (!tokens) sessions.set(instance, (tokens = new Map()));
  tokens.set(token, key ?? '');
  if (tokens.size > MAX_WORKSPACE_SESSIONS) tokens.delete(tokens.keys().next().value!);
}

/**
 * Forgets the workspace-session token a request's cookie carries (`DELETE /api/auth/workspace-session`):
 * the cookie no longer opens the workspace, whoever kept a copy of it.
 */
export function forgetWorkspaceSession(instance: RouteContext, headers: { get(name: string): string | null }): void {
  const token = cookieValue(headers.get('cookie'), WORKSPACE_SESSION_COOKIE);
  if (token !== null) sessions.get(instance)?.delete(token);
}

/** The value of cookie `name` in a `Cookie` header. */
function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/** The key `Authorization: Bearer <key>` carries (`HTTPBearer`: the scheme is case-insensitive). */
function bearerKey(header: string | null): string | null {
  const match = /^bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1]! : null;
}

/**
 * The session key a request carries for a route that reads it in `shape`: `X-Session-API-Key`
 * when it opens an agent server, else the key of the other shape when that one does, else the header's.
 */
export function requestKey(
  instance: RouteContext,
  headers: { get(name: string): string | null },
  shape: KeyShape | undefined,
): string | null {
  const header = headers.get(SESSION_API_KEY_HEADER);
  if (!shape || keyHolder(instance.runner.state, header).kind !== 'none') return header;
  const other =
    shape === 'bearer'
      ? bearerKey(headers.get('authorization'))
      : (sessions.get(instance)?.get(cookieValue(headers.get('cookie'), WORKSPACE_SESSION_COOKIE) ?? '') ?? null);
  return other && keyHolder(instance.runner.state, other).kind !== 'none' ? other : header;
}
