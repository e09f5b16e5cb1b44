/**
 * The router of a surface: finds the route of a method and path (static segments win over
 * parameters), with the one path-pattern matcher that faults use too (`instance/path-pattern.ts`).
 */
import { compilePattern, matchParts, type Pattern } from '../instance/path-pattern.js';
import type { Route } from './route.js';

export { matchPath } from '../instance/path-pattern.js';

/** A route found for a request, with its decoded path parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** Outcome of routing: a match, a path with other methods only (405), or nothing (404). */
export type Routing = { kind: 'match'; match: RouteMatch } | { kind: 'method'; allowed: string[] } | { kind: 'none' };

/** Finds routes by method and path; static segments win over parameters. */
export class Router {
  readonly #compiled: { route: Route; pattern: Pattern }[];

  /** Compiles the route table. */
  constructor(routes: readonly Route[]) {
    const staticCount = (p: Pattern) => p.segments.filter(Boolean).length;
    // More static segments first, so `/sandboxes/search` wins over `/sandboxes/:id`.
    this.#compiled = routes
      .map((route) => ({ route, pattern: compilePattern(route.path) }))
      .sort((a, b) => staticCount(b.pattern) - staticCount(a.pattern));
  }

  /**
   * Routes `method` and `path` (relative to the base URL, percent-encoded). As in Starlette, a 405
   * names the method of the first route whose path matched.
   */
  find(method: string, path: string): Routing {
    const parts = path.split('/').slice(1);
    let firstPartial: string | null = null;
    for (const { route, pattern } of this.#compiled) {
      const params = matchParts(pattern, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'match', match: { route, params } };
      firstPartial ??= route.method;
    }
    return firstPartial ? { kind: 'method', allowed: [firstPartial] } : { kind: 'none' };
  }
}
