/**
 * The request pipeline every transport shares, as named stages, each a small function:
 *
 *   route (404/405) → (latency) → authorize (401) → inject faults → parse (422) → handle → check → answer
 *
 * A 404 no route has, a 405 and a 422 carry one line saying why (`Answer.miss`, `misses.ts`), for
 * the journal and the request log; what the client reads stays the real server's answer.
 *
 * `answer(instance, surface, path, request)` answers one request that mounts have already placed:
 * which instance it reaches, which surface answers, and its path relative to the mount. Every
 * refusal, whatever stage made it, is a `Refusal` the surface answers in its own error shape.
 */
import { failSandbox } from '../domain/sandboxes/sandboxes.js';
import { FakehandsError } from '../domain/store/errors.js';
import { Refusal, invalid, isRefusal } from '../domain/store/refusal.js';
import { applyTakenFault } from '../instance/faults.js';
import type { Instance } from '../instance/instance.js';
import type { Surface } from './surface-types.js';
import { JsonText } from './json-text.js';
import { parseRequest, type Parsed } from './parse.js';
import { isRawAnswer, json, networkError, type Answer, type RequestLike, type RequestUrl } from './responses.js';
import type { Route } from './route.js';
import type * as Misses from './misses.js';
import type { RouteMatch, Routing } from './router.js';

/** A fault `Faults.take` matched to a request, with the path parameters its pattern matched. */
type TakenFault = NonNullable<ReturnType<Instance['faults']['take']>>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The line saying why a request missed, or `undefined` when the module that writes it (the surface's
 * `misses`, loaded with the first miss) cannot load: a page's chunk on a dropped connection, asked
 * for again next time. The answer never waits on anything else, and never changes with it.
 */
async function whyMissed(surface: Surface, explain: (module: typeof Misses) => string): Promise<string | undefined> {
  const module = await surface.misses().catch(() => null);
  return module ? explain(module) : undefined;
}

/** `answer` with the line that says why it missed (`Answer.miss`): a new object, the surface's own left as it is. */
const missed = (answer: Answer, miss: string | undefined): Answer => (miss === undefined ? answer : { ...answer, miss });

/** The answer of a path no route has (404) or a method it does not allow (405), with why. */
async function routeMiss(surface: Surface, refusal: Refusal, method: string, path: string): Promise<Answer> {
  const routes = surface.routes;
  const miss = await whyMissed(surface, (explain) =>
    refusal.reason === 'not_found' ? explain.explainNoRoute(routes, method, path) : explain.explainMethod(routes, method, path),
  );
  return missed(surface.refusalAnswer(refusal), miss);
}

/** Marks the inspector's own requests, which stay out of the journal (it polls; the journal is the app's). */
export const INSPECTOR_HEADER = 'x-fakehands-inspector';

/** Stage route: the match, or the refusal of a path no route has (404) or a method it does not allow (405). */
function route(routing: Routing): RouteMatch | Refusal {
  if (routing.kind === 'none') return new Refusal('not_found', 'Not Found');
  if (routing.kind === 'method')
    return new Refusal('method_not_allowed', 'Method Not Allowed', { headers: { allow: routing.allowed.join(', ') } });
  return routing.match;
}

/**
 * Stage inject faults: the answer the fault taken replaces the route's with, or `null` to go on (what
 * each fault does is `applyTakenFault`'s). The fault is looked for before (`Faults.take`, at once), so
 * a request no fault matches makes no promise here.
 */
async function injectFault(instance: Instance, taken: TakenFault, match: RouteMatch): Promise<Answer | null> {
  const effect = await applyTakenFault(taken, (id) => instance.runner.run(failSandbox, id), match.params);
  if (effect.kind === 'answer') return json(effect.status, effect.body);
  return effect.kind === 'network' ? networkError() : null;
}

/** A refusal an operation threw is its result; anything else thrown stays an error. */
const refusalOrThrow = (error: unknown): Refusal => {
  if (isRefusal(error)) return error;
  throw error;
};

