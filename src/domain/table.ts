import { Collection } from '@msw/data';
import type { z } from 'zod';
import type { ChangedEntity, ChangeSink } from './events.js';
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
  constructor(readonly maxRecords: number = DEFAULT_MAX_RECORDS, readonly maxBytes: number = DEFAULT_MAX_STORE_BYTES) {}

  /** Takes `records` and `bytes` from the budget, or throws when it would go past a limit. */
  claim(records: number, bytes: number): void {
    if (this.records + records > this.maxRecords) {
      throw new Refusal('storage_full', `Insufficient Storage: the fake holds ${this.records} records, its limit (--max-records ${this.maxRecords}); reset it, delete some, or raise the limit`);
    }
    if (this.bytes + bytes > this.maxBytes) {
      throw new Refusal('storage_full', `Insufficient Storage: the fake holds ${Math.round(this.bytes / 1024 / 1024)} MiB of records, near its limit (--max-store-mb ${Math.round(this.maxBytes / 1024 / 1024)}); reset it, delete some, or raise the limit`);
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

/** The bytes a record counts for in a store budget: the length of its JSON (symbol keys are not counted). */
function sizeOf(record: object): number {
  return JSON.stringify(record).length;
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

/** A record as the @msw/data collection of schema `S` holds it. */
type StoredRecord<S extends z.ZodObject> = Awaited<ReturnType<Collection<S>['create']>> & Keyed;

/**
 * An @msw/data collection with what paging and batch gets need on top: an id index
 * (the collection's lookups are linear scans) and orderings by creation time.
 * Every record is validated by the collection's zod schema on create and update.
 */
export class Table<S extends z.ZodObject, Name extends string = never> {
  /** The @msw/data collection holding the records. */
  readonly collection: Collection<S>;
  /** Orderings by creation time, each of the records that pass its filter. */
  readonly orderings: Record<Name | 'all', Ordering>;
  readonly #filters: Record<Name, (record: z.output<S>) => boolean>;
  readonly #byId = new Map<string, StoredRecord<S>>();
  readonly #entity: ChangedEntity;
  readonly #emit: () => ChangeSink;
  readonly #budget: StoreBudget;
  /** The approximate size of each record (its JSON length), for the store's byte budget. */

  /**
   * Creates a table of `entity` records of `schema`, with named orderings of the records passing
   * each filter; every insert, update and remove is announced to the sink `emit` returns.
   */
  constructor(entity: ChangedEntity, schema: S, filters: Record<Name, (record: z.output<S>) => boolean>, emit: () => ChangeSink, budget: StoreBudget) {
    this.#entity = entity;
    this.#emit = emit;
    this.#budget = budget;
    this.collection = new Collection({ schema });
    this.#filters = filters;
    const orderings = { all: new Ordering() } as Record<Name | 'all', Ordering>;
    for (const name of Object.keys(filters) as Name[]) orderings[name] = new Ordering();
    this.orderings = orderings;
  }

  /** Number of records. */
  get size(): number {
    return this.#byId.size;
  }

  /** Validates and stores a new record; throws when its id is taken. */
  async insert(values: z.input<S>): Promise<z.output<S>> {
    this.#budget.assertRoom(1, 0);
    const id = (values as { id?: unknown }).id;
    if (typeof id === 'string' && this.#byId.has(id)) throw new Error(`Failed to store a record: the id "${id}" is already taken.`);
    const record = (await this.collection.create(values)) as StoredRecord<S>;
    try {
      this.#budget.claim(1, sizeOf(record));
    } catch (error) {
      this.collection.delete(record);
      throw error;
    }
    this.#byId.set(record.id, record);
    this.orderings.all.add(record);
    for (const name of Object.keys(this.#filters) as Name[]) {
      if (this.#filters[name](this.#row(record))) this.orderings[name].add(record);
    }
    this.#emit()({ entity: this.#entity, action: 'created', id: record.id });
    return this.#row(record);
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
    const before = sizeOf(current);
    const after = sizeOf({ ...(current as object), ...patch });
    this.#budget.claim(0, after - before);
    const next = (await this.collection.update(current, {
      data(draft) {
        Object.assign(draft as object, patch);
      },
    })) as StoredRecord<S> | undefined;
    if (!next) throw new Error(`Failed to update the record "${id}": the collection no longer holds it.`);
    this.#byId.set(id, next);
    this.#emit()({ entity: this.#entity, action: 'updated', id });
    return this.#row(next);
  }

  /** Removes a record; returns it, or `undefined` when there was none. */
  remove(id: string): z.output<S> | undefined {
    const record = this.#byId.get(id);
    if (!record) return undefined;
    this.collection.delete(record);
    this.#byId.delete(id);
    this.#budget.release(1, sizeOf(record));
    for (const ordering of Object.values(this.orderings) as Ordering[]) ordering.remove(record);
    this.#emit()({ entity: this.#entity, action: 'deleted', id });
    return this.#row(record);
  }

  /** Every record, oldest first. */
  all(): z.output<S>[] {
    return this.orderings.all.ids().map((id) => this.#row(this.#byId.get(id)!));
  }
}
