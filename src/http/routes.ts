/**
 * The route table: every endpoint of the API with its schemas and the operation behind it.
 * Transports (msw handlers, the standalone server) and the OpenAPI document are made from it.
 */
import { z } from 'zod';
import {
  AppConversation, AppConversationStartRequest, AppConversationStartTask,
} from '../schemas/app-conversation.js';
import {
  AppConversationSortOrder, MAX_BATCH_IDS, MAX_PAGE_LIMIT, StartTaskSortOrder, Success, Uuid,
  batchOf, laxInt, LaxBool, pageOf, type PydanticErrorParams,
} from '../schemas/common.js';
import { canonicalDateTime, formatDateTime, parseDateTimeMicros } from '../schemas/datetime.js';
import {
  ConversationInfo, ConversationInfoResultSet, ConversationResponse, ConversationTitleUpdate,
  GitProvidersStored, InitSessionRequest, POSTProviderModel,
} from '../schemas/legacy.js';
import { SandboxInfo } from '../schemas/sandbox.js';
import { SandboxSpecInfo } from '../schemas/sandbox-spec.js';
import { defineRoute, type Route } from './route.js';

/** Default page size of the legacy conversation list. */
const LEGACY_DEFAULT_LIMIT = 20;

function pydanticIssue(type: string, msg: string, ctx?: Record<string, unknown>): PydanticErrorParams {
  return { pydantic: ctx ? { type, msg, ctx } : { type, msg } };
}

/** `page_id`: the opaque cursor from a previous `next_page_id` (an offset). */
const PageId = z.string().transform((value, ctx) => {
  if (!/^\d{1,9}$/.test(value)) {
    const msg = 'Value error, page_id is not a cursor returned by this endpoint';
    ctx.addIssue({ code: 'custom', message: msg, input: value, params: pydanticIssue('value_error', msg, { error: {} }) });
    return z.NEVER;
  }
  return Number(value);
});

/** `limit`: items per page, `0 < limit <= 100`. */
const limit = (fallback: number) => laxInt(z.int().gt(0).lte(MAX_PAGE_LIMIT)).default(fallback);

