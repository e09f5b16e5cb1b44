import { z } from 'zod';
import type { Clock } from './domain/clock.js';
import { DEFAULT_MANUAL_START } from './domain/clock.js';
import { INSTANT_TIMINGS, REALISTIC_TIMINGS, type Timings } from './domain/lifecycle.js';
import { formatPath } from './schemas/issue-path.js';
import { AgentScript } from './schemas/agent-server.js';
import { FakehandsError } from './domain/errors.js';
import { DEFAULT_MAX_RECORDS, DEFAULT_MAX_STORE_BYTES } from './domain/table.js';
import type { FixtureInput } from './schemas/records.js';

/** The documented default session API key of the fake (it is not a secret of anyone's). */
export const DEFAULT_API_KEY = 'fakehands-dev-key';
/** Where the API is mounted unless told otherwise. */
export const DEFAULT_BASE_URL = 'http://localhost:3000';

const TimingsObject = z.strictObject({
  sandboxStartMs: z.number().min(0).optional(),
  startTaskStepMs: z.number().min(0).optional(),
  agentRunMs: z.number().min(0).optional(),
});

const isClock = (value: unknown): value is Clock =>
  typeof value === 'object' && value !== null && typeof (value as Clock).now === 'function' && typeof (value as Clock).advance === 'function';

/** Every knob of the fake, validated, with defaults. */
export const FakeOptions = z.strictObject({
  /** Absolute URL the API is mounted at; requests elsewhere are not intercepted. */
  baseUrl: z.url({ protocol: /^https?$/ }).default(DEFAULT_BASE_URL),
  /** The key expected in `X-Session-API-Key`. */
  apiKey: z.string().min(1).default(DEFAULT_API_KEY),
  /**
   * Where the agent server of every RUNNING sandbox answers (its REST and its WebSocket), an origin
   * such as `http://localhost:3001`: `conversation_url` and the `AGENT_SERVER` URL point there, and
   * the handlers serve it. `null` (default): each sandbox names its own port and nothing answers there.
   */
  agentUrl: z.url({ protocol: /^https?$/ }).nullable().default(null),
  /** The agent's scripts: for each user message, the first whose `match` the text contains is run (else the built-in one). */
  agentScripts: z.array(AgentScript).max(1000).default([]),
  /** Which routes need the key: `legacy` (default: the real server with a session key configured, non-/api/v1 routes only), `all`, or `none` (what the real web client needs: it sends no key). */
  auth: z.enum(['all', 'legacy', 'none']).default('legacy'),
  /** Seed of every generated id, name, key and timestamp. */
  seed: z.int().default(1),
  /** The data to start from: `default`, `empty`, a path to a JSON file, a fixture object, or a function returning one (called on create and every reset, so a large data set is not kept twice). */
  fixture: z.union([
    z.string().min(1),
    z.custom<FixtureInput>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'expected a fixture name, path, object or function'),
    z.custom<() => FixtureInput>((v) => typeof v === 'function', 'expected a fixture name, path, object or function'),
  ]).default('default'),
  /** How long time-driven steps take: `realistic` (default), `instant`, or per-step milliseconds. */
  timings: z.union([z.enum(['realistic', 'instant']), TimingsObject]).default('realistic'),
  /**
   * `system` (default: `Date.now()`, so vitest's fake timers drive it, plus what `clock.advance` adds),
   * `manual` (moves only with `clock.advance`, starting at `now`), or your own `Clock`.
   */
  clock: z.union([z.enum(['manual', 'system']), z.custom<Clock>(isClock, 'expected "manual", "system" or a Clock')]).default('system'),
  /** Start of a manual clock (a fixed instant, for deterministic snapshots). */
  now: z.union([z.string(), z.date(), z.number()]).default(DEFAULT_MANUAL_START),
  /** `created_by_user_id` of what the caller creates. */
  userId: z.string().nullable().default(null),
  /** Extra latency per request in milliseconds, picked between min and max by a generator seeded with `seed`. */
  latency: z.strictObject({ min: z.int().min(0), max: z.int().min(0) }).refine((l) => l.min <= l.max, 'min must not exceed max').nullable().default(null),
  /** A folder whose `NAME.json` files the control API's reset may load by name (regular files only); none by default. */
  fixturesDir: z.string().min(1).nullable().default(null),
  /** Most records the fake holds (sandboxes, conversations, start tasks, specs); a create past it answers 507. */
  maxRecords: z.int().min(1).default(DEFAULT_MAX_RECORDS),
  /** Most bytes of records (their JSON) the fake holds; a change past it answers 507. */
  maxStoreBytes: z.int().min(1024).default(DEFAULT_MAX_STORE_BYTES),
  /** Most tenants (named by `X-Fakehands-Tenant` or a `fakehands_tenant` cookie) held at once, besides the default one; one more answers 429. */
  maxTenants: z.int().min(0).max(10_000).default(64),
  /** A tenant unused for this many milliseconds is dropped (`null`: kept until deleted). */
  tenantIdleMs: z.int().min(1).nullable().default(null),
  /** How many answered requests the journal keeps. */
  journalSize: z.int().min(1).max(100_000).default(500),
  /** Check every answer against its route's response schema and throw on a violation (for test suites). */
  checkResponses: z.boolean().default(false),
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

/** Options resolved before, by the object given. */
const RESOLVED = new WeakMap<object, ResolvedFakeOptions>();

/** The timings an option names. */
export function resolveTimings(option: ResolvedFakeOptions['timings']): Timings {
  if (option === 'realistic') return REALISTIC_TIMINGS;
  if (option === 'instant') return INSTANT_TIMINGS;
  return { ...REALISTIC_TIMINGS, ...Object.fromEntries(Object.entries(option).filter(([, v]) => v !== undefined)) };
}
