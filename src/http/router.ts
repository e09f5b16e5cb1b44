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
  readonly #compiled: Candidate[];
  /** The patterns that can match a path of so many segments, in the table's order, and those of them a last segment leaves (made the first time a count is asked). */
  readonly #bySegments = new Map<number, Candidates>();

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
    for (const { route, pattern } of this.#candidates(parts)) {
      const params = matchParts(pattern, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'match', match: { route, params } };
      firstPartial ??= route.method;
    }
    return firstPartial ? { kind: 'method', allowed: [firstPartial] } : { kind: 'none' };
  }

  /**
   * The patterns a path of `parts` can match (its segment count, or fewer with a rest, and a last
   * segment that is a parameter or the path's own), in the table's order: a request tried all ~90
   * of a surface's patterns, then all ~20 of its count. Which patterns are left out changes
   * nothing but the work: each would have failed to match. Counts past 64 are not kept (a client
   * chooses them).
   */
  #candidates(parts: readonly string[]): readonly Candidate[] {
    const count = parts.length;
    let candidates = this.#bySegments.get(count);
    if (!candidates) {
      const all = this.#compiled.filter(({ pattern }) =>
        pattern.rest ? pattern.segments.length <= count : pattern.segments.length === count,
      );
      /** The static last segment a pattern of exactly `count` segments needs, or `null`. */
      const lastOf = ({ pattern }: Candidate) => (pattern.rest ? null : (pattern.segments[count - 1] ?? null));
      const byLast = new Map<string, Candidate[]>();
      for (const candidate of all) {
        const last = lastOf(candidate);
        if (last !== null && !byLast.has(last))
          byLast.set(
            last,
            all.filter((c) => lastOf(c) === null || lastOf(c) === last),
          );
      }
      candidates = { any: all.filter((c) => lastOf(c) === null), byLast };
      if (count > 64) return all;
      this.#bySegments.set(count, candidates);
    }
    return candidates.byLast.get(parts[count - 1]!) ?? candidates.any;
  }
}

/** A compiled route. */
type Candidate = { route: Route; pattern: Pattern };

/** The patterns of one segment count: those whose last segment is a parameter (or that take a rest), and with them those that need each static last segment. */
interface Candidates {
  any: readonly Candidate[];
  byLast: ReadonlyMap<string, readonly Candidate[]>;
}
