/**
 * The agent server's wire shapes (`openapi/agent-server.openapi.json`, and the models of
 * openhands-sdk `openhands/sdk/event/`): events, their pages, and the agent REST bodies.
 */
import * as z from 'zod/mini';
import { SendMessageRequest } from './app-conversation.js';
import { ConversationExecutionStatus } from './common.js';
import { Event } from './sdk-events.js';

/** An event of a conversation's log: its kind's fields besides these four. */
export const AgentEvent = z.looseObject({
  kind: z.string(),
  id: z.string(),
  timestamp: z.string(),
  source: z.enum(['user', 'agent', 'environment', 'hook']),
});

export { EventKind } from './event-kind.js';

/** The newest names of the kinds older agent servers called otherwise (`domain/agent/dialect.ts`). */
const NEWEST_KIND: Readonly<Record<string, string>> = {
  ExecuteBashAction: 'TerminalAction',
  ExecuteBashObservation: 'TerminalObservation',
};

/**
 * An event as the newest dialect writes it, for the check: an older dialect's renamed kinds read
 * as their newest names, and its `tools` in the OpenAI function form (servers before 1.7.0) left
 * unchecked. The documents describe the newest dialect (the AsyncAPI one renames for older ones).
 */
function inNewestDialect(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const event = value as Record<string, unknown>;
  const renamed = (inner: unknown) => {
    const kind = (inner as { kind?: unknown } | null)?.kind;
    return typeof kind === 'string' && NEWEST_KIND[kind] ? { ...(inner as object), kind: NEWEST_KIND[kind] } : inner;
  };
  const functions = Array.isArray(event.tools) && event.tools.some((tool) => (tool as { type?: unknown } | null)?.type === 'function');
  return {
    ...event,
    ...('action' in event ? { action: renamed(event.action) } : {}),
    ...('observation' in event ? { observation: renamed(event.observation) } : {}),
    ...(functions ? { tools: [] } : {}),
  };
}

/**
 * An event of any kind, with its kind's fields (`Event`: the union of every kind, told apart by
 * `kind`). The documents and the contract check (`checkResponses`) read the union; to TypeScript
 * it is the domain's event (`AgentEvent`: its kind's fields besides the common four), which the
 * builders of `domain/agent/` fill and a test checks against the union (test/agent-server/showcase-schemas.test.ts).
 */
export const AnyEvent = z.pipe(z.transform(inNewestDialect), Event) as unknown as z.ZodMiniType<z.output<typeof AgentEvent>>;

/** A page of events (`EventPage`): each item under its kind's schema. */
export const EventPage = z.object({ items: z.array(AnyEvent), next_page_id: z.nullable(z.string()) });

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
