/**
 * The event search's query and path read the quick way (issue 31: zod's parse of `?limit=20` and of
 * the conversation id were a sixth of a search's CPU). A shortcut of the route's schema for the common queries only: `kind`, `source`,
 * `page_id`, `limit` (1-100, plain digits) and `sort_order`, each at most once, written in characters
 * that a query string never decodes (no `%`, no `+`). Any other query (a date filter, a repeated or
 * unknown parameter, a value the schema may refuse) is left to the schema, so every 422 stays the
 * schema's own. Hand-written: a query parser library would decode what this one refuses to see.
 */

/** What the route's query schema gives the queries this reads, key for key and in the schema's order. */
export interface EventSearchQuery {
  kind?: string;
  source?: string;
  page_id?: string;
  limit: number;
  sort_order: 'TIMESTAMP' | 'TIMESTAMP_DESC';
}

/** A value URLSearchParams gives back as it is written (nothing to percent-decode, no `+` for a space). */
const PLAIN = /^[A-Za-z0-9_.~-]*$/;
/** A limit the schema takes as it is written: 1 to 100, digits only, no leading zero. */
const LIMIT = /^(?:[1-9]\d?|100)$/;

/**
 * The event search's query (`url.search`, its `?` included) as its schema parses it, or `undefined`
 * when the schema must read it.
 * @example
 * eventSearchQueryFastPath('?limit=20') // { limit: 20, sort_order: 'TIMESTAMP' }
 */
export function eventSearchQueryFastPath(search: string): EventSearchQuery | undefined {
  if (search.charCodeAt(0) !== 63 /* ? */) return undefined;
  let kind: string | undefined;
  let source: string | undefined;
  let pageId: string | undefined;
  let limit: number | undefined;
  let sortOrder: EventSearchQuery['sort_order'] | undefined;
  for (let at = 1; at <= search.length; ) {
    let end = search.indexOf('&', at);
    if (end < 0) end = search.length;
    const eq = search.indexOf('=', at);
    if (eq < 0 || eq > end) return undefined;
    const value = search.slice(eq + 1, end);
    if (!PLAIN.test(value)) return undefined;
    switch (search.slice(at, eq)) {
      case 'kind':
        if (kind !== undefined) return undefined;
        kind = value;
        break;
      case 'source':
        if (source !== undefined) return undefined;
        source = value;
        break;
      case 'page_id':
        if (pageId !== undefined) return undefined;
        pageId = value;
        break;
      case 'limit':
        if (limit !== undefined || !LIMIT.test(value)) return undefined;
        limit = Number(value);
        break;
      case 'sort_order':
        if (sortOrder !== undefined || (value !== 'TIMESTAMP' && value !== 'TIMESTAMP_DESC')) return undefined;
        sortOrder = value;
        break;
      default:
        return undefined;
    }
    at = end + 1;
  }
  // The schema's key order: the filters, then page_id, limit, sort_order (absent ones left out).
  if (kind === undefined && source === undefined && pageId === undefined)
    return { limit: limit ?? 100, sort_order: sortOrder ?? 'TIMESTAMP' };
  return {
    ...(kind === undefined ? {} : { kind }),
    ...(source === undefined ? {} : { source }),
    ...(pageId === undefined ? {} : { page_id: pageId }),
    limit: limit ?? 100,
    sort_order: sortOrder ?? 'TIMESTAMP',
  };
}

/** A conversation id as clients send it: 32 lowercase hex digits, or hyphenated in lowercase. */
const CONVERSATION_ID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * Whether the path's `conversation_id` surely passes its schema (`Uuid`): a UUID in either common
 * form; any other is left to the schema and its 422.
 * @example
 * conversationParamFastPath({ conversation_id: '5d2b58b33a0f4b8e9c573a9c3a4c2f10' }) // true
 */
export function conversationParamFastPath(params: Readonly<Record<string, string>>): boolean {
  const id = params.conversation_id;
  return id !== undefined && CONVERSATION_ID.test(id);
}
