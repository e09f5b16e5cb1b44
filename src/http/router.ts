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
  /** The patterns that can match a path of so many segments, in the table's order (made the first time a count is asked). */
  readonly #bySegments = new Map<number, { route: Route; pattern: Pattern }[]>();

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
    for (const { route, pattern } of this.#candidates(parts.length)) {
      const params = matchParts(pattern, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'match', match: { route, params } };
      firstPartial ??= route.method;
    }
    return firstPartial ? { kind: 'method', allowed: [firstPartial] } : { kind: 'none' };
  }

  /**
   * The patterns a path of `count` segments can match (its segment count, or fewer with a rest),
   * in the table's order: a request tried all ~90 of a surface's patterns. Counts past 64 are not
   * kept (a client chooses them).
   */
  #candidates(count: number): readonly { route: Route; pattern: Pattern }[] {
    let candidates = this.#bySegments.get(count);
    if (!candidates) {
      candidates = this.#compiled.filter(({ pattern }) =>
        pattern.rest ? pattern.segments.length <= count : pattern.segments.length === count,
      );
      if (count <= 64) this.#bySegments.set(count, candidates);
    }
    return candidates;
  }
}
