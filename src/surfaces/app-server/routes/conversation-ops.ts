/**
 * Routes on one app conversation (rename, delete, send a message, switch the model, its file,
 * git changes and diff, skills, hooks, download) and stream-start, as the real app server
 * answers them (`app_conversation_router.py`): reachable only through a RUNNING sandbox, with the
 * real statuses and messages when it is paused, starting, failed or gone.
 */
import * as z from 'zod/mini';
import { AppConversation, AppConversationStartRequest, AppConversationStartTask } from '../../../schemas/app-conversation.js';
import { Success, Uuid } from '../../../schemas/common.js';
import {
  AppConversationUpdateRequest,
  AppSendMessageRequest,
  AppSendMessageResponse,
  GitChange,
  GitChangeDiff,
  HooksResponse,
  SkillsResponse,
  SwitchAcpModelRequest,
  SwitchProfileRequest,
} from '../../../schemas/conversation-ops.js';
import {
  agentServerContext,
  deleteAppConversation,
  exportConversationPieces,
  gitChanges,
  gitDiff,
  hooksOf,
  LLM_PROFILES,
  readFile,
  type ReadyContext,
  sendMessage,
  skillsOf,
  switchModel,
  updateAppConversation,
} from '../../../domain/conversations/conversation-ops.js';
import { Refusal, refuse } from '../../../domain/store/refusal.js';
import type { DomainState } from '../../../domain/store/state.js';
import { raw } from '../../../http/responses.js';
import { toHex, toHyphenatedUuid } from '../../../domain/store/ids.js';
import { DEFAULT_FILE_PATH } from '../../../domain/agent/workspace.js';
import { defineRoute, type Route, type RouteContext } from '../../../http/route.js';
import { streamStart } from './stream-start.js';

const BASE = '/api/v1/app-conversations/:conversation_id';
/** The path parameter, a UUID (422 `uuid_parsing` otherwise), as the real routes declare it. */
const ConversationParam = z.object({ conversation_id: Uuid });
const hexOf = (id: string) => (toHyphenatedUuid(id) ? toHex(id) : id);

/** Runs `body` with a reachable agent server, as one operation, or refuses as the real proxy routes do: 404 not reachable, 409 paused. */
function throughAgentServer<T>(
  context: RouteContext,
  id: string,
  pausedMessage: string,
  body: (state: DomainState, ready: ReadyContext) => T | Promise<T>,
): Promise<T | Refusal> {
  return context.runner.run(async (state): Promise<T | Refusal> => {
    const agent = agentServerContext(state, id);
    if (agent.kind === 'ready') return body(state, agent);
    return agent.kind === 'paused' ? refuse('conflict', pausedMessage) : refuse('not_found', `Conversation ${hexOf(id)} is not reachable`);
  });
}

/** Lists from the agent server (skills, hooks): its own `{"error"}` 404 when not reachable, an empty list when paused. */
function listFromAgentServer<K extends 'skills' | 'hooks', T>(
  context: RouteContext,
  id: string,
  key: K,
  list: (ready: ReadyContext) => T[],
): Promise<Record<K, T[]> | Refusal> {
  return context.runner.run((state): Record<K, T[]> | Refusal => {
    const agent = agentServerContext(state, id);
    if (agent.kind === 'ready') return { [key]: list(agent) } as Record<K, T[]>;
    return agent.kind === 'paused'
      ? ({ [key]: [] } as unknown as Record<K, T[]>)
      : new Refusal('not_found', agent.error, { body: { error: agent.error } });
  });
}

const GitQuery = z.object({ path: z.string(), ref: z.optional(z.string()) });

