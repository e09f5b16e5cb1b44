import * as z from 'zod/mini';
import './schemas/messages.js';
import type { Clock } from './domain/time/clock.js';
import { DEFAULT_MANUAL_START } from './domain/time/clock.js';
import { INSTANT_TIMINGS, REALISTIC_TIMINGS, type Timings } from './domain/time/lifecycle.js';
import { formatPath } from './schemas/issue-path.js';
import type { AgentScript } from './schemas/agent-script.js';
import { FakehandsError } from './domain/store/errors.js';
import { DEFAULT_MAX_RECORDS, DEFAULT_MAX_STORE_BYTES } from './domain/store/table.js';
import type { FixtureInput } from './schemas/fixture.js';
import type { Recording } from './domain/recording/har.js';

/** The documented default session API key of the fake (it is not a secret of anyone's). */
export const DEFAULT_API_KEY = 'fakehands-dev-key';
/** The newest agent-server version the fake copies (software-agent-sdk, Aug 2026), the one its agent host speaks by default. */
export const NEWEST_AGENT_SERVER_VERSION = '1.43.0';
/** Where the API is mounted unless told otherwise. */
export const DEFAULT_BASE_URL = 'http://localhost:3000';

const TimingsObject = z.strictObject({
  sandboxStartMs: z.optional(z.number().check(z.gte(0))),
  startTaskStepMs: z.optional(z.number().check(z.gte(0))),
  agentRunMs: z.optional(z.number().check(z.gte(0))),
});

const isClock = (value: unknown): value is Clock =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Clock).now === 'function' &&
  typeof (value as Clock).advance === 'function';

