/** Routes of the legacy (V0) API under `/api/`: conversations and git providers. */
import { z } from 'zod';
import {
  ConversationInfo, ConversationInfoResultSet, ConversationResponse, ConversationTitleUpdate,
  GitProvidersStored, InitSessionRequest, POSTProviderModel,
} from '../../schemas/legacy.js';
import { defineRoute, type Route } from '../route.js';
import { LEGACY_DEFAULT_LIMIT, PageId, limit, toPage } from './query.js';

/** The legacy routes. */
export const legacyRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST', path: '/api/conversations', summary: 'Create a conversation (legacy), or join the one with the given conversation_id',
    body: InitSessionRequest, response: ConversationResponse, errors: [404],
    handle: ({ body }, { service }) => service.createConversation(body),
  }),
  defineRoute({
    method: 'GET', path: '/api/conversations', summary: 'List conversations of both versions, newest first (legacy)',
    query: z.object({ page_id: PageId.optional(), limit: limit(LEGACY_DEFAULT_LIMIT) }), response: ConversationInfoResultSet,
    handle: ({ query }, { service }) => service.listConversations(toPage(query)),
  }),
  defineRoute({
    method: 'GET', path: '/api/conversations/:conversation_id', summary: 'Get a conversation (legacy)',
    response: ConversationInfo, errors: [404],
    handle: ({ params }, { service }) => service.getConversation(params.conversation_id!),
  }),
  defineRoute({
    method: 'PATCH', path: '/api/conversations/:conversation_id', summary: 'Rename a conversation (legacy)',
    body: ConversationTitleUpdate, response: z.literal(true), errors: [404],
    handle: ({ params, body }, { service }) => service.updateConversationTitle(params.conversation_id!, body.title),
  }),
  defineRoute({
    method: 'DELETE', path: '/api/conversations/:conversation_id', summary: 'Delete a conversation and its sandbox (legacy)',
    response: z.literal(true), errors: [404],
    handle: ({ params }, { service }) => service.deleteConversation(params.conversation_id!),
  }),
  defineRoute({
    method: 'POST', path: '/api/add-git-providers', summary: 'Store git provider tokens and MCP configuration (tokens are never returned)',
    body: POSTProviderModel, response: GitProvidersStored,
    handle: ({ body }, { service }) => service.storeGitProviders(body),
  }),
];
