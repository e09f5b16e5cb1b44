import * as z from 'zod/mini';
import type { ChangedEntity, ChangeSink } from './events.js';
import { entryWeight, fieldWeight, itemWeight, sizeOf, type StoreBudget, weightOf, writtenEntries } from './budget.js';

export { DEFAULT_MAX_RECORDS, DEFAULT_MAX_STORE_BYTES, StoreBudget, sizeOf } from './budget.js';

/**
 * `weightOf(after) - weightOf(before)`, counted by what changed where it can be: a list that only
 * grew (a conversation's messages) by its new items, a map of which some keys changed (a sandbox's
 * uploads) by those entries. Weighing the whole field again on every update made each of 30
 * messages of 900 KB cost more than the one before (180 ms a message at the end: #29 finding 12).
 */
function weightChange(before: unknown, after: unknown): number {
  if (Array.isArray(before) && Array.isArray(after) && after.length >= before.length && before.every((item, i) => item === after[i])) {
    let added = Math.max(0, after.length - 1) - Math.max(0, before.length - 1); // commas
    for (let i = before.length; i < after.length; i++) added += itemWeight(after[i]);
    return added;
  }
  if (
    isMap(before) &&
    isMap(after) &&
    Object.getPrototypeOf(before) === Object.prototype &&
    Object.getPrototypeOf(after) === Object.prototype
  ) {
    const keys = changedKeys(before, after, Number.POSITIVE_INFINITY);
    if (keys !== null) {
      let change = Math.max(0, writtenEntries(after) - 1) - Math.max(0, writtenEntries(before) - 1); // commas
      for (const key of keys) change += entryWeight(key, after[key]) - entryWeight(key, before[key]);
      return change;
    }
  }
  return weightOf(after) - weightOf(before);
}

/** Where a table records how to undo each change it makes (the store's open transaction, if any). */
export type UndoSink = (undo: () => void | Promise<void>) => void;

/** Whether two list items are the same value (a string by value, an object as JSON). */
const sameItem = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && JSON.stringify(a) === JSON.stringify(b));

/** A plain object (a map such as a sandbox's `uploaded_files`), not an array or null. */
const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The keys of a map whose value differs between `before` and `after` (set anew, or removed), or
 * `null` when most of it changed (then the whole map is logged). Values are compared by identity:
 * an update copies a map and sets a few keys, so the rest are the same values.
 */
function changedKeys(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  most = (Object.keys(after).length + 1) / 2,
): string[] | null {
  const keys: string[] = [];
  for (const key in after) if (!Object.hasOwn(before, key) || before[key] !== after[key]) keys.push(key);
  for (const key in before) if (!Object.hasOwn(after, key)) keys.push(key);
  return keys.length > most ? null : keys;
}

/**
 * What an update changed, for the change log: the fields patched; for a list that only grew
 * (a conversation's messages), how many items were appended; for a map of which only some keys
 * changed (a sandbox's uploads), those keys: the log grows with the change, not with the record.
 */
function changeOf(
  current: object,
  next: object,
  patch: object,
): { fields: string[]; appended?: Record<string, number>; merged?: Record<string, string[]> } {
  const fields: string[] = [];
  let appended: Record<string, number> | undefined;
  let merged: Record<string, string[]> | undefined;
  for (const key of Object.keys(patch)) {
    const before = (current as Record<string, unknown>)[key];
    const after = (next as Record<string, unknown>)[key];
    const keys = isMap(before) && isMap(after) ? changedKeys(before, after) : null;
    if (
      Array.isArray(before) &&
      Array.isArray(after) &&
      after.length > before.length &&
      before.every((item, i) => sameItem(item, after[i]))
    ) {
      (appended ??= {})[key] = after.length - before.length;
    } else if (keys !== null) {
      (merged ??= {})[key] = keys;
    } else {
      fields.push(key);
    }
  }
  return { fields, ...(appended ? { appended } : {}), ...(merged ? { merged } : {}) };
}

/** A record that can be kept in a table: it has an id and a creation time. */
interface Keyed {
  id: string;
  created_at: string;
}

/**
 * Records kept sorted by creation time (oldest first), for paging without a sort per request:
 * two parallel arrays (keys and ids), no object per entry. Binary search on insert and remove;
 * appends (the usual case) are O(1).
 */
export class Ordering {
  readonly #keys: string[] = [];
  readonly #ids: string[] = [];

  /** Number of records in this ordering. */
  get size(): number {
    return this.#ids.length;
  }

