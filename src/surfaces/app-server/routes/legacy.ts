/** Routes of the legacy (V0) API under `/api/`: conversations and git providers. */
import * as z from 'zod/mini';
import { badRequest } from '../../../domain/store/refusal.js';
import { ConversationTrigger } from '../../../schemas/common.js';
import { LaxBool } from '../../../schemas/helpers.js';
import {
  ConversationInfo,
  ConversationInfoResultSet,
  ConversationResponse,
  ConversationTitleUpdate,
  GitProvidersStored,
  InitSessionRequest,
  POSTProviderModel,
} from '../../../schemas/legacy.js';
import type { LegacyError } from '../../../schemas/errors.js';
import { defineRoute, type Route } from '../../../http/route.js';
import { raw } from '../../../http/responses.js';
import { Refusal } from '../../../domain/store/refusal.js';
import { LEGACY_DEFAULT_LIMIT } from './query.js';
import {
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  listConversationsText,
  updateConversationTitle,
} from '../../../domain/legacy/conversations.js';
import { storeGitProviders } from '../../../domain/user/git-providers.js';

/** Longest conversation id the real server accepts. */
const MAX_CONVERSATION_ID_LENGTH = 100;

/**
 * The real server's checks of a legacy conversation id, in its order and words
 * (`openhands/server/utils.py`, `validate_conversation_id`): each failure is a 400.
 */
function validateConversationId(id: string): string {
  if (id.length > MAX_CONVERSATION_ID_LENGTH) throw badRequest('Conversation ID is too long');
  if (id.includes('\u0000')) throw badRequest('Conversation ID contains invalid characters');
  if (id.includes('..') || id.includes('/') || id.includes('\\')) throw badRequest('Conversation ID contains invalid path characters');
  if ([...id].some((c) => c.charCodeAt(0) < 32)) throw badRequest('Conversation ID contains control characters');
  return id;
}

/** A legacy list longer than this is written in pieces (the domain's `LIST_SLICE` a piece). */
const STREAMED_OVER = 500;

/** The legacy list's query: no upper bound on `limit`, filters by repository and trigger. */
const LegacyListQuery = z.object({
  page_id: z.optional(z.string()),
  limit: z._default(
    z.pipe(
      z.transform((v) => (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : v)),
      z.int(),
    ),
    LEGACY_DEFAULT_LIMIT,
  ),
  selected_repository: z.optional(z.string()),
  conversation_trigger: z.optional(ConversationTrigger),
  include_sub_conversations: z._default(LaxBool, false),
});

/** The PATCH route's own 404 body (`manage_conversations.py`, `update_conversation`). */
const CONVERSATION_NOT_FOUND: LegacyError = { status: 'error', message: 'Conversation not found', msg_id: 'CONVERSATION$NOT_FOUND' };

/** The legacy routes. */
export const legacyRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST',
    path: '/api/conversations',
    summary: 'Create a conversation (legacy), or join the one with the given conversation_id',
    body: InitSessionRequest,
    response: ConversationResponse,
    errors: [400, 404],
    handle: ({ body }, { runner }) => {
      if (body.conversation_id !== undefined) validateConversationId(body.conversation_id);
      return runner.run(createConversation, body);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/conversations',
    summary: 'List conversations of both versions, newest first, filtered by repository and trigger (legacy)',
    query: LegacyListQuery,
    response: ConversationInfoResultSet,
    // A long list is written in pieces, the event loop served between them (#29 finding 11).
    handle: async ({ query }, { runner }) =>
      query.limit > STREAMED_OVER
        ? raw(200, (await runner.run(listConversationsText, query)).pieces, 'application/json')
        : runner.run(listConversations, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/conversations/:conversation_id',
    summary: 'Get a conversation (legacy); null for an unknown id',
    response: z.nullable(ConversationInfo),
    errors: [400],
    handle: ({ params }, { runner }) => runner.run(getConversation, validateConversationId(params.conversation_id)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/conversations/:conversation_id',
    summary: 'Rename a conversation (legacy); the title is trimmed',
    body: ConversationTitleUpdate,
    response: z.boolean(),
    errors: [400, 404],
    handle: async ({ params, body }, { runner }) => {
      const id = validateConversationId(params.conversation_id);
      if ((await runner.run(getConversation, id)) === null)
        return new Refusal('not_found', CONVERSATION_NOT_FOUND.message, { body: CONVERSATION_NOT_FOUND });
      return runner.run(updateConversationTitle, id, body.title);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/conversations/:conversation_id',
    summary: 'Delete a conversation and its sandbox (legacy); false for an unknown id',
    response: z.boolean(),
    errors: [400],
    handle: ({ params }, { runner }) => runner.run(deleteConversation, validateConversationId(params.conversation_id)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/add-git-providers',
    summary: 'Store git provider tokens and MCP configuration (tokens are never returned; unknown fields are ignored)',
    body: POSTProviderModel,
    response: GitProvidersStored,
    handle: ({ body }, { runner }) => runner.run(storeGitProviders, body),
  }),
];
