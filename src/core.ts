/**
 * A fake without any transport and without any platform: one instance (`instance/`) behind the
 * default mounts (`mounts/`: the app server at the base URL, the control API under `/_fakehands`).
 * Platforms give it an `Environment` (Node's file system in fake.ts, bundled fixtures in browser.ts).
 */
import type { Clock } from './domain/time/clock.js';
import type { ChangeListener } from './domain/store/events.js';
import type { Timings } from './domain/time/lifecycle.js';
import type { FakeService } from './domain/service.js';
import { toResponse, type Answer, type RequestLike } from './http/responses.js';
import type { Faults } from './instance/faults.js';
import { createInstance, type Environment, type Instance, type ResetOptions } from './instance/instance.js';
import { Tenants } from './instance/tenants.js';
import { isRefusal } from './domain/store/refusal.js';
import type { Journal } from './instance/journal.js';
import { defaultMounts, type Mounts } from './mounts/mounts.js';
import { lazyService } from './service-facade.js';
import { resolveOptions, type FakeOptionsInput, type ResolvedFakeOptions } from './options.js';
import { FakehandsError } from './domain/store/errors.js';
import type { Fixture, FixtureInput } from './schemas/fixture.js';

export { BUILT_IN_FIXTURES } from './schemas/faults.js';
export type { Environment, FixtureOption, ResetOptions } from './instance/instance.js';

/** A running fake without transports: one in-memory state and the mounts that answer requests. */
export interface FakeCore {
  /** The fake's clock: `fake.clock.advance(2000)` moves every time-driven step on. */
  readonly clock: Clock;
  /** The domain operations, for arranging state and fault injection in tests; the same object for the fake's whole life. */
  readonly service: FakeService;
  /** The options in force, with defaults applied. */
  readonly options: Readonly<ResolvedFakeOptions>;
  /** The timings in force. */
  readonly timings: Readonly<Timings>;
  /** Who answers which URL: the app server at the base URL, the control API under `/_fakehands`. */
  readonly mounts: Mounts;
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
  /**
   * The tenant `name` of this fake (created on first use from the fake's options): its own state,
   * clock, faults and journal; its `fetch` reaches that tenant (its name handed to the mounts in process). Throws a `Refusal` for a
   * bad name or one tenant too many.
   */
  tenant(name: string): Promise<FakeCore>;
}

/**
 * Creates a fake's core over a platform's `Environment` (Node's in fake.ts, the browser's in browser.ts).
 * @example
 * const core = await createCore({ clock: 'system' }, environment)
 */
export async function createCore(given: FakeOptionsInput, environment: Environment): Promise<FakeCore> {
  const input = await withRecording(given, environment);
  const instance = await createInstance(input, environment);
  const tenants = new Tenants(
    (name, saved) =>
      createInstance(saved === null ? input : { ...input, fixture: saved as FixtureInput }, environment, { tenant: name, saved }),
    { maxTenants: instance.options.maxTenants, idleMs: instance.options.tenantIdleMs },
  );
  instance.tenants = tenants;
  const mounts = defaultMounts(instance, instance.options.baseUrl, tenants);
  // One `fake.service` per instance, the same object for its whole life.
  const services = new WeakMap<Instance, FakeService>();
  const serviceOf = (target: Instance): FakeService => {
    let service = services.get(target);
    if (!service) services.set(target, (service = lazyService(target.runner)));
    return service;
  };
  /** The core over one instance; `tenant` is the tenant its requests reach, handed to the mounts as a value (no header to parse back). */
  const coreOf = (target: Instance, tenant: string | null): FakeCore => {
    const reached = tenant ?? undefined;
    return {
      clock: target.clock,
      service: serviceOf(target),
      options: target.options,
      timings: target.timings,
      faults: target.faults,
      journal: target.journal,
      mounts,
      reset: target.reset,
      snapshot: target.snapshot,
      onChange: target.onChange,
      fetch: async (request) => toResponse(await mounts.fetch(request, reached)),
      answer: (request) => mounts.answer(request, reached),
      tenant: async (name) => {
        const found = tenants.checkName(name);
        if (isRefusal(found)) throw found;
        if (found === null) return root;
        const resolved = await tenants.get(found);
        if (isRefusal(resolved)) throw resolved;
        return coreOf(resolved, found);
      },
    };
  };
  const root = coreOf(instance, null);
  return root;
}

/**
 * The options with a `recording` read into the fixture it seeds (its module loaded only then): by
 * path through the environment (Node's file system), or as given. Both `fixture` and `recording`
 * given is an `invalid_options` error.
 */
async function withRecording(input: FakeOptionsInput, environment: Environment): Promise<FakeOptionsInput> {
  const options = resolveOptions(input);
  if (options.recording === null) return input;
  if (input.fixture !== undefined)
    throw new FakehandsError(
      'invalid_options',
      'Failed to create the fake: invalid options (recording: give a fixture or a recording, not both). See "Options" in the README.',
    );
  let recording = options.recording;
  if (typeof recording === 'string') {
    if (!environment.readRecording)
      throw new FakehandsError(
        'invalid_options',
        'Failed to create the fake: invalid options (recording: a path needs a file system; pass the recording parsed, { har, conversations }). See "Options" in the README.',
      );
    recording = await environment.readRecording(recording);
  }
  const { fixtureOfRecording } = await import('./domain/recording/fixture.js');
  const { fixture } = await fixtureOfRecording(recording, { apiKey: options.apiKey });
  return { ...input, recording: null, fixture };
}
