/**
 * Paging over the tables' orderings: one page of ids, newest first by default, found by index
 * arithmetic when nothing filters (a deep page costs the same as the first).
 */
import type { Ordering } from './table.js';

/** A page of results, as every search endpoint answers. */
export interface Page<T> {
  items: T[];
  next_page_id: string | null;
}

/** Where a page starts and how long it is. */
export interface PageRequest {
  /** Offset of the first item (the decoded `page_id`). */
  offset: number;
  /** Items per page. */
  limit: number;
}

/** A view of the ids in an ordering: the page asked for and whether more follow. */
export interface IdPage {
  ids: string[];
  more: boolean;
}

/** A range of an ordering and an optional filter of its ids: what a search matches. */
export interface IdQuery {
  /** Positions [from, to) of the ordering. */
  range: [number, number];
  /** Keeps an id, or `null` to keep all. */
  predicate: ((id: string) => boolean) | null;
}

/** Ids in `query.range` of `ordering` that pass its predicate, oldest first. */
export function matchingIds(ordering: Ordering, query: IdQuery): string[] {
  const ids: string[] = [];
  for (let i = query.range[0]; i < query.range[1]; i++) {
    const id = ordering.idAt(i)!;
    if (!query.predicate || query.predicate(id)) ids.push(id);
  }
  return ids;
}

/** How many ids of `ordering` a query matches. */
export function countIds(ordering: Ordering, query: IdQuery): number {
  return query.predicate ? matchingIds(ordering, query).length : query.range[1] - query.range[0];
}

/** One page of an ordering, newest first unless `desc` is false. */
export function pageIds(ordering: Ordering, page: PageRequest, query: Partial<IdQuery> = {}, desc = true): IdPage {
  const [lo, hi] = query.range ?? [0, ordering.size];
  const predicate = query.predicate ?? null;
  const ids: string[] = [];
  if (!predicate) {
    const count = hi - lo;
    for (let k = page.offset; k < Math.min(count, page.offset + page.limit); k++) {
      ids.push(ordering.idAt(desc ? hi - 1 - k : lo + k)!);
    }
    return { ids, more: page.offset + page.limit < count };
  }
  let skipped = 0;
  for (let k = 0; k < hi - lo; k++) {
    const id = ordering.idAt(desc ? hi - 1 - k : lo + k)!;
    if (!predicate(id)) continue;
    if (skipped < page.offset) {
      skipped++;
      continue;
    }
    if (ids.length === page.limit) return { ids, more: true };
    ids.push(id);
  }
  return { ids, more: false };
}

/** One page of `records` sorted by `key` (for sort orders that have no kept ordering). */
export function sortedPage<T extends { id: string }>(records: T[], key: (record: T) => string, desc: boolean, page: PageRequest): IdPage {
  const sign = desc ? -1 : 1;
  records.sort((a, b) => (key(a) < key(b) ? -sign : key(a) > key(b) ? sign : 0));
  return { ids: records.slice(page.offset, page.offset + page.limit).map((r) => r.id), more: page.offset + page.limit < records.length };
}

/** The page answer of `items`, with the cursor of the next page when more follow. */
export function toPage<T>(items: T[], page: PageRequest, more: boolean): Page<T> {
  return { items, next_page_id: more ? String(page.offset + page.limit) : null };
}

/** A page of a list, from `page_id` (an offset, as text). */
export function pageFrom<T>(items: readonly T[], pageId: string | undefined, limit: number): { items: T[]; next_page_id: string | null } {
  const start = pageId && /^\d+$/.test(pageId) ? Number(pageId) : 0;
  return { items: items.slice(start, start + limit), next_page_id: start + limit < items.length ? String(start + limit) : null };
}
