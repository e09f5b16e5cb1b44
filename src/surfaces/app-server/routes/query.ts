/**
 * Query parameters shared by the API routes: paging, datetimes as pydantic parses them, id lists.
 */
import * as z from 'zod/mini';
import { NEVER } from 'zod/v4/core';
import { MAX_BATCH_IDS, MAX_PAGE_LIMIT, StartTaskSortOrder, Uuid } from '../../../schemas/common.js';
import { LaxBool, laxInt, type PydanticErrorParams } from '../../../schemas/helpers.js';
import { canonicalDateTime, formatDateTime, parseDateTimeMicros } from '../../../schemas/datetime.js';

/** Default page size of the legacy conversation list. */
export const LEGACY_DEFAULT_LIMIT = 20;

function pydanticIssue(type: string, msg: string, ctx?: Record<string, unknown>): PydanticErrorParams {
  return { pydantic: ctx ? { type, msg, ctx } : { type, msg } };
}

/**
 * `page_id`: the cursor from a previous `next_page_id` (an offset). Anything that is not an
 * integer starts from the first page, as the real services do (`sql_app_conversation_info_service.py`,
 * `docker_sandbox_service.py`: `int(page_id)`, falling back to 0).
 */
export const PageId = z.pipe(
  z.string(),
  z.transform((value) => (/^\d{1,9}$/.test(value) ? Number(value) : 0)),
);

/** `limit`: items per page, `0 < limit <= 100`. */
export const limit = (fallback: number) => z._default(laxInt(z.int().check(z.gt(0), z.lte(MAX_PAGE_LIMIT))), fallback);

/** The first and last instants a datetime can be (years 1 to 9999, as Python's datetime), in epoch milliseconds. */
const MIN_DATETIME_MS = Date.parse('0001-01-01T00:00:00Z');
const MAX_DATETIME_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** A datetime query parameter, parsed as pydantic does (ISO 8601, a date, or Unix seconds, within years 1 to 9999). */
export const QueryDateTime = z.pipe(
  z.string(),
  z.transform((value, ctx) => {
    let micros = Number.NaN;
    if (/^\d+(\.\d+)?$/.test(value)) micros = Math.round(Number(value) * 1e6);
    else if (/^\d{4}-\d{2}-\d{2}$/.test(value)) micros = Date.parse(`${value}T00:00:00Z`) * 1000;
    else micros = parseDateTimeMicros(value.replace(' ', 'T'));
    const ms = Math.floor(micros / 1000);
    const outOfRange = Number.isFinite(micros) && (ms < MIN_DATETIME_MS || ms > MAX_DATETIME_MS);
    if (!Number.isFinite(micros) || outOfRange) {
      const error = outOfRange
        ? /^\d+(\.\d+)?$/.test(value)
          ? 'dates after 9999 are not supported as unix timestamps'
          : 'year is out of range'
        : value.length < 10
          ? 'input is too short'
          : /^\d{4}/.test(value)
            ? 'invalid datetime separator, expected `T`, `t`, `_` or space'
            : 'invalid character in year';
      ctx.issues.push({
        code: 'custom',
        message: error,
        input: value,
        path: [],
        params: pydanticIssue('datetime_from_date_parsing', `Input should be a valid datetime or date, ${error}`, { error }),
      });
      return NEVER;
    }
    return canonicalDateTime(formatDateTime(Math.floor(micros / 1000), ((micros % 1000) + 1000) % 1000));
  }),
);

/** Paging parameters of every V1 search. */
export const PageQuery = z.object({ page_id: z.optional(PageId), limit: limit(MAX_PAGE_LIMIT) });

/** Filters of the app conversation search and count. */
export const AppConversationFilterQuery = z.object({
  title__contains: z.optional(z.string()),
  created_at__gte: z.optional(QueryDateTime),
  created_at__lt: z.optional(QueryDateTime),
  updated_at__gte: z.optional(QueryDateTime),
  updated_at__lt: z.optional(QueryDateTime),
  sandbox_id__eq: z.optional(z.string()),
});

/** The search takes the filters, a page, and whether to include sub-conversations (never a sort order: newest first). */
export const AppConversationSearchQuery = z.extend(AppConversationFilterQuery, {
  page_id: z.optional(PageId),
  limit: limit(MAX_PAGE_LIMIT),
  include_sub_conversations: z._default(LaxBool, false),
});

export const StartTaskFilterQuery = z.object({
  conversation_id__eq: z.optional(Uuid),
  created_at__gte: z.optional(QueryDateTime),
});

export const StartTaskSearchQuery = z.extend(StartTaskFilterQuery, {
  sort_order: z._default(StartTaskSortOrder, 'CREATED_AT_DESC'),
  page_id: z.optional(PageId),
  limit: limit(MAX_PAGE_LIMIT),
});

/** A list of ids given as a repeated query parameter, at most 100 (or `max`). */
export const idList = <T extends z.ZodMiniType<string>>(item: T, max: number = MAX_BATCH_IDS) => z.array(item).check(z.maxLength(max));

/** The page a search's query asks for: its offset (the `page_id` cursor) and size. */
export const pageRequestOf = (query: { page_id?: number | undefined; limit: number }) => ({
  offset: query.page_id ?? 0,
  limit: query.limit,
});
