import { http, type HttpHandler } from 'msw';
import type { Route } from './route.js';

/** Answers a Fetch request with the fake's whole pipeline. */
type Respond = (request: Request) => Promise<Response>;

/**
 * One msw handler for everything under `baseUrl`: msw matches one path pattern, and the fake's
 * own router does the rest (routes, 401, 404 Not Found, 405 Method Not Allowed), exactly as the
 * standalone server does. The fastest way to serve the fake in-process.
 */
export function createHandlers(respond: Respond, baseUrl: string): HttpHandler[] {
  return [http.all(`${baseUrl.replace(/\/+$/, '')}/*`, ({ request }) => respond(request))];
}

/**
 * The same behaviour as one msw handler per endpoint (plus a last one for every other path), for
 * those who like to see each endpoint in `server.listHandlers()`. Slower: msw matches each in turn.
 */
export function createRouteHandlers(respond: Respond, routes: readonly Route[], baseUrl: string): HttpHandler[] {
  const base = baseUrl.replace(/\/+$/, '');
  const resolver = ({ request }: { request: Request }) => respond(request);
  const byMethod = { GET: http.get, POST: http.post, PATCH: http.patch, DELETE: http.delete } as const;
  return [...routes.map((route) => byMethod[route.method](`${base}${route.path}`, resolver)), http.all(`${base}/*`, resolver)];
}