/** Every knob of the fake, validated, with defaults. */
export const FakeOptions = z.strictObject({
  /** Absolute URL the API is mounted at; requests elsewhere are not intercepted. */
  baseUrl: z._default(z.url({ protocol: /^https?$/ }), DEFAULT_BASE_URL),
  /** The key expected in `X-Session-API-Key`. */
  apiKey: z._default(z.string().check(z.minLength(1)), DEFAULT_API_KEY),
  /**
   * Where the agent server of every RUNNING sandbox answers (its REST and its WebSocket), an origin
   * such as `http://localhost:3001`: `conversation_url` and the `AGENT_SERVER` URL point there, and
   * the handlers serve it. `null` (default): each sandbox names its own port and nothing answers there.
   */
  agentUrl: z._default(z.nullable(z.url({ protocol: /^https?$/ })), null),
  /** Where `fake.handlers` serve the scripted LLM (`fake.llm`: OpenAI and Anthropic APIs answering from `agentScripts`), an origin such as `http://llm.test`; `null` (default): not served. */
  llmUrl: z._default(z.nullable(z.url({ protocol: /^https?$/ })), null),
  /**
   * The agent's scripts: for each user message, the first whose `match` the text contains is run (else the built-in one).
   * Each script is checked by `resolveAgentScripts` with its schema, which comes with the service facade (a page's first chunks do without it).
   */
  agentScripts: z._default(
    z.array(z.unknown()).check(z.maxLength(1000)) as unknown as z.ZodMiniType<AgentScript[], z.input<typeof AgentScript>[]>,
    [],
  ),
  /** Which routes need the key: `legacy` (default: the real server with a session key configured, non-/api/v1 routes only), `all`, or `none` (what the real web client needs: it sends no key). */
  auth: z._default(z.enum(['all', 'legacy', 'none']), 'legacy'),
  /**
   * The agent-server version the agent host speaks (`MAJOR.MINOR.PATCH`, default the newest the fake
   * copies): before 1.3.0 (the Nov 2025 web app's 1.1.0) the terminal's events are
   * `ExecuteBashAction`/`ExecuteBashObservation`, not `TerminalAction`/`TerminalObservation`.
   */
  agentServerVersion: z._default(
    z.string().check(z.regex(/^\d+\.\d+\.\d+$/, 'expected a version MAJOR.MINOR.PATCH, such as 1.1.0')),
    NEWEST_AGENT_SERVER_VERSION,
  ),
  /** Token streaming: each agent message is preceded on the socket by `StreamingDeltaEvent` frames (never stored), as with the LLM's `stream` setting on every conversation. */
  streaming: z._default(z.boolean(), false),
  /** How fast streamed tokens arrive, on the fake's clock (tokens per second). */
  streamingTokensPerSecond: z._default(z.number().check(z.gt(0), z.lte(100_000)), 50),
  /** Seed of every generated id, name, key and timestamp. */
  seed: z._default(z.int(), 1),
  /** The data to start from: `default`, `empty`, a path to a JSON file, a fixture object, or a function returning one (called on create and every reset, so a large data set is not kept twice). */
  fixture: z._default(
    z.union([
      z.string().check(z.minLength(1)),
      z.custom<FixtureInput>(
        (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
        'expected a fixture name, path, object or function',
      ),
      z.custom<() => FixtureInput>((v) => typeof v === 'function', 'expected a fixture name, path, object or function'),
    ]),
    'default',
  ),
  /**
   * A recording to start from instead of `fixture`: a folder `fakehands record` wrote or a HAR file
   * (by path, in Node), or one parsed (`{ har, conversations }`). Its conversations and their events,
   * sandboxes, settings and secret names (never values) seed the store; `null` (default): none.
   */
  recording: z._default(
    z.nullable(
      z.union([
        z.string().check(z.minLength(1)),
        z.custom<Recording>(
          (v) => typeof v === 'object' && v !== null && 'har' in v,
          'expected a path, or a recording { har, conversations }',
        ),
      ]),
    ),
    null,
  ),
  /** How long time-driven steps take: `realistic` (default), `instant`, or per-step milliseconds. */
  timings: z._default(z.union([z.enum(['realistic', 'instant']), TimingsObject]), 'realistic'),
  /**
   * `system` (default: `Date.now()`, so vitest's fake timers drive it, plus what `clock.advance` adds),
   * `manual` (moves only with `clock.advance`, starting at `now`), or your own `Clock`.
   */
  clock: z._default(z.union([z.enum(['manual', 'system']), z.custom<Clock>(isClock, 'expected "manual", "system" or a Clock')]), 'system'),
  /** Start of a manual clock (a fixed instant, for deterministic snapshots). */
  now: z._default(z.union([z.string(), z.date(), z.number()]), DEFAULT_MANUAL_START),
  /** `created_by_user_id` of what the caller creates. */
  userId: z._default(z.nullable(z.string()), null),
  /** Extra latency per request in milliseconds, picked between min and max by a generator seeded with `seed`. */
  latency: z._default(
    z.nullable(
      z
        .strictObject({ min: z.int().check(z.gte(0)), max: z.int().check(z.gte(0)) })
        .check(z.refine((l) => l.min <= l.max, 'min must not exceed max')),
    ),
    null,
  ),
  /** A folder whose `NAME.json` files the control API's reset may load by name (regular files only); none by default. */
  fixturesDir: z._default(z.nullable(z.string().check(z.minLength(1))), null),
  /** Most records the fake holds (sandboxes, conversations, start tasks, specs); a create past it answers 507. */
  maxRecords: z._default(z.int().check(z.gte(1)), DEFAULT_MAX_RECORDS),
  /** Most bytes of records (their JSON) the fake holds; a change past it answers 507. */
  maxStoreBytes: z._default(z.int().check(z.gte(1024)), DEFAULT_MAX_STORE_BYTES),
  /** Most tenants (named by `X-Fakehands-Tenant` or a `fakehands_tenant` cookie) held at once, besides the default one; one more answers 429. */
  maxTenants: z._default(z.int().check(z.gte(0), z.lte(10_000)), 64),
  /** A tenant unused for this many milliseconds is dropped (`null`: kept until deleted). */
  tenantIdleMs: z._default(z.nullable(z.int().check(z.gte(1))), null),
  /** How many answered requests the journal keeps. */
  journalSize: z._default(z.int().check(z.gte(1), z.lte(100_000)), 500),
  /** Check every answer against its route's response schema and throw on a violation (for test suites). */
  checkResponses: z._default(z.boolean(), false),
});

/** Options of `createFake`, as written by the caller (everything optional). */
export type FakeOptionsInput = z.input<typeof FakeOptions>;
/** Options of `createFake` with defaults applied. */
export type ResolvedFakeOptions = z.output<typeof FakeOptions>;

/** Validates options; throws an error naming each bad option. */
export function resolveOptions(input: FakeOptionsInput = {}): ResolvedFakeOptions {
  // The same options object (a fake's tenants are made from it, one by one) is resolved once.
  const known = RESOLVED.get(input);
  if (known) return known;
  const result = FakeOptions.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ');
    throw new FakehandsError('invalid_options', `Failed to create the fake: invalid options (${problems}). See "Options" in the README.`);
  }
  RESOLVED.set(input, result.data);
  return result.data;
}

/**
 * Checks the `agentScripts` option with its schema (given by the caller: it comes with the service
 * facade); throws an error naming each bad step, as `resolveOptions` does.
 */
export function resolveAgentScripts(scripts: readonly unknown[], schema: typeof AgentScript): AgentScript[] {
  const result = z.array(schema).safeParse(scripts);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${formatPath(['agentScripts', ...issue.path])}: ${issue.message}`).join('; ');
  throw new FakehandsError('invalid_options', `Failed to create the fake: invalid options (${problems}). See "Options" in the README.`);
}

/** Options resolved before, by the object given. */
const RESOLVED = new WeakMap<object, ResolvedFakeOptions>();

/** The timings an option names. */
export function resolveTimings(option: ResolvedFakeOptions['timings']): Timings {
  if (option === 'realistic') return REALISTIC_TIMINGS;
  if (option === 'instant') return INSTANT_TIMINGS;
  return { ...REALISTIC_TIMINGS, ...Object.fromEntries(Object.entries(option).filter(([, v]) => v !== undefined)) };
}
