/**
 * Why a request missed, in one line for the request log and the journal: the routes nearest a path
 * no route has (404), the methods a path allows (405), the fields a body, query or path failed
 * and what they expected (422). The answer itself stays the real server's; only the log and the
 * journal read these lines.
 *
 * Nearness is segment by segment: a `{param}` takes any non-empty segment, an equal literal costs
 * nothing, a literal within half its length of edits costs the edits over its length, any other
 * segment (or one missing or extra) costs 1; a route is near when it costs less than half the
 * path's segments. The edit distance is the few lines below rather than a package: one more
 * runtime dependency for every install and page bundle, for a function this small, and these
 * lines skip the work where lengths alone rule a segment out (a client chooses the path's length).
 *
 * Loaded on the first miss (a dynamic import), so a page that never misses never downloads it.
 */
import type { ValidationErrorItem } from '../schemas/errors.js';
import { compilePattern, matchParts, type Pattern } from '../instance/path-pattern.js';
import type { Route } from './route.js';

/** How many near routes a 404's line names at most. */
export const NEAREST_ROUTES = 3;
/** How many 422 problems a line names before `+N more`. */
const PROBLEMS_NAMED = 3;
/** The longest line kept (a path and a body's keys are the client's). */
const MAX_LINE_CHARS = 500;
/** The longest request path a line repeats. */
const MAX_PATH_CHARS = 200;

/** A route with its pattern compiled, and its path as the real document writes it. */
interface Compiled {
  route: Route;
  pattern: Pattern;
  params: number;
  shown: string;
}

/** The compiled table of each route list a surface has had (a surface's list changes once, when its later routes load). */
const compiledTables = new WeakMap<readonly Route[], readonly Compiled[]>();

function compiled(routes: readonly Route[]): readonly Compiled[] {
  let table = compiledTables.get(routes);
  if (!table) {
    table = routes.map((route) => {
      const pattern = compilePattern(route.path);
      return { route, pattern, params: pattern.names.length, shown: shownPath(route.path) };
    });
    compiledTables.set(routes, table);
  }
  return table;
}

/** A route's path as the real document writes it: `/api/conversations/{conversation_id}`. */
export const shownPath = (path: string): string => path.replace(/:(\w+)\*?/g, '{$1}');

