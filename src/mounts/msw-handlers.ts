/**
 * The msw transport over mounts: one handler per mounted URL root, which hands every request to the
 * mounts (routes, 401, 404, 405 are the surfaces' own, exactly as the standalone server answers).
 */
// msw's own entry points for `http` and `ws` (msw 2.8+), not its index: the index loads every kind of handler (GraphQL's parser among them), 0.25-0.7 s more for a test file than msw/node itself.
import { http } from 'msw/core/http';
import { ws } from 'msw/core/ws';
import type { HttpHandler, WebSocketHandler } from 'msw';
import { toResponse } from '../http/responses.js';
import type { ServedSocket } from '../surfaces/surface.js';
import type { Mounts } from './mounts.js';
import { isRefusal } from '../domain/store/refusal.js';
import { acceptSocket, socketRoutes } from './sockets.js';

/** What the fake's handlers are: http ones, and the surfaces' WebSocket links. */
export type FakeHandler = HttpHandler | WebSocketHandler;

/**
 * One `ws.link` per socket route of every mount (`/sockets/events/{id}`, `/sockets/bash-events` on an
 * agent host; msw intercepts the global `WebSocket`: in a browser, and in Node where one exists).
 * Each connection goes through the socket dispatcher every transport uses (`sockets.ts`).
 */
export function createSocketHandlers(mounts: Mounts): WebSocketHandler[] {
  return socketRoutes(mounts).map(({ mount, route, pattern }) => {
    const link = ws.link(pattern);
    return link.addEventListener('connection', ({ client }) => {
      const url = new URL(client.url.href.replace(/^ws/, 'http'));
      const path = url.pathname.slice(mount.prefix.length);
      // The tenant (named by `?fakehands_tenant=`) may have to be made first: frames wait for it.
      let served: ServedSocket | null = null;
      const waiting: string[] = [];
      client.addEventListener('message', (event) => {
        const text = typeof event.data === 'string' ? event.data : '';
        if (served) served.receive(text);
        else waiting.push(text);
      });
      client.addEventListener('close', () => served?.closed());
      // An in-process WebSocket has no headers: the key and the tenant come in the URL or a frame.
      void acceptSocket(mounts, { mount, path, route }, url, { get: () => null }).then(
        (accepted) => {
          if (isRefusal(accepted)) {
            client.close(1008, accepted.detail.slice(0, 120));
            return;
          }
          served = accepted({
            // In process, a frame is handed over at once: nothing waits to be written out.
            send: (text, written) => {
              client.send(text);
              written();
            },
            close: (code, reason) => client.close(code, reason),
            // A container that went down: the closest a mocked socket can come to a dropped connection.
            drop: () => client.close(1006, ''),
          });
          for (const text of waiting.splice(0)) served.receive(text);
        },
        () => client.close(1011, 'Internal error'),
      );
    });
  });
}

/** Options of `createHandlers`. */
export interface HandlerOptions {
  /**
   * The page's own origin (in a browser): a request there to a path no surface answers (a script, a
   * chunk, an image of the page) is passed on to the network instead of answered 404.
   */
  pageOrigin?: string;
}

/**
 * One msw handler for everything under each mounted root: the fastest way to serve the fake in-process.
 * @example
 * setupServer(...createHandlers(fake.mounts))
 */
export function createHandlers(mounts: Mounts, options: HandlerOptions = {}): FakeHandler[] {
  const { pageOrigin } = options;
  const resolver = async ({ request }: { request: Request }) => {
    if (pageOrigin !== undefined) {
      const url = new URL(request.url);
      // The page's own files: msw passes a request on when its resolver returns nothing.
      if (url.origin === pageOrigin && !mounts.owns(url)) return undefined;
    }
    return toResponse(await mounts.fetch(request));
  };
  return [...mounts.roots().map((root) => http.all(`${root}/*`, resolver)), ...createSocketHandlers(mounts)];
}

/**
 * The same behaviour as one msw handler per endpoint of every mount (plus a last one per root for
 * every other path), for those who like to see each endpoint in `server.listHandlers()`. Slower.
 */
export function createRouteHandlers(mounts: Mounts): FakeHandler[] {
  const resolver = async ({ request }: { request: Request }) => toResponse(await mounts.fetch(request));
  const byMethod = { GET: http.get, POST: http.post, PUT: http.put, PATCH: http.patch, DELETE: http.delete } as const;
  const perRoute = mounts.list.flatMap((mount) =>
    mount.surface.routes.map((route) => byMethod[route.method](`${mount.origin}${mount.prefix}${route.path}`, resolver)),
  );
  return [...perRoute, ...createHandlers(mounts)];
}
