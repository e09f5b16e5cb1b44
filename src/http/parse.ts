/**
 * The parse stage: reads a request's query and JSON body as FastAPI does and validates them
 * with the route's zod schemas; problems of both come back together as pydantic 422 items.
 * What only a bad request needs (zod issues as pydantic items, Python's JSON error messages) and
 * what only an upload route needs (multipart forms) are loaded the first time they are: a page's
 * bundler makes them chunks of their own (issue 23).
 */
import type { ValidationErrorItem } from '../schemas/errors.js';
import { MAX_JSON_DEPTH, scanJsonShape } from './json-shape.js';
import { yieldTurn } from '../domain/store/mutex.js';
import type { RequestLike, RequestUrl } from './responses.js';
import type { Route } from './route.js';
import type * as Validation from './validation.js';
import type { findPythonJsonError } from './python-json.js';
import type { readForm } from './form.js';

/** Most problems one 422 reports; the rest are left out (a 200 KB body cannot make a 10 MB answer). */
export const MAX_VALIDATION_ERRORS = 100;
/** Longest `input` a 422 item echoes, as JSON; a longer one is cut to this and marked with `…`. */
export const MAX_ERROR_INPUT_CHARS = 1024;

/** At most `MAX_VALIDATION_ERRORS` items, each `input` at most `MAX_ERROR_INPUT_CHARS` long. */
function capErrors(errors: ValidationErrorItem[]): ValidationErrorItem[] {
  return errors.slice(0, MAX_VALIDATION_ERRORS).map((error) => {
    const text = JSON.stringify(error.input);
    return text !== undefined && text.length > MAX_ERROR_INPUT_CHARS
      ? { ...error, input: `${text.slice(0, MAX_ERROR_INPUT_CHARS)}…` }
      : error;
  });
}

/**
 * Most values (lists and maps, their items and entries) a JSON body may hold, counted on its text
 * before it is parsed: validation does bounded work per request, so no body, valid or not, keeps
 * the event loop busy (a 1 MiB body of 250,000 bad list items took 0.6 s, an 80,000-entry secrets
 * map 2 s). The real server has no such bound: a deliberate difference.
 */
export const MAX_BODY_VALUES = 2_000;

/** The validated input of a request, or the 422 errors that stop it. */
export type Parsed = { ok: true; query: unknown; body: unknown } | { ok: false; errors: ValidationErrorItem[] };

/** zod's parse options (it copies them per parse, so one object serves every request): the input is kept in each issue. */
const REPORT_INPUT = Object.freeze({ reportInput: true });

const MISSING_BODY: ValidationErrorItem = { type: 'missing', loc: ['body'], msg: 'Field required', input: null };

function readQuery(route: Route, url: RequestUrl): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  // No query string: no `searchParams` object and key set made for the request (a create has none).
  if (url.search === '') return query;
  const lists = route.lists ?? [];
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = lists.includes(key) ? values : values.at(-1);
  }
  return query;
}

/** Each route's parse of an empty query, when it succeeds with plain values only (`null`: parse each request). */
const emptyQueries = new WeakMap<Route, Readonly<Record<string, unknown>> | null>();

/**
 * What a route's query schema makes of no query at all (its defaults), parsed once: a request
 * without a query (a create) gets a copy rather than a parse. Only when every value is a string,
 * number, boolean or null, so no two requests share a list or a map.
 */
function emptyQueryOf(route: Route): Readonly<Record<string, unknown>> | null {
  let parsed = emptyQueries.get(route);
  if (parsed === undefined) {
    const result = route.query!.safeParse({}, REPORT_INPUT);
    const plain =
      result.success &&
      typeof result.data === 'object' &&
      result.data !== null &&
      Object.values(result.data).every((value) => value === null || typeof value !== 'object');
    parsed = plain ? Object.freeze({ ...(result.data as Record<string, unknown>) }) : null;
    emptyQueries.set(route, parsed);
  }
  return parsed;
}

/** A JSON body of at least this many characters is handled in a turn of the event loop after the one that parsed it (a 1 MB command held one turn for ~50 ms). */
export const LARGE_BODY_CHARS = 256 * 1024;

