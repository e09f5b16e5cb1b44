/**
 * The one path matcher of fakehands: routes the route table (static segments win over
 * parameters) and matches fault patterns (`:name` segments, a trailing `*`).
 */
import type { Route } from './route.js';

/** A compiled path pattern: its segments, `null` for a parameter, `'*'` (last only) for the rest. */
interface Pattern {
  segments: (string | null)[];
  names: string[];
  rest: boolean;
}

function compilePattern(pattern: string): Pattern {
  const parts = pattern.split('/').slice(1);
  const rest = parts.at(-1) === '*';
  if (rest) parts.pop();
  return {
    segments: parts.map((part) => (part.startsWith(':') ? null : part)),
    names: parts.filter((part) => part.startsWith(':')).map((part) => part.slice(1)),
    rest,
  };
}

/** Matches split path `parts` against a compiled pattern; returns the decoded parameters or null. */
function matchParts(pattern: Pattern, parts: string[]): Record<string, string> | null {
  if (pattern.rest ? parts.length < pattern.segments.length : parts.length !== pattern.segments.length) return null;
  const params: Record<string, string> = {};
  let name = 0;
  for (let i = 0; i < pattern.segments.length; i++) {
    const segment = pattern.segments[i];
    const part = parts[i]!;
    if (segment === null) {
      if (part === '') return null;
      try {
        params[pattern.names[name++]!] = decodeURIComponent(part);
      } catch {
        return null;
      }
    } else if (segment !== part) {
      return null;
    }
  }
  return params;
}

/**
 * Matches a path against a pattern with `:name` segments and a trailing `*`; returns the parameters or null.
 * @example
 * matchPath('/api/v1/sandboxes/:sandbox_id/*', '/api/v1/sandboxes/abc/pause') // { sandbox_id: 'abc' }
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  return matchParts(compilePattern(pattern), path.split('/').slice(1));
}

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
    this.#compiled = routes.map((route) => ({ route, pattern: compilePattern(route.path) }))
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
