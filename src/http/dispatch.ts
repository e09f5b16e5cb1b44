/**
 * The request pipeline every transport shares, in named stages (route → auth → validate →
 * operate → respond), from a Fetch `Request` to a Fetch `Response`.
 */
import type { z } from 'zod';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import { RandomSource } from '../domain/ids.js';
import type { FakeService } from '../domain/service.js';
import { DetailError, HTTPValidationError, type ValidationErrorItem } from '../schemas/errors.js';
import { SESSION_API_KEY_HEADER, keyMatches, requiresKey, type AuthPolicy } from './auth.js';
import { MAX_JSON_DEPTH, findExcessiveNesting, findPythonJsonError } from './python-json.js';
import { detail, json, methodNotAllowed, networkError, notFound, toResponse, unauthorized, type Answer, type RequestLike } from './responses.js';
import type { Route } from './route.js';
import { toValidationErrors } from './validation.js';
import type { Faults } from './faults.js';
import type { Journal } from './journal.js';

/** Schemas of the error answers, for response checks. */
const ERROR_SCHEMAS: Record<number, z.ZodType> = {
  401: DetailError, 404: DetailError, 405: DetailError, 409: DetailError, 413: DetailError, 422: HTTPValidationError,
};

/** How the dispatcher authenticates and checks. */
export interface DispatcherOptions {
  /** Absolute base URL the API is mounted at. */
  baseUrl: string;
  /** The session API key expected in `X-Session-API-Key`. */
  apiKey: string;
  /** Which routes need the key. */
  auth: AuthPolicy;
  /** Check every answer against its route's response schema and throw on a violation. */
  checkResponses: boolean;
  /** Faults to inject. */
  faults?: Faults;
  /** Where answered requests are remembered. */
  journal?: Journal;
  /** Extra latency per request, picked in [min, max] ms by a seeded generator. */
  latency?: { min: number; max: number; seed: number } | null;
  /** Called after a request changed state, before it is answered (the state file is written here). */
  onChange?: () => Promise<void>;
}

/** Methods whose successful answers mean the state changed. */
const CHANGING_METHODS = new Set(['POST', 'PATCH', 'DELETE']);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An answer that does not match its route's schema: the fake broke its own contract. */
export class ContractViolationError extends Error {
  constructor(method: string, path: string, status: number, problems: string) {
    super(`fakehands answered ${method} ${path} with a ${status} body that does not match its schema: ${problems}`);
    this.name = 'ContractViolationError';
  }
}

/** A route found for a request, with its decoded path parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** A compiled route path: its segments, `null` for a parameter. */
interface CompiledRoute {
  route: Route;
  segments: (string | null)[];
  names: string[];
}

function compile(route: Route): CompiledRoute {
  const parts = route.path.split('/').slice(1);
  return {
    route,
    segments: parts.map((part) => (part.startsWith(':') ? null : part)),
    names: parts.filter((part) => part.startsWith(':')).map((part) => part.slice(1)),
  };
}

/** Outcome of routing: a match, a path with other methods only (405), or nothing (404). */
type Routing = { kind: 'match'; match: RouteMatch } | { kind: 'method'; allowed: string[] } | { kind: 'none' };

/** Finds routes by method and path; static segments win over parameters. */
export class Router {
  readonly #compiled: CompiledRoute[];

  /** Compiles the route table. */
  constructor(routes: readonly Route[]) {
    // More static segments first, so `/sandboxes/search` wins over `/sandboxes/:id`.
    this.#compiled = routes.map(compile).sort((a, b) => b.segments.filter(Boolean).length - a.segments.filter(Boolean).length);
  }

  /**
   * Routes `method` and `path` (relative to the base URL, percent-encoded). As in Starlette, a 405
   * names the method of the first route whose path matched.
   */
  find(method: string, path: string): Routing {
    const parts = path.split('/').slice(1);
    let firstPartial: string | null = null;
    for (const candidate of this.#compiled) {
      const params = matchSegments(candidate, parts);
      if (!params) continue;
      if (candidate.route.method === method) return { kind: 'match', match: { route: candidate.route, params } };
      firstPartial ??= candidate.route.method;
    }
    return firstPartial ? { kind: 'method', allowed: [firstPartial] } : { kind: 'none' };
  }
}

