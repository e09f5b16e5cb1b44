/**
 * The fake without any transport and without any platform: state, clock, faults, journal and
 * the request pipeline, over an `Environment` that reads fixtures (the file system in Node,
 * bundled fixtures in the browser). It loads no msw and no faker.
 */
import { createManualClock, createSystemClock, type Clock } from './domain/clock.js';
import { fixtureError } from './domain/errors.js';
import type { ChangeListener } from './domain/events.js';
import { storeFromFixture } from './domain/fixtures.js';
import type { Timings } from './domain/lifecycle.js';
import { FakeService } from './domain/service.js';
import { DomainState } from './domain/state.js';
import { StoreBudget } from './domain/table.js';
import { createFaults, type Faults } from './http/faults.js';
import { createJournal, type Journal } from './http/journal.js';
import { openApiDocument } from './http/openapi.js';
import { createPipeline } from './http/pipeline.js';
import { toResponse, type Answer, type RequestLike } from './http/responses.js';
import type { RouteContext } from './http/route.js';
import { allRoutes, apiRoutes } from './http/routes/index.js';
import { resolveOptions, resolveTimings, type FakeOptionsInput, type ResolvedFakeOptions } from './options.js';
import { BUILT_IN_FIXTURES } from './schemas/control.js';
import type { Fixture, FixtureInput } from './schemas/records.js';

export { BUILT_IN_FIXTURES } from './schemas/control.js';

/** What the platform provides the fake: how fixtures are read, and the version to report. */
export interface Environment {
  /** Reads a fixture given by name (a built-in one) or by path; `source` names it in errors. */
  readFixture(nameOrPath: string): Promise<{ data: unknown; source: string }>;
  /** Reads `NAME.json` of a fixtures directory, for the control API's reset by name. */
  readNamedFixture(dir: string, name: string): Promise<FixtureInput>;
  /** The version of fakehands, for the OpenAPI document. */
  version: string;
}

/** A fixture: `default`, `empty`, a path, an object, or a function returning one. */
export type FixtureOption = string | FixtureInput | (() => FixtureInput);

/** What `reset()` may change. */
export interface ResetOptions {
  /** A fixture name, path, object or function to load instead of the current one. */
  fixture?: FixtureOption;
  /** A new seed. */
  seed?: number;
}

/** A running fake without transports: one in-memory state and the pipeline that answers requests. */
export interface FakeCore {
  /** The fake's clock: `fake.clock.advance(2000)` moves every time-driven step on. */
  readonly clock: Clock;
  /** The domain operations, for arranging state and fault injection in tests; the same object for the fake's whole life. */
  readonly service: FakeService;
  /** The options in force, with defaults applied. */
  readonly options: Readonly<ResolvedFakeOptions>;
  /** The timings in force. */
  readonly timings: Readonly<Timings>;
  /** Answers a Fetch request exactly as the handlers would (the API, the control API and `/openapi.json`). */
  fetch(request: Request): Promise<Response>;
  /** Answers a request as a plain answer (status, headers, body text): what the standalone server calls. */
  answer(request: RequestLike): Promise<Answer>;
  /** Replaces the whole state with the fixture (and seed) again; a manual clock goes back to its start. A failed reset changes nothing. */
  reset(options?: ResetOptions): Promise<void>;
  /** Everything the fake holds, as a fixture, with time-driven steps settled and tokens redacted. */
  snapshot(): Promise<Fixture>;
  /** Faults to inject: `fake.faults.add({ kind: 'status', method: 'POST', path: '/api/v1/sandboxes', status: 503 })`. */
  readonly faults: Faults;
  /** The last requests answered (method, path, status, timing; never a header). */
  readonly journal: Journal;
  /**
   * Subscribes to state changes, whatever caused them (a request, a fault, code, time, a reset):
   * the listener runs before the operation that made them resolves. Returns an unsubscribe function.
   */
  onChange(listener: ChangeListener): () => void;
}

/**
 * Creates the fake's core over a platform's `Environment` (Node's in fake.ts, the browser's in browser.ts).
 * @example
 * const core = await createCore({ clock: 'system' }, environment)
 */
export async function createCore(input: FakeOptionsInput, environment: Environment): Promise<FakeCore> {
  const readFixture = async (fixture: FixtureOption) => (typeof fixture === 'function' ? { data: fixture(), source: '(function)' }
    : typeof fixture !== 'string' ? { data: fixture, source: '(object)' } : environment.readFixture(fixture));
  const options = resolveOptions(input);
  const timings = resolveTimings(options.timings);
  const clock = options.clock === 'manual' ? createManualClock(options.now)
    : options.clock === 'system' ? createSystemClock() : options.clock;
  const start = clock.now();
  let current = { fixture: options.fixture as FixtureOption, seed: options.seed };

  const load = async (fixture: FixtureOption, seed: number): Promise<DomainState> => {
    const { data, source } = await readFixture(fixture);
    const store = await storeFromFixture(data, source, clock.now(), new StoreBudget(options.maxRecords, options.maxStoreBytes));
    return new DomainState(store, clock, seed, { timings, userId: options.userId });
  };

  const service = new FakeService(await load(current.fixture, current.seed));
  const faults = createFaults();
  const journal = createJournal(options.journalSize);
  let openApi: unknown = null;

  const reset = async (resetOptions: ResetOptions = {}) => {
    const next = { fixture: resetOptions.fixture ?? current.fixture, seed: resetOptions.seed ?? current.seed };
    // A manual clock goes back to its start; a system clock drops what was advanced.
    const restartClock = options.clock === 'manual' || options.clock === 'system';
    const now = clock.now();
    if (restartClock) clock.set(options.clock === 'manual' ? start : Date.now());
    let state: DomainState;
    try {
      state = await load(next.fixture, next.seed);
    } catch (error) {
      if (restartClock) clock.set(now);
      throw error;
    }
    current = next;
    await service.replaceState(state);
  };

  /** A fixture named by the control API: built-in, or a regular `NAME.json` file of the fixtures directory; its content is never echoed. */
  const resetByName = async ({ fixture, seed }: { fixture?: string; seed?: number }) => {
    if (fixture === undefined || (BUILT_IN_FIXTURES as readonly string[]).includes(fixture)) return reset({ fixture, seed });
    if (!options.fixturesDir) throw fixtureError(`"${fixture}"`, 'no such fixture (the built-in ones are "default" and "empty"; start the server with --fixtures-dir to load others by name)');
    const data = await environment.readNamedFixture(options.fixturesDir, fixture);
    return reset({ fixture: data, seed });
  };

  const context: RouteContext = {
    service, clock, faults, journal, resetByName,
    snapshot: () => service.snapshot(),
    openApi: () => (openApi ??= openApiDocument(apiRoutes, { version: environment.version, serverUrl: new URL(options.baseUrl).pathname.replace(/\/+$/, '') || '/' })),
  };
  const pipeline = createPipeline(allRoutes, context, {
    baseUrl: options.baseUrl, apiKey: options.apiKey, auth: options.auth, checkResponses: options.checkResponses,
    latency: options.latency && { ...options.latency, seed: options.seed },
  });

  return {
    clock, service, options, timings, faults, journal, reset,
    onChange: (listener) => service.subscribe(listener),
    fetch: async (request) => toResponse(await pipeline.answer(request)),
    answer: (request) => pipeline.answer(request),
    snapshot: () => service.snapshot(),
  };
}
