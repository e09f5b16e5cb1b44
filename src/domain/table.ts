import { Collection } from '@msw/data';
import type { z } from 'zod';

/** A record that can be kept in a table: it has an id and a creation time. */
interface Keyed {
  id: string;
  created_at: string;
}

/** One entry of an ordering: the sort key (creation time) and the record id. */
interface OrderEntry {
  key: string;
  id: string;
}

/** Compares two order entries by creation time, then id, so the order is total. */
function compareEntries(a: OrderEntry, b: OrderEntry): number {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Records kept sorted by creation time (oldest first), for paging without a sort per request.
 * Binary search on insert and remove; appends (the usual case) are O(1).
 */
export class Ordering {
  readonly #entries: OrderEntry[] = [];

  /** Number of records in this ordering. */
  get size(): number {
    return this.#entries.length;
  }

  /** Index of the first entry not less than `entry`. */
  #lowerBound(entry: OrderEntry): number {
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareEntries(this.#entries[mid]!, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds a record. */
  add(record: Keyed): void {
    const entry = { key: record.created_at, id: record.id };
    const last = this.#entries.at(-1);
    if (!last || compareEntries(last, entry) < 0) this.#entries.push(entry);
    else this.#entries.splice(this.#lowerBound(entry), 0, entry);
  }

  /** Removes a record. */
  remove(record: Keyed): void {
    const at = this.#lowerBound({ key: record.created_at, id: record.id });
    if (this.#entries[at]?.id === record.id) this.#entries.splice(at, 1);
  }

  /** Position of the first record created at or after `key` (an ISO datetime in the stored form). */
  positionOf(key: string): number {
    return this.#lowerBound({ key, id: '' });
  }

  /** The id at position `index` (0 = oldest). */
  idAt(index: number): string | undefined {
    return this.#entries[index]?.id;
  }

  /** Ids oldest first. */
  ids(): string[] {
    return this.#entries.map((entry) => entry.id);
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

  /** Creates a table of records of `schema`, with named orderings of the records passing each filter. */
  constructor(schema: S, filters: Record<Name, (record: z.output<S>) => boolean>) {
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
    const record = (await this.collection.create(values)) as StoredRecord<S>;
    if (this.#byId.has(record.id)) {
      this.collection.delete(record);
      throw new Error(`Failed to store a record: the id "${record.id}" is already taken.`);
    }
    this.#byId.set(record.id, record);
    this.orderings.all.add(record);
    for (const name of Object.keys(this.#filters) as Name[]) {
      if (this.#filters[name](this.#row(record))) this.orderings[name].add(record);
    }
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
    const next = (await this.collection.update(current, {
      data(draft) {
        Object.assign(draft as object, patch);
      },
    })) as StoredRecord<S> | undefined;
    if (!next) throw new Error(`Failed to update the record "${id}": the collection no longer holds it.`);
    this.#byId.set(id, next);
    return this.#row(next);
  }

  /** Removes a record; returns it, or `undefined` when there was none. */
  remove(id: string): z.output<S> | undefined {
    const record = this.#byId.get(id);
    if (!record) return undefined;
    this.collection.delete(record);
    this.#byId.delete(id);
    for (const ordering of Object.values(this.orderings) as Ordering[]) ordering.remove(record);
    return this.#row(record);
  }

  /** Every record, oldest first. */
  all(): z.output<S>[] {
    return this.orderings.all.ids().map((id) => this.#row(this.#byId.get(id)!));
  }
}