/** The routes on one app conversation, and stream-start. */
export const conversationOpRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/app-conversations/stream-start',
    summary: 'Start an app conversation and stream its start task, step by step, as a JSON array that ends with READY or ERROR',
    body: AppConversationStartRequest,
    response: z.array(AppConversationStartTask),
    errors: [400],
    handle: ({ body }, context) => streamStart(context, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: BASE,
    summary: 'Update an app conversation: title, public, repository, branch, provider',
    body: AppConversationUpdateRequest,
    response: AppConversation,
    errors: [404],
    handle: async ({ params, body }, { runner }) =>
      (await runner.run(updateAppConversation, params.conversation_id, body)) ?? refuse('not_found', 'unknown_app_conversation'),
  }),
  defineRoute({
    method: 'DELETE',
    path: BASE,
    summary: 'Delete an app conversation, and its sandbox when no other conversation uses it',
    response: Success,
    errors: [400, 404],
    handle: async ({ params }, { runner }) => {
      if (!toHyphenatedUuid(params.conversation_id)) return refuse('bad_request', 'Invalid conversation ID format');
      return (await runner.run(deleteAppConversation, params.conversation_id))
        ? { success: true }
        : refuse('not_found', 'Conversation not found');
    },
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/send-message`,
    summary: 'Send a follow-up message; the sandbox must be RUNNING (409 paused or starting, 410 gone, 503 failed)',
    params: ConversationParam,
    body: AppSendMessageRequest,
    response: AppSendMessageResponse,
    errors: [404, 409, 410, 503],
    handle: async ({ params, body }, { runner }) => {
      const outcome = await runner.run(sendMessage, params.conversation_id, body);
      return outcome instanceof Refusal ? outcome : { success: true, sandbox_status: outcome.sandbox_status, message: null };
    },
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/switch_profile`,
    summary: 'Switch the running conversation to a saved LLM profile',
    params: ConversationParam,
    body: SwitchProfileRequest,
    response: Success,
    errors: [404, 409, 502],
    handle: async ({ params, body }, context) => {
      const model = LLM_PROFILES[body.profile_name];
      if (!model) return refuse('not_found', `Profile '${body.profile_name}' not found`);
      return throughAgentServer(
        context,
        params.conversation_id,
        'Sandbox is paused; resume it before switching profiles.',
        async (state, ready) => {
          await switchModel(state, ready, model);
          return { success: true };
        },
      );
    },
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/switch_acp_model`,
    summary: 'Switch the model of a running ACP conversation (400 for any other agent)',
    params: ConversationParam,
    body: SwitchAcpModelRequest,
    response: Success,
    errors: [400, 404, 409, 502, 504],
    handle: async ({ params, body }, context) =>
      throughAgentServer(context, params.conversation_id, 'Sandbox is paused; resume it before switching models.', async (state, ready) => {
        if (ready.conversation.agent_kind !== 'acp') return refuse('bad_request', 'Agent server error: 400');
        await switchModel(state, ready, body.model);
        return { success: true };
      }),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/file`,
    summary: 'Read a file of the workspace; "" when the conversation, a running sandbox or the file is not there',
    params: ConversationParam,
    query: z.object({ file_path: z._default(z.string(), DEFAULT_FILE_PATH) }),
    response: z.string(),
    handle: ({ params, query }, { runner }) => runner.run(readFile, params.conversation_id, query.file_path),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/git/changes`,
    summary: "The changed files of the repository at ?path= (the agent server's git service)",
    params: ConversationParam,
    query: GitQuery,
    response: z.array(GitChange),
    untypedInDocument: true,
    errors: [404, 409, 502],
    handle: ({ params, query }, context) =>
      throughAgentServer(context, params.conversation_id, 'Sandbox is paused; resume it before reading git state.', (_state, ready) =>
        gitChanges(ready, query.path),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/git/diff`,
    summary: 'A changed file before and after: {"original", "modified"}',
    params: ConversationParam,
    query: GitQuery,
    response: GitChangeDiff,
    untypedInDocument: true,
    errors: [404, 409, 502],
    handle: ({ params, query }, context) =>
      throughAgentServer(context, params.conversation_id, 'Sandbox is paused; resume it before reading git state.', (_state, ready) =>
        gitDiff(ready, query.path),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/skills`,
    summary: 'The skills loaded for the conversation (empty while its sandbox is paused)',
    params: ConversationParam,
    response: SkillsResponse,
    untypedInDocument: true,
    errors: [404, 502],
    handle: ({ params }, context) => listFromAgentServer(context, params.conversation_id, 'skills', skillsOf),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/hooks`,
    summary: 'The hooks configured in the workspace (empty while its sandbox is paused)',
    params: ConversationParam,
    response: HooksResponse,
    untypedInDocument: true,
    errors: [404, 502],
    handle: ({ params }, context) => listFromAgentServer(context, params.conversation_id, 'hooks', hooksOf),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/download`,
    summary: 'Download the conversation (metadata, messages and workspace) as a ZIP archive',
    params: ConversationParam,
    response: z.unknown(),
    untypedInDocument: true,
    errors: [404, 409, 503],
    handle: async ({ params }, { runner }) => {
      // Streamed in pieces, the event loop served between them (#29 finding 11).
      const archive = await runner.run(exportConversationPieces, params.conversation_id);
      if (!archive) return refuse('not_found', `Conversation not found: ${hexOf(params.conversation_id)}`);
      const uuid = toHyphenatedUuid(params.conversation_id);
      return raw(200, archive.pieces, 'application/zip', { 'content-disposition': `attachment; filename="conversation_${uuid}.zip"` });
    },
  }),
];
