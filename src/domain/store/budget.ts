/**
 * What a store may hold (`StoreBudget`: records and approximate JSON bytes, refused past the cap
 * with a 507) and how much a record weighs (`sizeOf`, counted field by field so that an update is
 * weighed by what it changes).
 */
import { Refusal } from './refusal.js';

/** Default limits of a store: enough for the 100,000-conversation scale test, small enough to keep the process alive. */
export const DEFAULT_MAX_RECORDS = 1_000_000;
export const DEFAULT_MAX_STORE_BYTES = 512 * 1024 * 1024;

/**
 * How much a store may hold, in records and in (approximate, JSON) bytes. A change that would go
 * past either is refused with a `storage_full` error (HTTP 507) and changes nothing.
 */
export class StoreBudget {
  records = 0;
  bytes = 0;

  /** A budget of `maxRecords` records and `maxBytes` bytes. */
  constructor(
    readonly maxRecords: number = DEFAULT_MAX_RECORDS,
    readonly maxBytes: number = DEFAULT_MAX_STORE_BYTES,
  ) {}

  /** Takes `records` and `bytes` from the budget, or throws when it would go past a limit. */
  claim(records: number, bytes: number): void {
    if (this.records + records > this.maxRecords) {
      throw new Refusal(
        'storage_full',
        `Insufficient Storage: the fake holds ${this.records} records, its limit (--max-records ${this.maxRecords}); reset it, delete some, or raise the limit`,
      );
    }
    if (this.bytes + bytes > this.maxBytes) {
      throw new Refusal(
        'storage_full',
        `Insufficient Storage: the fake holds ${Math.round(this.bytes / 1024 / 1024)} MiB of records, near its limit (--max-store-mb ${Math.round(this.maxBytes / 1024 / 1024)}); reset it, delete some, or raise the limit`,
      );
    }
    this.records += records;
    this.bytes += bytes;
  }

  /** Throws as `claim` would, without taking anything: for an operation that stores several records, before the first. */
  assertRoom(records: number, bytes: number): void {
    this.claim(records, bytes);
    this.release(records, bytes);
  }

  /** Gives `records` and `bytes` back. */
  release(records: number, bytes: number): void {
    this.records -= records;
    this.bytes -= bytes;
  }
}

/** What each object or array costs in the heap beyond its JSON text (its header, hidden class and slots), in bytes. */
const CONTAINER_COST = 64;

/** How many objects and arrays a value holds, itself included (walked without copying its values out). */
function containersIn(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let count = 1;
  if (Array.isArray(value)) {
    for (const item of value) if (item !== null && typeof item === 'object') count += containersIn(item);
    return count;
  }
  const map = value as Record<string, unknown>;
  // `for...in` walks a record's own keys (plain data: nothing inherited) without a list of them made per object.
  for (const key in map) {
    const item = map[key];
    if (item !== null && typeof item === 'object') count += containersIn(item);
  }
  return count;
}

/** A string JSON writes with escapes (a quote, a backslash, a control character, a surrogate half). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Most key lengths kept (keys are mostly a schema's names; a client's map keys beyond these are counted each time). */
const MAX_KEY_LENGTHS = 2_048;
const keyLengths = new Map<string, number>();

/** How long a string is as JSON text, quotes included. */
export const stringLength = (text: string) => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text).length : text.length + 2);

function keyLength(key: string): number {
  let length = keyLengths.get(key);
  if (length === undefined) {
    length = stringLength(key);
    if (keyLengths.size < MAX_KEY_LENGTHS) keyLengths.set(key, length);
  }
  return length;
}

/** What `JSON.stringify` leaves out of an object and writes as `null` in a list. */
const unwritten = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * The length of `JSON.stringify(value)` and the containers of `value` (as `containersIn` counts
 * them), in one walk that writes no text: the text of a ~1 KB record took a few microseconds per
 * create (issue 31). Plain objects and arrays are walked; anything else JSON writes its own way
 * (`toJSON`, a class, a bigint) is written by `JSON.stringify` as before. `undefined` when JSON
 * writes nothing. Equal to the text's length (`test/domain/budget-weight.test.ts`).
 */
function measure(value: unknown, tally: { containers: number }): number | undefined {
  switch (typeof value) {
    case 'string':
      return stringLength(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (Array.isArray(value) && prototype === Array.prototype) {
        tally.containers++;
        const count = value.length;
        let length = count === 0 ? 2 : count + 1;
        for (let i = 0; i < count; i++) {
          const item: unknown = value[i];
          length += unwritten(item) ? 4 : (measure(item, tally) ?? 4);
        }
        return length;
      }
      if ((prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function')
        return written(value, tally);
      tally.containers++;
      const map = value as Record<string, unknown>;
      let length = 1;
      let entries = 0;
      for (const key in map) {
        const item = map[key];
        if (unwritten(item)) continue;
        const itemLength = measure(item, tally);
        if (itemLength === undefined) continue;
        entries++;
        length += keyLength(key) + 1 + itemLength;
      }
      return entries === 0 ? 2 : length + entries;
    }
    default:
      return written(value, tally);
  }
}

/** What JSON writes for a value the walk leaves to it, and its containers counted as `containersIn` does. */
function written(value: unknown, tally: { containers: number }): number | undefined {
  const text = JSON.stringify(value) as string | undefined;
  tally.containers += containersIn(value);
  return text?.length;
}

/** What one value costs: its JSON text and what each object and array in it costs in memory. */
export function weightOf(value: unknown): number {
  if (value === undefined) return 0;
  const tally = { containers: 0 };
  return (measure(value, tally) ?? 0) + CONTAINER_COST * tally.containers;
}

/** What one field of a record costs (`"key":value,`); nothing when it is absent. */
export const fieldWeight = (key: string, value: unknown) => (value === undefined ? 0 : key.length + 4 + weightOf(value));

/** What one item of a list adds to the list's JSON text and containers (JSON writes `null` for what it cannot write). */
export const itemWeight = (item: unknown) => (JSON.stringify(item)?.length ?? 4) + CONTAINER_COST * containersIn(item);

/** What one entry of a map adds (`"key":value`); nothing for an absent value, which JSON leaves out. */
export const entryWeight = (key: string, value: unknown) =>
  value === undefined ? 0 : JSON.stringify(key).length + 1 + (JSON.stringify(value)?.length ?? 0) + CONTAINER_COST * containersIn(value);

/** How many of a map's values JSON writes. */
export const writtenEntries = (map: Record<string, unknown>) => {
  let count = 0;
  for (const key in map) if (map[key] !== undefined) count++;
  return count;
};

/**
 * The bytes a record counts for in a store budget: its JSON text, plus what each object and array
 * in it costs in memory (1 MiB of `{}` is 350,000 objects: about 23 MB of heap, and counted so),
 * so that the memory a record takes is bounded by what the cap counts. A sum over its fields, so
 * an update is counted by the fields it changes.
 */
export function sizeOf(record: object): number {
  // The sum of `fieldWeight` over its fields, from the length of the whole record's JSON text
  // (`measure`, which writes no text): each field is `"key":value` plus a comma, and the text has
  // one comma fewer than it has fields. 2 for a record with no field.
  const tally = { containers: 0 };
  const length = measure(record, tally) ?? 0;
  return length === 2 ? 2 : length + 1 + CONTAINER_COST * (tally.containers - 1);
}
