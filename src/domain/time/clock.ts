import { FakehandsError } from '../store/errors.js';

/** The default start of a manual clock: a fixed instant, so seeded runs are repeatable. */
export const DEFAULT_MANUAL_START = '2025-11-03T09:00:00.000Z';

/** The fake's source of time. Time-driven steps are derived from it when state is read. */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
  /** Moves time forward by `ms` milliseconds (also on a system clock, as an offset). */
  advance(ms: number): void;
  /** Sets the current time (manual clocks) or the offset that makes it so (system clocks). */
  set(time: Date | string | number): void;
}

/** The last instant the fake's time may reach: the end of year 9999 (Python's datetime ends there). */
export const MAX_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** Refuses a time past `MAX_INSTANT_MS`. */
function assertWithinRange(ms: number, what: string): void {
  if (ms > MAX_INSTANT_MS) {
    throw new FakehandsError(
      'invalid_time',
      `Failed to ${what}: it would pass the end of year 9999, the last instant a datetime can hold. Reset the fake, or move it less far.`,
    );
  }
}

function assertAdvance(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new FakehandsError(
      'invalid_time',
      `Failed to advance the fake clock: expected a finite, non-negative number of milliseconds, got ${ms}. Time never goes backwards; use clock.set() to jump.`,
    );
  }
}

function toEpoch(time: Date | string | number): number {
  const ms = time instanceof Date ? time.getTime() : typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms))
    throw new FakehandsError('invalid_time', `Failed to set the fake clock: "${String(time)}" is not a valid date.`);
  return ms;
}

/**
 * A clock that moves only when told: the default in tests.
 * @example
 * const clock = createManualClock('2025-11-03T09:00:00Z'); clock.advance(2000)
 */
export function createManualClock(start: Date | string | number = DEFAULT_MANUAL_START): Clock {
  let current = toEpoch(start);
  return {
    now: () => current,
    advance(ms) {
      assertAdvance(ms);
      assertWithinRange(current + ms, 'advance the fake clock');
      current += ms;
    },
    set(time) {
      const at = toEpoch(time);
      assertWithinRange(at, 'set the fake clock');
      current = at;
    },
  };
}

/**
 * Wall-clock time plus an offset that `advance` grows: the default of the dev server.
 * @example
 * const clock = createSystemClock(); clock.advance(60_000) // a minute from now
 */
export function createSystemClock(): Clock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      assertAdvance(ms);
      assertWithinRange(Date.now() + offset + ms, 'advance the fake clock');
      offset += ms;
    },
    set(time) {
      const at = toEpoch(time);
      assertWithinRange(at, 'set the fake clock');
      offset = at - Date.now();
    },
  };
}
