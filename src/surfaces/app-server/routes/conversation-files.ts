/**
 * `GET /api/v1/app-conversations/{id}/files?path=`: the workspace's files under a folder, which Agent
 * Canvas's file tree asks a cloud backend for (not in the published OpenAPI document of Aug 2026).
 */
import * as z from 'zod/mini';
import { listConversationFiles } from '../../../domain/conversations/files.js';
import { defineRoute, type Route } from '../../../http/route.js';

/** The conversation files route. */
export const conversationFileRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: '/api/v1/app-conversations/:conversation_id/files',
    summary: "The files under ?path= in the conversation's workspace, relative to it ([] when not running)",
    params: z.object({ conversation_id: z.string() }),
    query: z.object({ path: z._default(z.string(), '/workspace/project') }),
    response: z.array(z.string()),
    handle: ({ params, query }, { runner }) => runner.run(listConversationFiles, params.conversation_id, query.path),
  }),
]);