/** Control characters written as escapes, and the text cut to `max` characters: a line stays one line. */
function oneLine(text: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
  const safe = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

/** Two rows of the edit-distance table, kept between calls (a segment is at most twice a route's, whose are short). */
let above = new Uint32Array(64);
let row = new Uint32Array(64);

/**
 * Levenshtein distance of `a` and `b` (insertions, deletions and substitutions, each 1), or
 * `limit + 1` once every cell of a row is past `limit` (the distance can only grow from there).
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (b.length + 1 > above.length) [above, row] = [new Uint32Array(2 * (b.length + 1)), new Uint32Array(2 * (b.length + 1))];
  for (let j = 0; j <= b.length; j++) above[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (row[j]! < least) least = row[j]!;
    }
    if (least > limit) return limit + 1;
    [above, row] = [row, above];
  }
  return above[b.length]!;
}

/** What a request segment costs against a literal one: 0 when equal, edits over length when within half, else 1. */
function segmentCost(part: string, literal: string): number {
  if (part === literal) return 0;
  const longest = Math.max(part.length, literal.length);
  // The distance is at least the difference in length: past half, no edits need counting.
  if (2 * Math.abs(part.length - literal.length) > longest) return 1;
  const share = editDistance(part, literal, Math.floor(longest / 2)) / longest;
  return share > 0.5 ? 1 : share;
}

/** What a path of `parts` costs against `pattern`, or `Infinity` once it reaches `cutoff`. */
function pathCost(pattern: Pattern, parts: readonly string[], cutoff: number): number {
  const { segments } = pattern;
  const extra = parts.length - segments.length;
  let cost = extra > 0 ? (pattern.rest ? 0 : extra) : -extra;
  if (cost >= cutoff) return Number.POSITIVE_INFINITY;
  const common = Math.min(segments.length, parts.length);
  for (let i = 0; i < common; i++) {
    const literal = segments[i];
    const part = parts[i]!;
    cost += literal === null || literal === undefined ? (part === '' ? 1 : 0) : segmentCost(part, literal);
    if (cost >= cutoff) return Number.POSITIVE_INFINITY;
  }
  return cost;
}

/**
 * The routes of `routes` nearest `path` (relative to the surface's mount), at most `NEAREST_ROUTES`:
 * least cost first, then those of `method`, then those with fewer parameters, then the table's order.
 * With `sameMethod`, only routes of `method` (a 405: what the path might have been).
 */
export function nearestRoutes(routes: readonly Route[], method: string, path: string, sameMethod = false): Route[] {
  const parts = path.split('/').slice(1);
  const cutoff = Math.max(parts.length, 1) / 2;
  const near: { entry: Compiled; cost: number; order: number }[] = [];
  compiled(routes).forEach((entry, order) => {
    if (sameMethod && entry.route.method !== method) return;
    const cost = pathCost(entry.pattern, parts, cutoff);
    if (cost < cutoff) near.push({ entry, cost, order });
  });
  near.sort(
    (a, b) =>
      a.cost - b.cost ||
      Number(b.entry.route.method === method) - Number(a.entry.route.method === method) ||
      a.entry.params - b.entry.params ||
      a.order - b.order,
  );
  return near.slice(0, NEAREST_ROUTES).map(({ entry }) => entry.route);
}

/** The methods of the routes whose path matches `path`, in the table's order. */
export function allowedMethods(routes: readonly Route[], path: string): string[] {
  const parts = path.split('/').slice(1);
  const methods: string[] = [];
  for (const { route, pattern } of compiled(routes))
    if (!methods.includes(route.method) && matchParts(pattern, parts) !== null) methods.push(route.method);
  return methods;
}

/**
 * The line of a 404 no route answers: the request and the near routes, with their methods.
 * @example
 * explainNoRoute(routes, 'GET', '/api/conversation') // 'no route GET /api/conversation; nearest: GET /api/conversations, POST /api/conversations'
 */
export function explainNoRoute(routes: readonly Route[], method: string, path: string): string {
  const near = nearestRoutes(routes, method, path).map((route) => `${route.method} ${shownPath(route.path)}`);
  const request = `no route ${method} ${oneLine(path, MAX_PATH_CHARS)}`;
  return oneLine(near.length > 0 ? `${request}; nearest: ${near.join(', ')}` : `${request}; no route is near`, MAX_LINE_CHARS);
}

/**
 * The line of a 405: the method refused, the methods the path allows, and the routes of that
 * method nearest the path, if any is near.
 * @example
 * explainMethod(routes, 'PUT', '/api/conversations') // 'PUT not allowed on /api/conversations; it allows POST, GET'
 */
export function explainMethod(routes: readonly Route[], method: string, path: string): string {
  const near = nearestRoutes(routes, method, path, true).map((route) => `${route.method} ${shownPath(route.path)}`);
  const allowed = `${method} not allowed on ${oneLine(path, MAX_PATH_CHARS)}; it allows ${allowedMethods(routes, path).join(', ')}`;
  return oneLine(near.length > 0 ? `${allowed}; nearest ${method}: ${near.join(', ')}` : allowed, MAX_LINE_CHARS);
}

/** A 422 problem in a few words: where, what pydantic says, its error type, and what its `ctx` adds in words (a JSON error's reason). */
function problem(item: ValidationErrorItem): string {
  const told = [item.ctx?.expected, item.ctx?.error].filter(
    (value): value is string => typeof value === 'string' && !item.msg.includes(value),
  );
  return `${item.loc.join('.')}: ${item.msg} (${[item.type, ...told].join(': ')})`;
}

/**
 * The line of a 422, from the FastAPI detail answered: each problem's `loc` joined with `.`, its
 * `msg` and its `type`; the first few, then how many more.
 * @example
 * explainInvalid([{ type: 'missing', loc: ['body', 'title'], msg: 'Field required', input: {} }]) // 'invalid body.title: Field required (missing)'
 */
export function explainInvalid(errors: readonly ValidationErrorItem[]): string {
  const named = errors.slice(0, PROBLEMS_NAMED).map(problem);
  const more = errors.length > PROBLEMS_NAMED ? `; +${errors.length - PROBLEMS_NAMED} more` : '';
  return oneLine(`invalid ${named.join('; ')}${more}`, MAX_LINE_CHARS);
}
