/**
 * The agent server's REST routes, relative to the agent host: health, the event log, messages,
 * the conversations it holds, pause and run (its workspace's routes: `workspace-routes.ts`). Each
 * names the real function it copies (openhands-agent-server `server_details_router.py`,
 * `event_router.py`, `conversation_router.py`). A new agent route goes here.
 */
import * as z from 'zod/mini';
import { batchGetEvents, countEvents, getEvent, sendToAgent } from '../../domain/agent/agent-server.js';
import { respondToConfirmation, setConfirmationPolicy } from '../../domain/agent/scripted-agent.js';
import { messageText } from '../../domain/conversations/start-tasks.js';
import { Uuid } from '../../schemas/common.js';
import { laxInt } from '../../schemas/helpers.js';
import { AgentMessageRequest, AgentSuccess, EventSortOrder, HealthStatus, ServerInfo } from '../../schemas/agent-server.js';
import { AnyEvent, EventPage } from '../../schemas/event-page.js';
import { onConversation } from './host.js';
import { conversationParamFastPath, eventSearchQueryFastPath } from './event-search-query.js';
import { eventPageText } from './event-pages.js';
import { workspaceRoutes } from './workspace-routes.js';
import { conversationWorkspaceRoutes } from './conversation-workspace-routes.js';
import { openAiRoutes } from './openai-routes.js';
import { credentialBindingRoutes } from './credential-binding-routes.js';
import { conversationRoutes } from './conversation-routes.js';
import { settingsRoutes } from './settings-routes.js';

// The sockets come with the routes: one later chunk of the agent surface in a page.
export { openEventSocket } from './sockets.js';
export { openBashSocket } from './bash-socket.js';
import { initRoutes, worldRoutes } from './world-routes.js';
import { bashRoutes } from './bash-routes.js';
import { connectionRoutes } from './connection-routes.js';
import { mcpRoutes } from './mcp-routes.js';
import { appBackendRoutes, canvasExtensionRoutes } from './canvas-extension-routes.js';
import { asyncApiRoute } from './asyncapi.js';
import { runtimeRoutes } from './runtime-routes.js';
import { catalogRoutes } from './catalog-routes.js';
import { defineRoute, type Route, type RouteContext } from '../../http/route.js';
import { QueryDateTime } from '../../schemas/query-datetime.js';

/** The version the fake's agent server reports. */
export const AGENT_SERVER_VERSION = '1.43.0';
const STARTED_AT = Date.now();

/** `get_server_info`: the version `--agent-server-version` names (the newest by default), as the sandboxes' agent servers report it. */
const serverInfo = (context: RouteContext) => {
  const version = context.options.agentServerVersion ?? AGENT_SERVER_VERSION;
  return {
    uptime: Math.floor((Date.now() - STARTED_AT) / 1000),
    idle_time: 0,
    title: 'OpenHands Agent Server',
    version,
    // What the newest agent server adds (server_details_router.py, `ServerInfo`, 1.58.2): its packages' versions, build, tools, runtime.
    sdk_version: version,
    tools_version: version,
    workspace_version: version,
    build_git_sha: 'unknown',
    build_git_ref: 'unknown',
    python_version: '3.12.1 (fakehands)',
    usable_tools: USABLE_TOOLS,
    runtime_idle_timeout_seconds: null,
    conversation_runtime: 'local' as const,
    available_conversation_runtimes: [],
    capabilities: SERVER_CAPABILITIES,
    app_backend_ingress_url: null,
    max_foreground_terminal_timeout_seconds: null,
    docs: '/docs',
    redoc: '/redoc',
  };
};

/** The tools the fake's agent server can run (`list_usable_tools`): its agent's, the built-in ones. */
const USABLE_TOOLS = ['terminal', 'file_editor', 'task_tracker', 'finish', 'think'];

/** What the fake's agent server says it supports (`ServerInfo.capabilities`): the routes it serves of those the newest server names. */
const SERVER_CAPABILITIES = ['conversation_runtime_routes_v1', 'idempotent_conversation_create_v1'];

const BASE = '/api/conversations/:conversation_id';
const ConversationParam = z.object({ conversation_id: Uuid });
const EventFilterQuery = z.object({
  kind: z.optional(z.string()),
  source: z.optional(z.string()),
  body: z.optional(z.string()),
  timestamp__gte: z.optional(QueryDateTime),
  timestamp__lt: z.optional(QueryDateTime),
});
/** A datetime filter compared with events' naive timestamps. */
const naive = (value: string | undefined) => value?.replace(/(Z|[+-]\d{2}:\d{2})$/, '');

