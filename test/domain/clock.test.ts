import { describe, expect, it } from 'vitest';
import { createManualClock, createSystemClock } from '../../src/domain/time/clock.js';
import { canonicalDateTime, formatDateTime, parseDateTimeMicros } from '../../src/schemas/datetime.js';

describe('createManualClock', () => {
  it('starts where told and moves only with advance', () => {
    const clock = createManualClock('2025-11-03T09:00:00Z');
    expect(clock.now()).toBe(Date.parse('2025-11-03T09:00:00Z'));
    clock.advance(2500);
    expect(clock.now()).toBe(Date.parse('2025-11-03T09:00:02.500Z'));
  });

  it('refuses to go backwards or by a non-number, saying what to do instead', () => {
    const clock = createManualClock();
    expect(() => clock.advance(-1)).toThrow(
      'Failed to advance the fake clock: expected a finite, non-negative number of milliseconds, got -1. Time never goes backwards; use clock.set() to jump.',
    );
    expect(() => clock.advance(Number.NaN)).toThrow(/got NaN/);
    expect(() => clock.set('not a date')).toThrow('Failed to set the fake clock: "not a date" is not a valid date.');
  });
});

describe('createSystemClock', () => {
  it('is wall time plus what advance adds', () => {
    const clock = createSystemClock();
    clock.advance(3_600_000);
    expect(clock.now() - Date.now()).toBeGreaterThanOrEqual(3_599_000);
  });
});

describe('datetimes', () => {
  it('are written as pydantic writes them, with microseconds and Z', () => {
    expect(formatDateTime(Date.parse('2025-11-03T09:00:00.123Z'), 456)).toBe('2025-11-03T09:00:00.123456Z');
  });

  it('are read in any offset and brought to the canonical form', () => {
    expect(canonicalDateTime('2025-11-03T11:00:00.5+02:00')).toBe('2025-11-03T09:00:00.500000Z');
    expect(parseDateTimeMicros('2025-11-03T09:00:00.000001Z') - parseDateTimeMicros('2025-11-03T09:00:00Z')).toBe(1);
    expect(parseDateTimeMicros('yesterday')).toBeNaN();
  });
});
