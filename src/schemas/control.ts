/**
 * The control API under `/_fakehands/` (health, reset, state, clock, faults, request journal):
 * what it accepts and answers. Not part of the real service; fakehands' own.
 */
import * as z from 'zod/mini';
import { FaultSpec } from './faults.js';
import { LaxBool } from './helpers.js';

export { BUILT_IN_FIXTURES, FaultSpec, MAX_FAULT_PATH_CHARS, type FaultSpecInput } from './faults.js';

/** Most time one `POST /_fakehands/clock` may advance: a year. */
export const MAX_CLOCK_ADVANCE_MS = 365 * 24 * 3600 * 1000;

/** `GET /_fakehands/health`. */
export const Health = z.object({ status: z.literal('ok') });

/** A fixture's name: a built-in one, or a `NAME.json` in the `--fixtures-dir` (never a path: the control API reads no other file). */
export const FixtureName = z
  .string()
  .check(
    z.regex(
      /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
      'a fixture name: letters, digits, "-" and "_" (default, empty, or a file in --fixtures-dir)',
    ),
  );

/** `POST /_fakehands/reset`: a fixture by name and a seed, both optional. */
export const ResetRequest = z.strictObject({ fixture: z.optional(FixtureName), seed: z.optional(z.int()) });

/** `POST /_fakehands/clock`. */
export const ClockAdvance = z.strictObject({ advance_ms: z.int().check(z.gte(0), z.lte(MAX_CLOCK_ADVANCE_MS)) });
/** The fake's time. */
export const ClockTime = z.object({ now: z.string() });

/** A fault held by the fake: its spec, an id, and how many more requests it applies to (`null`: until cleared). */
export const Fault = z.intersection(FaultSpec, z.object({ id: z.int(), remaining: z.nullable(z.int()) }));
/** A fault held by the fake. */
export type Fault = z.output<typeof Fault>;

/** `GET /_fakehands/faults`. */
export const FaultList = z.object({ faults: z.array(Fault) });
/** `DELETE /_fakehands/faults`. */
export const FaultsCleared = z.object({ cleared: z.int().check(z.gte(0)) });

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
  /** Why it missed, in one line: the nearest routes of a 404 no route has, the methods a 405's path allows, the fields a 422 refused. Absent otherwise. */
  miss: z.optional(z.string()),
});
/** One answered request. */
export type JournalEntry = z.output<typeof JournalEntry>;

/** `GET /_fakehands/journal?limit=&misses=` (and `/_fakehands/requests`, its earlier name). */
export const JournalQuery = z.object({
  limit: z.optional(
    z.pipe(
      z.transform((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v)),
      z.int().check(z.gt(0), z.lte(100_000)),
    ),
  ),
  /** Only the misses (`miss` set): the last `limit` of them. */
  misses: z.optional(LaxBool),
});
/** `GET /_fakehands/journal`. */
export const JournalPage = z.object({ requests: z.array(JournalEntry) });
/** `DELETE /_fakehands/journal`. */
export const JournalCleared = z.object({ cleared: z.literal(true) });

/** `POST /_fakehands/reset`. */
export const ResetDone = Health;