/** The agent server's routes. */
export const agentRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: '/alive',
    summary: 'Liveness (alive)',
    public: true,
    response: HealthStatus,
    handle: async () => ({ status: 'ok' }),
  }),
  defineRoute({
    method: 'GET',
    path: '/health',
    summary: 'Health (health)',
    public: true,
    response: HealthStatus,
    handle: async () => ({ status: 'ok' }),
  }),
  defineRoute({
    method: 'GET',
    path: '/ready',
    summary: 'Readiness (ready)',
    public: true,
    response: z.record(z.string(), z.string()),
    handle: async () => ({ status: 'ready' }),
  }),
  defineRoute({
    method: 'GET',
    path: '/server_info',
    summary: 'Uptime and version (get_server_info)',
    public: true,
    response: ServerInfo,
    handle: async (_input, context) => serverInfo(context),
  }),
  defineRoute({
    method: 'GET',
    path: '/',
    summary: 'Uptime and version at the root, as a server without static files maps it (api.py, _setup_static_files)',
    public: true,
    response: ServerInfo,
    handle: async (_input, context) => serverInfo(context),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/events/search`,
    summary: "A page of the conversation's events (search_conversation_events)",
    params: ConversationParam,
    query: z.extend(EventFilterQuery, {
      page_id: z.optional(z.string()),
      limit: z._default(laxInt(z.int().check(z.gt(0), z.lte(100))), 100),
      sort_order: z._default(EventSortOrder, 'TIMESTAMP'),
    }),
    // `?limit=20` and its like, and the conversation id, read without the schemas (`event-search-query.ts`, issue 31).
    queryFastPath: eventSearchQueryFastPath,
    paramsFastPath: conversationParamFastPath,
    response: EventPage,
    errors: [404],
    handle: (input, context) =>
      onConversation(input, context, (state, conversation) => {
        const query = input.query;
        // Each page's JSON is written once and reused while the log still holds it (`event-pages.ts`).
        return eventPageText(
          state,
          conversation,
          query.timestamp__gte === undefined && query.timestamp__lt === undefined
            ? query
            : { ...query, timestamp__gte: naive(query.timestamp__gte), timestamp__lt: naive(query.timestamp__lt) },
        );
      }),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/events/count`,
    summary: 'How many events match (count_conversation_events)',
    params: ConversationParam,
    query: EventFilterQuery,
    response: z.int().check(z.gte(0)),
    errors: [404],
    handle: (input, context) =>
      onConversation(input, context, (state, conversation) =>
        countEvents(state, conversation, {
          ...input.query,
          timestamp__gte: naive(input.query.timestamp__gte),
          timestamp__lt: naive(input.query.timestamp__lt),
        }),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/events/:event_id`,
    summary: 'One event (get_conversation_event)',
    params: z.extend(ConversationParam, { event_id: z.string() }),
    response: AnyEvent,
    errors: [404],
    handle: (input, context) =>
      onConversation(input, context, (state, conversation) => getEvent(state, conversation, input.params.event_id)),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/events`,
    summary: 'Events by id, null for missing ones (batch_get_conversation_events)',
    params: ConversationParam,
    query: z.object({ event_ids: z.array(z.string()).check(z.maxLength(100)) }),
    lists: ['event_ids'],
    response: z.array(z.nullable(AnyEvent)),
    errors: [404],
    handle: (input, context) =>
      onConversation(input, context, (state, conversation) => batchGetEvents(state, conversation, input.query.event_ids)),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/events`,
    summary: 'Send a message to the agent; with run, it works on it (send_message)',
    params: ConversationParam,
    body: AgentMessageRequest,
    response: AgentSuccess,
    errors: [404],
    handle: (input, context) =>
      onConversation(input, context, async (state, conversation) => {
        await sendToAgent(state, conversation, messageText(input.body.content), input.body.run);
        return { success: true as const };
      }),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/events/respond_to_confirmation`,
    summary: 'Accept or reject the action waiting for confirmation (respond_to_confirmation)',
    params: ConversationParam,
    body: z.object({ accept: z.boolean(), reason: z._default(z.string(), 'User rejected the action.') }),
    response: AgentSuccess,
    errors: [404],
    handle: (input, context) =>
      onConversation(input, context, async (state, conversation) => {
        await respondToConfirmation(state, conversation, input.body.accept, input.body.reason);
        return { success: true as const };
      }),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/confirmation_policy`,
    summary: 'Set the confirmation policy (set_conversation_confirmation_policy)',
    params: ConversationParam,
    body: z.object({ policy: z.looseObject({ kind: z.enum(['AlwaysConfirm', 'NeverConfirm', 'ConfirmRisky']) }) }),
    response: AgentSuccess,
    errors: [404],
    handle: (input, context) =>
      onConversation(input, context, async (state, conversation) => {
        await setConfirmationPolicy(state, conversation, input.body.policy.kind);
        return { success: true as const };
      }),
  }),
  ...workspaceRoutes,
  // A conversation's workspace as a static web server (workspace_router.py): conversation-workspace-routes.ts.
  ...conversationWorkspaceRoutes,
  // The OpenAI-compatible gateway (openai/router.py): openai-routes.ts.
  ...openAiRoutes,
  // The credential bindings, left out of the document (credential_binding.py): credential-binding-routes.ts.
  ...credentialBindingRoutes,
  // The conversation API (create, update, delete, run, pause, interrupt, goal, fork...): conversation-routes.ts.
  ...conversationRoutes,
  // The host-wide routes (settings, profiles, catalogues, workspaces, files, the shell): `host-wide.ts`.
  ...settingsRoutes,
  ...worldRoutes,
  ...initRoutes,
  ...bashRoutes,
  ...connectionRoutes,
  ...mcpRoutes,
  // Agent Canvas's extensions API, as a host with none installed: canvas-extension-routes.ts.
  ...canvasExtensionRoutes,
  ...appBackendRoutes,
  // What 1.58.2 offers for configuring an agent (catalogs, plugin fetch, repositories, ACP models): catalog-routes.ts.
  ...catalogRoutes,
  // A conversation's runtime: the shell, file, git and VS Code routes bound to it (runtime_router.py): runtime-routes.ts.
  ...runtimeRoutes([...workspaceRoutes, ...conversationRoutes, ...worldRoutes, ...bashRoutes]),
  // The AsyncAPI document of the sockets: asyncapi.ts.
  asyncApiRoute,
]);
