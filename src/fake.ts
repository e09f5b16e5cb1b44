/**
 * The fake without any transport: state, clock, faults, journal and the request pipeline.
 * It loads no msw and no faker, so the standalone server starts fast; `createFake` in
 * index.ts adds the msw handlers.
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
import { packageFile, packageVersion } from './package-root.js';
import { resolveOptions, resolveTimings, type FakeOptionsInput, type ResolvedFakeOptions } from './options.js';
import { BUILT_IN_FIXTURES } from './schemas/control.js';
import type { Fixture, FixtureInput } from './schemas/records.js';

export { BUILT_IN_FIXTURES } from './schemas/control.js';

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

/** Reads a fixture given by name, path or object. */
async function readFixture(fixture: FixtureOption): Promise<{ data: unknown; source: string }> {
  if (typeof fixture === 'function') return { data: fixture(), source: '(function)' };
  if (typeof fixture !== 'string') return { data: fixture, source: '(object)' };
  const { readFile } = await import('node:fs/promises');
  const builtIn = (BUILT_IN_FIXTURES as readonly string[]).includes(fixture);
  const location = builtIn ? packageFile(`fixtures/${fixture}.json`) : fixture;
  const source = builtIn ? `"${fixture}"` : `at ${fixture}`;
  let text: string;
  try {
    text = await readFile(location, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw fixtureError(source, `${reason} (a fixture is "default", "empty", or a path to a JSON file)`);
  }
  try {
    return { data: JSON.parse(text), source };
  } catch (error) {
    throw fixtureError(source, `not valid JSON: ${(error as Error).message}`);
  }
}

/** Largest fixture file the control API loads by name. */
const MAX_NAMED_FIXTURE_BYTES = 64 * 1024 * 1024;

/**
 * Reads `NAME.json` of the fixtures directory for the control API: a regular file (no link, no
 * FIFO, no device), bounded in size; the errors name the fixture and never quote its content.
 */
async function readNamedFixture(dir: string, name: string): Promise<FixtureInput> {
  const { lstat, readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const path = join(dir, `${name}.json`);
  const source = `"${name}"`;
  const info = await lstat(path).catch(() => null);
  if (!info) throw fixtureError(source, 'no such fixture in the fixtures directory');
  if (!info.isFile()) throw fixtureError(source, 'not a regular file');
  if (info.size > MAX_NAMED_FIXTURE_BYTES) throw fixtureError(source, `larger than ${MAX_NAMED_FIXTURE_BYTES / 1024 / 1024} MiB`);
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    throw fixtureError(source, 'not valid JSON');
  }
  return data as FixtureInput;
}

/**
 * Creates the fake's core (no msw): what the standalone server runs.
 * @example
 * const core = await createFakeCore({ clock: 'system' })
 */
export async function createFakeCore(input: FakeOptionsInput = {}): Promise<FakeCore> {
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
    const data = await readNamedFixture(options.fixturesDir, fixture);
    return reset({ fixture: data, seed });
  };

  const context: RouteContext = {
    service, clock, faults, journal, resetByName,
    snapshot: () => service.snapshot(),
    openApi: () => (openApi ??= openApiDocument(apiRoutes, { version: packageVersion(), serverUrl: new URL(options.baseUrl).pathname.replace(/\/+$/, '') || '/' })),
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
