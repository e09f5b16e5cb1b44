/**
 * An instance: everything one fake holds (state, clock, faults, journal, change events, reset,
 * snapshot), with no transport, no surface and no platform. Surfaces answer requests on an
 * instance; mounts say which instance a URL reaches. A new kind of state (a tenant, an agent's event
 * log) belongs here, never in a surface. It loads no msw and no faker.
 */
import { tenantSeed, type Tenants } from './tenants.js';
import { createManualClock, createSystemClock, type Clock } from '../domain/time/clock.js';
import { fixtureError } from '../domain/store/errors.js';
import type { ChangeListener } from '../domain/store/events.js';
import type { storeFromFixture } from '../domain/fixtures/fixtures.js';
import { storeFromParts, trustRecord } from '../domain/fixtures/load.js';
import type { FixtureParts } from '../domain/fixtures/fixture-check.js';
import { RandomSource } from '../domain/store/ids.js';
import type { Timings } from '../domain/time/lifecycle.js';
import { OperationRunner } from '../domain/store/runner.js';
import type * as Snapshots from '../domain/store/snapshot.js';
import { type AgentRuntime, DomainState } from '../domain/store/state.js';
import { StoreBudget } from '../domain/store/table.js';
import { resolveAgentScripts, resolveOptions, resolveTimings, type FakeOptionsInput, type ResolvedFakeOptions } from '../options.js';
import { BUILT_IN_FIXTURES } from '../schemas/faults.js';
import type { AgentScript } from '../schemas/agent-server.js';
import type { AgentScript as AgentScriptSchema } from '../schemas/agent-script.js';
import type { Fixture, FixtureInput } from '../schemas/fixture.js';
import type { Recording } from '../domain/recording/har.js';
import { createFaults, type Faults } from './faults.js';
import { createJournal, type Journal } from './journal.js';

/** What the platform provides an instance: how fixtures are read, and the version to report. */
export interface Environment {
  /**
   * Reads a fixture given by name (a built-in one) or by path; `source` names it in errors.
   * `trusted`: validated when the package was built and given in its parsed form (stored without its schemas).
   */
  readFixture(nameOrPath: string): Promise<{ data: unknown; source: string; trusted?: boolean }>;
  /** Reads `NAME.json` of a fixtures directory, for the control API's reset by name. */
  readNamedFixture(dir: string, name: string): Promise<FixtureInput>;
  /** The version of fakehands, for the OpenAPI document. */
  version: string;
  /** Reads a recording by path (a `fakehands record` folder or a HAR file); absent where there is no file system. */
  readRecording?(path: string): Promise<Recording>;
  /** Loads what a state needs only sometimes: `loadDomain` of `service-facade.ts` (in a page, the facade's chunk). */
  loadDomain(): Promise<LaterDomain>;
}

/**
 * What an instance loads only when it needs it, from the service facade's module
 * (`domain/service.ts`): the scripted agent, for the first state that holds a start task or a run;
 * the fixture's schemas, for a fixture that is not a trusted built-in one; the snapshot module, for
 * the first snapshot or change listener.
 */
