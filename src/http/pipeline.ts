/**
 * The request pipeline every transport shares, as named stages, each a small function:
 *
 *   locate → route → (latency) → 404/405 → authorize (401) → inject faults → parse (422) → handle → check → answer
 *
 * The API, the control API and `/openapi.json` are all routes of it, so `fake.fetch`, the msw
 * handlers, the standalone server and the browser worker answer every path alike.
 */
import { FakehandsError } from '../domain/errors.js';
import { RandomSource } from '../domain/ids.js';
import { SESSION_API_KEY_HEADER, keyMatches, requiresKey, type AuthPolicy } from './auth.js';
import { checkAnswer } from './check.js';
import type { Faults } from './faults.js';
import type { Journal } from './journal.js';
import { parseRequest } from './parse.js';
import { json, methodNotAllowed, networkError, notFound, unauthorized, type Answer, type AnswerBody, type RequestLike } from './responses.js';
import { Reply, type Route, type RouteContext } from './route.js';
import { Router, type RouteMatch, type Routing } from './router.js';
import { DOMAIN_ERROR_STATUS } from './status.js';

/** How the pipeline authenticates, checks and slows down. */
export interface PipelineOptions {
  /** Absolute base URL the API is mounted at. */
  baseUrl: string;
  /** The session API key expected in `X-Session-API-Key`. */
  apiKey: string;
  /** Which routes need the key. */
  auth: AuthPolicy;
  /** Check every answer against its route's response schema and throw on a violation. */
  checkResponses: boolean;
  /** Extra latency per request, picked in [min, max] ms by a generator seeded with `seed`. */
  latency?: { min: number; max: number; seed: number } | null;
}

/** The pipeline: answers any request under the base URL. */
export interface Pipeline {
  /** Answers a request, whatever its path, and records it in the journal (unless it was a control API or document route). */
  answer(request: RequestLike): Promise<Answer>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Stage locate: the path of `url` relative to the base path, or the whole path when it is not under it. */
function locate(basePath: string, url: URL): string {
  const path = url.pathname;
  if (basePath === '') return path;
  if (path === basePath) return '/';
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
}

/** Stage authorize: 401 when the route needs the key and the request does not carry it. */
function authorize(options: PipelineOptions, route: Route, path: string, request: RequestLike): Answer | null {
  if (!requiresKey(options.auth, route.access ?? 'api', path)) return null;
  return keyMatches(options.apiKey, request.headers.get(SESSION_API_KEY_HEADER)) ? null : unauthorized();
}

/** Stage inject faults: the answer a fault replaces the route's with, or `null` to go on (after a delay or a failed sandbox). */
async function injectFault(faults: Faults, context: RouteContext, method: string, path: string, match: RouteMatch): Promise<Answer | null> {
  const injected = faults.take(method, path);
  if (!injected) return null;
  const { fault, params } = injected;
  switch (fault.kind) {
    case 'status':
      return json(fault.status, fault.body ?? { detail: 'Injected fault' });
    case 'network':
      return networkError();
    case 'delay':
      await sleep(fault.delay_ms);
      return null;
    case 'sandbox_error': {
      const id = fault.sandbox_id ?? params.sandbox_id ?? match.params.sandbox_id;
      // An unknown sandbox is left to the route, which answers 404 as usual.
      if (id) await context.service.failSandbox(id).catch(() => undefined);
      return null;
    }
  }
}

/** What the handle stage produced: a JSON body, or a raw one (bytes, text, a stream) with its headers. */
type Handled = { status: number; body: unknown; raw?: { headers: Record<string, string>; body: AnswerBody } };

/** Stage handle: runs the operation; a domain error becomes its status from the one table. */
async function handle(match: RouteMatch, request: RequestLike, query: unknown, body: unknown, context: RouteContext): Promise<Handled> {
  try {
    const result = await match.route.handle({ params: match.params, query, body, headers: request.headers }, context);
    if (!(result instanceof Reply)) return { status: 200, body: result };
    const { contentType, headers = {} } = result.options;
    return contentType
      ? { status: result.status, body: null, raw: { headers: { 'content-type': contentType, ...headers }, body: result.body as AnswerBody } }
      : { status: result.status, body: result.body };
  } catch (error) {
    const status = error instanceof FakehandsError ? DOMAIN_ERROR_STATUS[error.code] : undefined;
    if (status === undefined) throw error;
    return { status, body: { detail: status === 404 ? 'Not Found' : (error as Error).message } };
  }
}

/**
 * Creates the pipeline over a route table.
 * @example
 * const pipeline = createPipeline(routes, context, { baseUrl, apiKey, auth: 'all', checkResponses: true })
 */
export function createPipeline(routes: readonly Route[], context: RouteContext, options: PipelineOptions): Pipeline {
  const router = new Router(routes);
  const basePath = new URL(options.baseUrl).pathname.replace(/\/+$/, '');
  const latencyRandom = options.latency ? new RandomSource(options.latency.seed) : null;

  const run = async (request: RequestLike, url: URL, path: string, routing: Routing): Promise<Answer> => {
    const method = request.method.toUpperCase();
    if (options.latency && latencyRandom) await sleep(latencyRandom.int(options.latency.min, options.latency.max));
    if (routing.kind === 'none') return notFound();
    if (routing.kind === 'method') return methodNotAllowed(routing.allowed);
    const match = routing.match;
    const refused = authorize(options, match.route, path, request);
    if (refused) return refused;
    const faulted = await injectFault(context.faults, context, method, path, match);
    if (faulted) return faulted;
    const parsed = await parseRequest(match.route, request, url, match.params);
    const result: Handled = parsed.ok ? await handle(match, request, parsed.query, parsed.body, context) : { status: 422, body: { detail: parsed.errors } };
    if (result.raw) return { status: result.status, headers: result.raw.headers, body: result.raw.body };
    if (options.checkResponses) checkAnswer(match.route, result.status, result.body, url.pathname);
    return json(result.status, result.body);
  };

  return {
    async answer(request) {
      const started = performance.now();
      const url = new URL(request.url);
      const path = locate(basePath, url);
      const routing = router.find(request.method.toUpperCase(), path);
      const answer = await run(request, url, path, routing);
      if (routing.kind === 'match' && routing.match.route.internal) return answer;
      context.journal.record({
        method: request.method.toUpperCase(), path, query: url.search, status: answer.status,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      });
      return answer;
    },
  };
}
