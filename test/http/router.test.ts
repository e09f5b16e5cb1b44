/**
 * The router (`http/router.ts`): static segments win over parameters, a 405 names the method of
 * the first route whose path matched, and the candidates it keeps per segment count and last
 * segment (issue 31) never change which route a path finds.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { defineRoute, type Method, type Route } from '../../src/http/route.js';
import { Router, type Routing } from '../../src/http/router.js';
import { compilePattern, matchParts } from '../../src/instance/path-pattern.js';
import { agentServerSurface } from '../../src/surfaces/agent-server/index.js';
import { appServerSurface } from '../../src/surfaces/app-server/index.js';

const route = (method: Method, path: string): Route =>
  defineRoute({ method, path, summary: `${method} ${path}`, response: z.object({}), handle: async () => ({}) });

/** `Router.find` as it once was: every route of the table tried in its order (static segments first). */
function scanner(routes: readonly Route[]): (method: string, path: string) => Routing {
  const statics = (r: Route) => compilePattern(r.path).segments.filter(Boolean).length;
  const table = [...routes].sort((a, b) => statics(b) - statics(a)).map((r) => ({ r, pattern: compilePattern(r.path) }));
  return (method, path) => {
    const parts = path.split('/').slice(1);
    let firstPartial: string | null = null;
    for (const { r, pattern } of table) {
      const params = matchParts(pattern, parts);
      if (!params) continue;
      if (r.method === method) return { kind: 'match', match: { route: r, params } };
      firstPartial ??= r.method;
    }
    return firstPartial ? { kind: 'method', allowed: [firstPartial] } : { kind: 'none' };
  };
}

/** A routing as text: the route found (the very object, by its place in the table) and its parameters, or the 405's method, or none. */
const shown = (routing: Routing, table: readonly Route[] = []) =>
  routing.kind === 'match'
    ? `${routing.match.route.method} ${routing.match.route.path} #${table.indexOf(routing.match.route)} ${JSON.stringify(routing.match.params)}`
    : routing.kind === 'method'
      ? `405 ${routing.allowed.join()}`
      : '404';

describe('Router.find', () => {
  const search = route('GET', '/sandboxes/search');
  const byId = route('GET', '/sandboxes/:sandbox_id');
  const deleteById = route('DELETE', '/sandboxes/:sandbox_id');
  const files = route('GET', '/files/:path*');
  const router = new Router([byId, deleteById, search, files]);

  it('finds a static segment before a parameter', () => {
    expect(router.find('GET', '/sandboxes/search')).toEqual({ kind: 'match', match: { route: search, params: {} } });
    expect(router.find('GET', '/sandboxes/abc')).toEqual({ kind: 'match', match: { route: byId, params: { sandbox_id: 'abc' } } });
  });

  it("gives a parameter a path whose last segment is another route's static one, for a method only the parameter's route has", () => {
    expect(router.find('DELETE', '/sandboxes/search')).toEqual({
      kind: 'match',
      match: { route: deleteById, params: { sandbox_id: 'search' } },
    });
  });

  it('answers 405 with the method of the first route whose path matched, and 404 for a path none has', () => {
    expect(router.find('PUT', '/sandboxes/search')).toEqual({ kind: 'method', allowed: ['GET'] });
    expect(router.find('PUT', '/sandboxes/abc')).toEqual({ kind: 'method', allowed: ['GET'] });
    expect(router.find('GET', '/sandboxes/abc/pause')).toEqual({ kind: 'none' });
  });

  it('gives a rest parameter the rest of the path', () => {
    expect(router.find('GET', '/files/a/b/search')).toEqual({ kind: 'match', match: { route: files, params: { path: 'a/b/search' } } });
  });

  it("finds, for every method and every path of the agent server's and app server's tables, what trying every route finds", async () => {
    for (const surface of [agentServerSurface, appServerSurface]) {
      const routes = await surface.allRoutes();
      const table = new Router(routes);
      const findByScan = scanner(routes);
      // Each route's path with its parameters as values, and as each static last segment of the table (`search`, `events`, ...).
      const lasts = new Set(routes.map((r) => r.path.split('/').at(-1)!).filter((s) => !s.startsWith(':')));
      const paths = routes.flatMap((r) => [
        r.path.replace(/:(\w+)\*?/g, '$1-x'),
        ...[...lasts].map((word) => r.path.replace(/:(\w+)\*?/g, word)),
      ]);
      expect(paths.length).toBeGreaterThan(1000);
      const differing: string[] = [];
      for (const path of paths)
        for (const method of ['GET', 'POST', 'DELETE'])
          if (shown(table.find(method, path), routes) !== shown(findByScan(method, path), routes)) differing.push(`${method} ${path}`);
      expect(differing).toEqual([]);
    }
  });
});
