/**
 * What keeps a recording free of secrets: the fake's own masking (`redactSecrets`, `redactQuery`:
 * secret-named fields, secret maps, credentials in text, URL passwords and secret query
 * parameters), secret headers (`Authorization`, `Cookie`, `Set-Cookie`, `X-Session-API-Key`, any
 * `*-api-key`, `*token*`, `*secret*`), a secret's value where a route takes one (`value` of
 * `PUT /api/settings/secrets`, `POST /api/secrets`), and every value it masked once, learned and
 * masked again wherever it shows up later (a session key in a socket URL, a secret echoed by a
 * terminal). Learned values live in memory only.
 */
import { REDACTED, isSecretField, redactQuery, redactSecrets } from '../domain/store/redact.js';
import type { HarNameValue } from '../domain/recording/har.js';

/** The shortest value learned as a secret (a shorter one would mask ordinary words). */
const MIN_SECRET_LENGTH = 6;
/** Most values learned. */
const MAX_KNOWN = 10_000;
/** Header names whose values are secrets. */
const SECRET_HEADER = /(authorization|cookie|api-?key|token|secret|session)/i;
/** Paths whose request bodies carry a secret's `value`. */
const SECRET_VALUE_PATH = /^\/api\/(?:v1\/)?(?:settings\/)?secrets(?:\/[^/]+)?$/;
/** The path whose answer is a secret's value (the agent server's `GET /api/settings/secrets/{name}`). */
const SECRET_ANSWER_PATH = /^\/api\/settings\/secrets\/[^/]+$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `masked` with each number put back where the masking hid one: a number under a secret-looking
 * name is a count (the real agent server's `per_turn_token`, a token count), never a credential.
 */
function keepCounts(original: unknown, masked: unknown, depth = 0): unknown {
  if (typeof original === 'number' && masked === REDACTED) return original;
  if (depth > 64 || original === null || typeof original !== 'object' || masked === null || typeof masked !== 'object') return masked;
  if (Array.isArray(original) && Array.isArray(masked)) return masked.map((item, i) => keepCounts(original[i], item, depth + 1));
  if (Array.isArray(original) || Array.isArray(masked)) return masked;
  const before = original as Record<string, unknown>;
  return Object.fromEntries(Object.entries(masked).map(([key, item]) => [key, keepCounts(before[key], item, depth + 1)]));
}

/** A body longer than this is masked a slice at a time. */
const SLICED_BODY = 64 * 1024;
/** The longest a slice runs before the event loop gets a turn. */
const SLICE_MS = 8;
/** The longest text that is no JSON a recording keeps: the text rules read up to it (`redact.ts`). */
export const MAX_PLAIN_TEXT = 65_536;

/** Masks secrets in what a recording keeps; learns each one it masks. */
export class Scrubber {
  private readonly known = new Set<string>();
  /** The learned values' forms (as they are, JSON-escaped once and twice), longest value first (a value inside a longer one is masked after it). */
  private forms: string[] = [];
  /** The forms as one pattern (one pass over a text, however many were learned); `null` before the first. */
  private pattern: RegExp | null = null;

  /** Learns `value` as a secret. */
  learn(value: string): void {
    const trimmed = value.trim();
    if (trimmed.length < MIN_SECRET_LENGTH || trimmed === REDACTED || this.known.has(trimmed) || this.known.size >= MAX_KNOWN) return;
    this.known.add(trimmed);
    this.forms = [...this.known]
      .sort((a, b) => b.length - a.length)
      .flatMap((secret) => {
        const escaped = JSON.stringify(secret).slice(1, -1);
        return [...new Set([secret, escaped, JSON.stringify(escaped).slice(1, -1)])];
      });
    this.pattern = new RegExp(this.forms.map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  }

  /** How many values were learned. */
  get learned(): number {
    return this.known.size;
  }

  /** `text` with every learned value masked (also in its JSON-escaped forms, as it sits inside JSON text). */
  text(text: string): string {
    return this.pattern === null ? text : text.replace(this.pattern, REDACTED);
  }

  /** Every string of `value` passed through `text` (a HAR entry, an event). */
  deep<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.deep(item)) as T;
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.deep(v)])) as T;
    return value;
  }

  /** A URL (path and query) with its secret query parameters masked and learned. */
  url(url: URL): string {
    for (const [name, value] of url.searchParams) if (redactQuery(`?${name}=x`) !== `?${name}=x`) this.learn(value);
    return this.text(`${url.origin === 'null' ? '' : url.origin}${url.pathname}${redactQuery(url.search)}`);
  }

  /** Headers with secret values masked (a credential's scheme and a cookie's name kept) and learned. */
  headers(pairs: readonly (readonly [string, string])[]): HarNameValue[] {
    return pairs.map(([name, value]) => {
      if (!SECRET_HEADER.test(name) && !isSecretField(name)) return { name, value };
      const lower = name.toLowerCase();
      if (lower === 'cookie' || lower === 'set-cookie') return { name, value: this.cookieHeader(lower, value) };
      const scheme = /^(Bearer|Basic|Token|Digest)\s+(.+)$/i.exec(value);
      if (scheme) {
        this.learn(scheme[2]!);
        if (scheme[1]!.toLowerCase() === 'basic') this.learnBasic(scheme[2]!);
        return { name, value: `${scheme[1]} ${REDACTED}` };
      }
      this.learn(value);
      return { name, value: value === '' ? '' : REDACTED };
    });
  }

  /** The password of a `Basic` credential, learned too. */
  private learnBasic(encoded: string): void {
    try {
      const decoded = atob(encoded);
      const colon = decoded.indexOf(':');
      if (colon >= 0) this.learn(decoded.slice(colon + 1));
    } catch {
      // Not base64: the whole value was learned.
    }
  }

  /** A `Cookie` or `Set-Cookie` value with each cookie's value masked (its name and a `Set-Cookie`'s attributes kept). */
  private cookieHeader(kind: 'cookie' | 'set-cookie', value: string): string {
    const parts = value.split(';');
    const masked = (part: string) => {
      const at = part.indexOf('=');
      if (at < 0) return part;
      this.learn(part.slice(at + 1));
      return `${part.slice(0, at)}=${REDACTED}`;
    };
    if (kind === 'set-cookie') return [masked(parts[0]!), ...parts.slice(1)].join(';');
    return parts.map(masked).join(';');
  }

  /** The cookies of a `Cookie` or `Set-Cookie` header, by name, each value masked (HAR's `cookies`). */
  cookies(kind: 'cookie' | 'set-cookie', values: readonly string[]): HarNameValue[] {
    const names = values.flatMap((value) => (kind === 'set-cookie' ? [value.split(';')[0]!] : value.split(';')));
    return names.flatMap((part) => {
      const at = part.indexOf('=');
      return at < 0 ? [] : [{ name: part.slice(0, at).trim(), value: REDACTED }];
    });
  }

  /** A JSON value masked: the fake's own masking, a secret route's `value`; each value masked is learned. */
  json(value: unknown, path: string, side: 'request' | 'response'): unknown {
    if (side === 'response' && SECRET_ANSWER_PATH.test(path) && typeof value === 'string') {
      this.learn(value);
      return REDACTED;
    }
    let masked = keepCounts(value, redactSecrets(value));
    if (side === 'request' && SECRET_VALUE_PATH.test(path) && isObject(masked) && typeof masked.value === 'string') {
      masked = { ...masked, value: REDACTED };
    }
    this.learnFrom(value, masked);
    return masked;
  }

  /** Learns every string `masked` holds as the mask where `original` held a value. */
  private learnFrom(original: unknown, masked: unknown, depth = 0): void {
    if (depth > 64) return;
    if (typeof original === 'string') {
      if (masked === REDACTED && original !== REDACTED) this.learn(original);
      return;
    }
    if (Array.isArray(original) && Array.isArray(masked)) {
      original.forEach((item, i) => this.learnFrom(item, masked[i], depth + 1));
      return;
    }
    if (isObject(original) && isObject(masked))
      for (const key of Object.keys(original)) this.learnFrom(original[key], masked[key], depth + 1);
  }

  /**
   * `json` over a large body a slice at a time, the event loop given a turn every few milliseconds:
   * the items of a list (at the top or under a plain field, such as a page's `items`) one by one,
   * each as it would be masked in place; anything else at once.
   */
  private async jsonSliced(value: unknown, path: string, side: 'request' | 'response'): Promise<unknown> {
    let since = performance.now();
    const each = async (items: unknown[]) => {
      const out: unknown[] = [];
      for (const item of items) {
        out.push(this.json(item, path, side));
        if (performance.now() - since > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          since = performance.now();
        }
      }
      return out;
    };
    if (Array.isArray(value)) return each(value);
    if (!isObject(value) || (side === 'request' && SECRET_VALUE_PATH.test(path))) return this.json(value, path, side);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // A list under a field that is no secret and no command line: its items are masked as they would be in place.
      out[key] =
        Array.isArray(item) && key !== 'args' && !isSecretField(key)
          ? await each(item)
          : (this.json({ [key]: item }, path, side) as Record<string, unknown>)[key];
    }
    return out;
  }

  /**
   * A body's text masked: JSON through `json` (the text kept as it was when nothing changed),
   * anything else through the text rules (a text over 64 KiB that is no JSON is not kept: the rules
   * read no further); then every learned value.
   */
  async body(text: string, path: string, side: 'request' | 'response'): Promise<{ text: string | null; parsed: unknown }> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      if (SECRET_ANSWER_PATH.test(path) && side === 'response') return { text: this.learnWhole(text), parsed: undefined };
      if (text.length > MAX_PLAIN_TEXT) return { text: null, parsed: undefined };
      return { text: this.text(redactSecrets(text) as string), parsed: undefined };
    }
    const large = text.length > SLICED_BODY;
    // A large body's steps each in a turn of its own.
    const turn = () => (large ? new Promise((resolve) => setImmediate(resolve)) : undefined);
    await turn();
    const masked = large ? await this.jsonSliced(parsed, path, side) : this.json(parsed, path, side);
    await turn();
    const serialized = JSON.stringify(masked);
    await turn();
    // The learned values are masked in the text (in their JSON-escaped forms too): one pass, not one per string.
    const written = this.text(serialized);
    // Nothing masked: the text as it came (compact JSON is the same text; other spacing is kept too).
    if (written === text) return { text, parsed: masked };
    await turn();
    return { text: written === JSON.stringify(parsed) ? text : written, parsed: masked };
  }

  /** Learns a whole text as a secret; its mask. */
  private learnWhole(text: string): string {
    this.learn(text);
    return REDACTED;
  }
}
