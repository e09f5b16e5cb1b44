import { Faker, base, en } from '@faker-js/faker';

/** Letters of the base62 alphabet used for sandbox ids and keys. */
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Length of a sandbox's session API key (base62, like the real service's ~43 characters). */
export const SESSION_KEY_LENGTH = 43;

/**
 * The fake's only source of randomness. Seeded, so every id, name, key and
 * sub-millisecond timestamp digit is repeatable.
 */
export class RandomSource {
  /** The seeded faker instance, for realistic names in generated data. */
  readonly faker: Faker;

  /** Creates a source seeded with `seed`. */
  constructor(seed: number) {
    this.faker = new Faker({ locale: [en, base] });
    this.faker.seed(seed);
  }

  /** A random UUID v4 in hyphenated form. */
  uuid(): string {
    return this.faker.string.uuid();
  }

  /** `length` random base62 characters. */
  base62(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += BASE62[this.faker.number.int({ min: 0, max: BASE62.length - 1 })];
    return out;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return this.faker.number.int({ min, max });
  }

  /** A sandbox id like the real Docker sandbox service's (`oh-agent-server-<base62>`). */
  sandboxId(): string {
    return `oh-agent-server-${this.base62(22)}`;
  }

  /** A per-sandbox session API key. */
  sessionKey(): string {
    return this.base62(SESSION_KEY_LENGTH);
  }
}

/** Writes a UUID as 32 hex digits without dashes, the legacy conversation id form. */
export function toHex(uuid: string): string {
  return uuid.replaceAll('-', '').toLowerCase();
}

/** Normalises a UUID given in any accepted form (hex, hyphenated, urn:) to hyphenated lowercase, or `null` when it is none. */
export function toHyphenatedUuid(value: string): string | null {
  const hex = value.replace(/^urn:uuid:/i, '').replaceAll('-', '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
