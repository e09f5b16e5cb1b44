import { describe, expect, it } from 'vitest';
import { createManualClock, createSystemClock } from '../../src/domain/time/clock.js';
import { naiveTimestamp } from '../../src/domain/fixtures/load.js';
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

  it("are Date's ISO text to the millisecond, then the microseconds, for times in any order (the text of each second is kept)", () => {
    const reference = (ms: number, micros: number) => `${new Date(ms).toISOString().slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
    const base = Date.parse('2025-11-03T09:00:59.998Z');
    const times = [
      base,
      base + 1,
      base + 2,
      base + 2.75,
      base + 1001,
      base - 86_400_000,
      0,
      -0,
      -1,
      -999.5,
      -1000,
      -1001,
      Date.parse('0500-01-01T00:00:00.007Z'),
      Date.parse('9999-12-31T23:59:59.999Z'),
      Date.parse('+010000-01-01T00:00:00.001Z'),
      Date.parse('-000001-06-01T12:00:00.500Z'),
      8.64e15,
      -8.64e15,
    ];
    for (let i = 0; i < 200; i++) times.push(base + Math.floor(((i * 7919) % 5000) - 2500) + (i % 3) / 3);
    for (const [i, ms] of [...times, ...times.reverse()].entries())
      expect(formatDateTime(ms, i % 1000), String(ms)).toBe(reference(ms, i % 1000));
    for (const ms of [Number.NaN, 8.64e15 + 1, Number.POSITIVE_INFINITY]) expect(() => formatDateTime(ms)).toThrow(RangeError);
  });

  it("are written naive for an event's timestamp: the offset or Z cut, whatever the text", () => {
    for (const stored of [
      '2025-11-03T09:00:00.123456Z',
      '2025-11-03T09:00:00+02:00',
      '2025-11-03T09:00:00-11:30',
      'Z',
      'ZZ',
      '',
      'x',
      'Zx',
      '+02:00Z',
    ])
      expect(naiveTimestamp(stored), stored).toBe(stored.replace(/(Z|[+-]\d{2}:\d{2})$/, ''));
    expect(naiveTimestamp('2025-11-03T09:00:00.123456Z')).toBe('2025-11-03T09:00:00.123456');
  });

  it('are read in any offset and brought to the canonical form', () => {
    expect(canonicalDateTime('2025-11-03T11:00:00.5+02:00')).toBe('2025-11-03T09:00:00.500000Z');
    expect(parseDateTimeMicros('2025-11-03T09:00:00.000001Z') - parseDateTimeMicros('2025-11-03T09:00:00Z')).toBe(1);
    expect(parseDateTimeMicros('yesterday')).toBeNaN();
  });
});
