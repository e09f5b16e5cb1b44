/**
 * The fake without any transport: state, clock, faults, journal and the request pipeline.
 * It loads no msw and no faker, so the standalone server starts fast; `createFake` in
 * index.ts adds the msw handlers.
 */
import { createManualClock, createSystemClock, type Clock } from './domain/clock.js';
import { FixtureError, storeFromFixture } from './domain/fixtures.js';
import { RandomSource } from './domain/ids.js';
import type { Timings } from './domain/lifecycle.js';
import { FakeService } from './domain/service.js';
import { Dispatcher } from './http/dispatch.js';
import { Faults } from './http/faults.js';
import type { Answer, RequestLike } from './http/responses.js';
import { Journal } from './http/journal.js';
import { routes } from './http/routes.js';
import { packageFile } from './package-root.js';
import { resolveOptions, resolveTimings, type FakeOptionsInput, type ResolvedFakeOptions } from './options.js';
import type { Fixture, FixtureInput } from './schemas/records.js';

/** Names of the fixtures that ship with fakehands. */
export const BUILT_IN_FIXTURES = ['default', 'empty'] as const;

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
  /** The domain operations, for arranging state and fault injection in tests. */
  readonly service: FakeService;
  /** The options in force, with defaults applied. */
  readonly options: Readonly<ResolvedFakeOptions>;
  /** The timings in force. */
  readonly timings: Readonly<Timings>;
  /** Answers a Fetch request exactly as the handlers would. */
  fetch(request: Request): Promise<Response>;
  /** Answers a request as a plain answer (status, headers, body text): what the standalone server calls. */
  answer(request: RequestLike): Promise<Answer>;
  /** Replaces the whole state with the fixture (and seed) again; a manual clock goes back to its start. */
  reset(options?: ResetOptions): Promise<void>;
  /** Everything the fake holds, as a fixture, with time-driven steps settled and tokens redacted. */
  snapshot(): Promise<Fixture>;
  /** Faults to inject: `fake.faults.add({ kind: 'status', method: 'POST', path: '/api/v1/sandboxes', status: 503 })`. */
  readonly faults: Faults;
  /** The last requests answered (method, path, status, timing; never a header). */
  readonly journal: Journal;
  /** Registers a function called after every request that changed state, before it is answered. */
  onChange(listener: () => Promise<void> | void): void;
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
    throw new FixtureError(source, `${reason} (a fixture is "default", "empty", or a path to a JSON file)`);
  }
  try {
    return { data: JSON.parse(text), source };
  } catch (error) {
    throw new FixtureError(source, `not valid JSON: ${(error as Error).message}`);
  }
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
  let fixtureOption: FixtureOption = options.fixture;
  let seed = options.seed;

  const build = async (): Promise<FakeService> => {
    const { data, source } = await readFixture(fixtureOption);
    const store = await storeFromFixture(data, source, clock.now());
    return new FakeService(store, clock, new RandomSource(seed), { timings, userId: options.userId });
  };

  let service = await build();
  const faults = new Faults();
  const journal = new Journal(options.journalSize);
  const listeners: (() => Promise<void> | void)[] = [];
  const dispatcher = new Dispatcher(routes, () => service, {
    baseUrl: options.baseUrl, apiKey: options.apiKey, auth: options.auth, checkResponses: options.checkResponses,
    faults, journal,
    latency: options.latency && { ...options.latency, seed: options.seed },
    onChange: async () => {
      for (const listener of listeners) await listener();
    },
  });

  return {
    clock,
    get service() {
      return service;
    },
    options,
    timings,
    faults,
    journal,
    onChange(listener) {
      listeners.push(listener);
    },
    fetch: (request) => dispatcher.handle(request),
    answer: (request) => dispatcher.answer(request),
    async reset(resetOptions = {}) {
      if (resetOptions.fixture !== undefined) fixtureOption = resetOptions.fixture;
      if (resetOptions.seed !== undefined) seed = resetOptions.seed;
      if (options.clock === 'manual') clock.set(start);
      service = await build();
    },
    snapshot() {
      return service.snapshot();
    },
  };
}