/**
 * Stage check + answer: a 200 body or a refusal, checked against the route's schemas when asked, as
 * JSON. The check (`check.ts`, with the schema of every error body) is the surface's, loaded the first time it is asked for.
 */
function respond(instance: Instance, surface: Surface, route: Route, result: unknown, url: RequestUrl): Answer | Promise<Answer> {
  const answer = isRefusal(result)
    ? surface.refusalAnswer(result)
    : result instanceof JsonText
      ? { status: route.successStatus ?? 200, headers: { 'content-type': 'application/json' }, body: result.text }
      : json(route.successStatus ?? 200, result);
  if (!instance.options.checkResponses) return answer;
  return surface.checkAnswer(route, answer.status, JSON.parse(answer.body as string), url.pathname).then(() => answer);
}

/** What a route that reads nothing (no path schema, query, body or form) is parsed to: no parse, no promise. */
const NOTHING_TO_PARSE: Parsed = Object.freeze({ ok: true, query: undefined, body: undefined });

/** Whether a route reads anything a request brings (path parameters it checks, a query, a body, a form). */
const readsInput = (route: Route) =>
  route.params !== undefined || route.query !== undefined || route.body !== undefined || route.form !== undefined;

/**
 * Stages route to answer of one request (a module function, not a closure made per request): a
 * refusal, a fault's answer, or the route's, checked.
 */
async function serve(
  instance: Instance,
  surface: Surface,
  path: string,
  request: RequestLike,
  url: RequestUrl,
  method: string,
  routing: Routing,
): Promise<Answer> {
  const match = route(routing);
  if (isRefusal(match)) return routeMiss(surface, match, method, path);
  const refused = surface.authorize(instance, match.route, path, request);
  if (refused) return surface.refusalAnswer(refused);
  const taken = surface.faultable ? instance.faults.take(method, path) : null;
  if (taken) {
    const faulted = await injectFault(instance, taken, match);
    if (faulted) return faulted;
  }
  const parsed = readsInput(match.route)
    ? await parseRequest(match.route, request, url, match.params, surface.parseHelpers, surface.jsonNullBody)
    : NOTHING_TO_PARSE;
  // Stage handle: the operation's result; a refusal it returns or throws is the result too (awaited as it is: no promise over the operation's).
  let result: unknown;
  if (!parsed.ok) result = invalid(parsed.errors);
  else {
    try {
      result = await match.route.handle(
        { params: match.params, query: parsed.query, body: parsed.body, headers: request.headers },
        instance,
      );
    } catch (error) {
      result = refusalOrThrow(error);
    }
  }
  if (isRawAnswer(result)) return result;
  // A 422 (a body, query or path its schemas refused, or a handler's own) says which fields and why.
  if (isRefusal(result) && result.errors.length > 0)
    return missed(
      await respond(instance, surface, match.route, result, url),
      await whyMissed(surface, (explain) => explain.explainInvalid(result.errors)),
    );
  return respond(instance, surface, match.route, result, url);
}

/**
 * Answers one request on `surface` over `instance`; `path` is relative to where the surface is mounted.
 * @example
 * const answer = await answer(instance, appServerSurface, '/api/v1/sandboxes/search', request)
 */
export async function answer(
  instance: Instance,
  surface: Surface,
  path: string,
  request: RequestLike,
  url: RequestUrl = new URL(request.url),
): Promise<Answer> {
  const started = performance.now();
  const method = request.method.toUpperCase();
  const found = surface.route(method, path);
  const routing = found instanceof Promise ? await found : found;
  const latency = instance.nextLatency();
  if (latency > 0) await sleep(latency);

  const answered = await serve(instance, surface, path, request, url, method, routing);
  if (surface.journaled && !(routing.kind === 'match' && routing.match.route.internal) && request.headers.get(INSPECTOR_HEADER) === null) {
    instance.journal.record({
      method,
      path,
      query: url.search,
      status: answered.status,
      duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      miss: answered.miss,
    });
  }
  return answered;
}

/** Whether an error is the fake's own contract check failing (it stays loud: the test suite that asked for checks hears it). */
export const isContractViolation = (error: unknown): boolean => error instanceof FakehandsError && error.code === 'contract_violation';