  /** Whether (key, id) sorts before the entry at `index`. */
  #before(key: string, id: string, index: number): boolean {
    const k = this.#keys[index]!;
    return k !== key ? key < k : id < this.#ids[index]!;
  }

  /** Index of the first entry not less than (key, id). */
  #lowerBound(key: string, id: string): number {
    let lo = 0;
    let hi = this.#ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#before(key, id, mid) || (this.#keys[mid] === key && this.#ids[mid] === id)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Adds a record. */
  add(record: Keyed): void {
    const last = this.#ids.length - 1;
    if (last < 0 || !this.#before(record.created_at, record.id, last)) {
      this.#keys.push(record.created_at);
      this.#ids.push(record.id);
      return;
    }
    const at = this.#lowerBound(record.created_at, record.id);
    this.#keys.splice(at, 0, record.created_at);
    this.#ids.splice(at, 0, record.id);
  }

  /** Removes a record. */
  remove(record: Keyed): void {
    const at = this.#lowerBound(record.created_at, record.id);
    if (this.#ids[at] === record.id) {
      this.#keys.splice(at, 1);
      this.#ids.splice(at, 1);
    }
  }

  /** Position of the first record created at or after `key` (an ISO datetime in the stored form). */
  positionOf(key: string): number {
    return this.#lowerBound(key, '');
  }

  /** The id at position `index` (0 = oldest). */
  idAt(index: number): string | undefined {
    return this.#ids[index];
  }

  /** Ids oldest first. */
  ids(): string[] {
    return [...this.#ids];
  }
}

/** A record as a table holds it: its schema's output, with an id and a creation time. */
type StoredRecord<S extends z.ZodMiniObject> = z.output<S> & Keyed;

/**
 * The records of one kind: an id index, orderings by creation time for paging, and the zod schema
 * that validates every record on insert and update. Not an @msw/data collection: its public
 * `create` draws a random UUID, a relation map and a logger for every record (3.5× the cost of a
 * create here, and memory the store cap cannot count), and its lookups are linear scans; the
 * store keeps @msw/data for the provider-token and MCP collections (`store.ts`).
 */
export class Table<S extends z.ZodMiniObject, Name extends string = never> {
  /** The schema every record is validated by. */
  readonly #schema: S;
  /** Schemas of sets of fields, for updates. */
  readonly #partial = new Map<string, z.ZodMiniObject>();
  /** Orderings by creation time, each of the records that pass its filter. */
  readonly orderings: Record<Name | 'all', Ordering>;
  readonly #filters: Record<Name, (record: z.output<S>) => boolean>;
  readonly #byId = new Map<string, StoredRecord<S>>();
  readonly #entity: ChangedEntity;
  readonly #emit: () => ChangeSink;
  readonly #budget: StoreBudget;
  /** How many records hold each value of the counted field (`countedBy`), if one is counted. */
  readonly #counts = new Map<unknown, number>();
  readonly #countedBy: string | null;
  readonly #undo: UndoSink;

  /**
   * Creates a table of `entity` records of `schema`, with named orderings of the records passing
   * each filter; every insert, update and remove is announced to the sink `emit` returns.
   */
  constructor(
    entity: ChangedEntity,
    schema: S,
    filters: Record<Name, (record: z.output<S>) => boolean>,
    emit: () => ChangeSink,
    budget: StoreBudget,
    countedBy: (keyof z.output<S> & string) | null = null,
    undo: UndoSink = () => undefined,
  ) {
    this.#countedBy = countedBy;
    this.#undo = undo;
    this.#entity = entity;
    this.#emit = emit;
    this.#budget = budget;
    this.#schema = schema;
    this.#filters = filters;
    const orderings = { all: new Ordering() } as Record<Name | 'all', Ordering>;
    for (const name of Object.keys(filters) as Name[]) orderings[name] = new Ordering();
    this.orderings = orderings;
  }

  /** How many records hold `value` in the counted field (a never-changing field named at construction). */
  countOf(value: unknown): number {
    return this.#counts.get(value) ?? 0;
  }

