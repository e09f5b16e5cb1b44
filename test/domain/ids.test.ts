/**
 * The seeded id source (`domain/store/ids.ts`, `RandomSource`): conversation and start-task ids are
 * random UUIDs v4, repeatable from the seed. `uuid()` writes one string of character codes; the
 * values below are what the earlier spliced-list implementation handed out for seed 7, so a change
 * of its bytes, order, dashes or version bits fails here.
 */
import { describe, expect, it } from 'vitest';
import { RandomSource } from '../../src/domain/store/ids.js';

describe('RandomSource.uuid', () => {
  it('hands out the same hyphenated UUIDs for the same seed', () => {
    const source = new RandomSource(7);
    expect([source.uuid(), source.uuid(), source.uuid()]).toEqual([
      'a8327efb-1d44-4955-bbe6-72b05f0d6320',
      '36dd0642-d374-4834-be75-54e0949dcf1c',
      'd7372e4a-546f-4ca1-aea1-48d8ecf5fb98',
    ]);
  });

  it('writes every id as a version 4, RFC 4122 variant UUID in lowercase hex', () => {
    const source = new RandomSource(12345);
    const ids = Array.from({ length: 2000 }, () => source.uuid());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
