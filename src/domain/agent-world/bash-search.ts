/**
 * The shell's event log read back (`GET /api/bash/bash_events/...`, bash_router.py): a search page,
 * one event, a batch. The log itself and its writers are in `bash.ts`.
 */
import { refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { settleBash } from './bash.js';

/** Filters of a bash event search. */
export interface BashSearch {
  kind__eq?: 'BashCommand' | 'BashOutput' | undefined;
  command_id__eq?: string | undefined;
  timestamp__gte?: string | undefined;
  timestamp__lt?: string | undefined;
  order__gt?: number | undefined;
  sort_order: 'TIMESTAMP' | 'TIMESTAMP_DESC';
  page_id?: string | undefined;
  limit: number;
}

/** `GET /api/bash/bash_events/search`: a page; `page_id` is the id of the page's first event. */
export function searchBashEvents(state: DomainState, search: BashSearch) {
  settleBash(state);
  let events = state.store.shell.events.filter(
    (e) =>
      (!search.kind__eq || e.kind === search.kind__eq) &&
      (!search.command_id__eq ||
        (e.kind === 'BashOutput' && e.command_id === search.command_id__eq) ||
        (e.kind === 'BashCommand' && e.id === search.command_id__eq && !search.kind__eq)) &&
      (!search.timestamp__gte || e.timestamp >= search.timestamp__gte) &&
      (!search.timestamp__lt || e.timestamp < search.timestamp__lt) &&
      (search.order__gt === undefined || (e.kind === 'BashOutput' && e.order > search.order__gt)),
  );
  if (search.sort_order === 'TIMESTAMP_DESC') events = [...events].reverse();
  const start = search.page_id
    ? Math.max(
        0,
        events.findIndex((e) => e.id === search.page_id),
      )
    : 0;
  return { items: events.slice(start, start + search.limit), next_page_id: events[start + search.limit]?.id ?? null };
}

/** `GET /api/bash/bash_events/{id}`: 404 (no detail) when unknown. */
export function getBashEvent(state: DomainState, id: string) {
  settleBash(state);
  return state.store.shell.events.find((e) => e.id === id) ?? refuse('not_found', 'Not Found');
}

/** `GET /api/bash/bash_events/?event_ids=`: aligned, null for missing ones. */
export function batchGetBashEvents(state: DomainState, ids: readonly string[]) {
  settleBash(state);
  const byId = new Map(state.store.shell.events.map((e) => [e.id, e]));
  return ids.map((id) => byId.get(id) ?? null);
}
