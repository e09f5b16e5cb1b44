/**
 * The events the agent server's socket sends, one schema per kind (openhands-sdk
 * `openhands/sdk/event/`), the actions and observations of the tools inside `ActionEvent` and
 * `ObservationEvent` (`openhands/sdk/tool/builtins/`, `openhands-tools/`), and the frames a client
 * sends. Every kind has every field, typed as the real server writes it (`sdk-events.ts`): the
 * same schemas describe the event pages of both servers' OpenAPI documents and the AsyncAPI
 * document (`surfaces/agent-server/asyncapi.ts`).
 */
import * as z from 'zod/mini';
import { AgentEvent, EventKind, SocketMessage } from './agent-server.js';
import { MetricsSnapshot } from './app-conversation.js';
import { ACTION_SCHEMAS, ClientAction, EVENT_KINDS_SCHEMAS, OBSERVATION_SCHEMAS, TOOL_SCHEMAS } from './sdk-events.js';

/** The tools' actions an `ActionEvent` carries, by kind (newest names; `domain/agent/dialect.ts` renames them for older servers), and a client tool's (`ClientAction_<name>`). */
export const AgentActions = { ...ACTION_SCHEMAS, ClientAction };

/** The tools' observations an `ObservationEvent` carries, by kind. */
export const AgentObservations = OBSERVATION_SCHEMAS;

/** The tools a `SystemPromptEvent` lists, by kind. */
export const AgentTools = TOOL_SCHEMAS;

/** Every event kind's schema, by kind. */
export const AgentEventSchemas: Readonly<Record<z.output<typeof EventKind>, z.ZodMiniType>> = EVENT_KINDS_SCHEMAS;

/** The schema of events of `kind`: its own, or (a kind the SDK does not have) the common fields with that kind. */
export function agentEventSchema(kind: string): z.ZodMiniType {
  return (AgentEventSchemas as Record<string, z.ZodMiniType>)[kind] ?? z.looseObject({ ...AgentEvent.shape, kind: z.literal(kind) });
}

/** Every event kind the socket can send (a kind added to `EventKind` is in it). */
export const socketEventKinds = (): readonly string[] => EventKind.options;

/** A client's `{"type": "auth"}` frame: the session key, when none came with the request (openhands-agent-server `sockets.py`, `_is_auth_control_message`). */
export const SocketAuthFrame = z.object({ type: z.literal('auth'), session_api_key: z.string() });

/** A client's message frame on the events socket. */
export const SocketMessageFrame = SocketMessage;

/** The bash socket's events, by kind (openhands-agent-server `models.py`: `BashCommand`, `BashOutput`; the fake's `BashError`). */
export const BashEventSchemas = {
  BashCommand: z.looseObject({ kind: z.literal('BashCommand'), id: z.string(), timestamp: z.string(), command: z.string() }),
  BashOutput: z.looseObject({
    kind: z.literal('BashOutput'),
    id: z.string(),
    timestamp: z.string(),
    command_id: z.string(),
    order: z.int(),
    exit_code: z.nullable(z.int()),
    stdout: z.nullable(z.string()),
    stderr: z.nullable(z.string()),
  }),
  BashError: z.looseObject({ kind: z.literal('BashError'), id: z.string(), timestamp: z.string(), code: z.string(), detail: z.string() }),
} as const;

/**
 * The `value` of a `ConversationStateUpdateEvent` of key `stats`: a snapshot per LLM usage id
 * (openhands-sdk `event/conversation_state.py`, `validate_value`; `llm/utils/metrics.py`,
 * `MetricsSnapshot`), as Agent Canvas reads it (`dist/utils/conversation-metrics.js`,
 * `combineUsageMetrics`).
 */
export const ConversationStatsValue = z.object({ usage_to_metrics: z.record(z.string(), MetricsSnapshot) });

/**
 * The `value` of a `ConversationStateUpdateEvent` of key `goal`: the goal loop's status
 * (openhands-agent-server `GoalStatus`, as Agent Canvas 1.20 types it:
 * `dist/types/agent-server/core/events/conversation-state-event.d.ts`, `GoalStatus`).
 */
export const GoalStatusValue = z.object({
  active: z.boolean(),
  status: z.enum(['running', 'complete', 'capped', 'interrupted']),
  iteration: z.int().check(z.gte(0)),
  max_iterations: z.int().check(z.gte(1)),
  objective: z.string(),
  verdict: z.nullable(z.object({ score: z.number(), complete: z.boolean(), missing: z.string() })),
});

/** The values a `ConversationStateUpdateEvent` carries by its `key`, where the key names a schema of its own. */
export const STATE_VALUE_SCHEMAS = { stats: ConversationStatsValue, goal: GoalStatusValue } as const;