function matchSegments(candidate: CompiledRoute, parts: string[]): Record<string, string> | null {
  if (parts.length !== candidate.segments.length) return null;
  const params: Record<string, string> = {};
  let name = 0;
  for (let i = 0; i < parts.length; i++) {
    const segment = candidate.segments[i];
    const part = parts[i]!;
    if (segment === null) {
      if (part === '') return null;
      try {
        params[candidate.names[name++]!] = decodeURIComponent(part);
      } catch {
        return null;
      }
    } else if (segment !== part) {
      return null;
    }
  }
  return params;
}

/** The validated input of a request, or the 422 errors that stop it. */
type Parsed = { ok: true; query: unknown; body: unknown } | { ok: false; errors: ValidationErrorItem[] };

function readQuery(route: Route, url: URL): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  const lists = route.lists ?? [];
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = lists.includes(key) ? values : values.at(-1);
  }
  return query;
}

function isJsonContentType(value: string | null): boolean {
  if (value === null) return true;
  const mediaType = value.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

const MISSING_BODY: ValidationErrorItem = { type: 'missing', loc: ['body'], msg: 'Field required', input: null };

/** Reads the JSON body as FastAPI does: empty or non-JSON content is a missing body, bad JSON a `json_invalid` error. */
async function readBody(request: RequestLike): Promise<{ ok: true; value: unknown } | { ok: false; error: ValidationErrorItem }> {
  const text = await request.text();
  if (text.length === 0 || !isJsonContentType(request.headers.get('content-type'))) return { ok: false, error: MISSING_BODY };
  const tooDeep = findExcessiveNesting(text);
  if (tooDeep !== null) {
    return { ok: false, error: { type: 'json_invalid', loc: ['body', tooDeep], msg: 'JSON decode error', input: {}, ctx: { error: `Nesting deeper than ${MAX_JSON_DEPTH} levels` } } };
  }
  try {
    const value: unknown = JSON.parse(text);
    return value === null ? { ok: false, error: MISSING_BODY } : { ok: true, value };
  } catch {
    const problem = findPythonJsonError(text) ?? { msg: 'Expecting value', pos: 0 };
    return { ok: false, error: { type: 'json_invalid', loc: ['body', problem.pos], msg: 'JSON decode error', input: {}, ctx: { error: problem.msg } } };
  }
}

/** Validates query and body; errors of both come back together, query first, as FastAPI orders them. */
async function parseRequest(route: Route, request: RequestLike, url: URL): Promise<Parsed> {
  const errors: ValidationErrorItem[] = [];
  let query: unknown;
  if (route.query) {
    const raw = readQuery(route, url);
    const result = route.query.safeParse(raw, { reportInput: true });
    if (result.success) query = result.data;
    else errors.push(...toValidationErrors(result.error.issues, raw, 'query'));
  }
  let body: unknown;
  if (route.body) {
    const read = await readBody(request);
    if (!read.ok) {
      errors.push(read.error);
    } else {
      const result = route.body.safeParse(read.value, { reportInput: true });
      if (result.success) body = result.data;
      else errors.push(...toValidationErrors(result.error.issues, read.value, 'body'));
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, query, body };
}

/** Runs requests through the stages; the same instance serves every transport. */
export class Dispatcher {
  readonly #router: Router;
  readonly #service: () => FakeService;
  readonly #options: DispatcherOptions;
  /** Path of the base URL, without a trailing slash (`''` at the root). */
  readonly basePath: string;
  /** Origin of the base URL. */
  readonly origin: string;
  /** Picks latencies; its own seeded source, so latency never shifts the data's ids. */
  readonly #latencyRandom: RandomSource | null;

  /** Creates a dispatcher over `routes`; `service` returns the current service (it changes on reset). */
  constructor(routes: readonly Route[], service: () => FakeService, options: DispatcherOptions) {
    this.#router = new Router(routes);
    this.#service = service;
    this.#options = options;
    const base = new URL(options.baseUrl);
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.origin = base.origin;
    this.#latencyRandom = options.latency ? new RandomSource(options.latency.seed) : null;
  }

  /** The path of `url` relative to the base URL, or `null` when it is not under it. */
  relativePath(url: URL): string | null {
    const path = url.pathname;
    if (this.basePath === '') return path;
    if (path === this.basePath) return '/';
    return path.startsWith(`${this.basePath}/`) ? path.slice(this.basePath.length) : null;
  }

  /** Answers a request as a Fetch `Response` (what msw handlers and `fake.fetch` return). */
  async handle(request: Request): Promise<Response> {
    return toResponse(await this.answer(request));
  }

  /** Answers a request under the base URL, whatever its path, and records it in the journal. */
  async answer(request: RequestLike): Promise<Answer> {
    const started = performance.now();
    const url = new URL(request.url);
    const path = this.relativePath(url) ?? url.pathname;
    const response = await this.#pipeline(request, url, path);
    this.#options.journal?.record({
      method: request.method.toUpperCase(), path, query: url.search, status: response.status,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    });
    return response;
  }

  async #pipeline(request: RequestLike, url: URL, path: string): Promise<Answer> {
    const method = request.method.toUpperCase();
    const latency = this.#options.latency;
    if (latency && this.#latencyRandom) await sleep(this.#latencyRandom.int(latency.min, latency.max));
    if (!this.#authorized(path, request)) return unauthorized();
    const injected = this.#options.faults?.take(method, path);
    if (injected) {
      const { fault, params } = injected;
      if (fault.kind === 'status') return json(fault.status, fault.body ?? { detail: 'Injected fault' });
      if (fault.kind === 'network') return networkError();
      if (fault.kind === 'delay') await sleep(fault.delay_ms);
      if (fault.kind === 'sandbox_error') {
        const routed = this.#router.find(method, path);
        const id = fault.sandbox_id ?? params.sandbox_id ?? (routed.kind === 'match' ? routed.match.params.sandbox_id : undefined);
        // An unknown sandbox is left to the route, which answers 404 as usual.
        if (id) await this.#service().failSandbox(id).catch(() => undefined);
      }
    }
    const routing = this.#router.find(method, path);
    if (routing.kind === 'none') return notFound();
    if (routing.kind === 'method') return methodNotAllowed(routing.allowed);
    const response = await this.#respond(routing.match, request, url);
    if (this.#options.onChange && CHANGING_METHODS.has(method) && response.status < 400) await this.#options.onChange();
    return response;
  }

  #authorized(path: string, request: RequestLike): boolean {
    if (!requiresKey(this.#options.auth, path)) return true;
    return keyMatches(this.#options.apiKey, request.headers.get(SESSION_API_KEY_HEADER));
  }

  async #respond(match: RouteMatch, request: RequestLike, url: URL): Promise<Answer> {
    const { route, params } = match;
    const parsed = await parseRequest(route, request, url);
    let status: number;
    let body: unknown;
    if (!parsed.ok) {
      status = 422;
      body = { detail: parsed.errors };
    } else {
      try {
        body = await route.handle({ params, query: parsed.query, body: parsed.body }, this.#service());
        status = 200;
      } catch (error) {
        if (error instanceof NotFoundError) [status, body] = [404, { detail: 'Not Found' }];
        else if (error instanceof ConflictError) [status, body] = [409, { detail: error.message }];
        else throw error;
      }
    }
    if (this.#options.checkResponses) this.#check(route, status, body, url);
    return status === 404 ? notFound() : status === 409 ? detail(409, (body as DetailError).detail) : json(status, body);
  }

  #check(route: Route, status: number, body: unknown, url: URL): void {
    const schema = status === 200 ? route.response : ERROR_SCHEMAS[status];
    const declared = status === 200 || status === 422 || (route.errors ?? []).includes(status as 404 | 409);
    const result = schema?.safeParse(JSON.parse(JSON.stringify(body)));
    if (!declared || !result || !result.success) {
      const problems = !declared ? `status ${status} is not declared for this route` : result?.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') ?? 'no schema';
      throw new ContractViolationError(route.method, url.pathname, status, problems);
    }
  }
}
