/** Routes of app conversations and their start tasks under `/api/v1/app-conversations`. */
import * as z from 'zod/mini';
import { AppConversation, AppConversationStartRequest, AppConversationStartTask } from '../../../schemas/app-conversation.js';
import { Uuid } from '../../../schemas/common.js';
import { batchOf, pageOf } from '../../../schemas/helpers.js';
import { defineRoute, type Route } from '../../../http/route.js';
import {
  AppConversationFilterQuery,
  AppConversationSearchQuery,
  StartTaskFilterQuery,
  StartTaskSearchQuery,
  idList,
  pageRequestOf,
} from './query.js';
import { countAppConversations, getAppConversations, searchAppConversations } from '../../../domain/conversations/app-conversations.js';
import { startAppConversation } from '../../../domain/conversations/start-conversation.js';
import { countStartTasks, getStartTasks, searchStartTasks } from '../../../domain/conversations/start-tasks.js';

/** The app conversation routes. */
export const appConversationRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/app-conversations',
    summary: 'Start an app conversation; answers with a start task to poll',
    body: AppConversationStartRequest,
    response: AppConversationStartTask,
    errors: [400],
    handle: ({ body }, { runner }) => runner.run(startAppConversation, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/app-conversations',
    summary: 'Batch get app conversations by ids (null for missing ones); ids is required (the list is /search)',
    query: z.object({ ids: idList(Uuid) }),
    lists: ['ids'],
    response: batchOf(AppConversation),
    handle: ({ query }, { runner }) => runner.run(getAppConversations, query.ids),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/app-conversations/search',
    summary: 'Search app conversations',
    query: AppConversationSearchQuery,
    response: pageOf(AppConversation),
    handle: ({ query }, { runner }) => runner.run(searchAppConversations, query, pageRequestOf(query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/app-conversations/count',
    summary: 'Count app conversations matching the search filters',
    query: AppConversationFilterQuery,
    response: z.int().check(z.gte(0)),
    handle: ({ query }, { runner }) => runner.run(countAppConversations, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/app-conversations/start-tasks',
    summary: 'Batch get start tasks by ids (null for missing ones)',
    query: z.object({ ids: idList(Uuid) }),
    lists: ['ids'],
    response: batchOf(AppConversationStartTask),
    handle: ({ query }, { runner }) => runner.run(getStartTasks, query.ids),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/app-conversations/start-tasks/search',
    summary: 'Search start tasks',
    query: StartTaskSearchQuery,
    response: pageOf(AppConversationStartTask),
    handle: ({ query }, { runner }) => runner.run(searchStartTasks, query, pageRequestOf(query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/app-conversations/start-tasks/count',
    summary: 'Count start tasks matching the filters',
    query: StartTaskFilterQuery,
    response: z.int().check(z.gte(0)),
    handle: ({ query }, { runner }) => runner.run(countStartTasks, query),
  }),
];
