/** Letters of the base62 alphabet used for sandbox ids and keys. */
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Length of a sandbox's session API key (base62, like the real service's ~43 characters). */
export const SESSION_KEY_LENGTH = 43;

/** Character codes of the hex digits, for UUIDs. */
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
/** Character code of `-`. */
const DASH = 45;
/** The character codes of the UUID being written (36: 32 hex digits, 4 dashes), reused by every `uuid()`. */
const UUID_CODES = new Array<number>(36).fill(0);

/**
 * The fake's only source of randomness. Seeded, so every id, key and sub-millisecond timestamp
 * digit is repeatable. A small fast generator (mulberry32): serving never loads faker.
 */
export class RandomSource {
  #state: number;

  /** Creates a source seeded with `seed`. */
  constructor(seed: number) {
    this.#state = (seed ^ 0x9e3779b9) >>> 0;
  }

  /** The next 32 random bits. */
  #next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A random UUID v4 in hyphenated form. */
  uuid(): string {
    // The 36 character codes written into one reused array and made one flat string at once: no
    // list of byte strings spliced and joined per id (two ids per create: ~1 KB of garbage each).
    const codes = UUID_CODES;
    let at = 0;
    for (let i = 0; i < 4; i++) {
      const word = this.#next();
      for (let shift = 0; shift < 32; shift += 8) {
        let byte = (word >>> shift) & 0xff;
        const index = i * 4 + (shift >>> 3);
        if (index === 6) byte = (byte & 0x0f) | 0x40;
        else if (index === 8) byte = (byte & 0x3f) | 0x80;
        if (index === 4 || index === 6 || index === 8 || index === 10) codes[at++] = DASH;
        codes[at++] = HEX_CODES[byte >>> 4]!;
        codes[at++] = HEX_CODES[byte & 0x0f]!;
      }
    }
    return String.fromCharCode.apply(null, codes);
  }

  /** `length` random base62 characters (joined, so V8 keeps one flat string, not a rope of characters). */
  base62(length: number): string {
    const chars = new Array<string>(length);
    for (let i = 0; i < length; i++) chars[i] = BASE62[this.#next() % BASE62.length]!;
    return chars.join('');
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + (this.#next() % (max - min + 1));
  }

  /** A sandbox id like the real Docker sandbox service's (`oh-agent-server-<base62>`). */
  sandboxId(): string {
    return ['oh-agent-server-', this.base62(22)].join('');
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

/** A UUID hyphenated, in lowercase. */
const HYPHENATED_LOWER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A UUID as 32 lowercase hex digits. */
const HEX_LOWER = /^[0-9a-f]{32}$/;

/** Normalises a UUID given in any accepted form (hex, hyphenated, urn:, braced) to hyphenated lowercase, or `null` when it is none. */
export function toHyphenatedUuid(value: string): string | null {
  // The forms ids come in on every request (the hyphenated form already is the answer).
  if (HYPHENATED_LOWER.test(value)) return value;
  if (HEX_LOWER.test(value))
    return `${value.slice(0, 8)}-${value.slice(8, 12)}-${value.slice(12, 16)}-${value.slice(16, 20)}-${value.slice(20)}`;
  const hex = value
    .replace(/^urn:uuid:/i, '')
    .replace(/^\{(.*)\}$/, '$1')
    .replaceAll('-', '')
    .toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** First port handed to a sandbox's agent server; each sandbox gets the next pair. */
const FIRST_AGENT_PORT = 30_000;
/** Ports handed out cycle through this many, staying below 65536. */
const AGENT_PORT_SPAN = 30_000;

/** The agent server port of the `index`-th sandbox (its VSCODE port is the next one). */
export function agentPortFor(index: number): number {
  return FIRST_AGENT_PORT + ((2 * index) % AGENT_PORT_SPAN);
}

/** The agent port handed out after `port` (the next pair, wrapping back to the first). */
export function agentPortAfter(port: number | null): number {
  return port === null ? FIRST_AGENT_PORT : FIRST_AGENT_PORT + ((port - FIRST_AGENT_PORT + 2) % AGENT_PORT_SPAN);
}

/** How many agent ports (pairs) there are before they wrap. */
export const AGENT_PORT_COUNT = AGENT_PORT_SPAN / 2;

/** A small repeatable number from a string (FNV-1a, 32 bits): seeds of derived data (workspaces, the git world, tokens). */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
