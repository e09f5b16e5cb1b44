import { http, type HttpHandler } from 'msw';
import type { Route } from './route.js';

/**
 * msw handlers for every route under `baseUrl`, plus a last handler that answers every other
 * path under it (401, 404 Not Found, 405 Method Not Allowed) as the real server would.
 * Each handler runs the fake's whole pipeline, so in-process and over-the-wire answers agree.
 */
export function createHandlers(respond: (request: Request) => Promise<Response>, routes: readonly Route[], baseUrl: string): HttpHandler[] {
  const base = baseUrl.replace(/\/+$/, '');
  const resolver = ({ request }: { request: Request }) => respond(request);
  const byMethod = {
    GET: http.get, POST: http.post, PATCH: http.patch, DELETE: http.delete,
  } as const;
  const perRoute = routes.map((route) => byMethod[route.method](`${base}${route.path}`, resolver));
  return [...perRoute, http.all(`${base}/*`, resolver)];
}
