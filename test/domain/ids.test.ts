/**
 * The seeded id source (`domain/store/ids.ts`, `RandomSource`): conversation and start-task ids are
 * random UUIDs v4, repeatable from the seed. `uuid()` writes one string of character codes; the
 * values below are what the earlier spliced-list implementation handed out for seed 7, so a change
 * of its bytes, order, dashes or version bits fails here.
 */
import { describe, expect, it } from 'vitest';
import { RandomSource, toHyphenatedUuid } from '../../src/domain/store/ids.js';

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

describe('toHyphenatedUuid', () => {
  /** The rule in full: `urn:uuid:` and hyphens anywhere dropped, any case, then 32 hex digits written hyphenated in lowercase. */
  const rule = (value: string) => {
    const hex = value
      .replace(/^urn:uuid:/i, '')
      .replaceAll('-', '')
      .toLowerCase();
    return /^[0-9a-f]{32}$/.test(hex)
      ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
      : null;
  };

  it('gives what the rule in full gives for every form, the quick ones (hyphenated or hex, lowercase) included', () => {
    const hyphenated = '5d2b58b3-3a0f-4b8e-9c57-3a9c3a4c2f10';
    const hex = hyphenated.replaceAll('-', '');
    const values = [
      hyphenated,
      hex,
      hyphenated.toUpperCase(),
      hex.toUpperCase(),
      `${hyphenated.slice(0, 8).toUpperCase()}${hyphenated.slice(8)}`,
      `${hex.slice(0, 31)}F`,
      `urn:uuid:${hyphenated}`,
      `URN:UUID:${hex}`,
      hex.slice(1),
      `${hex}0`,
      `${hyphenated}-`,
      `-${hex}`,
      '5d2b58b33a0f-4b8e-9c57-3a9c3a4c2f10',
      '5d2b58b3-3a0f4b8e-9c57-3a9c3a4c2f1-0',
      hyphenated.replace('5', 'g'),
      hex.replace('5', 'g'),
      `${hex}\n`,
      ` ${hex}`,
      '',
      '-',
    ];
    for (const value of values) expect(toHyphenatedUuid(value), value).toBe(rule(value));
    expect(toHyphenatedUuid(hex)).toBe(hyphenated);
    expect(toHyphenatedUuid(hyphenated)).toBe(hyphenated);
  });
});