  #count(record: StoredRecord<S>, delta: 1 | -1): void {
    if (this.#countedBy === null) return;
    const value = (record as Record<string, unknown>)[this.#countedBy];
    const next = (this.#counts.get(value) ?? 0) + delta;
    if (next === 0) this.#counts.delete(value);
    else this.#counts.set(value, next);
  }

  /** Number of records. */
  get size(): number {
    return this.#byId.size;
  }

  /**
   * Stores a record already in its schema's output form, with no second parse: one a fixture load
   * validated (dates moved), or one the domain built from values validated before (every default
   * given, ids drawn, times from `state.stamp()`, which never writes one that cannot be read back).
   * `size`: its budget size, when known from a load before. Records are never changed in place (an
   * update makes a new one), so its nested values may be shared with what it came from. Anything
   * else, above all what a client or a fixture sent, goes through `insert`.
   */
  insertValidated(record: z.output<S>, size?: number): z.output<S> {
    this.#budget.assertRoom(1, 0);
    const id = (record as { id?: unknown }).id;
    if (typeof id === 'string' && this.#byId.has(id)) throw new Error(`Failed to store a record: the id "${id}" is already taken.`);
    const stored = record as StoredRecord<S>;
    this.#budget.claim(1, size ?? sizeOf(stored));
    this.#add(stored);
    this.#undo(() => this.#drop(stored));
    this.#emit()({ entity: this.#entity, action: 'created', id: stored.id });
    return this.#row(stored);
  }

  /** Validates and stores a new record; throws when its id is taken. */
  async insert(values: z.input<S>): Promise<z.output<S>> {
    this.#budget.assertRoom(1, 0);
    const id = (values as { id?: unknown }).id;
    if (typeof id === 'string' && this.#byId.has(id)) throw new Error(`Failed to store a record: the id "${id}" is already taken.`);
    const record = this.#schema.parse(values) as StoredRecord<S>;
    this.#budget.claim(1, sizeOf(record));
    this.#add(record);
    this.#undo(() => this.#drop(record));
    this.#emit()({ entity: this.#entity, action: 'created', id: record.id });
    return this.#row(record);
  }

  /** Puts a record in the index, the counts and the orderings (its budget already claimed). */
  #add(record: StoredRecord<S>): void {
    this.#byId.set(record.id, record);
    this.#count(record, 1);
    this.orderings.all.add(record);
    for (const name of Object.keys(this.#filters) as Name[]) {
      if (this.#filters[name](this.#row(record))) this.orderings[name].add(record);
    }
  }

  /** Takes a record out of the index, the counts and the orderings, and gives its budget back. */
  #drop(record: StoredRecord<S>): void {
    this.#byId.delete(record.id);
    this.#count(record, -1);
    this.#budget.release(1, sizeOf(record));
    for (const ordering of Object.values(this.orderings) as Ordering[]) ordering.remove(record);
  }

  /** The schema of just these fields (made once per set of fields). */
  #schemaOf(keys: string[]): z.ZodMiniObject {
    const name = keys.join(',');
    let schema = this.#partial.get(name);
    if (!schema) {
      const shape = this.#schema.shape as Record<string, unknown>;
      const unknown = keys.find((key) => !(key in shape));
      if (unknown !== undefined) throw new Error(`Failed to update a record: it has no field "${unknown}".`);
      schema = z.pick(this.#schema, Object.fromEntries(keys.map((key) => [key, true])) as never) as unknown as z.ZodMiniObject;
      this.#partial.set(name, schema);
    }
    return schema;
  }

  /** A stored record seen through the zod output type. */
  #row(record: StoredRecord<S>): z.output<S> {
    return record as unknown as z.output<S>;
  }

  /** The record with this id, if any. */
  get(id: string): z.output<S> | undefined {
    const record = this.#byId.get(id);
    return record && this.#row(record);
  }

  /** Applies `patch` to a record (validated again by the schema) and returns the new record. */
  async update(id: string, patch: Partial<z.output<S>>): Promise<z.output<S>> {
    const current = this.#byId.get(id);
    if (!current) throw new Error(`Failed to update a record: no record has the id "${id}".`);
    // Only the patched fields are validated and counted: an update costs what it changes.
    const validated = this.#schemaOf(Object.keys(patch)).parse(patch) as Record<string, unknown>;
    const next = { ...(current as object), ...validated } as StoredRecord<S>;
    let delta = 0;
    for (const key of Object.keys(validated)) {
      const before = (current as Record<string, unknown>)[key];
      const after = validated[key];
      delta +=
        before === undefined || after === undefined ? fieldWeight(key, after) - fieldWeight(key, before) : weightChange(before, after);
    }
    this.#budget.claim(0, delta);
    this.#byId.set(id, next);
    this.#undo(() => {
      this.#byId.set(id, current);
      this.#budget.release(0, delta);
    });
    this.#emit()({ entity: this.#entity, action: 'updated', id, ...changeOf(current, next, patch) });
    return this.#row(next);
  }

  /** Removes a record; returns it, or `undefined` when there was none. */
  remove(id: string): z.output<S> | undefined {
    const record = this.#byId.get(id);
    if (!record) return undefined;
    this.#drop(record);
    this.#undo(() => {
      this.#budget.release(-1, -sizeOf(record));
      this.#add(record);
    });
    this.#emit()({ entity: this.#entity, action: 'deleted', id });
    return this.#row(record);
  }

  /** Every record, oldest first. */
  all(): z.output<S>[] {
    return this.orderings.all.ids().map((id) => this.#row(this.#byId.get(id)!));
  }
}
