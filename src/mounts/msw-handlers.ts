/**
 * The msw transport over mounts: one handler per mounted URL root, which hands every request to the
 * mounts (routes, 401, 404, 405 are the surfaces' own, exactly as the standalone server answers).
 */
import { http, type HttpHandler } from 'msw';
import { toResponse } from '../http/responses.js';
import type { Mounts } from './mounts.js';

/**
 * One msw handler for everything under each mounted root: the fastest way to serve the fake in-process.
 * @example
 * setupServer(...createHandlers(fake.mounts))
 */
export function createHandlers(mounts: Mounts): HttpHandler[] {
  const resolver = async ({ request }: { request: Request }) => toResponse(await mounts.fetch(request));
  return mounts.roots().map((root) => http.all(`${root}/*`, resolver));
}

/**
 * The same behaviour as one msw handler per endpoint of every mount (plus a last one per root for
 * every other path), for those who like to see each endpoint in `server.listHandlers()`. Slower.
 */
export function createRouteHandlers(mounts: Mounts): HttpHandler[] {
  const resolver = async ({ request }: { request: Request }) => toResponse(await mounts.fetch(request));
  const byMethod = { GET: http.get, POST: http.post, PATCH: http.patch, DELETE: http.delete } as const;
  const perRoute = mounts.list.flatMap((mount) => mount.surface.routes.map((route) => byMethod[route.method](`${mount.origin}${mount.prefix}${route.path}`, resolver)));
  return [...perRoute, ...createHandlers(mounts)];
}
