/**
 * The agent server's wire shapes (`openapi/agent-server.openapi.json`, and the models of
 * openhands-sdk `openhands/sdk/event/`): events, their pages, and the agent REST bodies.
 */
import * as z from 'zod/mini';
import { SendMessageRequest } from './app-conversation.js';
import { ConversationExecutionStatus } from './common.js';

/** An event of a conversation's log: its kind's fields besides these four. */
export const AgentEvent = z.looseObject({
  kind: z.string(),
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['user', 'agent', 'environment', 'hook']),
});

export { EventKind } from './event-kind.js';

/** The order of an event search (`EventSortOrder`). */
export const EventSortOrder = z.enum(['TIMESTAMP', 'TIMESTAMP_DESC']);

/** `{"success": true}` (`Success`). */
export const AgentSuccess = z.object({ success: z.boolean() });

/** `{"status": "ok"}` (`HealthStatus`). */
export const HealthStatus = z.object({ status: z.string() });

/** `GET /server_info` (`ServerInfo`). */
export const ServerInfo = z.object({
  uptime: z.number(),
  idle_time: z.number(),
  title: z.string(),
  version: z.string(),
  sdk_version: z.optional(z.string()),
  tools_version: z.optional(z.string()),
  workspace_version: z.optional(z.string()),
  build_git_sha: z.optional(z.string()),
  build_git_ref: z.optional(z.string()),
  python_version: z.optional(z.string()),
  usable_tools: z.optional(z.array(z.string())),
  runtime_idle_timeout_seconds: z.optional(z.nullable(z.number())),
  conversation_runtime: z.optional(z.enum(['local', 'docker'])),
  available_conversation_runtimes: z.optional(z.array(z.string())),
  capabilities: z.optional(z.array(z.string())),
  app_backend_ingress_url: z.optional(z.nullable(z.string())),
  max_foreground_terminal_timeout_seconds: z.optional(z.nullable(z.number())),
  docs: z.string(),
  redoc: z.string(),
});

/** `POST .../events`: a message to the agent (`SendMessageRequest`). */
export const AgentMessageRequest = SendMessageRequest;

/**
 * A client's socket frame: a message, as openhands-sdk `llm/message.py` `Message` (`role` required, so a
 * frame that is not a message is refused; `content`; and `run`, default true on a socket).
 */
export const SocketMessage = z.looseObject({
  role: z.enum(['user', 'system', 'assistant', 'tool']),
  content: SendMessageRequest.shape.content,
  run: z._default(z.boolean(), true),
});

export { AgentScript, AgentScriptStep } from './agent-script.js';

/** `POST /api/v1/conversations/{id}/pending-messages` (`PendingMessageResponse`): the message's id, whether it waits, and where (1-based). */
export const PendingMessageResponse = z.object({ id: z.string(), queued: z.boolean(), position: z.int().check(z.gte(0)) });

/** How the agent server orders a conversation search (its `ConversationSortOrder`). */
export const AgentConversationSortOrder = z.enum(['CREATED_AT', 'UPDATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT_DESC']);

/** A conversation as the agent server describes it (its `ConversationInfo`): the fields a client reads are typed, the rest pass. */
export const AgentConversationInfo = z.looseObject({
  id: z.guid(),
  agent: z.looseObject({ kind: z.string(), llm: z.looseObject({ model: z.string() }) }),
  workspace: z.looseObject({ kind: z.string(), working_dir: z.string() }),
  execution_status: ConversationExecutionStatus,
  confirmation_policy: z.looseObject({ kind: z.string() }),
  title: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});

export type AgentConversationInfo = z.output<typeof AgentConversationInfo>;

/** A page of the agent server's conversations (its `ConversationPage`). */
export const AgentConversationPage = z.object({ items: z.array(AgentConversationInfo), next_page_id: z.nullable(z.string()) });

/** `GET /api/vscode/url` (`VSCodeUrlResponse`). */
export const VSCodeUrlResponse = z.object({ url: z.nullable(z.string()) });
