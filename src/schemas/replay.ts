/**
 * Replay (issue 32): what `POST /_fakehands/replay`, `replay_json` on the legacy
 * `POST /api/conversations` and `fakehands serve --replay FILE` accept, and what the control route
 * answers. A V0 trajectory is the format of OpenHands' `tests/runtime/trajs/*.json` and of the web
 * app's trajectory export (`openhands/events/serialization/event.py`: each event an action or an
 * observation, with `source`, `timestamp` and its `args` or `extras`); V1 events are the agent
 * server's, as its events search gives them. Fakehands' own: the real control plane has no replay route.
 */
import * as z from 'zod/mini';

/** Most events one replay holds. */
export const MAX_REPLAY_EVENTS = 10_000;
/**
 * Most bytes one replayed event may hold (an event file of a ZIP inflated, an event of a JSON body as JSON): as much as any request body the fake takes (1 MiB), so
 * a replayed event is no larger than one a client could send, and reading it holds the loop for
 * tens of milliseconds at most. A real event is far smaller (the SDK cuts a terminal's output at
 * 30,000 characters, `MAX_CMD_OUTPUT_SIZE` in openhands-tools `terminal/constants.py`).
 */
export const MAX_REPLAY_EVENT_BYTES = 1024 * 1024;
/**
 * Largest JSON body `POST /_fakehands/replay` reads (64 MiB, past the server's 1 MiB): as much as
 * the ZIP route's events may inflate to, so a session replays by either route. Past it: 413.
 */
export const MAX_REPLAY_JSON_BYTES = 64 * 1024 * 1024;
/** Most values a replay's JSON body may hold: 100 per event of `MAX_REPLAY_EVENTS` (a real session's events hold a few dozen each). */
export const MAX_REPLAY_BODY_VALUES = 100 * MAX_REPLAY_EVENTS;

/** One event of a V0 trajectory: an action (`action`) or an observation (`observation`), with its fields kept as they are. */
export const V0TrajectoryEvent = z
  .looseObject({
    id: z.optional(z.int()),
    timestamp: z.optional(z.string()),
    source: z.optional(z.string()),
    message: z.optional(z.string()),
    action: z.optional(z.string()),
    observation: z.optional(z.string()),
    cause: z.optional(z.nullable(z.int())),
    content: z.optional(z.string()),
    args: z.optional(z.record(z.string(), z.unknown())),
    extras: z.optional(z.record(z.string(), z.unknown())),
  })
  .check(
    z.refine((e) => e.action !== undefined || e.observation !== undefined, 'an event of a trajectory has an `action` or an `observation`'),
  );
export type V0TrajectoryEvent = z.infer<typeof V0TrajectoryEvent>;

/** A V0 trajectory: its events, oldest first. */
export const V0Trajectory = z.array(V0TrajectoryEvent).check(z.maxLength(MAX_REPLAY_EVENTS));

/** One agent-server (V1) event as events search gives it: `kind`, `source`, and its kind's fields. */
export const V1RecordedEvent = z.looseObject({
  kind: z.string().check(z.minLength(1), z.maxLength(200)),
  id: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  source: z.enum(['agent', 'user', 'environment', 'hook']),
});
export type V1RecordedEvent = z.infer<typeof V1RecordedEvent>;

/** How fast a replay goes: the recorded gaps divided by a factor, or `instant` (everything at once). */
export const ReplaySpeed = z.union([z.number().check(z.gt(0), z.lte(1_000_000)), z.literal('instant')]);
export type ReplaySpeed = z.infer<typeof ReplaySpeed>;

/** `POST /_fakehands/replay/zip`'s query: how fast the archive's events come (`speed=4`, `speed=instant`; default 1). */
export const ReplayZipQuery = z.object({
  speed: z.optional(
    z.pipe(
      z.string(),
      z.transform((value, ctx): ReplaySpeed => {
        if (value === 'instant') return 'instant';
        const factor = Number(value);
        if (value.trim() !== '' && Number.isFinite(factor) && factor > 0 && factor <= 1_000_000) return factor;
        ctx.issues.push({ code: 'custom', message: 'speed is a factor above 0 (at most 1000000), or "instant"', input: value });
        return 1;
      }),
    ),
  ),
});

/** `POST /_fakehands/replay`: a V0 `trajectory` or V1 `events` (exactly one), and an optional `speed` (default 1: as recorded). */
export const ReplayRequest = z
  .strictObject({
    trajectory: z.optional(V0Trajectory),
    events: z.optional(z.array(V1RecordedEvent).check(z.maxLength(MAX_REPLAY_EVENTS))),
    speed: z.optional(ReplaySpeed),
  })
  .check(
    z.refine((r) => (r.trajectory === undefined) !== (r.events === undefined), 'give exactly one of `trajectory` (V0) and `events` (V1)'),
  );
export type ReplayRequest = z.infer<typeof ReplayRequest>;

/** `POST /_fakehands/replay`'s answer: the new V1 conversation, RUNNING, and how to reach its agent host. */
export const ReplayStarted = z.object({
  app_conversation_id: z.string(),
  conversation_id: z.string(),
  conversation_url: z.string(),
  session_api_key: z.string(),
});
export type ReplayStarted = z.infer<typeof ReplayStarted>;