/** A datetime query parameter, parsed as pydantic does (ISO 8601, a date, or Unix seconds). */
const QueryDateTime = z.string().transform((value, ctx) => {
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
const PageQuery = z.object({ page_id: PageId.optional(), limit: limit(MAX_PAGE_LIMIT) });

/** Filters of the app conversation search and count. */
const AppConversationFilterQuery = z.object({
  title__contains: z.string().optional(),
  created_at__gte: QueryDateTime.optional(),
  created_at__lt: QueryDateTime.optional(),
  updated_at__gte: QueryDateTime.optional(),
  updated_at__lt: QueryDateTime.optional(),
  include_sub_conversations: LaxBool.default(false),
});

const AppConversationSearchQuery = AppConversationFilterQuery.extend({
  sort_order: AppConversationSortOrder.default('CREATED_AT_DESC'),
  page_id: PageId.optional(),
  limit: limit(MAX_PAGE_LIMIT),
});

const StartTaskFilterQuery = z.object({
  conversation_id__eq: Uuid.optional(),
  created_at__gte: QueryDateTime.optional(),
});

const StartTaskSearchQuery = StartTaskFilterQuery.extend({
  sort_order: StartTaskSortOrder.default('CREATED_AT_DESC'),
  page_id: PageId.optional(),
  limit: limit(MAX_PAGE_LIMIT),
});

/** A list of ids given as a repeated query parameter, at most 100. */
const idList = <T extends z.ZodType<string>>(item: T) => z.array(item).max(MAX_BATCH_IDS);

const toPage = (query: { page_id?: number | undefined; limit: number }) => ({ offset: query.page_id ?? 0, limit: query.limit });

/** Every endpoint of the API, seed endpoints and the companions a client needs. */
export const routes: readonly Route[] = [
  // ------------------------------------------------------------------ legacy (V0)
  defineRoute({
    method: 'POST', path: '/api/conversations', summary: 'Create a conversation (legacy), or join the one with the given conversation_id',
    body: InitSessionRequest, response: ConversationResponse, errors: [404],
    handle: ({ body }, service) => service.createConversation(body),
  }),
  defineRoute({
    method: 'GET', path: '/api/conversations', summary: 'List conversations of both versions, newest first (legacy)',
    query: z.object({ page_id: PageId.optional(), limit: limit(LEGACY_DEFAULT_LIMIT) }), response: ConversationInfoResultSet,
    handle: ({ query }, service) => service.listConversations(toPage(query)),
  }),
  defineRoute({
    method: 'GET', path: '/api/conversations/:conversation_id', summary: 'Get a conversation (legacy)',
    response: ConversationInfo, errors: [404],
    handle: ({ params }, service) => service.getConversation(params.conversation_id!),
  }),
  defineRoute({
    method: 'PATCH', path: '/api/conversations/:conversation_id', summary: 'Rename a conversation (legacy)',
    body: ConversationTitleUpdate, response: z.literal(true), errors: [404],
    handle: ({ params, body }, service) => service.updateConversationTitle(params.conversation_id!, body.title),
  }),
  defineRoute({
    method: 'DELETE', path: '/api/conversations/:conversation_id', summary: 'Delete a conversation and its sandbox (legacy)',
    response: z.literal(true), errors: [404],
    handle: ({ params }, service) => service.deleteConversation(params.conversation_id!),
  }),
  defineRoute({
    method: 'POST', path: '/api/add-git-providers', summary: 'Store git provider tokens and MCP configuration (tokens are never returned)',
    body: POSTProviderModel, response: GitProvidersStored,
    handle: ({ body }, service) => service.storeGitProviders(body),
  }),

  // ------------------------------------------------------------------ app conversations (V1)
  defineRoute({
    method: 'POST', path: '/api/v1/app-conversations', summary: 'Start an app conversation; answers with a start task to poll',
    body: AppConversationStartRequest, response: AppConversationStartTask,
    handle: ({ body }, service) => service.startAppConversation(body),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/app-conversations', summary: 'Batch get app conversations by ids (null for missing ones); without ids, the first page of the search',
    query: AppConversationSearchQuery.extend({ ids: idList(Uuid).optional() }), lists: ['ids'],
    response: z.union([batchOf(AppConversation), pageOf(AppConversation)]),
    handle: ({ query }, service) => (query.ids === undefined
      ? service.searchAppConversations(query, toPage(query))
      : service.getAppConversations(query.ids)),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/app-conversations/search', summary: 'Search app conversations',
    query: AppConversationSearchQuery, response: pageOf(AppConversation),
    handle: ({ query }, service) => service.searchAppConversations(query, toPage(query)),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/app-conversations/count', summary: 'Count app conversations matching the search filters',
    query: AppConversationFilterQuery, response: z.int().min(0),
    handle: ({ query }, service) => service.countAppConversations(query),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/app-conversations/start-tasks', summary: 'Batch get start tasks by ids (null for missing ones)',
    query: z.object({ ids: idList(Uuid) }), lists: ['ids'], response: batchOf(AppConversationStartTask),
    handle: ({ query }, service) => service.getStartTasks(query.ids),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/app-conversations/start-tasks/search', summary: 'Search start tasks',
    query: StartTaskSearchQuery, response: pageOf(AppConversationStartTask),
    handle: ({ query }, service) => service.searchStartTasks(query, toPage(query)),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/app-conversations/start-tasks/count', summary: 'Count start tasks matching the filters',
    query: StartTaskFilterQuery, response: z.int().min(0),
    handle: ({ query }, service) => service.countStartTasks(query),
  }),

  // ------------------------------------------------------------------ sandboxes (V1)
  defineRoute({
    method: 'GET', path: '/api/v1/sandboxes/search', summary: 'Search sandboxes, newest first',
    query: PageQuery, response: pageOf(SandboxInfo),
    handle: ({ query }, service) => service.searchSandboxes(toPage(query)),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/sandboxes', summary: 'Batch get sandboxes by id (null for missing ones)',
    query: z.object({ id: idList(z.string()) }), lists: ['id'], response: batchOf(SandboxInfo),
    handle: ({ query }, service) => service.getSandboxes(query.id),
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/sandboxes', summary: 'Start a sandbox from a sandbox spec (the default one when omitted)',
    query: z.object({ sandbox_spec_id: z.string().optional() }), response: SandboxInfo, errors: [404],
    handle: ({ query }, service) => service.startSandbox(query.sandbox_spec_id ?? null),
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/sandboxes/:sandbox_id/pause', summary: 'Pause a sandbox (its conversations stop)',
    response: Success, errors: [404, 409],
    handle: ({ params }, service) => service.pauseSandbox(params.sandbox_id!),
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/sandboxes/:sandbox_id/resume', summary: 'Resume a sandbox (STARTING, then RUNNING)',
    response: Success, errors: [404],
    handle: ({ params }, service) => service.resumeSandbox(params.sandbox_id!),
  }),
  defineRoute({
    method: 'DELETE', path: '/api/v1/sandboxes/:sandbox_id', summary: 'Delete a sandbox (it becomes MISSING)',
    response: Success, errors: [404],
    handle: ({ params }, service) => service.deleteSandbox(params.sandbox_id!),
  }),

  // ------------------------------------------------------------------ sandbox specs (V1)
  defineRoute({
    method: 'GET', path: '/api/v1/sandbox-specs/search', summary: 'Search sandbox specs',
    query: PageQuery, response: pageOf(SandboxSpecInfo),
    handle: ({ query }, service) => service.searchSandboxSpecs(toPage(query)),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/sandbox-specs', summary: 'Batch get sandbox specs by id (null for missing ones)',
    query: z.object({ id: idList(z.string()) }), lists: ['id'], response: batchOf(SandboxSpecInfo),
    handle: ({ query }, service) => service.getSandboxSpecs(query.id),
  }),
];