export interface LaterDomain {
  /** The scripted agent's entry points (`agent/runtime.ts`). */
  agentRuntime: AgentRuntime;
  /** Validates a fixture and stores it (`fixtures/fixtures.ts`). */
  storeFromFixture: typeof storeFromFixture;
  /** A state as a fixture, and one record as a fixture holds it (`store/snapshot.ts`), for the first snapshot or listener. */
  snapshots: typeof Snapshots;
  /** The schema of an agent script (`schemas/agent-script.ts`), for the `agentScripts` option when it has any. */
  AgentScript: typeof AgentScriptSchema;
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

/** Everything one fake holds; what a surface's routes act on. */
export interface Instance {
  /** The instance's clock. */
  readonly clock: Clock;
  /** Runs any domain operation as one step: the one way a route reaches the domain (`context.runner.run(op, ...args)`). */
  readonly runner: OperationRunner;
  /** The options in force, with defaults applied. */
  readonly options: Readonly<ResolvedFakeOptions>;
  /** The timings in force. */
  readonly timings: Readonly<Timings>;
  /** The faults in force. */
  readonly faults: Faults;
  /** The last requests answered. */
  readonly journal: Journal;
  /** The version of fakehands, for documents. */
  readonly version: string;
  /** Replaces the whole state with the fixture (and seed) again; a failed reset changes nothing. */
  reset(options?: ResetOptions): Promise<void>;
  /** Replaces the state with a fixture named by the control API (built-in, or in the fixtures directory); a failure changes nothing. */
  resetByName(options: { fixture?: string; seed?: number }): Promise<void>;
  /** Everything the instance holds, as a fixture. */
  snapshot(): Promise<Fixture>;
  /** Subscribes to state changes; returns an unsubscribe function. */
  onChange(listener: ChangeListener): () => void;
  /** The extra latency of the next request in milliseconds (0 without the `latency` option). */
  nextLatency(): number;
  /** The agent's scripts in force. */
  agentScripts(): readonly AgentScript[];
  /** Replaces the agent's scripts (runs already going keep theirs until they end). */
  setAgentScripts(scripts: readonly AgentScript[]): void;
  /** The tenants of the fake, on its default instance only (set by the core that owns them); `null` on a tenant's own instance. */
  tenants: Tenants<Instance> | null;
  /** Marks a connection (an event socket) open on the instance until the returned function is called: an instance with one open is in use, never idle. */
  hold(): () => void;
  /** How many connections are open on it, and when the last one closed (epoch ms; 0: never). */
  connections(): { open: number; lastClosedAt: number };
}

/** What an instance is besides its options: the tenant it is, and the saved state it started from. */
export interface InstanceRole {
  /** The tenant's name: its ids and keys are drawn with a seed of its own (`tenantSeed`), the fixture's session keys included. */
  tenant?: string;
  /** The tenant's saved state (the state file's), loaded as it is: its keys are already its own. */
  saved?: unknown;
}

/** A session key of a tenant's fixture sandbox: drawn with a seed of the tenant's, in the fixture's order. */
const FIXTURE_KEY_SALT = 0x5bd1e995;

/** A copy of a fixture whose sandboxes' session keys are drawn from `keys`, in order (the fixture itself, shared, is left as it is; anything else is left to its check). */
function withSessionKeys(data: unknown, keys: RandomSource): unknown {
  if (data === null || typeof data !== 'object' || !Array.isArray((data as { sandboxes?: unknown }).sandboxes)) return data;
  const sandboxes = (data as { sandboxes: unknown[] }).sandboxes.map((sandbox) =>
    sandbox !== null && typeof sandbox === 'object' && typeof (sandbox as { session_api_key?: unknown }).session_api_key === 'string'
      ? { ...sandbox, session_api_key: keys.sessionKey() }
      : sandbox,
  );
  return { ...data, sandboxes };
}

/**
 * Creates an instance over a platform's `Environment` (Node's in fake.ts, the browser's in browser.ts).
 * @example
 * const instance = await createInstance({ fixture: 'empty' }, environment)
 */
export async function createInstance(input: FakeOptionsInput, environment: Environment, role: InstanceRole = {}): Promise<Instance> {
  const readFixture = async (fixture: FixtureOption): Promise<{ data: unknown; source: string; trusted?: boolean }> =>
    typeof fixture === 'function'
      ? { data: fixture(), source: '(function)' }
      : typeof fixture !== 'string'
        ? { data: fixture, source: '(object)' }
        : environment.readFixture(fixture);
  const options = resolveOptions(input);
  const timings = resolveTimings(options.timings);
  const clock =
    options.clock === 'manual' ? createManualClock(options.now) : options.clock === 'system' ? createSystemClock() : options.clock;
  const start = clock.now();
  let current = { fixture: options.fixture as FixtureOption, seed: options.seed };

  const load = async (fixture: FixtureOption, seed: number): Promise<DomainState> => {
    const { data, source, trusted = false } = await readFixture(fixture);
    const { tenant } = role;
    // A tenant's fixture sandboxes get keys of its own: the fixture's would open the default tenant's (and every other tenant's) agents.
    const keyed =
      tenant !== undefined && fixture !== role.saved
        ? withSessionKeys(data, new RandomSource((tenantSeed(seed, tenant) ^ FIXTURE_KEY_SALT) >>> 0))
        : data;
    const budget = new StoreBudget(options.maxRecords, options.maxStoreBytes);
    const store = trusted
      ? await storeFromParts(keyed as FixtureParts, source, clock.now(), budget, trustRecord)
      : await (await environment.loadDomain()).storeFromFixture(keyed, source, clock.now(), budget);
    if (tenant === undefined)
      return new DomainState(store, clock, seed, {
        timings,
        userId: options.userId,
        agentServerVersion: options.agentServerVersion,
        agentUrl: options.agentUrl && new URL(options.agentUrl).origin,
        agentScripts,
        streaming: options.streaming,
        streamingTokensPerSecond: options.streamingTokensPerSecond,
      });
    return new DomainState(store, clock, tenantSeed(seed, tenant), {
      timings,
      userId: options.userId,
      agentServerVersion: options.agentServerVersion,
      agentUrl: options.agentUrl && new URL(options.agentUrl).origin,
      agentScripts,
      streaming: options.streaming,
      streamingTokensPerSecond: options.streamingTokensPerSecond,
    });
  };

  // The agent's scripts: the options', replaced as a whole through the control API (the same list for every state a reset loads).
  const agentScripts: AgentScript[] =
    options.agentScripts.length === 0 ? [] : resolveAgentScripts(options.agentScripts, (await environment.loadDomain()).AgentScript);
  const runner = new OperationRunner(
    await load(current.fixture, current.seed),
    async () => (await environment.loadDomain()).agentRuntime,
    async () => (await environment.loadDomain()).snapshots,
  );
  const latencyRandom = options.latency ? new RandomSource(options.seed) : null;

  const reset = async (resetOptions: ResetOptions = {}) => {
    const next = { fixture: resetOptions.fixture ?? current.fixture, seed: resetOptions.seed ?? current.seed };
    // A manual clock goes back to its start; a system clock drops what was advanced.
    const restartClock = options.clock === 'manual' || options.clock === 'system';
    const now = clock.now();
    if (restartClock) clock.set(options.clock === 'manual' ? start : Date.now());
    try {
      await runner.replaceState(await load(next.fixture, next.seed));
    } catch (error) {
      // Nothing changed: the old state stays, and so does its time.
      if (restartClock) clock.set(now);
      throw error;
    }
    current = next;
  };

  const resetByName = async ({ fixture, seed }: { fixture?: string; seed?: number }) => {
    if (fixture === undefined || (BUILT_IN_FIXTURES as readonly string[]).includes(fixture)) return reset({ fixture, seed });
    if (!options.fixturesDir)
      throw fixtureError(
        `"${fixture}"`,
        'no such fixture (the built-in ones are "default" and "empty"; start the server with --fixtures-dir to load others by name)',
      );
    const data = await environment.readNamedFixture(options.fixturesDir, fixture);
    return reset({ fixture: data, seed });
  };

  let openConnections = 0;
  let lastClosedAt = 0;
  const hold = () => {
    openConnections++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      openConnections--;
      lastClosedAt = Date.now();
    };
  };

  return {
    clock,
    runner,
    options,
    timings,
    reset,
    resetByName,
    hold,
    connections: () => ({ open: openConnections, lastClosedAt }),
    faults: createFaults(),
    journal: createJournal(options.journalSize),
    version: environment.version,
    snapshot: () => runner.snapshot(),
    onChange: (listener) => runner.subscribe(listener),
    nextLatency: () => (options.latency && latencyRandom ? latencyRandom.int(options.latency.min, options.latency.max) : 0),
    agentScripts: () => [...agentScripts],
    setAgentScripts: (scripts) => {
      agentScripts.splice(0, agentScripts.length, ...scripts);
    },
    tenants: null,
  };
}
