/**
 * The one path-pattern matcher of fakehands: `:name` segments, a trailing `*`, and a trailing
 * `:name*` that takes the rest of the path, slashes included (Starlette's `{name:path}`). Routers
 * compile their route tables with it, and faults match requests with it.
 */

/** A compiled path pattern: its segments, `null` for a parameter, whether the rest may follow, and the parameter that takes it. */
export interface Pattern {
  segments: (string | null)[];
  names: string[];
  rest: boolean;
  restName?: string;
}

/** Compiles a pattern once for many matches. */
export function compilePattern(pattern: string): Pattern {
  const parts = pattern.split('/').slice(1);
  const last = parts.at(-1) ?? '';
  const restName = /^:\w+\*$/.test(last) ? last.slice(1, -1) : undefined;
  const rest = last === '*' || restName !== undefined;
  if (rest) parts.pop();
  return {
    segments: parts.map((part) => (part.startsWith(':') ? null : part)),
    names: parts.filter((part) => part.startsWith(':')).map((part) => part.slice(1)),
    rest,
    ...(restName ? { restName } : {}),
  };
}

/** Matches split path `parts` against a compiled pattern; returns the decoded parameters or null. */
export function matchParts(pattern: Pattern, parts: string[]): Record<string, string> | null {
  if (pattern.rest ? parts.length < pattern.segments.length : parts.length !== pattern.segments.length) return null;
  // The static segments first: a router tries many patterns per request, and most differ in one of them (no params object made for those).
  for (let i = 0; i < pattern.segments.length; i++) {
    const segment = pattern.segments[i];
    if (segment !== null && segment !== parts[i]) return null;
  }
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
  if (pattern.restName) {
    const remainder = parts.slice(pattern.segments.length).join('/');
    if (remainder === '') return null;
    try {
      params[pattern.restName] = decodeURIComponent(remainder);
    } catch {
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
