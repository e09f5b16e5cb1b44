/**
 * The control API under `/_fakehands/` (health, reset, state, clock, faults, request journal):
 * what it accepts and answers. Not part of the real service; fakehands' own.
 */
import { z } from 'zod';
import { Fixture } from './records.js';

/** Most time one `POST /_fakehands/clock` may advance: a year. */
export const MAX_CLOCK_ADVANCE_MS = 365 * 24 * 3600 * 1000;

/** `GET /_fakehands/health`. */
export const Health = z.object({ status: z.literal('ok') });

/** Names of the fixtures that ship with fakehands. */
export const BUILT_IN_FIXTURES = Object.freeze(['default', 'empty'] as const);

/** Longest path pattern of a fault (a request is matched against every fault: bounded work). */
export const MAX_FAULT_PATH_CHARS = 2048;

/** A fixture's name: a built-in one, or a `NAME.json` in the `--fixtures-dir` (never a path: the control API reads no other file). */
export const FixtureName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'a fixture name: letters, digits, "-" and "_" (default, empty, or a file in --fixtures-dir)');

/** `POST /_fakehands/reset`: a fixture by name and a seed, both optional. */
export const ResetRequest = z.strictObject({ fixture: FixtureName.optional(), seed: z.int().optional() });

/** `POST /_fakehands/clock`. */
export const ClockAdvance = z.strictObject({ advance_ms: z.int().min(0).max(MAX_CLOCK_ADVANCE_MS) });
/** The fake's time. */
export const ClockTime = z.object({ now: z.string() });

const FaultCommon = {
  /** HTTP method the fault applies to, or `*` for any. */
  method: z.enum(['GET', 'POST', 'PATCH', 'DELETE', 'PUT', '*']).default('*'),
  /** Path pattern relative to the base URL: `/api/v1/sandboxes/:sandbox_id/pause`, `*` matches the rest. */
  path: z.string().startsWith('/', 'a path pattern starts with "/"').max(MAX_FAULT_PATH_CHARS),
  /** How many matching requests it applies to (default 1). */
  times: z.int().min(1).default(1),
  /** Apply to every matching request until cleared (overrides `times`). */
  sticky: z.boolean().default(false),
};

/** A fault to inject, as `fake.faults.add()` and `POST /_fakehands/faults` take it. */
export const FaultSpec = z.discriminatedUnion('kind', [
  z.strictObject({ ...FaultCommon, kind: z.literal('status'), status: z.int().min(400).max(599), body: z.unknown().optional() }),
  z.strictObject({ ...FaultCommon, kind: z.literal('network') }),
  z.strictObject({ ...FaultCommon, kind: z.literal('delay'), delay_ms: z.int().min(0).max(60_000) }),
  z.strictObject({ ...FaultCommon, kind: z.literal('sandbox_error'), sandbox_id: z.string().optional() }),
]);
/** A fault as written by the caller. */
export type FaultSpecInput = z.input<typeof FaultSpec>;

/** A fault held by the fake: its spec, an id, and how many more requests it applies to (`null`: until cleared). */
export const Fault = z.intersection(FaultSpec, z.object({ id: z.int(), remaining: z.int().nullable() }));
/** A fault held by the fake. */
export type Fault = z.output<typeof Fault>;

/** `GET /_fakehands/faults`. */
export const FaultList = z.object({ faults: z.array(Fault) });
/** `DELETE /_fakehands/faults`. */
export const FaultsCleared = z.object({ cleared: z.int().min(0) });

/** One answered request. No header is kept, so no key or token can be in it. */
export const JournalEntry = z.object({
  /** Position in the run, from 1. */
  seq: z.int(),
  /** When it was answered (wall clock, ISO 8601). */
  at: z.string(),
  method: z.string(),
  /** Path relative to the base URL, without the query string. */
  path: z.string(),
  /** The query string, if any (`?limit=2`). */
  query: z.string(),
  status: z.int(),
  /** Time spent answering, in milliseconds. */
  duration_ms: z.number(),
});
/** One answered request. */
export type JournalEntry = z.output<typeof JournalEntry>;

/** `GET /_fakehands/requests?limit=`. */
export const JournalQuery = z.object({ limit: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), z.int().gt(0).lte(100_000)).optional() });
/** `GET /_fakehands/requests`. */
export const JournalPage = z.object({ requests: z.array(JournalEntry) });
/** `DELETE /_fakehands/requests`. */
export const JournalCleared = z.object({ cleared: z.literal(true) });

/** `GET /_fakehands/state`: everything the fake holds. */
export const StateSnapshot = Fixture;
/** `POST /_fakehands/reset`. */
export const ResetDone = Health;