function isJsonContentType(value: string | null): boolean {
  if (value === null || value === 'application/json') return true;
  const mediaType = value.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/**
 * Reads the JSON body as FastAPI does: empty or non-JSON content is a missing body (`{}` when
 * `optional`; JSON null too when `nullable`), bad JSON a `json_invalid` error. JSON null is a
 * missing body too, unless `nullIsValue` (a required body on a surface whose FastAPI validates it).
 */
async function readBody(
  request: RequestLike,
  optional: boolean,
  helpers: ParseHelpers,
  nullable = false,
  nullIsValue = false,
  maxValues = MAX_BODY_VALUES,
  maxBytes?: number,
): Promise<{ ok: true; value: unknown } | { ok: false; error: ValidationErrorItem }> {
  const text = await request.text(maxBytes);
  if (optional && text.trim() === '') return { ok: true, value: {} };
  if (text.length === 0 || !isJsonContentType(request.headers.get('content-type'))) return { ok: false, error: MISSING_BODY };
  const shape = scanJsonShape(text, MAX_JSON_DEPTH, maxValues);
  if (shape.kind === 'too_deep') {
    return {
      ok: false,
      error: {
        type: 'json_invalid',
        loc: ['body', shape.at],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: `Nesting deeper than ${MAX_JSON_DEPTH} levels` },
      },
    };
  }
  if (shape.kind === 'too_many_values') {
    return {
      ok: false,
      error: {
        type: 'too_long',
        loc: ['body'],
        msg: `Body should have at most ${maxValues} values (lists, maps, their items and entries)`,
        input: {},
        ctx: { max_length: maxValues },
      },
    };
  }
  try {
    const value: unknown = JSON.parse(text);
    // A large body is read and parsed in one turn of the event loop, and validated and handled in the next.
    if (text.length >= LARGE_BODY_CHARS) await yieldTurn();
    if (value === null && !nullIsValue) return nullable ? { ok: true, value: {} } : { ok: false, error: MISSING_BODY };
    return { ok: true, value };
  } catch {
    const problem = (await helpers.findPythonJsonError(text)) ?? { msg: 'Expecting value', pos: 0 };
    return {
      ok: false,
      error: { type: 'json_invalid', loc: ['body', problem.pos], msg: 'JSON decode error', input: {}, ctx: { error: problem.msg } },
    };
  }
}

/** zod issues as pydantic 422 items: `validation.ts`'s `toValidationErrors`. */
export type ValidationMapper = (
  ...args: Parameters<typeof Validation.toValidationErrors>
) => ValidationErrorItem[] | Promise<ValidationErrorItem[]>;

/**
 * What parsing a request needs only for some requests, as the surface gives it (`surfaces/surface.ts`
 * loads each the first time it is needed: a chunk of its own in a page).
 */
export interface ParseHelpers {
  /** The 422 items of zod issues (`validation.ts`), for a request that fails its schemas. */
  toValidationErrors: ValidationMapper;
  /** Python's `json` error for a body that is not JSON (`python-json.ts`). */
  findPythonJsonError(...args: Parameters<typeof findPythonJsonError>): Promise<ReturnType<typeof findPythonJsonError>>;
  /** A multipart form's fields (`form.ts`), for a route that reads one. */
  readForm(...args: Parameters<typeof readForm>): ReturnType<typeof readForm>;
}

/**
 * Validates path, query and body; errors of all come back together, in FastAPI's order (path, query,
 * body). `jsonNullBody`: how the surface's FastAPI reads a required body of JSON `null` (`surface.ts`).
 */
export async function parseRequest(
  route: Route,
  request: RequestLike,
  url: RequestUrl,
  params: Record<string, string>,
  helpers: ParseHelpers,
  jsonNullBody: 'missing' | 'validated' = 'missing',
): Promise<Parsed> {
  const { toValidationErrors } = helpers;
  const errors: ValidationErrorItem[] = [];
  if (route.params && route.paramsFastPath?.(params) !== true) {
    const result = route.params.safeParse(params, REPORT_INPUT);
    if (!result.success) for (const error of await toValidationErrors(result.error.issues, params, 'path')) errors.push(error);
  }
  let query: unknown;
  const emptyQuery = route.query && url.search === '' ? emptyQueryOf(route) : null;
  const fastQuery = url.search === '' ? undefined : route.queryFastPath?.(url.search);
  if (emptyQuery) query = { ...emptyQuery };
  else if (fastQuery !== undefined) query = fastQuery;
  else if (route.query) {
    const raw = readQuery(route, url);
    const result = route.query.safeParse(raw, REPORT_INPUT);
    if (result.success) query = result.data;
    else for (const error of await toValidationErrors(result.error.issues, raw, 'query')) errors.push(error);
  }
  let body: unknown;
  if (route.body) {
    const nullable = route.bodyNullable ?? false;
    const optional = (route.bodyOptional ?? false) || nullable;
    const read = await readBody(
      request,
      optional,
      helpers,
      nullable,
      jsonNullBody === 'validated' && !optional,
      route.maxBodyValues,
      route.maxBodyBytes,
    );
    if (!read.ok) {
      errors.push(read.error);
    } else {
      const fast = route.bodyFastPath?.(read.value);
      if (fast !== undefined) body = fast;
      else {
        const result = route.body.safeParse(read.value, REPORT_INPUT);
        if (result.success) body = result.data;
        else for (const error of await toValidationErrors(result.error.issues, read.value, 'body')) errors.push(error);
      }
    }
  }
  if (route.form) {
    const read = await helpers.readForm(request, route.form, route.maxBodyBytes);
    if (read.ok) body = read.value;
    else errors.push(...read.errors);
  }
  return errors.length > 0 ? { ok: false, errors: capErrors(errors) } : { ok: true, query, body };
}
