/**
 * Query parameters shared by the API routes: paging, datetimes as pydantic parses them, id lists.
 */
import { z } from 'zod';
import { AppConversationSortOrder, MAX_BATCH_IDS, MAX_PAGE_LIMIT, StartTaskSortOrder, Uuid } from '../../schemas/common.js';
import { LaxBool, laxInt, type PydanticErrorParams } from '../../schemas/helpers.js';
import { canonicalDateTime, formatDateTime, parseDateTimeMicros } from '../../schemas/datetime.js';

/** Default page size of the legacy conversation list. */
export const LEGACY_DEFAULT_LIMIT = 20;

function pydanticIssue(type: string, msg: string, ctx?: Record<string, unknown>): PydanticErrorParams {
  return { pydantic: ctx ? { type, msg, ctx } : { type, msg } };
}

/** `page_id`: the opaque cursor from a previous `next_page_id` (an offset). */
export const PageId = z.string().transform((value, ctx) => {
  if (!/^\d{1,9}$/.test(value)) {
    const msg = 'Value error, page_id is not a cursor returned by this endpoint';
    ctx.addIssue({ code: 'custom', message: msg, input: value, params: pydanticIssue('value_error', msg, { error: {} }) });
    return z.NEVER;
  }
  return Number(value);
});

/** `limit`: items per page, `0 < limit <= 100`. */
export const limit = (fallback: number) => laxInt(z.int().gt(0).lte(MAX_PAGE_LIMIT)).default(fallback);

/** A datetime query parameter, parsed as pydantic does (ISO 8601, a date, or Unix seconds). */
export const QueryDateTime = z.string().transform((value, ctx) => {
  let micros = Number.NaN;
  if (/^\d+(\.\d+)?$/.test(value)) micros = Math.round(Number(value) * 1e6);
  else if (/^\d{4}-\d{2}-\d{2}$/.test(value)) micros = Date.parse(`${value}T00:00:00Z`) * 1000;
  else micros = parseDateTimeMicros(value.replace(' ', 'T'));
  if (!Number.isFinite(micros)) {
    const error = value.length < 10 ? 'input is too short' : /^\d{4}/.test(value) ? 'invalid datetime separator, expected `T`, `t`, `_` or space' : 'invalid character in year';
    ctx.addIssue({
      code: 'custom', message: error, input: value,
      params: pydanticIssue('datetime_from_date_parsing', `Input should be a valid datetime or date, ${error}`, { error }),
    });
    return z.NEVER;
  }
  return canonicalDateTime(formatDateTime(Math.floor(micros / 1000), micros % 1000));
});

/** Paging parameters of every V1 search. */
export const PageQuery = z.object({ page_id: PageId.optional(), limit: limit(MAX_PAGE_LIMIT) });

/** Filters of the app conversation search and count. */
export const AppConversationFilterQuery = z.object({
  title__contains: z.string().optional(),
  created_at__gte: QueryDateTime.optional(),
  created_at__lt: QueryDateTime.optional(),
  updated_at__gte: QueryDateTime.optional(),
  updated_at__lt: QueryDateTime.optional(),
  include_sub_conversations: LaxBool.default(false),
});

export const AppConversationSearchQuery = AppConversationFilterQuery.extend({
  sort_order: AppConversationSortOrder.default('CREATED_AT_DESC'),
  page_id: PageId.optional(),
  limit: limit(MAX_PAGE_LIMIT),
});

export const StartTaskFilterQuery = z.object({
  conversation_id__eq: Uuid.optional(),
  created_at__gte: QueryDateTime.optional(),
});

export const StartTaskSearchQuery = StartTaskFilterQuery.extend({
  sort_order: StartTaskSortOrder.default('CREATED_AT_DESC'),
  page_id: PageId.optional(),
  limit: limit(MAX_PAGE_LIMIT),
});

/** A list of ids given as a repeated query parameter, at most 100. */
export const idList = <T extends z.ZodType<string>>(item: T) => z.array(item).max(MAX_BATCH_IDS);

export const toPage = (query: { page_id?: number | undefined; limit: number }) => ({ offset: query.page_id ?? 0, limit: query.limit });

