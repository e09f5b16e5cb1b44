/**
 * The agent server's conversation API, relative to the agent host: create, read, search, count,
 * update, delete; run, pause, interrupt; goal, ask, final response, condense, fork, navigate,
 * title, secrets, analyzer, LLM, profile and ACP model; the trajectory download. Each route names
 * the real function it copies (openhands-agent-server `conversation_router.py`, `file_router.py`;
 * `generate_title` from the published v1.11.4 document). The operations: `domain/agent-conversations.ts`.
 */
import { heldConversation } from '../../domain/agent/host.js';
import * as z from 'zod/mini';
import {
  batchGetHostConversations,
  countHostConversations,
  deleteHostConversation,
  searchHostConversations,
  startHostConversation,
  trajectoryZip,
  updateHostConversation,
} from '../../domain/agent/conversations.js';
import { agentFinalResponse } from '../../domain/agent/history.js';
import { isRefusal, refuse } from '../../domain/store/refusal.js';
import { toHex } from '../../domain/store/ids.js';
import { AgentTextResponse, StartConversationRequest, UpdateConversationRequest } from '../../schemas/agent-conversations.js';
import { startConversationFastPath } from '../../schemas/start-conversation-fast.js';
import { AgentConversationInfo, AgentConversationPage, AgentConversationSortOrder, AgentSuccess } from '../../schemas/agent-server.js';
import { ConversationExecutionStatus, Uuid } from '../../schemas/common.js';
import { LaxBool, laxInt } from '../../schemas/helpers.js';
import { defineRoute, type Route } from '../../http/route.js';
import { raw } from '../../http/responses.js';
import { JsonText } from '../../http/json-text.js';
import { hostConversationInfoJson } from '../../domain/agent/info-json.js';
import { onAgentHost, onHeldConversation } from './host.js';
import { conversationAgentRoutes } from './conversation-agent-routes.js';

const BASE = '/api/conversations/:conversation_id';
const ConversationParam = z.object({ conversation_id: Uuid });
/** `include_skills` (every route answering a `ConversationInfo` takes it; the fake's conversations have no skills to trim). */
const IncludeSkills = z.object({ include_skills: z._default(LaxBool, false) });
const SUCCESS = Object.freeze({ success: true as const });

/** The agent server's conversation routes (registered in `routes.ts`). */
export const conversationRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: '/api/conversations/search',
    summary: 'A page of the conversations this agent server holds (search_conversations)',
    query: z.extend(IncludeSkills, {
      page_id: z.optional(z.string()),
      limit: z._default(laxInt(z.int().check(z.gt(0), z.lte(100))), 100),
      status: z.optional(ConversationExecutionStatus),
      sort_order: z._default(AgentConversationSortOrder, 'CREATED_AT_DESC'),
    }),
    response: AgentConversationPage,
    handle: (input, context) => onAgentHost(input, context, (state, host) => searchHostConversations(state, host, input.query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/conversations/count',
    summary: 'How many conversations this agent server holds (count_conversations)',
    query: z.object({ status: z.optional(ConversationExecutionStatus) }),
    response: z.int(),
    handle: (input, context) => onAgentHost(input, context, (state, host) => countHostConversations(state, host, input.query.status)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/conversations',
    summary: 'Conversations by id, null for the ones it does not hold (batch_get_conversations)',
    query: z.extend(IncludeSkills, { ids: z.array(Uuid).check(z.maxLength(99)) }),
    lists: ['ids'],
    response: z.array(z.nullable(AgentConversationInfo)),
    handle: (input, context) => onAgentHost(input, context, (state, host) => batchGetHostConversations(state, host, input.query.ids)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/conversations',
    summary: 'Start a conversation here: 201, or 200 with the one it holds under that id (start_conversation)',
    query: IncludeSkills,
    body: StartConversationRequest,
    bodyFastPath: startConversationFastPath,
    response: AgentConversationInfo,
    successStatus: 201,
    errors: [404, 409],
    handle: (input, context) =>
      onAgentHost(input, context, async (state, host) => {
        // Its `ConversationInfo` written as JSON at once, without the object (`info-json.ts`).
        const started = await startHostConversation(state, host, input.body, hostConversationInfoJson);
        // The real route's own 422s carry a string `detail` (InvalidParentConversation), not pydantic's items.
        if (isRefusal(started))
          return started.reason === 'invalid' && started.body !== undefined
            ? raw(422, JSON.stringify(started.body), 'application/json')
            : started;
        return started.created ? new JsonText(started.info) : raw(200, started.info, 'application/json');
      }),
  }),
  defineRoute({
    method: 'GET',
    path: BASE,
    summary: 'One conversation (get_conversation)',
    params: ConversationParam,
    query: IncludeSkills,
    response: AgentConversationInfo,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(input, context, (state, conversation) => new JsonText(hostConversationInfoJson(state, conversation, true))),
  }),
  defineRoute({
    method: 'PATCH',
    path: BASE,
    summary: 'Update the title and tags; {"success": false} for a conversation it does not hold (update_conversation)',
    params: ConversationParam,
    body: UpdateConversationRequest,
    response: AgentSuccess,
    handle: (input, context) =>
      onAgentHost(input, context, async (state, host) => {
        const conversation = heldConversation(state, host, input.params.conversation_id);
        return { success: await updateHostConversation(state, isRefusal(conversation) ? null : conversation, input.body) };
      }),
  }),
  defineRoute({
    method: 'DELETE',
    path: BASE,
    summary: 'Delete the conversation and its events; 404 for one it does not hold (delete_conversation)',
    params: ConversationParam,
    response: AgentSuccess,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(input, context, (state, conversation) => {
        deleteHostConversation(state, conversation);
        return SUCCESS;
      }),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/agent_final_response`,
    summary: 'The last finish or agent message, "" before any (get_conversation_agent_final_response)',
    params: ConversationParam,
    response: AgentTextResponse,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(input, context, (state, conversation) => ({ response: agentFinalResponse(state, conversation) })),
  }),
  ...conversationAgentRoutes,
  defineRoute({
    method: 'GET',
    path: '/api/file/download-trajectory/:conversation_id',
    summary: "The conversation's persisted state and events as a ZIP (file_router.py, download_trajectory)",
    params: ConversationParam,
    response: z.unknown(),
    untypedInDocument: true,
    errors: [404],
    handle: (input, context) =>
      onHeldConversation(
        input,
        context,
        async (state, conversation) =>
          raw(200, await trajectoryZip(state, conversation), 'application/octet-stream', {
            'content-disposition': `attachment; filename="${toHex(conversation.id)}.zip"`,
          }),
        () => refuse('not_found', 'Conversation not found'),
      ),
  }),
]);
