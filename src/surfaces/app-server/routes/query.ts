/**
 * Query parameters shared by the API routes: paging, filters, id lists.
 */
import * as z from 'zod/mini';
import { MAX_BATCH_IDS, MAX_PAGE_LIMIT, StartTaskSortOrder, Uuid } from '../../../schemas/common.js';
import { LaxBool, laxInt } from '../../../schemas/helpers.js';
import { QueryDateTime } from '../../../schemas/query-datetime.js';

/** Default page size of the legacy conversation list. */
export const LEGACY_DEFAULT_LIMIT = 20;

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
